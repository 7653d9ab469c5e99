"""The results file of ``mj check --output``: never written onto the input, never truncated by surprise,
and continued by ``--resume``.

Every result line carries its input line number (``"line"``). The sidecar ``<output>.meta``
(solver/batch/output.py) records the input and the rule set; a resume with other ones is refused.
A resumed run reads the lines an earlier
run wrote, counts them into the summary, drops a torn last line and the old summary line, and checks
only the input lines not answered yet: an interrupted run of any size loses nothing and repeats nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any

from solver.checking.context import VERDICTS
from solver.core.errors import MjError, shown


class Answered:
    """The input lines an earlier run answered: a watermark (a run writes its results in input order, so every
    line up to the last one answered was; constant memory)."""

    def __init__(self) -> None:
        self.last = 0
        self.count = 0

    def add(self, line_no: int) -> None:
        if line_no <= self.last:
            raise ValueError(f"answers input line {line_no} after line {self.last}")
        self.count += 1
        self.last = line_no

    def __call__(self, line_no: int) -> bool:
        return line_no <= self.last


def _is_result(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("line"), int) and obj.get("verdict") in VERDICTS


def open_results(path: str, resuming: bool, seen: Callable[[dict[str, Any]], Any] = lambda result: None
                 ) -> tuple[IO[str], Answered]:
    """The results file opened for writing (``resuming``: for appending), and the lines it already answers.

    Which files may be written is solver/batch/output.py's (``holds_output``). Resuming, each earlier
    result is passed to ``seen`` (the summary).
    """
    answered = Answered()
    try:
        if not resuming:
            return open(path, "w", encoding="utf-8"), answered
        keep = _read_results(path, answered, seen)
        stream = open(path, "r+", encoding="utf-8")
        stream.truncate(keep)  # a torn last line and the old summary line go
        stream.seek(keep)
        return stream, answered
    except OSError as exc:
        raise MjError(f"cannot open {shown(path)}: {exc.strerror}") from None


def _read_results(path: str, answered: Answered, seen: Callable[[dict[str, Any]], Any]) -> int:
    """Feed the earlier results to ``answered`` and ``seen``; the byte offset after the last complete result."""
    keep = 0
    with open(path, "rb") as handle:
        for number, raw in enumerate(iter(handle.readline, b""), start=1):
            try:
                obj = json.loads(raw) if raw.endswith(b"\n") else None
            except ValueError:
                obj = None
            if _is_result(obj):
                try:
                    answered.add(obj["line"])
                except ValueError as exc:  # (repeated or out of order: no run of mj check wrote it)
                    raise MjError(f"{shown(path)} line {number} {exc}: not as a run of mj check writes its "
                                  "results; cannot resume it") from None
                seen(obj)
                keep += len(raw)
                continue
            if handle.read(1):  # not the last line: this is not a file a run of mj check wrote
                raise MjError(f"{shown(path)} line {number} is not a result of mj check; cannot resume it")
            break  # a torn last line, or the summary of a finished run
    return keep
