"""Trap positions: each is built to break one known heuristic shortcut, and is kept only when the
shortcut's answer is proven to differ from the exact one. The label says which shortcut it targets.

| label | the shortcut | the claim |
| --- | --- | --- |
| copy_limit | a 4th copy of a kind held 3 times counts as a wait | waits |
| two_missing | targets use only units missing at most two members of the hand | h |
| called_whole | a called unit's tiles may be re-split like concealed ones | waits |
| sora_mode | そら read in another rule set's mode (wildcard vs. fetch/dead) | h, complete |
| ron_shika | a ron on 詩花 scores like any other | waits (ron null) |
| call_not_lowering | calling a discard into a unit lowers h | h after the call |
"""

from __future__ import annotations

import random
from typing import Any, Callable

from solver.analysis.turn import waits
from solver.api import Evaluator
from solver.core.distance import exchange_distance
from solver.core.search.shortcut import shortcut_distance
from solver.core.hand import COPIES, Hand
from solver.generation.construct import Built, complete_hand, random_favourite, replace_tiles
from solver.generation.difficulty import Difficulty
from solver.generation.puzzles import decoy_tenpai, tenpai, wait_features
from solver.generation.prove import fourth_copy_decoys, prove_waits
from solver.generation.position_line import position, waits_json

Trap = Callable[[random.Random, Evaluator, Difficulty], dict[str, Any] | None]


def _waits_trap(ev: Evaluator, label: str, level: Difficulty, hand: Hand, found, features: dict[str, int],
                favourite: int | None, note: str) -> dict[str, Any] | None:
    if not level.admits({**features, "h": 1}):
        return None
    return position("traps", ev.rules, hand, {"waits": waits_json(found, ev.rules)},
                    {"level": level.label, "h": 1, **features}, favourite=favourite, shortcut=label, note=note)


