"""The planner's exact primitives in plain Python: the complete hands within a budget of exchanges
of the starting hand (with their best tsumo scores), and the score of a hand that did not win.

A target is the concealed part of a complete hand, as a tuple of counts per kind. Its cost from a
hand is the number of its tiles the hand lacks (sum of max(0, target[k] - hand[k])): the draws
needed to reach it. Every decomposition of every target within the budget is visited, so the best
tsumo score of each target is the maximum over all of its decompositions (D1), with no solver.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from solver.core.errors import MjError
from solver.core.hand import Hand
from solver.core.rules import RuleSet
from solver.core.wording import count
from solver.core.search.native import forced_pure
from solver.core.search.tile_search import slot_sums

try:
    from solver.planning import _planc  # NoWin: the score of a hand that did not win in C (setup.py), where built
except ImportError:
    _planc = None

TARGET_LIMIT = 200_000  # distinct targets enumerated before giving up (see TooLarge)


class TooLarge(MjError):
    """The exact computation would pass its budget; the message says which and how to narrow it."""

    code = "ERR_PLAN_TOO_LARGE"


class OutOfTime(TooLarge):
    """An exact step passed its time budget (a TooLarge: the same answers past it). Making one marks this thread's
    plan as cut by its clock (clock_cut)."""

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message, code)
        cut_by_clock()


_CUT = threading.local()  # (a thread's own: the server's games plan in threads of one process)


def cut_by_clock() -> None:
    """A step of this thread's plan stopped at its time budget, so another run may answer otherwise (Plan.clocked)."""
    _CUT.value = True


def past(deadline: float | None) -> bool:
    """Whether the deadline (time.monotonic(); None: none) has passed; where it has, the plan was cut by its clock."""
    if deadline is not None and time.monotonic() > deadline:
        cut_by_clock()
        return True
    return False


def clock_cut(reset: bool = False) -> bool:
    """Whether a step of this thread's plan stopped at its time budget since the last reset (then reset if asked)."""
    got = getattr(_CUT, "value", False)
    if reset:
        _CUT.value = False
    return got


@dataclass(frozen=True)
class Targets:
    budget: int
    counts: dict[tuple[int, ...], int]  # target concealed counts -> best tsumo score
    relevant: tuple[int, ...]  # kinds held by some target (sorted)


def called_points(rules: RuleSet, called: tuple[int, ...], *, won: bool, favourite: int | None) -> tuple[int, bool]:
    """Points of the called units and whether one of them holds the favourite."""
    defs = [rules.units[u] for u in called]
    points = sum(rules.points(d.size, won=won, called=True, has_favourite=favourite in d.members) for d in defs)
    return points, favourite is not None and any(favourite in d.members for d in defs)


def enumerate_targets(rules: RuleSet, hand: Hand, seen: tuple[int, ...], budget: int,
                      favourite: int | None = None, limit: int = TARGET_LIMIT, deadline: float | None = None,
                      native: bool | None = None) -> Targets:
    """Every complete hand at most `budget` draws from `hand` (called units fixed), with its tsumo score.

    Depth-first over unit multisets in index order (a unit may repeat while copies allow), pruned
    by the cost so far plus the slots left that the hand's unused tiles cannot fill. In C where built
    (planc_list.c, the same search; `native` as packer_built's).
    """
    if lists_in_c(rules, hand, seen, native):
        return Targets(budget, *listed_in_c(rules, hand, seen, budget, favourite, limit, deadline, False))
    held, cap, size, base, fav_called, units = listing(rules, hand, seen, budget, favourite)
    n_units = len(units)
    first = [next((j for j, u in enumerate(units) if u[4] <= r), n_units) for r in range(size + 1)]
    bonus = rules.favourite_bonus
    counts = [0] * len(held)
    found: dict[tuple[int, ...], int] = {}
    sums = slot_sums([u[4] for u in units], size)

    nodes = [0]

    def dfs(start: int, remaining: int, cost: int, free: int, points: int, fav: bool) -> None:
        nodes[0] += 1
        if deadline is not None and not nodes[0] & 4095 and time.monotonic() > deadline:
            stopped(True, budget, limit, len(found))
        if remaining == 0:
            key = tuple(counts)
            total = base + points + (bonus if fav or fav_called else 0)
            if found.get(key, -1) < total:
                if key not in found and len(found) >= limit:
                    stopped(False, budget, limit, len(found))
                found[key] = total
            return
        for j in range(max(start, first[remaining]), n_units):
            members, pts, has_fav, outside, n = units[j]
            if cost + outside > budget:
                continue
            extra, used, fits = 0, 0, True
            for k in members:
                counts[k] += 1
                if counts[k] > cap[k]:
                    fits = False
                if counts[k] > held[k]:
                    extra += 1
                else:
                    used += 1
            rest = remaining - n
            if fits and sums[n][rest] and cost + extra + max(0, rest - (free - used)) <= budget:
                dfs(j, rest, cost + extra, free - used, points + pts, fav or has_fav)
            for k in members:
                counts[k] -= 1

    dfs(0, size, 0, sum(held), 0, False)
    relevant = tuple(sorted({k for key in found for k, n in enumerate(key) if n}))
    return Targets(budget, found, relevant)


