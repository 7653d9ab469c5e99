"""h as an engine with a known shortcut computes it (RULES.md section 7), by the exact search.

The shortcuts: a copy limit other than 3 (Hitori-Jong 2 takes a 4th copy), and targets whose concealed
units each miss at most two members of the hand. Both only change what the search may build, so the
same exhaustive search answers them: a copy limit is the search's own `copies`; the two-missing
restriction is the search over a rule set holding only the allowed units. The CP-SAT model of the same
question, distance.shortcut_distance, is the reference the tests hold this to (docs/formulation.md
section 10).
"""

from __future__ import annotations

from dataclasses import replace

from solver.core.fast import search_for, witness
from solver.core.hand import COPIES, Hand
from solver.core.results import DistanceResult, Exchange
from solver.core.rules import RuleSet
from solver.core.search import TileSearch

_LAST: dict[tuple, tuple[RuleSet, RuleSet, TileSearch]] = {}  # the last restricted search (a claim asks twice)


def two_missing_units(rules: RuleSet, hand: Hand) -> tuple[int, ...]:
    """Units missing at most two members of the hand's concealed tiles (called units stay as they are)."""
    held = hand.concealed
    return tuple(u.index for u in rules.units if sum(1 for k in u.members if not held[k]) <= 2)


def _restricted(rules: RuleSet, units: tuple[int, ...], slots: int) -> tuple[RuleSet, TileSearch]:
    """A rule set of only `units` (re-indexed in order) with `slots` concealed slots, and its search."""
    key = (id(rules), units, slots)
    entry = _LAST.get(key)
    if entry is None or entry[0] is not rules:
        spec = replace(rules.spec, hand_size=slots)
        sub = RuleSet(spec, rules.tiles, tuple(replace(rules.units[u], index=n) for n, u in enumerate(units)),
                      rules.as_of)
        _LAST.clear()
        entry = _LAST[key] = (rules, sub, TileSearch(sub))
    return entry[1], entry[2]


def shortcut_distance(rules: RuleSet, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES,
                      two_missing_only: bool = False) -> DistanceResult:
    """h and one witness exchange under a copy limit of `copies` (unit copies included) and/or only the
    units missing at most two members of the hand; (None, None) when no such target exists.

    The restricted search knows nothing of the hand's called units (they are not among its units): they
    are folded in as seen tiles (their copies leave the caps) and as fewer slots, which is what they are
    to the search.
    """
    if not two_missing_only:
        search = search_for(rules)
        exchange = witness(search, rules, hand, seen, copies)
        return DistanceResult(None, None) if exchange is None else DistanceResult(search.h(hand, seen, copies), exchange)
    units = two_missing_units(rules, hand)
    called = hand.called_counts(rules)
    slots = rules.hand_size - sum(rules.units[u].size for u in hand.called)
    sub, search = _restricted(rules, units, slots)
    bare = Hand(hand.concealed, ())
    folded = tuple(c + (seen[k] if seen else 0) for k, c in enumerate(called)) if hand.called or seen else ()
    exchange = witness(search, sub, bare, folded, copies)
    if exchange is None:
        return DistanceResult(None, None)
    target = tuple(sorted(units[u] for u in exchange.target))
    return DistanceResult(search.h(bare, folded, copies), Exchange(exchange.out, exchange.into, target, exchange.sora_for))
