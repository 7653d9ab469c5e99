"""Exact enumeration over the optimal targets of the distance model.

Both routines fix sum k = optimum on a clone of the re-targeted template, then either block each
distinct exchange found or ask for as many not-yet-seen in-tile kinds as possible at once.
Blocking uses the answer's own variables only (k and e = r - k), so decompositions of the same
target are never counted twice. Because sum k and sum e are fixed at an optimum, a vector differs
from a found one exactly when one of the found one's nonzero entries drops: one literal per entry.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from solver import cpsat
from solver.distance import exchange_for
from solver.hand import COPIES, Hand
from solver.model import DistanceModel
from solver.results import Exchange

# With sum k fixed, enumeration solves are feasibility questions whose infeasibility proofs lean on
# the LP; the full linearisation halves their time (bench/bench_analysis.py).
ENUMERATION = {"linearization_level": 2}
SWAPS = True


@dataclass
class Optimum:
    model: Any  # a clone with sum k fixed at its optimum and no objective
    h: int


def fix_optimum(dm: DistanceModel, hand: Hand, seen: tuple[int, ...] = ()) -> Optimum | None:
    """None when no complete hand can be reached at all."""
    dm.configure(hand, seen)
    outcome = cpsat.solve(dm.model)
    if not outcome.feasible:
        return None
    model = dm.model.clone()
    model.add(sum(dm.k.values()) == outcome.objective)
    model.clear_objective()
    kept_called = sum(dm.rules.units[u].size for u in hand.called)
    return Optimum(model, dm.rules.hand_size - kept_called - outcome.objective)


def distinct_exchanges(dm: DistanceModel, hand: Hand, seen: tuple[int, ...] = (),
                       limit: int = 200) -> tuple[int | None, list[Exchange], bool]:
    """(h, every distinct optimal exchange up to `limit`, whether the list is complete)."""
    optimum = fix_optimum(dm, hand, seen)
    if optimum is None:
        return None, [], True
    model, found = optimum.model, []
    while True:
        outcome = cpsat.solve(model, **ENUMERATION)
        if not outcome.feasible:
            return optimum.h, sorted(found, key=lambda e: (e.out, e.into)), True
        if len(found) == limit:
            return optimum.h, sorted(found, key=lambda e: (e.out, e.into)), False
        exchange = exchange_for(dm, hand, outcome.value)
        found.append(exchange)
        kept = Counter({k: n for k, n in enumerate(hand.concealed) if n}) - Counter(exchange.out)
        literals = []
        for kind, n in kept.items():
            literal = model.new_bool_var("")
            model.add(dm.k[kind] <= n - 1).only_enforce_if(literal)
            literals.append(literal)
        for kind, n in Counter(exchange.into).items():
            literal = model.new_bool_var("")
            model.add(dm.into(kind) <= n - 1).only_enforce_if(literal)
            literals.append(literal)
        model.add_bool_or(literals)


def _swap_witnesses(dm: DistanceModel, hand: Hand, cap: list[int], kept_opt: int,
                    target: tuple[int, ...], found: set[int]) -> None:
    """Grow `found` with the draws of optimal targets a few unit swaps away from `target`.

    Moves: one unit copy replaced by another unit of the same size; split into a unit one smaller
    plus a one-member unit (詩花); a copy and a one-member unit merged into one unit. A new target is kept only if it stays within the caps and keeps as many hand tiles as the
    optimum (checked here in plain Python), so every kind added is backed by a verified optimal target.
    """
    rules, held = dm.rules, hand.concealed
    by_size = dm.units_by_size
    small = by_size.get(1, [])  # 詩花: wider moves cost more Python time than the solves they save
    queue = [target]
    while queue:
        current = list(queue.pop())
        counts = [0] * len(held)
        for u in current:
            for kind in rules.units[u].members:
                counts[kind] += 1

        def offer(removed: list[int], added: list[int], kept_base: int) -> None:
            """Try current - removed + added; `counts` already has `removed` taken out."""
            extra = [k for v in added for k in rules.units[v].members]
            if not any(k not in found and counts[k] >= held[k] for k in extra):
                return  # cannot draw a kind not yet found (skip before any arithmetic)
            kept, fits, new = kept_base, True, []
            for k in extra:
                if counts[k] < held[k]:
                    kept += 1
                elif k not in found:
                    new.append(k)
                counts[k] += 1
                fits = fits and counts[k] <= cap[k]
            for k in extra:
                counts[k] -= 1
            if fits and kept == kept_opt and new:
                found.update(new)
                rest = list(current)
                for u in removed:
                    rest.remove(u)
                queue.append(tuple(sorted(rest + added)))

        def take(unit: int) -> int:
            """Remove one copy of `unit` from counts; returns the kept tiles it took with it."""
            lost = 0
            for k in rules.units[unit].members:
                counts[k] -= 1
                lost += counts[k] < held[k]
            return lost

        def put(unit: int) -> None:
            for k in rules.units[unit].members:
                counts[k] += 1

        kept_all = sum(min(h, c) for h, c in zip(held, counts))
        for j in set(current):
            size = rules.units[j].size
            kept_j = kept_all - take(j)
            for v in by_size[size]:
                if v != j:
                    offer([j], [v], kept_j)
            for w in small:
                for v in by_size.get(size - rules.units[w].size, []):
                    offer([j], [v, w], kept_j)
            for w in set(current) & set(small):
                if w == j and current.count(j) < 2:
                    continue
                kept_jw = kept_j - take(w)
                for v in by_size.get(size + rules.units[w].size, []):
                    offer([j, w], [v], kept_jw)
                put(w)
            put(j)


def accepted_kinds(dm: DistanceModel, hand: Hand, seen: tuple[int, ...] = ()) -> tuple[int | None, list[int]]:
    """(h, the kinds t that some optimal target draws in): exactly the draws that lower h by one.

    Each solve asks for an optimal target drawing a kind not yet found; unit swaps around it find
    more (verified in Python). The last solve proves that no other kind can be drawn.
    """
    optimum = fix_optimum(dm, hand, seen)
    if optimum is None:
        return None, []
    rules = dm.rules
    called = hand.called_counts(rules)
    cap = [max(0, COPIES - called[k] - (seen[k] if seen else 0)) for k in range(len(hand.concealed))]
    kept_opt = rules.hand_size - sum(rules.units[u].size for u in hand.called) - optimum.h
    found: set[int] = set()
    while True:
        # some target must draw a kind not yet found; every kind it draws is accepted
        # e[t] >= 0, so "some remaining kind is drawn" is one linear row the LP can use (no booleans);
        # each row implies the earlier ones (its set shrinks), so rows pile up on one model.
        optimum.model.add(sum(dm.into(t) for t in dm.real if t not in found) >= 1)
        outcome = cpsat.solve(optimum.model, **ENUMERATION)
        if not outcome.feasible:
            return optimum.h, sorted(found)
        found |= {t for t in dm.real if outcome.value(dm.into(t)) >= 1}
        if SWAPS and not dm.wildcard:  # swaps reason about real tiles only
            _swap_witnesses(dm, hand, cap, kept_opt, dm.target(outcome.value), found)