def listing(rules: RuleSet, hand: Hand, seen: tuple[int, ...], budget: int, favourite: int | None):
    """What the listing's search places: (held, copies a hand may hold, concealed slots, called points, a called unit
    holds the favourite, units as (members, points, holds the favourite, members the hand lacks, size))."""
    held = hand.concealed
    cap = hand.caps(rules, seen)
    base, fav_called = called_points(rules, hand.called, won=True, favourite=favourite)
    sora = rules.tiles.sora
    # a unit with more members the hand lacks than the budget, or one whose copies are gone, is never placed
    units = [(u.members, rules.points(u.size, won=True, has_favourite=favourite in u.members),
              favourite in u.members, outside, len(u.members))
             for u in rules.units if sora not in u.members
             for outside in [sum(1 for k in u.members if held[k] == 0)]
             if outside <= budget and all(cap[k] > 0 for k in u.members)]
    units.sort(key=lambda u: -u[4])  # largest first: a node with r slots left starts at the first unit of size <= r
    return held, cap, rules.concealed_slots(hand.called), base, fav_called, units


LIST_UNITS = 4096  # planc_list.c's LIST_MAXU (the planner refuses more: prepare.py)


def lists_in_c(rules: RuleSet, hand: Hand, seen: tuple[int, ...], native: bool | None) -> bool:
    """Whether planc_list.c lists these hands: built, asked for, and at most 7 copies a kind (its keys' 3 bits)."""
    return packer_built(rules, native) and max(hand.caps(rules, seen), default=0) <= 7


