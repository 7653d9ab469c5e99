"""One run of ``mj tournament``: its games on a batch executor, its output file, its summary, whatever ends it.

Games are tasks (their index) on any executor of solver/batch (this process, local worker processes, a
Dask cluster) and come back in order; each is written as one flushed JSON line as soon as it and every
game before it are known, so the file is the same bytes whatever --jobs (a game depends only on its
index and the settings). ``--output`` follows the batch policy (solver/batch/output.py): its ``.meta``
records the settings, ``--resume`` continues only the same tournament from the first game missing (a
line torn by a kill is dropped and played again), so a run killed even by SIGKILL ends as the
uninterrupted one would: no game lost, none counted twice. The summary is computed from the file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import IO, Any

from game.engine import check_playable
from game.log import dumps
from game.tournament import Settings, Tally, check_line, check_players, evaluator, play_games

LOG_NAME = re.compile(r"game-\d{6,}\.jsonl(\.part)?")  # (game.tournament.log_path's)
from solver.batch.executors import Job, make_executor
from solver.batch.ordered import Stats, run_batches
from solver.batch.output import check_meta, close_quietly, holds_output, read_meta, write_meta, write_text
from solver.batch.signals import held, stopped_text
from solver.core.errors import MjError, shown


def read_games(path: str, settings: Settings) -> tuple[list[dict[str, Any]], int]:
    """The complete game lines of an output file, checked to be this tournament's games in order, and the
    byte offset after the last of them (a torn last line, from a kill, is not counted)."""
    games, keep = [], 0
    try:
        with open(path, "rb") as handle:
            for raw in iter(handle.readline, b""):
                if not raw.endswith(b"\n"):
                    break
                try:
                    line = json.loads(raw)
                except ValueError:
                    line = None
                if len(games) >= settings.games:
                    raise MjError(f"{shown(path)} holds more than the {settings.games} games of this tournament")
                try:
                    check_line(line, len(games), settings)
                except MjError as exc:
                    raise MjError(f"{shown(path)} {exc}; cannot resume it") from None
                games.append(line)
                keep += len(raw)
    except OSError as exc:
        raise MjError(f"cannot read {shown(path)}: {exc.strerror}") from None
    return games, keep


def open_logs(logs: str, resume: bool, force: bool) -> None:
    """--logs DIR, made if missing. Another run's logs in it are refused (QA: a second tournament overwrote some of
    the first's and left the rest, mixed); --resume continues this run's, --force removes them first."""
    if os.path.exists(logs) and not os.path.isdir(logs):
        raise MjError(f"--logs {shown(logs)} is not a directory")
    try:
        os.makedirs(logs, exist_ok=True)
        held = sorted(name for name in os.listdir(logs) if LOG_NAME.fullmatch(name))
    except OSError as exc:
        raise MjError(f"--logs {shown(logs)}: {exc.strerror}") from None
    if held and force:
        for name in held:
            os.remove(os.path.join(logs, name))
    elif held and not resume:
        raise MjError(f"--logs {shown(logs)} already holds {len(held)} game log(s) of a run: --resume continues that "
                      "run, --force (with --output) removes them first, or give another directory")


class TournamentRun:
    """Opens the output (MjError for a usage problem), plays the games on the executor, writes them."""

    def __init__(self, settings: Settings, output: str | None = None, jobs: int = 1, cluster: str | None = None,
                 resume: bool = False, force: bool = False, logs: str | None = None):
        check_players(list(settings.players))
        if (resume or force) and output is None:
            raise MjError("--resume and --force apply to --output FILE; give one")
        if logs is not None:  # (a worker's own disk on a cluster: made and checked here only)
            open_logs(logs, resume, force)
        self.settings, self.output = settings, output
        self.job = Job(play_games, (settings, logs))
        self.stats = Stats()
        self.tally = Tally(settings)  # without a file: the games as they come
        self.start = self.written = 0
        self.finished = False
        self.executor = None
        self._file: IO[str] | None = None
        # an unknown rule set or a bad catalogue is a usage error; forked workers inherit the evaluator built
        check_playable(evaluator(settings).rules)
        try:
            if output is not None:  # (an empty one too: refused by holds_output, not taken for none)
                self._open(output, resume, force)
            if self.left:  # made last, before any thread: local workers are forked from this process
                self.executor = make_executor(max(1, min(jobs, self.left)), self.job, cluster)
        except BaseException:
            self.close()
            raise

    @property
    def left(self) -> int:
        return self.settings.games - self.start

    def _open(self, output: str, resume: bool, force: bool) -> None:
        record = self.settings.record()
        try:
            if holds_output(output, None, resume, force):
                meta = read_meta(output)
                # more games than that run asked for: its games are the first ones of this one (a game depends on
                # its index and the settings alone), so it goes on to the new count (QA: a 24-game run could not grow)
                earlier = meta.get("games")
                grows = type(earlier) is int and 0 < earlier < self.settings.games
                check_meta(output, {**record, "games": earlier} if grows else record, meta)
                if grows:
                    write_meta(output, record)
                games, keep = read_games(output, self.settings)
                self.start = len(games)
                self._file = open(output, "r+", encoding="utf-8")
                self._file.truncate(keep)
                self._file.seek(keep)
            else:
                write_meta(output, record)
                self._file = open(output, "w", encoding="utf-8")
        except OSError as exc:
            raise MjError(f"cannot open {shown(output)}: {exc.strerror}") from None

    def _lost(self, index: int) -> dict[str, Any]:
        raise MjError(f"a worker died twice on game {index}; the games before it are written: rerun with --resume")

    def games(self) -> Iterator[list[dict[str, Any]]]:
        """The new games in order, a batch at a time (what came back together), each batch already written
        to the output and counted."""
        if self.executor is None:
            self.finished = True
            return
        batches = run_batches(iter(range(self.start, self.settings.games)), self.executor, self.stats, self._lost)
        try:
            for batch in batches:
                failed = next((line for line in batch if "error" in line), None)
                if failed is not None:  # the games before it are written: a resume starts there
                    batch = batch[:batch.index(failed)]
                with held():  # the lines and their count go together, whenever a stop comes
                    if batch and self._file is not None:
                        write_text(self._file, "\n".join(dumps(line) for line in batch))
                    for line in batch:
                        self.tally.add(line)
                    self.written += len(batch)
                if failed is not None:
                    raise MjError(f"game {failed['game']}: {failed['error']}")
                yield batch
            self.finished = True
        finally:
            batches.close()

    def summary(self) -> dict[str, Any]:
        """The tournament's summary, from the output file when there is one (what it holds is what counts)."""
        if self.output is None:
            return self.tally.summary()
        if self._file is not None:
            self._file.flush()
        games, _ = read_games(self.output, self.settings)
        tally = Tally(self.settings)
        for line in games:
            tally.add(line)
        return tally.summary()

    def notes(self) -> list[str]:
        return [f"{self.stats.rerun} game(s) re-run after a worker died"] if self.stats.rerun else []

    def stopped_text(self) -> str:
        return stopped_text(f"{self.start + self.written} of {self.settings.games} games", self.output)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.close(abort=not self.finished)  # stopped: at once, dropping the games in flight
            self.executor = None
        close_quietly(self._file)
        self._file = None
