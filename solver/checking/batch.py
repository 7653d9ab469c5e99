"""Check many claims: a stream of (line number, line) tasks in, results out in input order.

Ordering, bounding and re-running are solver/batch/ordered.py's (``run_ordered``), shared with ``mj
generate``; how a chunk is executed is solver/batch/executors.py's. A claim whose worker died twice is
an ``error`` verdict (``worker_lost``). ``record`` writes each result as one flushed JSON line;
``Summary`` (summary.py) counts verdicts by field and by reason; resume.py finds what an earlier run
already wrote.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from solver.batch.executors import make_executor
from solver.batch.ordered import ATTEMPTS, CHUNK_SIZES, Stats, run_ordered
from solver.batch.output import write_line
from solver.checking.check import failed
from solver.checking.intake import blank, numbered_lines
from solver.checking.summary import Summary
from solver.checking.worker import Task, check_job
from solver.core.rules import DEFAULT_RULES

__all__ = ["CHUNK_SIZES", "Stats", "Summary", "check_lines", "count_lines", "record", "run_ordered", "tasks_of"]


def tasks_of(lines: IO[bytes] | Iterable[str | bytes], skip: Callable[[int], bool] = lambda n: False
             ) -> Iterator[Task]:
    """(line number, line) for every non-blank line not skipped; blank lines keep their number."""
    for line_no, line in numbered_lines(lines):
        if not skip(line_no) and not blank(line):
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


def count_lines(path: str) -> int:
    """Lines in a file, read in blocks: a total for a progress bar, cheap next to checking them."""
    with open(path, "rb") as handle:
        return sum(block.count(b"\n") for block in iter(lambda: handle.read(1 << 20), b""))
