"""The exchange distance h (docs/rules.md section 5) with one optimal exchange as its witness."""

from __future__ import annotations

from solver.core import cpsat
from solver.core.hand import COPIES, Hand, check_hand
from solver.core.model import DistanceModel
from solver.core.results import DistanceResult, Exchange


def exchange_for(model: DistanceModel, hand: Hand, value) -> Exchange:
    """Read the target of a solved distance model as out-tiles, in-tiles and units."""
    return target_exchange(model.rules, hand, model.target(value), model.sora_for(value))


def target_exchange(rules, hand: Hand, target: tuple[int, ...], sora_for: tuple[int, ...] = ()) -> Exchange:
    """The exchange that turns `hand` into the target made of these units (そら standing in for `sora_for`)."""
    wanted = [0] * len(hand.concealed)  # per-kind counts, not Counters: the checker calls this for every claim
    for u in target:
        for k in rules.units[u].members:
            wanted[k] += 1
    for k in sora_for:
        wanted[k] -= 1
    if sora_for:
        wanted[rules.tiles.sora] += len(sora_for)
    out: list[int] = []
    into: list[int] = []
    for k, (held, want) in enumerate(zip(hand.concealed, wanted)):
        if held > want:
            out += [k] * (held - want)
        elif want > held:
            into += [k] * (want - held)
    return Exchange(tuple(out), tuple(into), tuple(sorted(target)), tuple(sorted(sora_for)))


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


def shortcut_distance(model: DistanceModel, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES,
                      two_missing_only: bool = False) -> DistanceResult:
    """h as an engine with a known shortcut computes it (docs/rules.md section 7): a copy limit of `copies`
    (unit copies included) and/or targets built only from units missing at most two members of the hand.

    Solved on a clone of the template, which is left re-targeted at the physical limit afterwards.
    """
    rules = model.rules
    model.configure(hand, seen, copies)
    clone = model.model.clone()
    model.configure(hand, seen)  # back to the physical limit for everything after
    if two_missing_only:
        for unit in rules.units:
            if sum(1 for k in unit.members if hand.concealed[k] == 0) > 2:
                clone.add(model.x[unit.index] == 0)
    outcome = cpsat.solve(clone)
    if not outcome.feasible:
        return DistanceResult(None, None)
    kept_called = sum(rules.units[u].size for u in hand.called)
    return DistanceResult(rules.hand_size - kept_called - outcome.objective, exchange_for(model, hand, outcome.value))
