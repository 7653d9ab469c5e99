"""The optional C extension of the search (solver/core/search/_searchc.c, built by setup.py when it can be).

`NATIVE` says whether it was built and loaded; `MJ_PURE=1` in the environment makes new searches
use the pure-Python path anyway (tests compare the two). The library never prints: the CLI tells
the user, once, when the extension is missing.
"""

from __future__ import annotations

import os

try:
    from solver.core.search import _searchc
except ImportError:  # not built (no compiler, or a build that failed): the pure path answers
    _searchc = None

NATIVE = _searchc is not None
MAX_KINDS = 64  # the C search keeps kinds in one 64-bit mask


def forced_pure() -> bool:
    """MJ_PURE=1: the pure-Python search, even where the extension is built."""
    return os.environ.get("MJ_PURE", "") == "1"


def wanted(native: bool | None) -> bool:
    """Whether a new search should use the extension: asked for, or by default unless MJ_PURE=1."""
    if native is None:
        return NATIVE and not forced_pure()
    if native and not NATIVE:
        raise RuntimeError("the native search was asked for but solver.core.search._searchc is not built")
    return native


def searcher(members: tuple[tuple[int, ...], ...], units_with: tuple[tuple[int, ...], ...],
             fill_order: tuple[int, ...], kinds: int, hand_size: int, reach_of: tuple[int, ...],
             fill_reach: tuple[int, ...]):
    """The C searcher of a rule set, or None where it does not apply (too many kinds or slots)."""
    if kinds > MAX_KINDS or hand_size >= 64 or any(len(m) >= 64 for m in members):
        return None
    return _searchc.Searcher(members, units_with, fill_order, kinds, reach_of, fill_reach)
