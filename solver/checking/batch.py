"""Check many claims: streamed through worker processes, written as produced, summarised.

``check_lines`` streams a file's lines through worker processes (ordered ``imap``, bounded window:
constant memory) and yields results as they come; ``record`` writes each result as one flushed
JSON line; ``Summary`` counts verdicts by field and by reason.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import IO, Any

from solver.checking.check import CLAIM_FIELDS, LABELS, VERDICTS, check_claim
from solver.core.rules import DEFAULT_RULES


def _work(task: tuple[int, Any, str]) -> dict[str, Any]:
    line_no, text, default_rules = task
    return check_claim(text, line_no, default_rules)


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the pool


def _tasks(lines: Iterable[str | bytes], default_rules: str) -> Iterator[tuple[int, Any, str]]:
    for line_no, text in enumerate(lines, start=1):
        if text.strip():  # blank lines are skipped (they keep their number)
            yield line_no, text, default_rules


def check_lines(lines: Iterable[str | bytes], workers: int | None = None, default_rules: str = DEFAULT_RULES,
                chunksize: int = 4) -> Iterator[dict[str, Any]]:
    """Check JSON Lines claims, yielding one result per non-blank line, in input order, as they are ready.

    workers None: every core. Lines are read lazily and at most a small window of them is in flight,
    so memory does not grow with the input. Closing the generator stops the workers. Workers are
    spawned (each builds its own models: CP-SAT models cannot be pickled), so a script calling this
    with workers > 1 needs the usual ``if __name__ == "__main__":`` guard.
    """
    workers = workers or os.cpu_count() or 1
    tasks = _tasks(lines, default_rules)
    if workers <= 1:
        for task in tasks:
            yield _work(task)
        return
    window = threading.Semaphore(workers * chunksize * 4)
    stop = threading.Event()

    def feed() -> Iterator[tuple[int, Any, str]]:  # runs in the pool's task thread
        for task in tasks:
            while not window.acquire(timeout=0.1):
                if stop.is_set():
                    return
            if stop.is_set():
                return
            yield task

    # spawn: workers start clean (no CP-SAT state inherited) and build their own models
    pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_quiet_worker)
    try:
        for result in pool.imap(_work, feed(), chunksize):
            window.release()
            yield result
        pool.close()
        pool.join()
    finally:
        stop.set()
        pool.terminate()


def record(results: Iterable[dict[str, Any]], stream: IO[str]) -> Iterator[dict[str, Any]]:
    """Write each result as one JSON line, flushed at once (an interrupted run keeps every line), and pass it on."""
    for result in results:
        stream.write(json.dumps(result, ensure_ascii=False) + "\n")
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
