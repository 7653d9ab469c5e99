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
        outcome = cpsat.solve(model)
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
    """Grow `found` with the draws of optimal targets one unit swap away from `target`.

    Each swap replaces one unit copy by another unit of the same size; the new target is kept only
    if it stays within the caps and keeps as many hand tiles as the optimum (checked here in plain
    Python), so every kind added is backed by a verified optimal target.
    """
    rules, held = dm.rules, hand.concealed
    by_size = dm.units_by_size
    queue = [target]
    while queue:
        current = queue.pop()
        counts = [0] * len(held)
        for u in current:
            for kind in rules.units[u].members:
                counts[kind] += 1
        for j in set(current):
            for kind in rules.units[j].members:
                counts[kind] -= 1
            kept = sum(min(h, c) for h, c in zip(held, counts))
            for v in by_size[rules.units[j].size]:
                members = rules.units[v].members
                if v == j or any(counts[k] >= cap[k] for k in members):
                    continue
                if kept + sum(1 for k in members if counts[k] < held[k]) != kept_opt:
                    continue
                new = [k for k in members if counts[k] >= held[k] and k not in found]
                if new:
                    found.update(new)
                    queue.append(tuple(sorted(current[:current.index(j)] + current[current.index(j) + 1:] + (v,))))
            for kind in rules.units[j].members:
                counts[kind] += 1


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
        model = optimum.model.clone()
        remaining = [t for t in dm.real if t not in found]
        flags = [model.new_bool_var(f"a_{t}") for t in remaining]
        for t, flag in zip(remaining, flags):
            model.add(dm.into(t) >= 1).only_enforce_if(flag)
        model.add_bool_or(flags)
        outcome = cpsat.solve(model)
        if not outcome.feasible:
            return optimum.h, sorted(found)
        found |= {t for t in dm.real if outcome.value(dm.into(t)) >= 1}
        if not dm.wildcard:  # swaps reason about real tiles only
            _swap_witnesses(dm, hand, cap, kept_opt, dm.target(outcome.value), found)
