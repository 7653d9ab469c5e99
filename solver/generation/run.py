"""One run of ``mj generate``: its output, its executor, its end, whatever ends it.

Positions are tasks (their index) on any executor of solver/batch (this process, local workers, a Dask
cluster) and come back in order; each is written as one flushed line as soon as it and all before it
are known. The output is the same bytes on every executor (generate.py: each position has its own
seed). ``--output`` follows the batch policy (solver/batch/output.py): its ``.meta`` records kind,
count, seed, rules and difficulty, and ``--resume`` continues only the same run, from the first position
missing (a torn last line is dropped), so an interrupted run, even SIGKILLed, ends as the uninterrupted
one would.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from solver.api import house_files, house_record
from solver.batch.executors import Job, make_executor
from solver.batch.ordered import Stats, run_ordered
from solver.batch.output import check_meta, close_quietly, holds_output, read_meta, write_line, write_meta
from solver.batch.signals import held, stopped_text
from solver.checking.context import validate_rules
from solver.core.errors import MjError, shown
from solver.generation.difficulty import check_possible, parse_difficulty
from solver.generation.generate import ATTEMPTS_PER_POSITION, check_kind, generate_chunk, position_id, too_few


def _written(path: str, kind: str, seed: int) -> tuple[int, int]:
    """(positions already in the file, the byte offset after the last complete one). MjError if a
    complete line is not the next position of this run."""
    done = keep = 0
    with open(path, "rb") as handle:
        for raw in iter(handle.readline, b""):
            if not raw.endswith(b"\n"):
                break  # torn by a kill: written again
            try:
                obj = json.loads(raw)
            except ValueError:
                obj = None
            if not isinstance(obj, dict) or obj.get("id") != position_id(kind, seed, done):
                raise MjError(f"{shown(path)} line {done + 1} is not position {done} of this run; cannot resume it")
            done += 1
            keep += len(raw)
    return done, keep


class GenerateRun:
    """Opens the output (MjError for a usage problem), builds the positions on the executor, writes them."""

    def __init__(self, kind: str, count: int, seed: int, rules: str, difficulty: str | None, output: str | None,
                 workers: int, cluster: str | None = None, resume: bool = False, force: bool = False,
                 stdout: IO[str] | None = None, attempts: int = ATTEMPTS_PER_POSITION, catalogue: tuple[str, ...] = ()):
        check_kind(kind, count)
        self.level = parse_difficulty(kind, difficulty)
        house = house_files(catalogue)
        ruleset = validate_rules(rules, house)
        check_possible(kind, self.level, ruleset)
        if (resume or force) and output is None:
            raise MjError("--resume and --force apply to --output FILE; give one")
        self.kind, self.count, self.seed, self.output, self.workers = kind, count, seed, output, workers
        self.job = Job(generate_chunk, (kind, seed, rules, self.level.label, attempts, house))
        self.attempts = attempts
        self.stats = Stats()
        self.start = self.written = 0
        self.executor = None  # a cluster is reached at once (a bad address is a usage error); local ones later
        self.sink = stdout or sys.stdout
        self._file: IO[str] | None = None
        if output is not None:  # (an empty one too: refused by holds_output, not taken for none)
            self._open(output, resume, force, {"command": "generate", "kind": kind, "count": count, "seed": seed,
                                               "rules": rules, "difficulty": self.level.label,
                                               **house_record(house, ruleset)})
        try:
            if cluster:
                self.executor = make_executor(workers, self.job, cluster)
        except BaseException:
            self.close()
            raise

    def _open(self, output: str, resume: bool, force: bool, record: dict[str, Any]) -> None:
        try:
            if holds_output(output, None, resume, force):
                check_meta(output, record, read_meta(output))
                self.start, keep = _written(output, self.kind, self.seed)
                self.sink = self._file = open(output, "r+", encoding="utf-8")
                self._file.truncate(keep)
                self._file.seek(keep)
            else:
                write_meta(output, record)
                self.sink = self._file = open(output, "w", encoding="utf-8")
        except OSError as exc:
            raise MjError(f"cannot open {shown(output)}: {exc.strerror}") from None

    def _lost(self, index: int) -> None:
        raise MjError(f"a worker died twice on position {index}; the positions before it are written: "
                      "rerun with --resume")

    def positions(self) -> Iterator[dict[str, Any]]:
        """Each new position, in order, already written and flushed."""
        left = max(0, self.count - self.start)
        executor = self.executor or make_executor(max(1, min(self.workers, left)), self.job)
        results = run_ordered(iter(range(self.start, self.count)), executor, self.stats, self._lost, sizes=(1,))
        finished = False
        try:
            for index, found in zip(range(self.start, self.count), results):
                if found is None:
                    raise too_few(self.kind, index, self.count, self.level, self.attempts)
                with held():  # the line and its count go together, whenever a stop comes
                    write_line(self.sink, found)
                    self.written += 1
                yield found
            finished = True
        finally:
            results.close()
            if executor is not self.executor:
                executor.close(abort=not finished)

    def notes(self) -> list[str]:
        return [f"{self.stats.rerun} position(s) re-run after a worker died"] if self.stats.rerun else []

    def stopped_text(self) -> str:
        return stopped_text(f"{self.start + self.written} of {self.count} positions", self.output)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.close()
            self.executor = None
        close_quietly(self._file)
        self._file = None
