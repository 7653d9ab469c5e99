"""Exact enumeration over the optimal targets of the distance model.

Both routines fix sum k = optimum on a clone of the re-targeted template, then either block each
distinct exchange found or ask for an optimal target that draws a kind not yet found. Candidate
targets found by unit swaps are verified in plain Python and spare most of those solves.
Blocking uses the answer's own variables only (k and e = r - k), so decompositions of the same
target are never counted twice. Because sum k and sum e are fixed at an optimum, a vector differs
from a found one exactly when one of the found one's nonzero entries drops: one literal per entry.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from solver.core import cpsat
from solver.core.distance import target_exchange
from solver.core.hand import Hand
from solver.core.model import DistanceModel
from solver.core.results import Exchange

SWAPS = True  # unit-swap witnesses (bench/bench_analysis.py measures what they buy)


@dataclass
class Optimum:
    model: Any  # a clone with sum k fixed at its optimum and no objective
    h: int


def fix_optimum(dm: DistanceModel, hand: Hand, seen: tuple[int, ...] = (), kept: int | None = None) -> Optimum | None:
    """None when no complete hand can be reached at all.

    `kept`: the optimum when it is already proven (an upper bound met by a verified target), which
    saves the optimisation solve.
    """
    dm.configure(hand, seen)
    if kept is None:
        outcome = cpsat.solve(dm.model)
        if not outcome.feasible:
            return None
        kept = outcome.objective
    model = dm.model.clone()
    model.add(sum(dm.k.values()) == kept)
    model.clear_objective()
    kept_called = sum(dm.rules.units[u].size for u in hand.called)
    return Optimum(model, dm.rules.hand_size - kept_called - kept)


def distinct_exchanges(dm: DistanceModel, hand: Hand, seen: tuple[int, ...] = (), limit: int = 200,
                       known: Iterable[tuple[int, ...]] = (),
                       exclude: Iterable[tuple[tuple[int, ...], tuple[int, ...]]] = ()
                       ) -> tuple[int | None, list[Exchange], bool]:
    """(h, every distinct optimal exchange up to `limit`, whether the list is complete).

    `known` are optimal targets already verified for this hand (e.g. acceptance witnesses): they
    are listed and blocked up front, so the solver only finds the others and proves there are none left.
    `exclude` are optimal exchanges, as sorted (out, in) kinds, to block without listing (e.g. the ones
    an engine claimed, so that only those it missed are listed).
    """
    optimum = fix_optimum(dm, hand, seen)
    if optimum is None:
        return None, [], True
    model, found = optimum.model, {}
    held = Counter({k: n for k, n in enumerate(hand.concealed) if n})

    def block(exchange: Exchange) -> None:
        literals = []
        for kind, n in (held - Counter(exchange.out)).items():
            literal = model.new_bool_var("")
            model.add(dm.k[kind] <= n - 1).only_enforce_if(literal)
            literals.append(literal)
        for kind, n in Counter(exchange.into).items():
            literal = model.new_bool_var("")
            model.add(dm.into(kind) <= n - 1).only_enforce_if(literal)
            literals.append(literal)
        model.add_bool_or(literals)

    walker = witnesses(dm, hand, seen, optimum) if SWAPS and not dm.wildcard else None

    def add(targets: Iterable[tuple[int, ...]], sora_for: tuple[int, ...] = ()) -> None:
        """List and block the exchanges of these targets, and (by swaps) of their neighbours."""
        if walker is not None:
            targets = walker.distinct_targets(targets, limit - len(found)).values()
        for target in targets:
            exchange = target_exchange(dm.rules, hand, target, sora_for)
            key = (exchange.out, exchange.into)
            if key not in found and key not in excluded:
                found[key] = exchange
                block(exchange)

    excluded = {(tuple(sorted(out)), tuple(sorted(into))) for out, into in exclude}
    for out, into in excluded:
        block(Exchange(out, into, ()))
    add(known)
    while len(found) <= limit:
        outcome = cpsat.solve(model)
        if not outcome.feasible:
            break
        add([dm.target(outcome.value)], dm.sora_for(outcome.value))
    listed = sorted(found.values(), key=lambda e: (e.out, e.into))
    return optimum.h, listed[:limit], len(listed) <= limit


@dataclass
class Witnesses:
    """Optimal targets of one hand, each verified in plain Python, and the kinds they draw in."""

    dm: DistanceModel
    hand: Hand
    cap: list[int]
    kept_opt: int
    draws: set[int] = field(default_factory=set)
    targets: list[tuple[int, ...]] = field(default_factory=list)

    def counts(self, target: tuple[int, ...]) -> list[int]:
        counts = [0] * len(self.hand.concealed)
        for u in target:
            for kind in self.dm.rules.units[u].members:
                counts[kind] += 1
        return counts

    def drawn(self, target: tuple[int, ...]) -> set[int]:
        """The kinds `target` draws in (holds more of than the hand)."""
        return {k for k, (h, c) in enumerate(zip(self.hand.concealed, self.counts(target))) if c > h}

    def offer(self, target: tuple[int, ...]) -> bool:
        """Keep `target` if it is within the caps and keeps the optimum; True if it draws a new kind."""
        if not self.offer_quietly(target):
            return False
        new = self.drawn(target) - self.draws
        if new:
            self.draws |= new
            self.targets.append(target)
        return bool(new)

    def neighbours(self, target: tuple[int, ...], useful) -> Iterator[tuple[int, ...]]:
        """Optimal targets a few unit swaps from `target`, walking on from each useful one.

        Moves: a unit copy replaced by another unit of the same size; split into a unit one smaller
        plus a one-member unit (詩花); merged with a one-member unit into a unit one larger. Each
        candidate is checked in plain Python (caps, and keeping as many hand tiles as the optimum);
        `useful(added_kinds, counts)` says whether a verified one is worth yielding and walking from
        (`counts=None` asks whether a move is worth checking at all).
        """
        queue = [target]
        while queue:
            for found in self._moves(queue.pop(), useful):
                queue.append(found)
                yield found

    def _moves(self, current: tuple[int, ...], useful) -> Iterator[tuple[int, ...]]:
        units, by_size = self.dm.rules.units, self.dm.units_by_size
        small = by_size.get(1, [])  # wider moves cost more Python time than the solves they save
        counts = self.counts(current)
        kept_all = sum(min(h, c) for h, c in zip(self.hand.concealed, counts))
        for j in set(current):
            size = units[j].size
            kept_j = kept_all - self._take(counts, j)
            moves = [([j], [v], kept_j) for v in by_size[size] if v != j]
            moves += [([j], [v, w], kept_j) for w in small for v in by_size.get(size - 1, [])]
            for w in set(current) & set(small):
                if w != j or current.count(j) > 1:
                    kept_jw = kept_j - self._take(counts, w)
                    moves += [([j, w], [v], kept_jw) for v in by_size.get(size + 1, [])]
                    self._put(counts, w)  # the merge moves below take w out again themselves
            for removed, added, kept in moves:
                extra = [k for m in removed[1:] for k in units[m].members]
                for k in extra:  # a merge move: w is out of counts while it is tried
                    counts[k] -= 1
                found = self._attempt(current, counts, removed, added, kept, useful)
                for k in extra:
                    counts[k] += 1
                if found:
                    yield found
            self._put(counts, j)

    def _take(self, counts: list[int], unit: int) -> int:
        """Take one copy of `unit` out of counts; returns how many kept tiles it held."""
        lost = 0
        for k in self.dm.rules.units[unit].members:
            counts[k] -= 1
            lost += counts[k] < self.hand.concealed[k]
        return lost

    def _put(self, counts: list[int], unit: int) -> None:
        for k in self.dm.rules.units[unit].members:
            counts[k] += 1

    def _attempt(self, current: tuple[int, ...], counts: list[int], removed: list[int], added: list[int],
                 kept: int, useful) -> tuple[int, ...] | None:
        """current - removed + added (`removed` already out of counts), if it is optimal and useful."""
        held, cap = self.hand.concealed, self.cap
        extra = [k for v in added for k in self.dm.rules.units[v].members]
        if not useful(extra, None):
            return None  # skip before any arithmetic
        fits = True
        for k in extra:
            kept += counts[k] < held[k]
            counts[k] += 1
            fits = fits and counts[k] <= cap[k]
        keep = fits and kept == self.kept_opt and useful(extra, counts)
        for k in extra:
            counts[k] -= 1
        if not keep:
            return None
        rest = list(current)
        for u in removed:
            rest.remove(u)
        return tuple(sorted(rest + added))

    def swap_around(self, target: tuple[int, ...]) -> None:
        """Add the draws of neighbouring optimal targets that draw a kind not yet found."""
        held = self.hand.concealed

        def new_draw(extra: list[int], counts: list[int] | None) -> bool:
            if counts is None:
                return any(k not in self.draws for k in extra)
            return any(k not in self.draws and counts[k] > held[k] for k in extra)

        for found in self.neighbours(target, new_draw):
            self.draws |= self.drawn(found)
            self.targets.append(found)

    def distinct_targets(self, seeds: Iterable[tuple[int, ...]], limit: int) -> dict[tuple[int, ...], tuple[int, ...]]:
        """Up to `limit` optimal targets with distinct tile counts (so distinct exchanges), by swaps."""
        found: dict[tuple[int, ...], tuple[int, ...]] = {}
        for seed in seeds:
            if self.offer_quietly(seed):
                found.setdefault(tuple(self.counts(seed)), seed)

        def new_counts(extra: list[int], counts: list[int] | None) -> bool:
            return len(found) <= limit and (counts is None or tuple(counts) not in found)

        for seed in list(found.values()):
            for target in self.neighbours(seed, new_counts):
                found.setdefault(tuple(self.counts(target)), target)
                if len(found) > limit:
                    return found
        return found

    def offer_quietly(self, target: tuple[int, ...]) -> bool:
        """Whether `target` is within the caps and keeps the optimum."""
        counts, held = self.counts(target), self.hand.concealed
        return all(c <= cap for c, cap in zip(counts, self.cap)) and \
            sum(min(h, c) for h, c in zip(held, counts)) == self.kept_opt


def witnesses(dm: DistanceModel, hand: Hand, seen: tuple[int, ...], optimum: Optimum) -> Witnesses:
    kept_opt = dm.rules.concealed_slots(hand.called) - optimum.h
    return Witnesses(dm, hand, hand.caps(dm.rules, seen), kept_opt)


def accepted_kinds(dm: DistanceModel, hand: Hand, seen: tuple[int, ...] = ()) -> tuple[int | None, list[int]]:
    """(h, the kinds t that some optimal target draws in): exactly the draws that lower h by one."""
    h, kinds, _ = accepted_with_witnesses(dm, hand, seen)
    return h, kinds


def accepted_with_witnesses(dm: DistanceModel, hand: Hand, seen: tuple[int, ...] = (),
                            seeds: Iterable[tuple[int, ...]] = (),
                            kept_bound: int | None = None,
                            kept: int | None = None) -> tuple[int | None, list[int], list[tuple[int, ...]]]:
    """(h, accepted kinds, verified optimal targets that draw them).

    Seeds (targets of a related hand) and unit swaps propose witnesses, each checked in plain
    Python; each solve asks for an optimal target drawing a kind not yet found, and the last one
    proves that no other kind can be drawn. `kept_bound` is an upper bound on the tiles any target
    keeps (after a discard: the full hand's optimum); a seed that meets it proves the optimum.
    `kept`: the optimum, when an exhaustive search already proved it.
    """
    swaps = SWAPS and not dm.wildcard  # witnesses reason about real tiles only
    seeds = list(seeds) if swaps else []
    proven = kept
    if proven is None and kept_bound is not None and seeds:
        probe = Witnesses(dm, hand, hand.caps(dm.rules, seen), kept_bound)
        proven = kept_bound if any(probe.offer_quietly(seed) for seed in seeds) else None
    optimum = fix_optimum(dm, hand, seen, proven)
    if optimum is None:
        return None, [], []
    found = witnesses(dm, hand, seen, optimum)
    for seed in seeds:
        found.offer(seed)
    while True:
        # e[t] >= 0, so "some remaining kind is drawn" is one linear row the LP can use (no booleans);
        # each row implies the earlier ones (its set shrinks), so rows pile up on one model.
        optimum.model.add(sum(dm.into(t) for t in dm.real if t not in found.draws) >= 1)
        outcome = cpsat.solve(optimum.model)
        if not outcome.feasible:
            return optimum.h, sorted(found.draws), found.targets
        target = dm.target(outcome.value)
        if swaps and found.offer(target):
            found.swap_around(target)
        else:  # wildcard (そら slots are not real tiles): the solver's own reading
            found.draws |= {t for t in dm.real if outcome.value(dm.into(t)) >= 1}
