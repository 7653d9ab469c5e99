"""Every distinct optimal exchange by the exact search (docs/formulation.md section 7), no solver.

An exchange is (H - T, T - H) for the tile vector T of a target (real tiles per kind, plus the そら
tiles in wildcard mode), so distinct exchanges are distinct optimal tile vectors. With R* the most
real hand tiles a target keeps (the search's best leaf), an optimal T keeps exactly R* real tiles
and, in wildcard mode with h > 0, every held そら (z* = R* + c_σ). Every such T comes from a unit
multiset M = (the units placed on a search leaf keeping R* tiles) + (filler units keeping nothing),
with m_i copies of kind i in M, by choosing the そら stand-ins s_i of each kind:

    max(0, m_i - cap_i) <= s_i <= max(0, m_i - c_i),    c_σ <= sum_i s_i <= cap_σ,    T = m - s.

(A stand-in on a kept slot would lose a real tile; one on a drawn slot replaces a draw.) So walking
every leaf keeping R* tiles, every filling of its leftover slots and every stand-in vector lists
every optimal T; each is re-checked in plain Python before it counts. The CP-SAT enumeration
(enumerate.distinct_exchanges) stays the reference, and answers when this walk passes its work limit.
"""

from __future__ import annotations

from typing import Iterator

from solver.core.distance import target_exchange
from solver.core.hand import Hand
from solver.core.results import Exchange
from solver.core.rules import RuleSet
from solver.core.search import TileSearch
from solver.core.search.dfs import Leaf

WORK = 20_000  # search nodes plus fillings tried before the CP-SAT enumeration takes over (bench/bench_fast.py)


class _GaveUp(Exception):
    pass


class _Walk:
    """One listing: the hand's parameters, the distinct tile vectors found, and the work left."""

    def __init__(self, search: TileSearch, rules: RuleSet, hand: Hand, cap: list[int], kept: int, limit: int,
                 work: int):
        self.search, self.rules, self.hand, self.cap, self.limit = search, rules, hand, cap, limit
        self.held = hand.concealed
        self.sora = search.sora
        self.wild = search.wildcard
        self.soras = search.soras(hand) if self.wild else 0
        self.sora_cap = cap[self.sora] if self.wild else 0
        self.kept = kept  # z*: real tiles kept, plus the held そら in wildcard mode
        self.work = work
        self.found: dict[tuple[int, ...], Exchange] = {}
        self.leaves: set[tuple[int, ...]] = set()

    def spend(self, n: int = 1) -> None:
        self.work -= n
        if self.work < 0:
            raise _GaveUp

    def visit(self, leaf: Leaf) -> bool:
        """Every target of this leaf; True (stop) once more than `limit` distinct ones are in."""
        if leaf.counts in self.leaves:  # two paths to one multiset of placed units
            return False
        self.leaves.add(leaf.counts)
        for fillers in self.fillings(leaf.slots, tuple(max(0, f) for f in leaf.free), leaf.budget, 0):
            units = leaf.placed + fillers
            counts = list(leaf.counts)
            for u in fillers:
                for k in self.search.members[u]:
                    counts[k] += 1
            for stand in self.stand_ins(counts):
                self.add(units, counts, stand)
                if len(self.found) > self.limit:
                    return True
        return False

    def fillings(self, slots: int, free: tuple[int, ...], budget: int, start: int) -> Iterator[tuple[int, ...]]:
        """Every multiset of filler units (fill order, no repeats of order) filling `slots` exactly."""
        if slots == 0:
            yield ()
            return
        s = self.search
        order, sizes, members = s.fill_order, s.sizes, s.members
        for pos in range(start, len(order)):
            u = order[pos]
            if sizes[u] > slots:
                continue
            self.spend()
            over = sum(1 for k in members[u] if free[k] <= 0)
            if over > budget:
                continue
            rest = tuple(max(0, f - 1) if k in members[u] else f for k, f in enumerate(free))
            if not s.fillable(slots - sizes[u], rest, budget - over):
                continue
            for more in self.fillings(slots - sizes[u], rest, budget - over, pos):
                yield (u,) + more

    def stand_ins(self, counts: list[int]) -> Iterator[tuple[int, ...]]:
        """Every stand-in vector (as a sorted multiset of kinds) that keeps the optimum."""
        if not self.wild:
            if all(n <= c for n, c in zip(counts, self.cap)):
                yield ()
            return
        ranges = [(k, max(0, n - self.cap[k]), max(0, n - self.held[k])) for k, n in enumerate(counts) if n]
        low = sum(lo for _, lo, _ in ranges)
        free = [(k, hi - lo) for k, lo, hi in ranges if hi > lo]
        forced = tuple(k for k, lo, _ in ranges for _ in range(lo))
        need = max(self.soras, low) - low
        most = min(self.sora_cap, low + sum(n for _, n in free)) - low
        for extra in range(need, most + 1):
            for chosen in _choose(free, extra, 0):
                yield tuple(sorted(forced + chosen))

    def add(self, units: tuple[int, ...], counts: list[int], stand: tuple[int, ...]) -> None:
        tiles = list(counts)
        for k in stand:
            tiles[k] -= 1
        if self.wild:
            tiles[self.sora] += len(stand)
        key = tuple(tiles)
        if key in self.found:
            return
        kept = sum(min(c, t) for c, t in zip(self.held, tiles))
        if kept != self.kept or any(t > c for t, c in zip(tiles, self.cap)):
            raise AssertionError("a listed target is not optimal")  # a bug, never input
        self.found[key] = target_exchange(self.rules, self.hand, tuple(sorted(units)), stand)


def _choose(free: list[tuple[int, int]], n: int, start: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of n kinds, kind k at most its room, from free[start:] = [(kind, room), ...]."""
    if n == 0:
        yield ()
        return
    for pos in range(start, len(free)):
        kind, room = free[pos]
        for take in range(1, min(room, n) + 1):
            for more in _choose(free, n - take, pos + 1):
                yield (kind,) * take + more


def listed_exchanges(search: TileSearch, rules: RuleSet, hand: Hand, seen: tuple[int, ...] = (), limit: int = 200,
                     work: int = WORK) -> tuple[int | None, list[Exchange], bool] | None:
    """(h, every distinct optimal exchange up to `limit`, whether the list is complete), as
    enumerate.distinct_exchanges answers it; None past `work` (then ask the CP-SAT enumeration)."""
    from solver.core.search.fast import witness

    first = search.best_leaf(hand, seen)
    if first is None:
        return None, [], True
    h = search.h(hand, seen)
    if h == 0:  # the hand itself, kept whole
        return 0, [witness(search, rules, hand, seen)], True
    cap = search.caps(hand, seen)
    walk = _Walk(search, rules, hand, cap, search.kept_best(hand, seen), limit, work)
    try:
        finished = search.each_leaf(hand, seen, first.kept, walk.visit, work)
    except _GaveUp:
        return None
    if not finished:
        return None
    listed = sorted(walk.found.values(), key=lambda e: (e.out, e.into))
    return h, listed[:limit], len(listed) <= limit
