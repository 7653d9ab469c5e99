"""Check many claims: a stream of (line number, line) tasks in, results out in input order.

Ordering, bounding and re-running are solver/batch/ordered.py's (``run_ordered``), shared with ``mj
generate``; how a chunk is executed is solver/batch/executors.py's. A claim whose worker died twice is
an ``error`` verdict (``worker_lost``). ``record`` writes each result as one flushed JSON line;
``Summary`` counts verdicts by field and by reason; resume.py finds what an earlier run already wrote.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from solver.batch.executors import make_executor
from solver.batch.ordered import ATTEMPTS, CHUNK_SIZES, Stats, run_ordered
from solver.batch.output import write_line
from solver.checking.check import CLAIM_FIELDS, LABELS, VERDICTS, failed
from solver.checking.intake import numbered_lines
from solver.checking.worker import Task, check_job
from solver.core.rules import DEFAULT_RULES

__all__ = ["CHUNK_SIZES", "Stats", "Summary", "check_lines", "count_lines", "record", "run_ordered", "tasks_of"]


def tasks_of(lines: IO[bytes] | Iterable[str | bytes], skip: Callable[[int], bool] = lambda n: False
             ) -> Iterator[Task]:
    """(line number, line) for every non-blank line not skipped; blank lines keep their number."""
    for line_no, line in numbered_lines(lines):
        if not skip(line_no) and (isinstance(line, int) or line.strip()):
            yield line_no, line


def check_lines(lines: IO[bytes] | Iterable[str | bytes], workers: int | None = None,
                default_rules: str = DEFAULT_RULES, skip: Callable[[int], bool] = lambda n: False,
                stats: Stats | None = None, executor: Any = None) -> Iterator[dict[str, Any]]:
    """Check JSON Lines claims, yielding one result per non-blank line, in input order, as they are ready.

    workers None: every core; 1 checks in this process. Lines are read lazily and a bounded number are in
    flight, so memory does not grow with the input. ``skip(line_no)`` leaves out lines already answered
    (a resumed run). Closing the generator (or an interrupt) stops the workers at once.
    """
    own = executor is None
    executor = executor or make_executor(workers or os.cpu_count() or 1, check_job(default_rules))
    finished = False
    try:
        yield from run_ordered(tasks_of(lines, skip), executor, stats, lost_claim)
        finished = True
    finally:
        if own:
            executor.close(abort=not finished)


def lost_claim(task: Task) -> dict[str, Any]:
    return failed(task[0], "error", "worker_lost", f"the worker died on it {ATTEMPTS} times")


def record(results: Iterable[dict[str, Any]], stream: IO[str]) -> Iterator[dict[str, Any]]:
    """Write each result as one JSON line, flushed at once (an interrupted run keeps every line), and pass it on."""
    for result in results:
        write_line(stream, result)
        yield result


# --- summary ---------------------------------------------------------------------------------------


class Summary:
    """Counts by verdict, by field and verdict, and by field and reason code (with a first example)."""

    def __init__(self) -> None:
        self.claims = 0
        self.verdicts: Counter[str] = Counter()
        self.fields: dict[str, Counter[str]] = {}
        self.reasons: dict[tuple[str, str], dict[str, Any]] = {}

    def make_reason(self, field: str, reason: dict[str, str], claim_id: Any) -> None:
        key = (field, reason["code"])
        if key not in self.reasons:
            self.reasons[key] = {"field": field, "code": reason["code"],
                                 "label": LABELS.get(reason["code"], reason["code"]),
                                 "count": 0, "example": {"id": claim_id, "text": reason["text"]}}
        self.reasons[key]["count"] += 1

    def add(self, result: dict[str, Any]) -> dict[str, Any]:
        self.claims += 1
        self.verdicts[result["verdict"]] += 1
        claim_id = result.get("id")
        if "error" in result:
            self.make_reason("claim", result["error"], claim_id)
        for problem in result.get("problems", ()):
            self.make_reason("claim", problem, claim_id)
        for name, detail in result.get("fields", {}).items():
            self.fields.setdefault(name, Counter())[detail["verdict"]] += 1
            for reason in detail.get("reasons", ()):
                self.make_reason(name, reason, claim_id)
        return result

    @property
    def all_correct(self) -> bool:
        return self.claims == self.verdicts["correct"]

    def reason_rows(self) -> list[dict[str, Any]]:
        order = {name: n for n, name in enumerate(("claim",) + CLAIM_FIELDS)}
        return sorted(self.reasons.values(), key=lambda r: (order.get(r["field"], 99), -r["count"], r["code"]))

    def to_dict(self) -> dict[str, Any]:
        return {"claims": self.claims, "verdicts": {v: self.verdicts[v] for v in VERDICTS},
                "fields": {name: {v: c[v] for v in VERDICTS} for name, c in
                           sorted(self.fields.items(), key=lambda kv: CLAIM_FIELDS.index(kv[0]))},
                "reasons": self.reason_rows()}


def count_lines(path: str) -> int:
    """Lines in a file, read in blocks: a total for a progress bar, cheap next to checking them."""
    with open(path, "rb") as handle:
        return sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))
