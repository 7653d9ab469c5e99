"""Exact exchange distance by combinatorial search in plain Python (docs/formulation.md section 7).

The CP-SAT model (model.py, distance.py) stays the reference; this search answers the same
question, exhaustively, without a solver. A target T is a multiset of units filling the N concealed
slots within the caps; kept(T) = sum_i min(c_i, m_i) with m_i the copies of kind i in T.

Search (`_Run.dfs`): take the lowest kind i still held and undecided; either place one more unit
containing i (its members still held are kept, the others drawn within their caps) or drop the
remaining copies of i. When no held tile is left (or no slot), the leftover slots must be filled by
units that keep nothing, within the remaining caps (`fillable`, exact and memoised). Every target is
reached by one canonical path (at kind i, place all of T's remaining units holding i, in list order,
then drop), and each path's count never exceeds the kept tiles of the target it builds, so the
maximum over paths is exactly max kept(T). Bound: kept + min(held tiles left, slots left) <= best.

Wildcard そら: a slot may be taken by そら instead of a real copy, so m_i may pass cap_i by up to
cap_σ stand-ins in all. A target's best total is then min(N, real kept + c_σ) (each held そら fills a
slot that would otherwise be drawn), so the search maximises the real kept tiles with the stand-in
budget cap_σ, and h = max(0, N - c_σ - real kept).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from solver.core.hand import COPIES, Hand
from solver.core.numbers import budget_seconds
from solver.core.rules import RuleSet
from solver.core.search.dfs import CACHE_LIMIT, Leaf, SearchStopped, _mask, _Run
from solver.core.search.native import NATIVE, searcher, wanted

__all__ = ["NATIVE", "SearchStopped", "TileSearch", "real_draws"]

LEAF_CACHE = 256  # best leaves kept (each holds a few tuples of 54)
_CLOCK = threading.local()  # this thread's deadline (TileSearch.within)


class TileSearch:
    """Exact h, completeness and optimal targets for one rule set, from plain data (picklable)."""

    def __init__(self, rules: RuleSet, native: bool | None = None):
        """`native`: use the C search (True), the pure one (False), or the C one if built unless MJ_PURE=1."""
        self.kinds = len(rules.tiles)
        self.hand_size = rules.hand_size
        self.sora = rules.tiles.sora
        self.wildcard = rules.sora_mode == "wildcard" and self.sora is not None
        self.fetch = rules.sora_mode == "fetch"
        self.members = tuple(u.members for u in rules.units)
        self.sizes = tuple(len(m) for m in self.members)
        # units holding each kind, largest first (a big unit keeps more, so good targets come early)
        self.units_with = tuple(tuple(sorted(us, key=lambda u: (-self.sizes[u], u))) for us in rules.units_of_kind)
        self.fill_order = tuple(sorted(range(len(self.members)), key=lambda u: (-self.sizes[u], u)))
        # bit masks: kinds in some unit holding kind i; kinds in some unit of at most s members
        self.reach_of = tuple(_mask({j for u in us for j in self.members[u]}) for us in rules.units_of_kind)
        longest = max(self.sizes, default=0)
        self.fill_reach = tuple(_mask({j for u, m in enumerate(self.members) if self.sizes[u] <= s for j in m})
                                for s in range(max(longest, self.hand_size) + 1))
        self.unit_mask = tuple(_mask(m) for m in self.members)
        # slots some units' sizes add up to: a hand whose slots none meets has no target at all, found at once
        # (QA: a house of trios alone, 13 slots, took the exhaustive search 7 s per hand to prove it)
        self.sums = slot_sums(list(self.sizes), self.hand_size)[-1]
        self._h_cache: dict = {}
        self._fill_cache: dict = {}
        self._weight_cache: dict = {}
        self._leaf_cache: dict = {}
        self.native = wanted(native)
        self._c = self._native_searcher()

    def restricted(self, units: Iterable[int]) -> TileSearch:
        """The same search over only `units` (indices unchanged; no other unit is placed or used as a filler):
        h as an engine that considers no other unit computes it (shortcut.py). The reach masks stay the
        whole rule set's: supersets, so they only prune less."""
        keep = set(units)
        sub = TileSearch.__new__(TileSearch)  # not copy.copy: __setstate__ would build the whole C searcher
        sub.__dict__.update(self.__dict__)
        sub.units_with = tuple(tuple(u for u in us if u in keep) for us in self.units_with)
        sub.fill_order = tuple(u for u in self.fill_order if u in keep)
        sub._h_cache, sub._fill_cache, sub._weight_cache, sub._leaf_cache = {}, {}, {}, {}
        sub._c = sub._native_searcher()
        return sub

    @property
    def compiled(self) -> bool:
        """Whether the C search answers for this rule set."""
        return self._c is not None

    def _native_searcher(self):
        if not (self.native and NATIVE):  # NATIVE: a pickled search may land where it is not built
            return None
        return searcher(self.members, self.units_with, self.fill_order, self.kinds, self.hand_size,
                        self.reach_of, self.fill_reach)

    def __getstate__(self):
        state = dict(self.__dict__)
        for name in ("_h_cache", "_fill_cache", "_weight_cache", "_leaf_cache"):
            state[name] = {}
        state["_c"] = None  # a C object does not pickle: rebuilt on arrival
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._c = self._native_searcher()

    @contextmanager
    def within(self, seconds: float | None) -> Iterator[None]:
        """The searches inside stop `seconds` from now, raising SearchStopped (None: no limit of its own; an outer
        block's still holds, and an inner one never extends it). (QA: a house of 1,000 trios and a duo took `mj h` 8 s
        a hand, with no budget to stop it.)"""
        seconds = budget_seconds(seconds)
        before = self.deadline
        if seconds is not None:
            _CLOCK.deadline = min(before or float("inf"), time.monotonic() + seconds)
        try:
            yield
        finally:
            _CLOCK.deadline = before

    @property
    def deadline(self) -> float | None:
        """The time.monotonic() past which this thread's searches stop (within), or None. Per thread, not per search:
        the searches of a rule set are shared by every caller (QA: one thread's budget stopped another's call)."""
        return getattr(_CLOCK, "deadline", None)

    def passed(self) -> None:
        """SearchStopped where the deadline has passed (between searches: the solver's steps are short)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchStopped(None, -1)

    # --- the hand's parameters --------------------------------------------------------------------
    def caps(self, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES) -> list[int]:
        if not hand.called and not seen:
            return [copies] * self.kinds
        called = [0] * self.kinds
        for u in hand.called:
            for k in self.members[u]:
                called[k] += 1
        return [max(0, copies - called[k] - (seen[k] if seen else 0)) for k in range(self.kinds)]

    def slots(self, hand: Hand) -> int:
        return self.hand_size - sum(self.sizes[u] for u in hand.called)

    def soras(self, hand: Hand) -> int:
        return hand.concealed[self.sora] if self.sora is not None else 0

    # --- questions --------------------------------------------------------------------------------
    def h(self, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES) -> int | None:
        """Exact h (docs/rules.md section 5); None if no complete hand is reachable at all."""
        key = (hand.concealed, hand.called, seen, copies)
        cached = self._h_cache.get(key, False)
        if cached is not False:
            return cached
        best = self.best_leaf(hand, seen, copies)
        answer = None if best is None else self._h_of(hand, best.kept)
        if len(self._h_cache) > CACHE_LIMIT:
            self._h_cache.clear()
        self._h_cache[key] = answer
        return answer

    def complete(self, hand: Hand) -> bool:
        """Whether the hand's tiles split exactly into units (called units as they are)."""
        return sum(hand.concealed) == self.slots(hand) and self.h(hand) == 0

    def _h_of(self, hand: Hand, real_kept: int) -> int:
        slots = self.slots(hand)
        if self.wildcard:
            return max(0, slots - self.soras(hand) - real_kept)
        return slots - real_kept

    def best_leaf(self, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES) -> Leaf | None:
        """A leaf of greatest kept count (its fillers exist), or None when no target exists.

        The last few are remembered (h, then the acceptance or a witness, ask for the same hand)."""
        key = (hand.concealed, hand.called, seen, copies)
        if key in self._leaf_cache:
            return self._leaf_cache[key]
        cap = self.caps(hand, seen, copies)
        slots = self.slots(hand)
        leaf = None if not 0 <= slots < len(self.sums) or not self.sums[slots] else \
            self._native_best(hand, cap) if self._c is not None else False
        if leaf is False:
            run = _Run(self, hand, cap, None)
            try:
                run.dfs(0, 0)
            except SearchStopped as stop:
                raise SearchStopped(stop.leaf, _Run(self, hand, cap, None).bound()) from None
            leaf = run.best_leaf
        if len(self._leaf_cache) > LEAF_CACHE:
            self._leaf_cache.clear()
        self._leaf_cache[key] = leaf
        return leaf

    def plain_leaf(self, concealed: tuple[int, ...]) -> Leaf | None:
        """best_leaf of a hand without calls or seen tiles, uncached: for exhaustive callers that ask each hand once
        (mj research max-h), where the cache and the general arguments cost more than the C search itself."""
        if self._c is None or max(concealed) > 100 or not 0 <= self.hand_size < 64 or not self.sums[self.hand_size]:
            return self.best_leaf(Hand(tuple(concealed), ()))
        rest, soras = bytearray(concealed), 0
        if self.sora is not None:
            soras, rest[self.sora] = rest[self.sora], 0
        budget, enough = (COPIES, self.hand_size - soras) if self.wildcard else (0, self.hand_size)
        return self._best(bytes(rest), bytes((COPIES,)) * self.kinds, self.hand_size, budget, enough)

    def _native_args(self, hand: Hand, cap: list[int]) -> tuple[bytes, int, int] | None:
        """(held tiles the search may keep, stand-in budget, slots) for the C search, or None where
        its fixed ranges do not hold (then _Run answers)."""
        if self._c is None:
            return None
        rest = list(hand.concealed)
        if self.sora is not None:
            rest[self.sora] = 0  # そら is in no unit (wildcard: counted apart)
        budget = cap[self.sora] if self.wildcard else 0
        slots = self.slots(hand)
        if max(cap) > 100 or max(hand.concealed) > 100 or budget > 100 or not 0 <= slots < 64:
            return None
        return bytes(rest), budget, slots

    def _native_best(self, hand: Hand, cap: list[int]) -> Leaf | None | bool:
        """The C search's best leaf (the same leaf as _Run's), or False where it does not apply."""
        args = self._native_args(hand, cap)
        if args is None:
            return False
        rest, budget, slots = args
        return self._best(rest, bytes(cap), slots, budget, slots - (self.soras(hand) if self.wildcard else 0))

    def _best(self, rest: bytes, cap: bytes, slots: int, budget: int, enough: int) -> Leaf | None:
        if (found := self._c.best(rest, cap, slots, budget, enough, self.deadline or 0.0)) and found[0] == "stopped":
            raise SearchStopped(None if found[1] is None else Leaf(*found[1]), found[2])
        return None if found is None else Leaf(*found)

    def leaves(self, hand: Hand, seen: tuple[int, ...], threshold: int, copies: int = COPIES,
               visit=None) -> list[Leaf]:
        """Every leaf (with fillers that exist) keeping at least `threshold` real hand tiles.

        `visit(leaf)` sees each leaf as it is found; when it returns True the search stops early.
        """
        run = _Run(self, hand, self.caps(hand, seen, copies), threshold)
        run.visit = visit
        run.dfs(0, 0)
        return run.found

    def each_leaf(self, hand: Hand, seen: tuple[int, ...], threshold: int, visit, limit: int | None = None) -> bool:
        """`visit(leaf)` for every leaf keeping at least `threshold` real hand tiles, until it returns True;
        False when the search gave up past `limit` nodes."""
        run = _Run(self, hand, self.caps(hand, seen), threshold)
        run.visit, run.budget_nodes = visit, limit
        run.dfs(0, 0)
        return not run.gave_up

    def accepted(self, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES,
                 limit: int | None = None, witnesses: bool = True
                 ) -> tuple[int | None, list[int], list[tuple[int, ...]]] | None:
        """(h, the kinds some optimal target draws in, one verified optimal target per new kind found;
        with `witnesses` False, no targets: building them is a good part of the time).

        A kind is accepted exactly when some optimal target draws it; the draws of every optimal leaf
        (its placed units' beyond the hand, and whatever its fillers can draw) are collected, and the
        search stops once every drawable kind is in. With `limit`, a search that would visit more nodes
        than that gives up and returns None (the caller then asks the CP-SAT model).
        """
        self.passed()
        first = self.best_leaf(hand, seen, copies)
        if first is None:
            return None, [], []
        h = self._h_of(hand, first.kept)
        if h == 0:
            return 0, [], [self.target(first)]
        cap = self.caps(hand, seen, copies)
        held = hand.concealed
        drawable = {k for k in range(self.kinds) if held[k] < cap[k] and self.units_with[k]}
        found: set[int] = set()
        targets: list[tuple[int, ...]] = []
        if self.wildcard and held[self.sora] < cap[self.sora]:
            found.add(self.sora)  # h > 0: some slot is drawn, and そら may take it
        run = _Run(self, hand, cap, first.kept)

        def visit(leaf: Leaf) -> bool:
            new = real_draws(self, hand, cap, leaf) - found
            if new:
                found.update(new)
                if witnesses:
                    targets.append(self.target(leaf, new))
                run.want &= ~_mask(new)
            return not run.want

        run.want = _mask(drawable)
        run.visit = visit
        run.budget_nodes = limit
        if not visit(first):
            args = self._native_args(hand, cap)
            if args is None:
                run.dfs(0, 0)
            else:  # the same enumeration in C: it lists the leaves that draw a kind not found yet
                rest, budget, slots = args
                run.gave_up, leaves = self._c.accept(rest, bytes(held), bytes(cap), slots, budget, first.kept,
                                                     run.want, _mask(found), -1 if limit is None else limit,
                                                     self.deadline or 0.0)
                if run.gave_up == "stopped":
                    raise SearchStopped(None, -1)
                for *fields, fresh in leaves:
                    new = {k for k in range(self.kinds) if fresh >> k & 1}
                    found.update(new)
                    if witnesses:
                        targets.append(self.target(Leaf(*fields), new))
        if run.gave_up:
            return None
        return h, sorted(found), targets

    def kept_best(self, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES) -> int | None:
        """max kept (the called tiles excluded, held そら included in wildcard mode): the CP-SAT model's z*."""
        h = self.h(hand, seen, copies)
        return None if h is None else self.slots(hand) - h

    def target(self, leaf: Leaf, wanted: set[int] | None = None) -> tuple[int, ...]:
        """A whole target for a leaf: its placed units plus fillers (drawing a wanted kind if one can)."""
        first: tuple[int, ...] = ()
        slots, free, budget = leaf.slots, leaf.free, leaf.budget
        if wanted and slots:
            for u in self.fill_order:
                hit = [k for k in self.members[u] if k in wanted and free[k] > 0]
                over = sum(1 for k in self.members[u] if free[k] <= 0)
                if not hit or self.sizes[u] > slots or over > budget:
                    continue
                rest = tuple(max(0, f - 1) if k in self.members[u] else f for k, f in enumerate(free))
                if self.fillable(slots - self.sizes[u], rest, budget - over):
                    first, slots, free, budget = (u,), slots - self.sizes[u], rest, budget - over
                    break
        return tuple(sorted(leaf.placed + first + self.filler(slots, free, budget)))

    # --- fillers ----------------------------------------------------------------------------------
    def fillable(self, slots: int, free: tuple[int, ...], budget: int) -> bool:
        """Whether `slots` can be filled exactly by units within `free` copies (and `budget` stand-ins)."""
        if slots == 0:
            return True
        key = (slots, free, budget)
        known = self._fill_cache.get(key)
        if known is None:
            known = self._fill(slots, list(free), budget, 0)
            if len(self._fill_cache) > CACHE_LIMIT:
                self._fill_cache.clear()
            self._fill_cache[key] = known
        return known

    def _fill(self, slots: int, free: list[int], budget: int, start: int) -> bool:
        order, sizes, members = self.fill_order, self.sizes, self.members
        for pos in range(start, len(order)):
            u = order[pos]
            if sizes[u] > slots:
                continue
            over = sum(1 for k in members[u] if free[k] <= 0)
            if over > budget:
                continue
            for k in members[u]:
                free[k] -= 1
            ok = slots == sizes[u] or self._fill(slots - sizes[u], free, budget - over, pos)
            for k in members[u]:
                free[k] += 1
            if ok:
                return True
        return False

    def filler(self, slots: int, free: tuple[int, ...], budget: int) -> tuple[int, ...]:
        """One filler multiset of units for a fillable leaf (for witnesses)."""
        free_l, chosen = list(free), []
        while slots:
            for u in self.fill_order:
                if self.sizes[u] > slots:
                    continue
                over = sum(1 for k in self.members[u] if free_l[k] <= 0)
                if over > budget:
                    continue
                trial = list(free_l)
                for k in self.members[u]:
                    trial[k] -= 1
                if self.fillable(slots - self.sizes[u], tuple(max(0, f) for f in trial), budget - over):
                    free_l, budget, slots = [max(0, f) for f in trial], budget - over, slots - self.sizes[u]
                    chosen.append(u)
                    break
            else:
                raise AssertionError("filler asked for an unfillable leaf")
        return tuple(chosen)

    def filler_kinds(self, slots: int, free: tuple[int, ...], budget: int) -> set[int]:
        """Kinds a filler can draw for real (within its cap) in some exact filling of `slots`."""
        kinds: set[int] = set()
        if slots == 0:
            return kinds
        for u in self.fill_order:
            if self.sizes[u] > slots or all(k in kinds or free[k] <= 0 for k in self.members[u]):
                continue
            over = sum(1 for k in self.members[u] if free[k] <= 0)
            if over > budget:
                continue
            rest = tuple(f - 1 if k in self.members[u] else f for k, f in enumerate(free))
            if self.fillable(slots - self.sizes[u], tuple(max(0, f) for f in rest), budget - over):
                kinds.update(k for k in self.members[u] if free[k] > 0)
        return kinds


def real_draws(search: TileSearch, hand: Hand, cap: list[int], leaf: Leaf) -> set[int]:
    """Kinds a leaf's target draws for real: its placed units' beyond the hand, and its fillers'."""
    held = hand.concealed
    kinds = {k for k, n in enumerate(leaf.counts) if n > held[k] and held[k] < cap[k]}
    return kinds | search.filler_kinds(leaf.slots, leaf.free, leaf.budget)


def slot_sums(sizes: list[int], slots: int) -> list[list[bool]]:
    """sums[z][r]: r slots are some of these sizes added up, each at most z (planc_list.c's table: the listing places
    units largest first, so after a unit of z members a node whose slots left no sum meets holds no complete hand;
    sums[-1][r]: any sum at all)."""
    largest = max(sizes, default=0)
    sums = [[r == 0 for r in range(slots + 1)]]
    for z in range(1, largest + 1):
        row = list(sums[-1])
        if z in sizes:
            for r in range(z, slots + 1):
                row[r] = row[r] or row[r - z]
        sums.append(row)
    return sums
