"""The fast exact path: answers from the combinatorial search (tile_search.py), the CP-SAT model only
where the search gives up (a node limit on the acceptance enumeration). Both paths are exact.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from solver.core.distance import target_exchange
from solver.core.errors import NOT_EXACT, MjError
from solver.core.hand import COPIES, Hand, check_hand
from solver.core.partition import WinScorer
from solver.core.results import DistanceResult, Exchange
from solver.core.rules import RuleSet
from solver.core.search.tile_search import SearchStopped, TileSearch

ACCEPT_NODES = 2000  # past this many search nodes the acceptance proof goes to CP-SAT (bench/)
ACCEPT_H = 2  # from this h on (outside wildcard mode) optimal targets abound: CP-SAT with swaps lists them faster
# ... than the pure search; the C search (solver/core/search/_searchc.c) lists them faster still, up to its own node limit
ACCEPT_NODES_C = 200_000  # bench: 2019-10 worst 3.6 s at 2000, 0.4 s here (the C search visits ~10^7 nodes/s)


def _built_once(kind: type, rules: RuleSet):
    """`kind(rules)`, built once per rule set and kept by it (RuleSet.built), so it goes when the rule set does (QA: a
    module-level table kept every Evaluator's searches alive, 1.7 MB a request for a server asked many --as-of dates)."""
    built = rules.built
    if kind not in built:
        built[kind] = kind(rules)
    return built[kind]


def search_for(rules: RuleSet) -> TileSearch:
    """The search of a rule set, built once."""
    return _built_once(TileSearch, rules)


def scorer_for(rules: RuleSet) -> WinScorer:
    """The winning-score search of a rule set, built once."""
    return _built_once(WinScorer, rules)


def witness(search: TileSearch, rules: RuleSet, hand: Hand, seen: tuple[int, ...] = (),
            copies: int = COPIES) -> Exchange | None:
    """One optimal exchange: the best leaf's units plus fillers, with そら stand-ins in wildcard mode."""
    leaf = search.best_leaf(hand, seen, copies)
    if leaf is None:
        return None
    target = search.target(leaf)
    sora_for: tuple[int, ...] = ()
    if search.wildcard:
        sora_for = _stand_ins(search, hand, search.caps(hand, seen, copies), target)
    return target_exchange(rules, hand, target, sora_for)


def _stand_ins(search: TileSearch, hand: Hand, cap: list[int], target: tuple[int, ...]) -> tuple[int, ...]:
    """そら slots of a wildcard target: the copies past a cap, then drawn slots up to the held そら."""
    counts = Counter(k for u in target for k in search.members[u])
    stood = Counter({k: n - cap[k] for k, n in counts.items() if n > cap[k]})
    real = counts - stood
    drawn = sum(max(0, n - hand.concealed[k]) for k, n in real.items())
    extra = min(search.soras(hand), drawn + sum(stood.values())) - sum(stood.values())
    for k in sorted(real):
        while extra > 0 and real[k] > hand.concealed[k]:
            real[k] -= 1
            stood[k] += 1
            extra -= 1
    return tuple(sorted(stood.elements()))


def exchange_distance(rules: RuleSet, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES,
                      seconds: float | None = None) -> DistanceResult:
    """h and one optimal exchange, like distance.exchange_distance, without a solver. Past `seconds` (None: no
    limit) it raises NOT_EXACT with what the search reached: h between the root's bound and the best found."""
    check_hand(hand, rules, seen=seen)
    search = search_for(rules)
    try:
        with search.within(seconds):
            exchange = witness(search, rules, hand, seen, copies)
    except SearchStopped as stop:
        if seconds is None:  # an outer block's budget (within): its caller says what it reached
            raise
        least = search._h_of(hand, stop.most)
        if least == 0 and not _complete(hand, rules):  # (a split of the hand's own tiles: milliseconds, QA: "at least 0")
            least = 1
        most = None if stop.leaf is None else search._h_of(hand, stop.leaf.kept)
        error = MjError(f"h was not proved within {seconds:g} s ({len(rules.units):,} units in {rules.name}): it is at "
                        f"least {least}, {'none found yet' if most is None else f'at most {most} (an exchange found)'}",
                        NOT_EXACT)
        error.at_least, error.at_most = least, most  # (for the API's callers: the same bounds as the message)
        raise error from None
    if exchange is None:
        return DistanceResult(None, None)
    h = search.h(hand, seen, copies)
    assert len(exchange.into) == h, "witness disagrees with the search"
    soras = exchange.out.count(rules.tiles.sora) if rules.sora_mode == "fetch" else 0
    return DistanceResult(h, exchange, soras)


def _complete(hand: Hand, rules: RuleSet) -> bool:
    """Whether the hand splits into units as it is (score.py's partition search over its own tiles: no deadline)."""
    from solver.core.score import is_complete

    return hand.size(rules) == rules.hand_size and is_complete(hand, rules)


def accepted(dm, hand: Hand, seen: tuple[int, ...] = (), seeds: Iterable[tuple[int, ...]] = (),
             limit: int | None = ACCEPT_NODES) -> tuple[int | None, list[int], list[tuple[int, ...]]]:
    """(h, accepted kinds, optimal targets drawing them): the search, or CP-SAT past `limit` nodes
    (told the optimum the search proved, so it skips the optimisation solve)."""
    from solver.core.enumerate import accepted_with_witnesses

    search = search_for(dm.rules)
    h = search.h(hand, seen)
    if h is None:
        return None, [], []
    if search.compiled and limit == ACCEPT_NODES:  # the default limit: the C search's own
        limit = ACCEPT_NODES_C
    if search.wildcard or h < ACCEPT_H or search.compiled:
        # wildcard targets need their そら slots, which the callers do not read: no witnesses
        fast = search.accepted(hand, seen, limit=limit, witnesses=not search.wildcard)
        if fast is not None:
            return fast
    return accepted_with_witnesses(dm, hand, seen, seeds, kept=search.kept_best(hand, seen))