def listed_in_c(rules: RuleSet, hand: Hand, seen: tuple[int, ...], budget: int, favourite: int | None, limit: int,
                deadline: float | None, matrix: bool):
    """planc_list.c's listing: (found, the kinds held), found a dict or with `matrix` (counts bytes, scores bytes);
    its stops raised as the pure search raises them."""
    held, cap, size, base, fav_called, units = listing(rules, hand, seen, budget, favourite)
    bonus = rules.favourite_bonus
    found, stop, kinds = _planc.list_complete(
        [u[:4] for u in units], bytes(held), bytes(cap), size, budget, limit, -1.0 if deadline is None else deadline,
        0 if fav_called else bonus, base + (bonus if fav_called else 0), matrix)
    if stop:
        stopped(stop == 2, budget, limit, len(found) if not matrix else len(found[1]) // 8)
    return found, tuple(k for k in range(len(held)) if kinds >> k & 1)


def complete_matrix(rules: RuleSet, hand: Hand, seen: tuple[int, ...], budget: int, favourite: int | None = None,
                    limit: int = TARGET_LIMIT, deadline: float | None = None):
    """enumerate_targets' hands as (counts, a hand a row over every kind; their tsumo scores; the kinds held), in C
    with no Python object per hand where built (the relaxation's own listing, bracket.py: up to a million hands)."""
    import numpy as np

    kinds = len(hand.concealed)
    if lists_in_c(rules, hand, seen, None):
        (counts, scores), held = listed_in_c(rules, hand, seen, budget, favourite, limit, deadline, True)
        return (np.frombuffer(counts, dtype=np.uint8).reshape(-1, kinds).astype(np.int16),
                np.frombuffer(scores, dtype=np.int64), held)
    listed = enumerate_targets(rules, hand, seen, budget, favourite, limit, deadline)
    return (np.array(list(listed.counts), dtype=np.int16).reshape(-1, kinds),
            np.array(list(listed.counts.values()), dtype=np.int64), listed.relevant)


def stopped(late: bool, budget: int, limit: int, listed: int):
    """The listing's stop: past its time budget (OutOfTime) or its limit of hands (TooLarge)."""
    if late:
        raise OutOfTime(f"listing the complete hands within {count(budget, 'exchange')} passed the time budget "
                        f"({listed} listed)")
    raise TooLarge(f"more than {limit:,} complete hands within {count(budget, 'exchange')}: fewer draws (--turns), or a "
                   "smaller --detour where one is given, list fewer")


def scored_units(rules: RuleSet, favourite: int | None, *, won: bool) -> list[tuple]:
    """(members, points, holds the favourite) of every unit without そら, in the rule set's order: what the packing
    searches place (won or no-win points)."""
    sora = rules.tiles.sora
    return [(u.members, rules.points(u.size, won=won, has_favourite=favourite in u.members), favourite in u.members)
            for u in rules.units if sora not in u.members]


def planc_built(native: bool | None) -> bool:
    """Whether _planc is built and asked for (`native` None: unless MJ_PURE=1)."""
    return _planc is not None and ((not forced_pure()) if native is None else native)


def packer_built(rules: RuleSet, native: bool | None) -> bool:
    """Whether the C packing searches (planc_nowin.c) are built and asked for, for this rule set's kinds."""
    return planc_built(native) and len(rules.tiles) <= 64


def packer(rules: RuleSet, units: list[tuple], fav_called: bool, base: int, native: bool | None):
    """The C packing searches over `units` where built and asked for, else None (the pure best_packing answers)."""
    return _planc.NoWin(units, rules.favourite_bonus, fav_called, base) if packer_built(rules, native) else None


class NoWinScore:
    """The score of a hand that did not win: its best disjoint complete units, called units included (D4)."""

    def __init__(self, rules: RuleSet, called: tuple[int, ...], favourite: int | None, native: bool | None = None):
        """`native`: the C search (True), the pure one (False), or the C one where built unless MJ_PURE=1."""
        self.rules, self.favourite = rules, favourite
        self.defined = rules.scores_no_win
        if self.defined:
            self.base, self.fav_called = called_points(rules, called, won=False, favourite=favourite)
        self.units = scored_units(rules, favourite, won=False)
        self._c = packer(rules, self.units, self.fav_called, self.base, native) if self.defined else None
        self.masks = [sum(1 << k for k in members) for members, _, _ in self.units]
        self.score = lru_cache(maxsize=None)(self._score)
        self._by_key: dict[tuple, int] = {}
        self._fits: dict[int, tuple[list, tuple[int, ...]]] = {}
        self._with_kind: dict[int, list[int]] = {}
        for i, (members, _, _) in enumerate(self.units):
            self._with_kind.setdefault(min(members), []).append(i)

    def _score(self, concealed: tuple[int, ...]) -> int:
        if self._c is not None:  # (no bitmask of the kinds held needed: 8 us a call of E[score]'s class searches)
            return self._c.score(bytes(concealed))
        return self.score_held(concealed, sum(1 << k for k, n in enumerate(concealed) if n))

    def score_held(self, concealed: tuple[int, ...], support: int) -> int:
        """score() with the bitmask of the kinds held given (a caller that has it saves a pass; no cache here)."""
        if not self.defined:
            return 0  # the rule set defines no such score: the model counts it as 0
        if self._c is not None:  # (the same search in C, from scratch: cheaper than the key of the cache below)
            return self._c.score(bytes(concealed))
        fits, kinds = self._fitting(support)
        key = (kinds, tuple(concealed[k] for k in kinds))
        got = self._by_key.get(key)
        if got is None:
            bonus = self.rules.favourite_bonus
            got = self._by_key[key] = self.base + best_packing(fits, concealed, sum(concealed), bonus, self.fav_called,
                                                               exact=False)
        return got

    def within(self, pool: tuple[int, ...], most: int) -> int:
        """The best score of a hand that did not win among the hands of at most `most` concealed tiles within the pool
        (tile counts, any number of them): a packing of at most `most` tiles, as every such hand's own packing is
        one. The sampled relaxation's cap on a play's end (sampled_upper.py)."""
        if not self.defined:
            return 0
        if self._c is not None:
            return self._c.score(bytes(pool), most)
        bonus = self.rules.favourite_bonus
        return self.base + best_packing(self.units, pool, most, bonus, self.fav_called, exact=False)

    def _fitting(self, support: int) -> tuple[list, tuple[int, ...]]:
        """The units held whole (every member present) and their kinds K. The units that fit are exactly those
        within K, so the score depends on the counts over K alone: hands equal there (most differ in a junk
        tile) share one search."""
        got = self._fits.get(support)
        if got is None:
            near = set()  # only units with a member held can fit
            rest = support
            while rest:
                k = (rest & -rest).bit_length() - 1
                near.update(self._with_kind.get(k, ()))
                rest &= rest - 1
            fits = [self.units[i] for i in sorted(near) if self.masks[i] & ~support == 0]
            got = self._fits[support] = (fits, tuple(sorted({k for members, _, _ in fits for k in members})))
        return got


class PoolWin:
    """The best tsumo score of a complete hand whose concealed tiles lie within a pool (tile counts, any number of
    tiles): the best exact fill of the concealed slots by units within it, scored as enumerate_targets scores a
    target (D1). The sampled relaxation of E[score] asks it once per wall (sampled_upper.py)."""

    def __init__(self, rules: RuleSet, called: tuple[int, ...], favourite: int | None, native: bool | None = None):
        self.base, self.fav_called = called_points(rules, called, won=True, favourite=favourite)
        self.bonus = rules.favourite_bonus
        self.units = scored_units(rules, favourite, won=True)
        self._c = packer(rules, self.units, self.fav_called, self.base, native)

    def score(self, pool: tuple[int, ...], slots: int) -> int | None:
        """The best tsumo score over the complete hands within the pool; None where there is none."""
        if self._c is not None:
            return self._c.complete(bytes(pool), slots)
        best = best_packing(self.units, pool, slots, self.bonus, self.fav_called, exact=True)
        return None if best < 0 else self.base + best


def best_packing(units: list, pool: tuple[int, ...], size: int, bonus: int, fav_called: bool, *, exact: bool) -> int:
    """The most points of disjoint units (members, points, holds the favourite) within the pool, the favourite bonus
    where one of them or a called unit holds it: filling exactly `size` tiles (`exact`; -1 where none does) or at most
    `size`. The pure path of PoolWin and NoWinScore.within (C: planc_nowin.c)."""
    counts = list(pool)
    fits = [u for u in units if all(counts[k] for k in u[0])]
    best = -1

    def pack(start: int, left: int, points: int, fav: bool) -> None:
        nonlocal best
        if left == 0 or not exact:
            best = max(best, points + (bonus if fav or fav_called else 0))
            if left == 0:
                return
        for i in range(start, len(fits)):
            members, pts, has_fav = fits[i]
            if len(members) > left:
                continue
            for k in members:  # (a plain loop: all() over a generator was most of the pure no-win search's time)
                if not counts[k]:
                    break
            else:
                for k in members:
                    counts[k] -= 1
                pack(i, left - len(members), points + pts, fav or has_fav)
                for k in members:
                    counts[k] += 1

    pack(0, size, 0, False)
    return best
