"""h as an engine with a known shortcut computes it (docs/rules.md section 7), by the exact search.

The shortcuts: a copy limit other than 3 (Hitori-Jong 2 takes a 4th copy), and targets whose concealed
units each miss at most two members of the hand. Both only change what the search may build, so the
same exhaustive search answers them: a copy limit is the search's own `copies`; the two-missing
restriction is the search over the allowed units only (TileSearch.restricted). The CP-SAT model of the
same question, distance.shortcut_distance, is the reference the tests hold this to (docs/formulation.md
section 10).
"""

from __future__ import annotations

from solver.core.search.fast import search_for, witness
from solver.core.hand import COPIES, Hand
from solver.core.results import DistanceResult
from solver.core.rules import RuleSet
from solver.core.search.tile_search import TileSearch

_LAST: dict[tuple, tuple[TileSearch, TileSearch]] = {}  # the last restricted search: a claim asks it twice


def _allowed(search: TileSearch, hand: Hand, units) -> tuple[int, ...]:
    """Those of `units` missing at most two members of the hand's concealed tiles."""
    missing = ~sum(1 << k for k, n in enumerate(hand.concealed) if n)
    return tuple(u for u in units if (search.unit_mask[u] & missing).bit_count() <= 2)


def two_missing_units(search: TileSearch, hand: Hand) -> tuple[int, ...]:
    """The units a two-missing engine considers (called units stay as they are)."""
    return _allowed(search, hand, range(len(search.unit_mask)))


def _restricted(search: TileSearch, units: tuple[int, ...]) -> TileSearch:
    key = (id(search), units)
    entry = _LAST.get(key)
    if entry is None or entry[0] is not search:
        _LAST.clear()
        entry = _LAST[key] = (search, search.restricted(units))
    return entry[1]


def shortcut_distance(rules: RuleSet, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES,
                      two_missing_only: bool = False, unrestricted: DistanceResult | None = None) -> DistanceResult:
    """h and one witness exchange under a copy limit of `copies` (unit copies included) and/or only the
    units missing at most two members of the hand; (None, None) when no such target exists.

    `unrestricted`: the answer at the same copy limit without the two-missing restriction, if known. The
    restriction never lowers h, so when that witness already uses allowed units only it is the answer
    (most random hands: no search at all)."""
    search = search_for(rules)
    if two_missing_only:
        target = unrestricted.exchange.target if unrestricted is not None and unrestricted.exchange else None
        if target is not None and len(_allowed(search, hand, target)) == len(target):
            return unrestricted
        search = _restricted(search, two_missing_units(search, hand))
    exchange = witness(search, rules, hand, seen, copies)
    return DistanceResult(None, None) if exchange is None else DistanceResult(search.h(hand, seen, copies), exchange)
