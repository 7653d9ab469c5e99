"""Game states as JSON, one shape for every caller: what a seat sees (the /play page; game/observation.py's
observation) and, for a replayed log, every seat's tiles at each position (`mj replay --json` and
/api/replay give the same `replay_step`). Tiles and units are the log's names; no rule is decided here."""

from __future__ import annotations

from typing import Any

from game.observation import observe
from game.state import GameState, Table


def _names(table: Table, kinds) -> list[str]:
    return [table.names[k] for k in kinds]


def _concealed(table: Table, counts) -> list[str]:
    return [table.names[k] for k, n in enumerate(counts) for _ in range(n)]


def _units(table: Table, units) -> list[dict[str, Any]]:
    rules = table.rules
    return [{"unit": rules.units[u].name, "tiles": _names(table, rules.units[u].members)} for u in units]


def _last(table: Table, state: GameState) -> dict[str, Any] | None:
    return None if state.last is None else {"actor": state.last[0], "pai": table.names[state.last[1]]}


def seat_view(state: GameState, seat: int, table: Table) -> dict[str, Any]:
    """The seat's own view: its concealed tiles (the tile just drawn apart), every waiting room and call."""
    obs = observe(state, seat, table)
    hand = _concealed(table, obs.hand.concealed)
    drawn = table.names[obs.drawn] if obs.drawn is not None else None
    if drawn is not None:
        hand.remove(drawn)
    return {"phase": state.phase, "turn": state.turn, "hand": hand, "drawn": drawn,
            "rooms": [_names(table, room) for room in obs.rooms],
            "calls": [_units(table, units) for units in obs.called], "sizes": list(obs.sizes),
            "wall_left": obs.wall_left, "turns_left": obs.turns_left, "last": _last(table, state),
            "favourite": table.names[obs.favourite]}


def full_view(state: GameState | None, table: Table) -> dict[str, Any] | None:
    """Every seat's tiles (a review shows the whole game), the rooms and calls, the wall left, the wins and
    the scores once the game has them."""
    if state is None:  # after start_game: nothing dealt yet
        return None
    return {"phase": state.phase, "turn": state.turn,
            "hands": [_concealed(table, s.concealed) for s in state.seats],
            "rooms": [_names(table, s.room) for s in state.seats],
            "calls": [_units(table, s.called) for s in state.seats],
            "wall_left": state.wall_left, "last": _last(table, state),
            "favourites": _names(table, state.favourites),
            "wins": [{"seat": w.seat, "target": w.target, "pai": table.names[w.tile], "score": w.score}
                     for w in state.wins],
            "scores": None if state.scores is None else list(state.scores)}


def replay_step(at: int, event: dict, state: GameState | None, table: Table) -> dict[str, Any]:
    """The position after `at` events (`mj replay --at AT`): the last event, as logged, and every seat's view."""
    return {"at": at, "event": event, "view": full_view(state, table)}


def replay_steps(events: list[dict], states: list[GameState | None], table: Table) -> list[dict[str, Any]]:
    """replay_step after each event of a log (game/log.py replay's states)."""
    return [replay_step(at, event, state, table) for at, (event, state) in enumerate(zip(events, states), 1)]
