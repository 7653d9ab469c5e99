"""Game states as JSON for the /play and /review pages: what a seat sees (game/view.py's observation) or,
for a finished game's review, every seat's tiles. Tiles are the log's short names; no rule is decided here."""

from __future__ import annotations

from typing import Any

from game.state import GameState, Table
from game.view import observe


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
    """Every seat's tiles (a review shows the whole game), the rooms and calls, the wall left."""
    if state is None:  # after start_game: nothing dealt yet
        return None
    return {"phase": state.phase, "turn": state.turn,
            "hands": [_concealed(table, s.concealed) for s in state.seats],
            "rooms": [_names(table, s.room) for s in state.seats],
            "calls": [_units(table, s.called) for s in state.seats],
            "wall_left": state.wall_left, "last": _last(table, state),
            "favourites": _names(table, state.favourites)}
