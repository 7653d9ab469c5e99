"""The depth-first search behind TileSearch (tile_search.py): one run over one hand, with undo.

See search.py and docs/formulation.md section 7 for what it enumerates and why it is exact.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from solver.core.hand import Hand


CACHE_LIMIT = 1 << 18  # memo tables are cleared past this many entries
WEIGHT_LIMIT = 1 << 16  # the weights' table (about 1 KB an entry: QA saw it hold 290 MB of a process at 1 << 18)


@dataclass(frozen=True)
class Leaf:
    """One end of the search: units placed to keep hand tiles, and what the fillers may still use."""

    kept: int  # real hand tiles kept by `placed`
    placed: tuple[int, ...]  # unit indices, in placement order
    counts: tuple[int, ...]  # m_i: copies of each kind in the placed units (stand-ins included)
    slots: int  # slots left for filler units (which keep nothing)
    free: tuple[int, ...]  # cap_i - real copies placed
    budget: int  # wildcard: そら stand-ins still allowed


class SearchStopped(Exception):
    """A search passed its deadline (TileSearch.within). From the h search: `leaf` the best found so far (None: none
    yet), `most` a bound on the held tiles any target keeps (the root's); from another, None and -1. Not an answer:
    the caller says what it reached."""

    def __init__(self, leaf: Leaf | None, most: int):
        super().__init__("the h search passed its time budget")
        self.leaf, self.most = leaf, most


class _Run:
    """One search over a hand: mutable state with undo, so no copying per node. `search` is the TileSearch
    whose tables it reads (not imported: tile_search.py imports this module)."""

    def __init__(self, search, hand: Hand, cap: list[int], threshold: int | None):
        self.s = search
        self.rest = list(hand.concealed)  # held tiles not yet kept or dropped
        if search.sora is not None:
            self.rest[search.sora] = 0  # そら is in no unit (wildcard: counted apart)
        self.held = hand.concealed
        self.left = sum(self.rest)
        self.m = [0] * search.kinds  # copies of each kind in the placed units
        self.free = list(cap)  # cap_i - real copies placed
        self.dropped = [False] * search.kinds
        self.budget = cap[search.sora] if search.wildcard else 0
        self.slots = search.slots(hand)
        self.kept = 0
        self.placed: list[int] = []
        self.threshold = threshold
        self.best = -1 if threshold is None else threshold - 1
        self.best_leaf: Leaf | None = None
        self.found: list[Leaf] = []
        self.visit = None
        self.stop = False
        self.want = 0  # acceptance: drawable kinds not found yet (a subtree that reaches none is cut)
        self.draws = [0] * search.kinds  # real copies drawn by the placed units
        self.drawn_mask = 0
        self.budget_nodes: int | None = None  # nodes left before giving up (None: no limit)
        self.deadline: float | None = search.deadline  # time.monotonic() past which the run raises SearchStopped
        self.ticks = 0
        self.gave_up = False
        # wildcard: once real kept + held そら fill every slot, nothing is better
        self.enough = self.slots - (search.soras(hand) if search.wildcard else 0)
        self.rest_mask = _mask(k for k, n in enumerate(self.rest) if n)  # kinds still held
        self.dropped_mask = 0

    def weights(self) -> list[tuple[float, int]]:
        """(w_i, i) for the kinds still held, cheapest first: w_i = min over units u holding i that the
        path may still place of |u| / |u ∩ kinds still held|, the fewest slots a kept tile of kind i
        takes, its share of its unit's draws included. Memoised by (held kinds, dropped kinds, slots)."""
        key = (self.rest_mask, self.dropped_mask, self.slots)
        cache = self.s._weight_cache
        found = cache.get(key)
        if found is None:
            s, rest_mask, dropped_mask, slots = self.s, self.rest_mask, self.dropped_mask, self.slots
            found = []
            kind, mask = 0, rest_mask
            while mask:
                if mask & 1:
                    best = float(slots + 1)
                    for u in s.units_with[kind]:
                        um = s.unit_mask[u]
                        if s.sizes[u] <= slots and not um & dropped_mask:
                            share = s.sizes[u] / (um & rest_mask).bit_count()
                            if share < best:
                                best = share
                    found.append((best - 1e-9, kind))  # a hair under: float error only weakens the bound
                mask >>= 1
                kind += 1
            found.sort()
            if len(cache) > WEIGHT_LIMIT:
                cache.clear()
            cache[key] = found
        return found

    def reach(self, kind: int) -> int:
        """Kinds this subtree's leaves can draw: drawn already, in units holding a held kind left, fillers'."""
        reach_of, rest = self.s.reach_of, self.rest
        mask = self.drawn_mask | self.s.fill_reach[max(0, self.slots - self.room(self.threshold - self.kept))]
        for k in range(kind, self.s.kinds):
            if rest[k]:
                mask |= reach_of[k]
        return mask

    def room(self, need: int) -> int:
        """Fewest slots that keeping `need` more held tiles takes (their weights, rounded down)."""
        if need <= 0:
            return 0
        total, rest = 0.0, self.rest
        for w, k in self.weights():
            n = min(rest[k], need)
            if n:
                total += n * w
                need -= n
                if not need:
                    break
        return int(total)

    def bound(self) -> int:
        """Most held tiles the remaining slots can still keep: sum of the kept tiles' weights <= slots."""
        room, more, rest = self.slots, 0, self.rest
        for w, k in self.weights():
            n = rest[k]
            if n:
                if n * w <= room:
                    room -= n * w
                    more += n
                else:
                    return more + int(room / w)
        return more

    def dfs(self, kind: int, start: int) -> None:
        rest = self.rest
        kinds = self.s.kinds
        while kind < kinds and rest[kind] == 0:
            kind, start = kind + 1, 0
        if kind == kinds or self.slots == 0:
            self.leaf()
            return
        if self.stop or self.kept + self.bound() <= self.best or \
                (self.threshold is None and self.best >= self.enough):
            return
        if self.want and not self.want & self.reach(kind):
            return
        if self.deadline is not None:
            self.ticks += 1
            if not self.ticks & 0x3FF and time.monotonic() > self.deadline:
                raise SearchStopped(self.best_leaf, -1)  # (the run is left as it is: it is not used again)
        if self.budget_nodes is not None:
            self.budget_nodes -= 1
            if self.budget_nodes < 0:
                self.stop = self.gave_up = True
                return
        s = self.s
        members, sizes, m, free, dropped, draws = s.members, s.sizes, self.m, self.free, self.dropped, self.draws
        options = s.units_with[kind]
        for pos in range(start, len(options)):
            u = options[pos]
            if sizes[u] > self.slots:
                continue
            # place u: held members are kept, others drawn within caps (or stood in for by そら)
            stood, ok = 0, True
            for k in members[u]:
                if dropped[k]:
                    ok = False  # a canonical path never places a unit holding a dropped kind
                    break
                if rest[k] == 0 and free[k] <= 0:
                    stood += 1
            if not ok or stood > self.budget:
                continue
            consumed, drawn = [], []
            for k in members[u]:
                m[k] += 1
                if rest[k] > 0:
                    rest[k] -= 1
                    free[k] -= 1
                    consumed.append(k)
                    if not rest[k]:
                        self.rest_mask ^= 1 << k
                elif free[k] > 0:
                    free[k] -= 1
                    drawn.append(k)
                    draws[k] += 1
                    if draws[k] == 1:
                        self.drawn_mask |= 1 << k
            gained = len(consumed)
            self.kept += gained
            self.left -= gained
            self.slots -= sizes[u]
            self.budget -= stood
            self.placed.append(u)
            self.dfs(kind, pos)
            self.placed.pop()
            self.budget += stood
            self.slots += sizes[u]
            self.left += gained
            self.kept -= gained
            for k in members[u]:
                m[k] -= 1
            for k in consumed:
                if not rest[k]:
                    self.rest_mask |= 1 << k
                rest[k] += 1
                free[k] += 1
            for k in drawn:
                free[k] += 1
                draws[k] -= 1
                if draws[k] == 0:
                    self.drawn_mask &= ~(1 << k)
            if self.stop or (self.best >= self.enough and self.threshold is None):
                return
        # drop the remaining copies of this kind
        if self.stop:
            return
        n = rest[kind]
        rest[kind] = 0
        dropped[kind] = True
        self.rest_mask ^= 1 << kind
        self.dropped_mask |= 1 << kind
        self.left -= n
        self.dfs(kind + 1, 0)
        self.left += n
        self.dropped_mask ^= 1 << kind
        self.rest_mask |= 1 << kind
        dropped[kind] = False
        rest[kind] = n

    def leaf(self) -> None:
        if self.kept <= self.best and self.threshold is None:
            return
        if self.threshold is not None and self.kept < self.threshold:
            return
        free = tuple(self.free)
        if not self.s.fillable(self.slots, free, self.budget):
            return
        leaf = Leaf(self.kept, tuple(self.placed), tuple(self.m), self.slots, free, self.budget)
        if self.threshold is None:
            self.best, self.best_leaf = self.kept, leaf
        elif self.visit is not None:
            self.stop = self.visit(leaf)
        else:
            self.found.append(leaf)


def _mask(kinds) -> int:
    return sum(1 << k for k in set(kinds))
