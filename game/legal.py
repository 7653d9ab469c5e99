"""The legal actions at each decision point, as the exact event objects a player sends back (mjai.app's
`possible_actions`). The engine alone knows the rules; players only pick one of these.

Completeness comes from the exact search of the core (solver.core.search: exhaustive, no solver), the same
answer as `Evaluator.is_complete` (tests/test_game.py checks both, and the test oracle, on every win).
"""

from __future__ import annotations

import json

from game.state import GameState, Options, Table
from solver.core.errors import shown
from solver.core.search.fast import search_for

NONE = {"type": "none"}


def complete(table: Table, hand) -> bool:
    return search_for(table.rules).complete(hand)


def sora_actions(state: GameState, table: Table) -> list[dict]:
    """Before drawing: send そら to the own room and take any one tile from any room (own included), once a
    turn; only where そら is fetched (rule sets whose そら mode is "fetch"). Taking a そら back is left out:
    it would change nothing."""
    sora = table.sora
    actor = state.turn
    if (sora is None or state.sora_used or table.rules.sora_mode != "fetch"
            or state.seats[actor].concealed[sora] == 0):
        return []
    actions = []
    n = len(state.seats)
    for step in range(n):  # own room first, then turn order
        target = (actor + step) % n
        for kind in sorted(set(state.seats[target].room) - {sora}):
            actions.append({"type": "sora", "actor": actor, "target": target, "pai": table.names[kind]})
    return actions


def discard_actions(state: GameState, table: Table) -> list[dict]:
    """With 13 tiles: tsumo when they are complete and the 13th came from the wall; one discard per kind held."""
    actor = state.turn
    seat = state.seats[actor]
    actions = []
    if state.may_tsumo and complete(table, seat.hand()):
        tile = table.names[state.wall[state.drawn - 1]]
        actions.append({"type": "hora", "actor": actor, "target": actor, "pai": tile})
    for kind, n in enumerate(seat.concealed):
        if n:
            actions.append({"type": "dahai", "actor": actor, "pai": table.names[kind]})
    return actions


def can_ron(state: GameState, table: Table, seat: int, tile: int) -> bool:
    if tile == table.shika and not table.rules.spec.ron_on_shika:  # D2: ron on 詩花 is not a win
        return False
    return complete(table, state.seats[seat].hand().add(tile))


def claim_actions(state: GameState, table: Table, seat: int, options: Options) -> list[dict]:
    """What `seat` may answer to the latest discard: ron, a call (チー) into each unit of 3+ members whose
    other members it holds (only the next seat under calls="previous"), or nothing (empty: no choice)."""
    discarder, tile = state.last
    if seat == discarder:
        return []
    actions = []
    name = table.names[tile]
    if can_ron(state, table, seat, tile):
        actions.append({"type": "hora", "actor": seat, "target": discarder, "pai": name})
    if options.calls == "any" or seat == (discarder + 1) % len(state.seats):
        held = state.seats[seat].concealed
        rules = table.rules
        for u in rules.units_of_kind[tile]:
            unit = rules.units[u]
            others = [k for k in unit.members if k != tile]
            # (a call that takes every concealed tile leaves none to discard after it: not a call)
            if unit.size >= 3 and all(held[k] for k in others) and sum(held) > len(others):
                actions.append({"type": "chi", "actor": seat, "target": discarder, "pai": name,
                                "consumed": [table.names[k] for k in others], "unit": table.unit_names[u]})
    return actions + [NONE] if actions else []


def same_action(answer, candidate: dict) -> bool:
    """An answer names a candidate when every field of the candidate matches (extra fields are ignored)."""
    return isinstance(answer, dict) and all(answer.get(key) == value for key, value in candidate.items())


def pick(answer, candidates: list[dict]) -> dict | None:
    """The candidate an answer names, or None (an illegal answer)."""
    return next((c for c in candidates if same_action(answer, c)), None)


def why_not(answer, candidates: list[dict]) -> str:
    """Why an answer names no candidate, in a few words: its first field, in the offer's order, that no offered
    action of its type has (QA: "illegal action" alone left engine authors guessing)."""
    if not isinstance(answer, dict):
        return "not a JSON object"
    mine = [c for c in candidates if c["type"] == answer.get("type")]
    if not mine:
        offered = ", ".join(sorted({c["type"] for c in candidates}))
        return f"no action of type {_quoted(answer.get('type'))} is offered now (offered: {offered})"
    for key in mine[0]:
        if key not in answer:
            return f"its field {key} is missing"
        if not any(c.get(key) == answer[key] for c in mine):
            return f"no offered {answer['type']} has {key} {_quoted(answer[key])}"
        mine = [c for c in mine if c.get(key) == answer[key]]
    return "no offered action has all its fields"


def _quoted(value) -> str:
    return shown(json.dumps(value, ensure_ascii=False))