def copy_limit(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    made = decoy_tenpai(rng, ev)
    if made is None:
        return None
    built, hand, removed = made
    favourite = random_favourite(rng, ev.rules, hand)
    found = prove_waits(ev, hand, favourite)
    decoys = fourth_copy_decoys(ev, hand, favourite)
    names = ", ".join(f"{ev.tiles.name(k)} ({score} by tsumo)" for k, score in sorted(decoys.items()))
    note = f"held 3 times, a 4th copy would complete the hand: {names}; none of them is a wait"
    return _waits_trap(ev, "copy_limit", level, hand, found,
                       wait_features(ev, hand, found, built, removed, len(decoys)), favourite, note)


def two_missing(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    """A large unit (9+ members where the rule set has one) with three members replaced by junk: kept when
    every target built from units missing at most two members of the hand is farther, also with the copy
    limit lifted (so an engine taking both shortcuts still misses it). About 1 attempt in 60 is kept."""
    rules = ev.rules
    largest = max(u.size for u in rules.units)
    unit = rules.units[rng.choice([u.index for u in rules.units if u.size >= min(9, largest) and u.size >= 5])]
    built = complete_hand(rng, rules, start=(unit.index,))
    if built is None:
        return None
    hand = built.hand
    for k in rng.sample(unit.members, 3):
        hand = hand.remove(k)
    while hand.size(rules) < rules.hand_size:  # junk outside the unit
        held = hand.totals(rules)
        hand = hand.add(rng.choice([k for k in range(len(rules.tiles)) if k not in unit.members
                                    and k != rules.tiles.sora and held[k] < COPIES]))
    dm = ev.distance_model
    exact = exchange_distance(dm, hand).h
    if exact is None or not level.admits({"h": exact}):
        return None
    shortcuts = [shortcut_distance(rules, hand, (), copies, two_missing_only=True).h for copies in (COPIES, COPIES + 1)]
    if any(h is not None and h <= exact for h in shortcuts):
        return None
    said = "no complete hand" if shortcuts[0] is None else f"h = {shortcuts[0]}"
    note = (f"built from {unit.name} with 3 of its {unit.size} members replaced; with only units missing at most "
            f"two members of the hand: {said}")
    return position("traps", rules, hand, {"h": exact}, {"level": level.label, "h": exact},
                    shortcut="two_missing", note=note)


def called_whole(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    """A tenpai hand with one of its units called; kept when re-splitting the called tiles would change
    the waits."""
    rules = ev.rules
    built = complete_hand(rng, rules)
    if built is None:
        return None
    callable_units = sorted({u for u in built.units if rules.units[u].size >= 3})
    if not callable_units:
        return None
    call = rng.choice(callable_units)
    concealed = list(built.hand.concealed)
    for k in rules.units[call].members:
        concealed[k] -= 1
    if sum(concealed) < 2:  # the called unit is (nearly) the whole hand
        return None
    removed = rng.choice(Hand(tuple(concealed)).tiles())
    locked = Hand(tuple(concealed), (call,)).remove(removed)
    favourite = random_favourite(rng, rules, locked)
    found = prove_waits(ev, locked, favourite)
    free = {w.tile for w in waits(ev.distance_model, built.hand.remove(removed), (), favourite)}
    if free == {w.tile for w in found}:
        return None
    extra = sorted(free - {w.tile for w in found})
    note = (f"{rules.units[call].name} is called and stays whole; re-splitting its tiles would add the "
            f"wait(s) {', '.join(ev.tiles.name(k) for k in extra)}")
    rest = list(built.units)
    rest.remove(call)
    return _waits_trap(ev, "called_whole", level, locked, found,
                       wait_features(ev, locked, found, Built(locked, tuple(rest)), removed, 0), favourite, note)


def sora_mode(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    """A complete hand with one tile replaced by そら: complete when そら is a wildcard, not otherwise."""
    rules = ev.rules
    built = complete_hand(rng, rules)
    if built is None:
        return None
    hand = built.hand.remove(rng.choice(built.hand.tiles())).add(rules.tiles.sora)
    h = exchange_distance(ev.distance_model, hand).h
    wildcard = rules.sora_mode == "wildcard"
    if h is None or (h == 0) != wildcard or not level.admits({"h": h}):
        return None
    note = ("そら is a wildcard here: it stands in for the tile it replaced" if wildcard else
            f"そら is in no unit here ({rules.sora_mode}): read as a wildcard the hand would be complete")
    return position("traps", rules, hand, {"complete": wildcard, "h": h}, {"level": level.label, "h": h},
                    shortcut="sora_mode", note=note)


def ron_shika(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    """A complete hand holding 詩花, less one 詩花: 詩花 is a wait by tsumo only."""
    rules = ev.rules
    shika = rules.tiles.shika
    built = complete_hand(rng, rules, start=rules.units_of_kind[shika][:1])
    if built is None:
        return None
    hand = built.hand.remove(shika)
    favourite = random_favourite(rng, rules, hand) if any(hand.concealed) else None
    found = prove_waits(ev, hand, favourite)
    note = "a ron on 詩花 is not a win (docs/rules.md D2): its ron score is null; a tsumo on 詩花 is"
    return _waits_trap(ev, "ron_shika", level, hand, found, wait_features(ev, hand, found, built, shika, 0),
                       favourite, note)


def call_not_lowering(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    """A 12-tile hand and a discard it can call; the hand after the call (13 tiles) is no closer."""
    rules = ev.rules
    built = complete_hand(rng, rules)
    if built is None:
        return None
    hand = replace_tiles(rng, rules, tenpai(rng, built)[0], rng.randint(0, 1))
    options = sorted((u.index, x) for u in rules.units if u.size >= 3 for x in u.members
                     if all(hand.concealed[k] for k in u.members if k != x) and hand.totals(rules)[x] < COPIES)
    if not options:
        return None
    unit, x = rng.choice(options)
    concealed = list(hand.concealed)
    for k in rules.units[unit].members:
        if k != x:  # the called tile comes from the discard, the others from the hand
            concealed[k] -= 1
    after = Hand(tuple(concealed), tuple(sorted(hand.called + (unit,))))
    dm = ev.distance_model
    before, h = exchange_distance(dm, hand).h, exchange_distance(dm, after).h
    if before is None or h is None or h < before or not level.admits({"h": h}):
        return None
    note = (f"before the call h = {before}; calling {ev.tiles.name(x)} into {rules.units[unit].name} leaves "
            f"h = {h}: the call does not lower h")
    return position("traps", rules, after, {"h": h}, {"level": level.label, "h": h, "h_before": before},
                    shortcut="call_not_lowering", note=note)


TRAPS: dict[str, Trap] = {"call_not_lowering": call_not_lowering, "called_whole": called_whole,
                          "copy_limit": copy_limit, "ron_shika": ron_shika, "sora_mode": sora_mode,
                          "two_missing": two_missing}


def labels(ev: Evaluator) -> list[str]:
    """The trap labels that exist under this rule set, sorted."""
    rules = ev.rules
    out = set(TRAPS)
    if rules.tiles.sora is None:
        out.discard("sora_mode")
    if max(u.size for u in rules.units) < 5:
        out.discard("two_missing")
    if rules.tiles.shika is None or rules.spec.ron_on_shika or not rules.units_of_kind[rules.tiles.shika]:
        out.discard("ron_shika")
    return sorted(out)

