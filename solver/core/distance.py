"""The exchange distance h (RULES.md section 5) with one optimal exchange as its witness."""

from __future__ import annotations

from collections import Counter

from solver.core import cpsat
from solver.core.hand import COPIES, Hand, check_hand
from solver.core.model import DistanceModel
from solver.core.results import DistanceResult, Exchange


def exchange_for(model: DistanceModel, hand: Hand, value) -> Exchange:
    """Read the target of a solved distance model as out-tiles, in-tiles and units."""
    return target_exchange(model.rules, hand, model.target(value), model.sora_for(value))


def target_exchange(rules, hand: Hand, target: tuple[int, ...], sora_for: tuple[int, ...] = ()) -> Exchange:
    """The exchange that turns `hand` into the target made of these units (そら standing in for `sora_for`)."""
    wanted = Counter(k for u in target for k in rules.units[u].members)
    wanted.subtract(Counter(sora_for))
    if sora_for:
        wanted[rules.tiles.sora] += len(sora_for)
    held = Counter({k: n for k, n in enumerate(hand.concealed) if n})
    out = tuple(sorted((held - wanted).elements()))
    into = tuple(sorted((wanted - held).elements()))
    return Exchange(out, into, tuple(sorted(target)), tuple(sorted(sora_for)))


def exchange_distance(model: DistanceModel, hand: Hand, seen: tuple[int, ...] = (),
                      copies: int = COPIES) -> DistanceResult:
    """h = hand_size - max |hand ∩ T| over complete, physically possible targets T."""
    rules = model.rules
    check_hand(hand, rules, seen=seen)
    model.configure(hand, seen, copies)
    outcome = cpsat.solve(model.model)
    if not outcome.feasible:
        return DistanceResult(None, None)
    kept_called = sum(rules.units[u].size for u in hand.called)
    h = rules.hand_size - kept_called - outcome.objective
    exchange = exchange_for(model, hand, outcome.value)
    assert len(exchange.into) == h, "witness disagrees with the objective"
    soras = exchange.out.count(rules.tiles.sora) if rules.sora_mode == "fetch" else 0
    return DistanceResult(h, exchange, soras)
