"""Domain errors with stable codes: the CLI prints ``message`` on one line and exits 2."""

from __future__ import annotations

import json
import re


class MjError(ValueError):
    """Bad input or an answer that cannot be given exactly. ``code`` is stable; tests assert it."""

    code = "ERR_INPUT"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.code = code or self.code


def error_line(message: str) -> str:
    """The one line the CLI prints (and the web API returns) for a domain error: escaped and bounded."""
    return "error: " + safe_text(" ".join(message.split("\n")))


UNKNOWN_TILE = "ERR_UNKNOWN_TILE"
FOURTH_COPY = "ERR_FOURTH_COPY"
HAND_SIZE = "ERR_HAND_SIZE"
NOT_A_UNIT = "ERR_NOT_A_UNIT"
BAD_BRACKET = "ERR_BAD_BRACKET"
UNKNOWN_RULES = "ERR_UNKNOWN_RULES"
BAD_CATALOGUE = "ERR_BAD_CATALOGUE"
BAD_FAVOURITE = "ERR_BAD_FAVOURITE"
BAD_WINNING_TILE = "ERR_BAD_WINNING_TILE"
UNDEFINED_SCORE = "ERR_UNDEFINED_SCORE"
BAD_DATE = "ERR_BAD_DATE"
NOT_EXACT = "ERR_NOT_EXACT"  # the solver did not prove its answer (status other than OPTIMAL)


# --- echoing input in messages ---------------------------------------------------------------------
# Input may hold anything: a carriage return that overwrites the `error:` prefix on a terminal, a lone
# surrogate that cannot be encoded, or megabytes. Every message that repeats input goes through here.

# (control and bidi characters, lone surrogates, and the invisible ones: zero-width, word joiners, the BOM; QA: a bot's
# answer after a BOM read as a valid one in its "garbage:" line)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
ECHO_LIMIT = 60  # characters of input repeated in a message
MESSAGE_LIMIT = 400  # characters of a whole one-line message


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """One printable line: cut to `limit` characters (then '…'), control characters and lone surrogates escaped."""
    cut = len(text) > limit
    text = text[:limit] if cut else text
    return _UNSAFE.sub(_escape, text) + ("…" if cut else "")


def shown(value: object, limit: int = ECHO_LIMIT) -> str:
    """A piece of input as it is repeated in a message: text as is, anything else as JSON (its repr where it is not
    JSON); then safe_text."""
    text = value if isinstance(value, str) else _short_repr(value, limit)
    return safe_text(text, limit)


def given(value: object) -> str:
    """A Python value given through the API, as a message repeats it: its type said where its text could mislead
    (the text "3" where an int was asked)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    return f"the {type(value).__name__} {shown(value)!r}" if isinstance(value, (str, bytes)) else shown(value)


def _short_repr(value: object, limit: int) -> str:
    if isinstance(value, (list, tuple, dict)) and len(value) > limit:
        return f"<{type(value).__name__} of {len(value)} items>"
    if isinstance(value, int) and value.bit_length() > 4 * limit:  # repr of a huge int is slow (and may raise)
        return f"<integer of {value.bit_length()} bits>"
    try:  # (input mostly came as JSON: null, not None)
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


SUGGEST_LIMIT = 40  # no name is longer; difflib's time grows with the square of the word's length


def close_matches(word: str, choices: list[str], n: int = 1, cutoff: float = 0.6) -> list[str]:
    """difflib.get_close_matches's answer for a "did you mean" (none for a word longer than any name),
    found faster: its full ratio is computed only for choices whose cheap upper bound (quick_ratio) can
    still enter the n best, taken in falling order of that bound (a bad-input error is start-up time)."""
    import difflib
    import heapq

    if len(word) > SUGGEST_LIMIT:
        return []
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    bounds = []
    for choice in choices:
        matcher.set_seq1(choice)
        if matcher.real_quick_ratio() >= cutoff and (bound := matcher.quick_ratio()) >= cutoff:
            bounds.append((bound, choice))
    bounds.sort(reverse=True)
    best: list[tuple[float, str]] = []  # the n largest (ratio, choice) so far, smallest first
    for bound, choice in bounds:
        if len(best) == n and bound < best[0][0]:
            break  # no choice left can beat the n-th (an equal ratio still can: ties go by the text)
        matcher.set_seq1(choice)
        score = matcher.ratio()
        if score >= cutoff:
            (heapq.heappush if len(best) < n else heapq.heappushpop)(best, (score, choice))
    return [choice for _, choice in sorted(best, reverse=True)]
