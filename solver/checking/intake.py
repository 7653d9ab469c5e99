"""The checker's input boundary: every claim line passes here before anything else reads it.

A claims file is untrusted: a line may be megabytes long, nested thousands deep, hold a number of
thousands of digits, ``NaN``, or text that is not UTF-8. Each of these is refused here, cheaply and
before the deep work, as a reason (code and text) that becomes the line's ``invalid`` verdict; the
run goes on. The limits below are documented in docs/checker.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any

from solver.core.errors import shown

MAX_LINE_BYTES = 1 << 16  # a real claim (13 tiles, 20 exchanges, a dozen waits) is a few KB
MAX_DEPTH = 16  # a claim nests 4 deep at most ({discard: {accept: [{...}]}})
MAX_DIGITS = 40  # digits (and other characters) of one number
MAX_HAND_CHARS = 1000  # a hand in the notation: 13 names and brackets
MAX_HAND_ITEMS = 40  # a hand as a list: 13 tiles and called units

# A JSON string token (the closing quote optional, so an unterminated string cannot make the scan
# backtrack) or a bracket: enough to measure nesting outside strings in one linear pass.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)


class Rejected(ValueError):
    """A line refused at the boundary: ``code`` is the reason code, the message its text."""

    def __init__(self, code: str, text: str):
        super().__init__(text)
        self.code = code


def numbered_lines(source: IO[bytes] | Iterable[str | bytes], limit: int = MAX_LINE_BYTES
                   ) -> Iterator[tuple[int, str | bytes | int]]:
    """(line number, line) for every line; an over-long line comes as its length in bytes instead.

    A binary stream is read with readline(limit): an over-long line is skipped in blocks, never held
    whole, so memory stays bounded whatever the input.
    """
    if not hasattr(source, "readline"):
        for line_no, line in enumerate(source, start=1):
            yield line_no, (len(line) if len(line) > limit else line)
        return
    line_no = 0
    while line := source.readline(limit + 1):
        line_no += 1
        if len(line) > limit and not line.endswith(b"\n"):
            size = len(line)
            while line and not line.endswith(b"\n"):
                line = source.readline(1 << 20)
                size += len(line)
            yield line_no, size
        else:
            yield line_no, line


def decode(line: str | bytes | int) -> str:
    """The text of a line as numbered_lines gives it; raises Rejected for an over-long or non-UTF-8 line."""
    if isinstance(line, int):
        raise Rejected("too_long", f"line of {line} bytes; the limit is {MAX_LINE_BYTES}")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Rejected("bad_encoding", f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    return line.lstrip("\ufeff").rstrip("\r\n")  # (its line break off: a column at the end is that column)


def blank(line: str | bytes | int) -> bool:
    """Nothing but white space (and a BOM): skipped, its number kept."""
    if isinstance(line, int):
        return False
    return not (line.lstrip(b"\xef\xbb\xbf") if isinstance(line, bytes) else line.lstrip("\ufeff")).strip()


def _constant(name: str) -> Any:
    raise Rejected("bad_json", f"{name} is not a JSON number")


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise Rejected("too_long", f"a number of {len(text)} digits; the limit is {MAX_DIGITS}")
    return int(text)


def _float(text: str) -> float:
    value = float(text) if len(text) <= MAX_DIGITS else math.inf
    if not math.isfinite(value):
        raise Rejected("bad_json", f"number {shown(text)} is out of range")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: a repeated key is not judged on whichever value came last."""
    found = dict(pairs)
    if len(found) < len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise Rejected("bad_json", f"key {shown(twice)} is given twice")
    return found


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_int=_int, parse_float=_float, object_pairs_hook=_object)


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text, strings skipped; linear time."""
    level = deepest = 0
    for token in _TOKENS.findall(text):
        if token in "[{":
            level += 1
            deepest = max(deepest, level)
        elif token in "]}":
            level -= 1
    return deepest


def parse(text: str) -> Any:
    """Strict JSON (no NaN or Infinity, bounded numbers and nesting); raises Rejected."""
    if text.count("[") + text.count("{") > MAX_DEPTH and depth(text) > MAX_DEPTH:
        raise Rejected("too_deep", f"nested more than {MAX_DEPTH} deep")
    try:
        return _DECODER.decode(text)
    except Rejected:
        raise
    except json.JSONDecodeError as exc:
        raise Rejected("bad_json", f"bad JSON: {exc.msg} (column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # whatever else a hostile line finds in the decoder
        raise Rejected("bad_json", f"bad JSON: {shown(str(exc))}") from None


def check_sizes(claim: dict[str, Any]) -> None:
    """Bounds on the parts that drive the work: the hand. Raises Rejected."""
    hand = claim.get("hand")
    if isinstance(hand, str) and len(hand) > MAX_HAND_CHARS:
        raise Rejected("too_long", f"a hand of {len(hand)} characters; the limit is {MAX_HAND_CHARS}")
    if isinstance(hand, list) and len(hand) > MAX_HAND_ITEMS:
        raise Rejected("too_long", f"a hand of {len(hand)} items; the limit is {MAX_HAND_ITEMS}")


def read_claim(line: str | bytes | int | dict[str, Any]) -> dict[str, Any]:
    """A claim object from a line (or a dict already parsed), within every limit; raises Rejected."""
    claim = line if isinstance(line, dict) else parse(decode(line))
    if not isinstance(claim, dict):
        kind = {type(None): "null", bool: "a boolean", int: "a number", float: "a number", str: "a string",
                list: "an array"}.get(type(claim), type(claim).__name__)
        raise Rejected("not_an_object", f"a claim is a JSON object, not {kind}")
    check_sizes(claim)
    return claim


def echo_id(value: Any) -> Any:
    """A claim's id as results repeat it: kept exactly when short, shortened (as text) otherwise."""
    if value is None or isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= 200):
        return value
    return shown(value, 200) if isinstance(value, str) else shown(json.dumps(value, ensure_ascii=False), 200)
