"""Numbers typed by people, read one way for the CLI and the server alike: ASCII digits only.

Python's int() and str.isdigit() take other scripts' digits (int("٣") == 3, "²".isdigit() but int("²")
fails), spaces, signs and underscores; a parameter here is plain digits (and for a decimal one point),
within its bounds, and anything else is one MjError line naming the parameter.
"""

from __future__ import annotations

import re

from solver.core.errors import MjError, given, safe_text

_WHOLE = re.compile(r"[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?|\.[0-9]+", re.ASCII)
DIGITS = 18  # read at most this many (past every bound we use, far from int()'s 4,300-digit limit)


def _shown(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _range(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f" from {_shown(low)} to {_shown(high)}"
    if low is not None:
        return f" of at least {_shown(low)}"
    return f" of at most {_shown(high)}" if high is not None else ""


def _check(value: float, text: str, name: str, kind: str, low: float | None, high: float | None) -> None:
    if (low is not None and value < low) or (high is not None and value > high):
        raise MjError(f"{name}must be {kind}{_range(low, high)}, not {text}")


def _negative(text: object, pattern: re.Pattern, name: str, kind: str, low: float | None, high: float | None) -> None:
    """A number with a minus sign: said as out of range, not as bad characters (QA: "--bot-timeout -1" was told
    "digits 0-9 and a point", "0" "must be positive")."""
    if isinstance(text, str) and text.startswith("-") and pattern.fullmatch(text[1:]):
        wanted = f"must be {kind}{_range(low, high)}" if low is not None else "must not be negative"
        raise MjError(f"{name}{wanted}, not {safe_text(text, 20)}")


def whole(text: str, name: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number of ASCII digits within [low, high]; `name` starts the message ("": it starts at "must")."""
    name = f"{name} " if name else ""
    _negative(text, _WHOLE, name, "a whole number", low, high)
    if not isinstance(text, str) or not _WHOLE.fullmatch(text):
        raise MjError(f"{name}must be a whole number{_range(low, high)} (digits 0-9), not '{safe_text(str(text), 20)}'")
    if len(text.lstrip("0")) > DIGITS:
        raise MjError(f"{name}must be a whole number{_range(low, high) or f' of at most {DIGITS} digits'}, "
                      f"not {safe_text(text, 20)} (too large)")
    value = int(text)
    _check(value, text, name, "a whole number", low, high)
    return value


def decimal(text: str, name: str, low: float | None = None, high: float | None = None) -> float:
    """A decimal number of ASCII digits (one point at most; no sign, exponent, nan or inf) within [low, high]."""
    name = f"{name} " if name else ""
    _negative(text, _DECIMAL, name, "a number", low, high)
    if not isinstance(text, str) or not _DECIMAL.fullmatch(text):
        raise MjError(f"{name}must be a number{_range(low, high)} (digits 0-9 and a point), "
                      f"not '{safe_text(str(text), 20)}'")
    if len(text) > 2 * DIGITS:
        raise MjError(f"{name}must be a number{_range(low, high)}, not {safe_text(text, 20)} (too many digits)")
    value = float(text)
    _check(value, text, name, "a number", low, high)
    return value


def budget_seconds(value: object) -> float | None:
    """A time budget given to the API: None (no clock) or a finite number of seconds above 0; else MjError (QA: nan
    meant no limit, True one second, "5" a TypeError)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value == float("inf"):
        raise MjError(f"the time budget must be a finite number of seconds or None, not {given(value)}")
    if not value > 0:  # (nan too)
        raise MjError(f"the time budget must be above 0 seconds, not {value}")
    return float(value)
