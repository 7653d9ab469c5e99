"""What an engine that takes one known shortcut answers on a generated position.

A trap is kept only when its shortcut changes the answer; these models say how, so that tests can
show `mj check` catching each one. The `copy_limit` and `two_missing` models together reproduce all
540 answers Hitori-Jong 2.1.0 recorded (README: "What it finds in Hitori-Jong 2.1.0's claims").
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from solver.analysis.turn import waits
from solver.api import Evaluator
from solver.core.search.shortcut import shortcut_distance
from solver.core.hand import COPIES, Hand
from solver.core.notation import hand_from_list
from solver.generation.prove import fourth_copy_decoys
from solver.generation.position_line import waits_json

_VARIANTS: dict[tuple[int, tuple], Evaluator] = {}


def variant(ev: Evaluator, **changes: Any) -> Evaluator:
    """The same units and scoring with some rule parameters changed (e.g. another そら mode)."""
    key = (id(ev), tuple(sorted(changes.items())))
    if key not in _VARIANTS:
        name = f"{ev.rules.name}+shortcut"
        spec = replace(ev.rules.spec, name=name, **changes)
        catalogue = replace(ev.catalogue, rules={**ev.catalogue.rules, name: spec})
        _VARIANTS[key] = Evaluator(name, catalogue=catalogue, as_of=ev.rules.as_of)
    return _VARIANTS[key]


HITORI_JONG = ("copy_limit", "two_missing")  # Hitori-Jong 2.1.0's known shortcuts (docs/rules.md section 7)
SHORTCUTS = ("call_not_lowering", "called_whole", "copy_limit", "ron_shika", "sora_mode", "two_missing")


def shortcut_answer(ev: Evaluator, pos: dict[str, Any], shortcuts: str | tuple[str, ...]) -> dict[str, Any]:
    """A copy of the position with its claims answered as an engine taking `shortcuts` would; claims
    no shortcut touches keep the exact answer."""
    shortcuts = (shortcuts,) if isinstance(shortcuts, str) else shortcuts
    unknown = set(shortcuts) - set(SHORTCUTS)
    if unknown:
        raise ValueError(f"unknown shortcut(s) {sorted(unknown)}")
    rules = ev.rules
    hand = hand_from_list(pos["hand"], rules)
    favourite = ev.tile(pos["favorite"]) if "favorite" in pos else None
    seen = ev.seen(pos.get("seen", []))
    out = copy.deepcopy(pos)
    dm = ev.distance_model
    if "waits" in out:
        if "called_whole" in shortcuts:  # the called tiles re-split like concealed ones
            out["waits"] = waits_json(waits(dm, Hand(tuple(hand.totals(rules))), seen, favourite), rules)
        if "ron_shika" in shortcuts:  # a ron on 詩花 scored like any other
            lax = variant(ev, ron_on_shika=True)
            out["waits"] = waits_json(waits(lax.distance_model, hand, seen, favourite), rules)
        if "copy_limit" in shortcuts:  # a 4th copy counts: decoys listed with the score they would give
            out["waits"] += [{"tile": ev.tiles.ids[k], "tsumo": score}
                             for k, score in sorted(fourth_copy_decoys(ev, hand, favourite).items())]
    if "h" in out and {"copy_limit", "two_missing"} & set(shortcuts):
        copies = COPIES + 1 if "copy_limit" in shortcuts else COPIES
        out["h"] = shortcut_distance(rules, hand, seen, copies, "two_missing" in shortcuts).h
    if "sora_mode" in shortcuts:  # そら read as a wildcard where it is not, and as dead where it is
        other = variant(ev, sora="dead" if rules.sora_mode == "wildcard" else "wildcard")
        if "complete" in out:
            out["complete"] = other.is_complete(hand)
        if "h" in out:
            out["h"] = other.h(hand, seen).h
    if "call_not_lowering" in shortcuts and "h_before" in pos.get("difficulty", {}):
        out["h"] = pos["difficulty"]["h_before"] - 1  # the call is believed to lower h by one
    return out
