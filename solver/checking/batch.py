"""Check many claims: a stream of (line number, line) tasks in, results out in input order.

``run_ordered`` is the part every executor shares: it groups tasks into chunks (small first, so the
first result comes quickly), keeps at most ``executor.slots`` chunks in flight (constant memory on an
input of any length), yields results in input order as they come, and re-runs a chunk whose worker
died (split into single claims the second time; a claim lost twice is an ``error`` verdict). How a chunk
is executed is executors.py's. ``record`` writes each result as one flushed JSON line; ``Summary``
counts verdicts by field and by reason; resume.py finds what an earlier run already wrote.
"""

from __future__ import annotations

import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from solver.checking.check import CLAIM_FIELDS, LABELS, VERDICTS, failed
from solver.checking.executors import WorkerLost, completed, make_executor
from solver.checking.intake import numbered_lines
from solver.checking.worker import Task
from solver.core.rules import DEFAULT_RULES
from solver.serialize import dumps

CHUNK_SIZES = (1, 2, 4, 8, 16)  # then 16 on: the first results come at once, the rest in cheap batches
ATTEMPTS = 2  # a chunk (then a claim) whose worker dies this many times is given up


def tasks_of(lines: IO[bytes] | Iterable[str | bytes], skip: Callable[[int], bool] = lambda n: False
             ) -> Iterator[Task]:
    """(line number, line) for every non-blank line not skipped; blank lines keep their number."""
    for line_no, line in numbered_lines(lines):
        if not skip(line_no) and (isinstance(line, int) or line.strip()):
            yield line_no, line


def chunks_of(tasks: Iterator[Task], sizes: Iterable[int] = CHUNK_SIZES) -> Iterator[list[Task]]:
    sizes = list(sizes)
    n = 0
    while True:
        size = sizes[min(n, len(sizes) - 1)]
        chunk = [task for _, task in zip(range(size), tasks)]
        if not chunk:
            return
        yield chunk
        n += 1


class Stats:
    """What the runner did besides checking: chunks re-run after a worker died."""

    def __init__(self) -> None:
        self.rerun_claims = 0


def run_ordered(tasks: Iterator[Task], executor: Any, stats: Stats | None = None) -> Iterator[dict[str, Any]]:
    """Results of every task in input order, at most ``executor.slots`` chunks in flight.

    Closing the generator leaves the executor to its owner (check_lines closes it).
    """
    stats = stats or Stats()
    chunks = chunks_of(tasks)
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
            stats.rerun_claims += len(chunk)
            pending.popleft()
            if attempts < ATTEMPTS:
                pending.appendleft([chunk, executor.submit(chunk), attempts + 1])
            elif len(chunk) > 1:  # find the claim that kills workers: the others still get checked
                pending.extendleft(reversed([[[task], executor.submit([task]), 1] for task in chunk]))
            else:
                pending.appendleft([chunk, completed([failed(chunk[0][0], "error", "worker_lost",
                                                          f"the worker died on it {ATTEMPTS} times")]), ATTEMPTS])
            continue
        pending.popleft()
        yield from results
        refill()


def check_lines(lines: IO[bytes] | Iterable[str | bytes], workers: int | None = None,
                default_rules: str = DEFAULT_RULES, skip: Callable[[int], bool] = lambda n: False,
                stats: Stats | None = None, executor: Any = None) -> Iterator[dict[str, Any]]:
    """Check JSON Lines claims, yielding one result per non-blank line, in input order, as they are ready.

    workers None: every core; 1 checks in this process. Lines are read lazily and a bounded number are in
    flight, so memory does not grow with the input. ``skip(line_no)`` leaves out lines already answered
    (a resumed run). Closing the generator (or an interrupt) stops the workers at once.
    """
    own = executor is None
    executor = executor or make_executor(workers or os.cpu_count() or 1, default_rules)
    finished = False
    try:
        yield from run_ordered(tasks_of(lines, skip), executor, stats)
        finished = True
    finally:
        if own:
            executor.close(abort=not finished)


def record(results: Iterable[dict[str, Any]], stream: IO[str]) -> Iterator[dict[str, Any]]:
    """Write each result as one JSON line, flushed at once (an interrupted run keeps every line), and pass it on."""
    for result in results:
        stream.write(dumps(result) + "\n")
        stream.flush()
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
