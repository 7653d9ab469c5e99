"""A stream of tasks in, results out in input order: the part every executor and both commands share.

``run_ordered`` groups tasks into chunks (small first, so the first result comes quickly; then sized by
the pace of the results), keeps at most
``executor.slots`` chunks in flight (constant memory on an input of any length), yields results in
input order as they come, and re-runs a chunk whose worker died: once whole, then split into single
tasks, and a task lost twice is given to ``lost`` (``mj check`` makes it an ``error`` line; ``mj
generate`` stops with an error, since its output is fixed by its seed). ``Stats`` counts the tasks
re-run, for the summary.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from solver.batch.job import WorkerLost, completed

CHUNK_SIZES = (1, 2, 4, 8, 16, 32, 64)  # then 64 on: the first results come at once, the rest in cheap batches
CHUNK_SECONDS = 0.05  # but no chunk bigger than this much of the executor's work, at the rate seen so far
ATTEMPTS = 2  # a chunk (then a task) whose worker dies this many times is given up


class Pace:
    """The rate at which results come (tasks a second, from the first result on): it sizes the chunks, so
    that a chunk of light tasks is big (a message and a thread switch cost the parent about 0.4 ms, whatever
    the chunk holds) and a chunk of heavy ones small (no long wait for the next result, no idle worker at
    the end)."""

    def __init__(self) -> None:
        self.first = 0.0
        self.done = 0

    def tick(self, tasks: int) -> None:
        if not self.first:
            self.first = time.monotonic()
        else:
            self.done += tasks

    def cap(self) -> int | None:
        elapsed = time.monotonic() - self.first if self.first else 0.0
        return max(1, int(self.done / elapsed * CHUNK_SECONDS)) if self.done and elapsed > 0.01 else None


def chunks_of(tasks: Iterator[Any], sizes: Iterable[int] = CHUNK_SIZES, pace: Pace | None = None
              ) -> Iterator[list[Any]]:
    sizes = list(sizes)
    n = 0
    while True:
        size = sizes[min(n, len(sizes) - 1)]
        cap = pace.cap() if pace else None
        chunk = [task for _, task in zip(range(size if cap is None else min(size, cap)), tasks)]
        if not chunk:
            return
        yield chunk
        n += 1


class Stats:
    """What the runner did besides the work: tasks re-run after a worker died."""

    def __init__(self) -> None:
        self.lost = 0  # tasks whose chunk failed with WorkerLost and went again
        self.given_back = 0  # tasks an executor ran again on its own after a death (the cluster's)

    @property
    def rerun(self) -> int:
        return self.lost + self.given_back


def run_ordered(tasks: Iterator[Any], executor: Any, stats: Stats | None = None,
                lost: Callable[[Any], Any] | None = None, sizes: Iterable[int] = CHUNK_SIZES) -> Iterator[Any]:
    """Results of every task in input order, at most ``executor.slots`` chunks in flight.

    ``lost(task)`` is the result of a task whose worker died ``ATTEMPTS`` times (or it raises). Closing
    the generator leaves the executor to its owner.
    """
    for batch in run_batches(tasks, executor, stats, lost, sizes):
        yield from batch


def run_batches(tasks: Iterator[Any], executor: Any, stats: Stats | None = None,
                lost: Callable[[Any], Any] | None = None, sizes: Iterable[int] = CHUNK_SIZES) -> Iterator[list[Any]]:
    """As run_ordered, a list a chunk: the results that came together, for a writer that flushes once a chunk."""
    stats = stats or Stats()
    pace = Pace()
    chunks = chunks_of(tasks, sizes, pace)
    pending: deque[list[Any]] = deque()  # [chunk, future, attempts], in input order

    def refill() -> None:
        while len(pending) < executor.slots and (chunk := next(chunks, None)) is not None:
            pending.append([chunk, executor.submit(chunk), 1])

    refill()
    while pending:
        chunk, future, attempts = pending[0]
        try:
            results = future.result()
        except WorkerLost:
            stats.lost += len(chunk)
            pending.popleft()
            if attempts < ATTEMPTS:
                pending.appendleft([chunk, executor.submit(chunk), attempts + 1])
            elif len(chunk) > 1:  # find the task that kills workers: the others still get done
                pending.extendleft(reversed([[[task], executor.submit([task]), 1] for task in chunk]))
            else:
                if lost is None:
                    raise
                pending.appendleft([chunk, completed([lost(chunk[0])]), ATTEMPTS])
            continue
        pending.popleft()
        stats.given_back = getattr(executor, "given_back", 0)  # re-run by the executor itself, uncharged
        pace.tick(len(results))
        yield results
        refill()
