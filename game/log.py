"""The game log: mjai-like JSON lines, one event per line (docs/game.md, "The log"; docs/game-log.schema.json).

The log alone replays the game: `replay` folds the events through the same transitions the engine used,
without the RNG. Lines are written the same way every time (key order as built, no spaces, UTF-8), so the
same seed and players give a byte-identical log.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from game.state import CALLS, GameState, IllegalEvent, Options, Table, apply, initial, start_turn
from solver.core.errors import MjError, shown

MAX_LINE = 1 << 20  # bytes: a start_kyoku line is about 2 KB; anything near this is not a game log
MAX_EVENTS = 100_000


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def dumps(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write(events: Iterable[dict], stream) -> None:
    for event in events:
        stream.write(dumps(event) + "\n")


def parse_line(line: str, number: int = 0) -> dict:
    """One event from one line; bad JSON, a non-object or a huge line is an MjError naming the line."""
    where = f"line {number}: " if number else ""
    if len(line) > MAX_LINE:
        raise MjError(f"{where}a line of more than {MAX_LINE} characters")
    try:
        event = json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise MjError(f"{where}not JSON ({shown(str(exc))[:80]})") from None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise MjError(f"{where}an event is a JSON object with a \"type\"")
    return event


def read(text: str) -> list[dict]:
    events = [parse_line(line, n) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(events) > MAX_EVENTS:
        raise MjError(f"more than {MAX_EVENTS} events: not one game")
    return events


def header(events: list[dict]) -> tuple[dict, dict]:
    """(start_game, start_kyoku): the first two events of every log."""
    if len(events) < 2 or events[0].get("type") != "start_game" or events[1].get("type") != "start_kyoku":
        raise MjError("a game log starts with start_game and start_kyoku")
    return events[0], events[1]


def _tiles(value, table: Table, what: str) -> list[int]:
    if not isinstance(value, list):
        raise MjError(f"start_kyoku: {what} must be a list of tile names")
    return [table.kind(name) for name in value]


def first_state(events: list[dict], table: Table) -> GameState:
    """The state right after start_kyoku."""
    game, kyoku = header(events)
    tehais = kyoku.get("tehais")
    if not isinstance(tehais, list) or not 2 <= len(tehais) <= 4:
        raise MjError("start_kyoku: tehais must hold 2 to 4 hands")
    hands = [_tiles(hand, table, "each hand") for hand in tehais]
    wall = _tiles(kyoku.get("wall"), table, "wall")
    favourites = _tiles(game.get("favourites"), table, "favourites")
    dealer = kyoku.get("oya")
    if len(favourites) != len(hands) or not isinstance(dealer, int) or not 0 <= dealer < len(hands):
        raise MjError("start_game/start_kyoku: one favourite per seat and a dealer among the seats")
    counts = [0] * len(table.names)
    for k in [k for hand in hands for k in hand] + wall:
        counts[k] += 1
    if any(n != 3 for n in counts) or any(len(hand) != 12 for hand in hands):
        raise MjError("start_kyoku: the hands and the wall must hold every tile exactly 3 times, 12 per hand")
    calls, multiple = game.get("calls", "any"), game.get("multiple_ron", False)
    if calls not in CALLS or not isinstance(multiple, bool):
        raise MjError("start_game: calls must be any or previous, multiple_ron true or false")
    state = initial(hands, wall, dealer, favourites, len(table.names), Options(calls, multiple))
    return apply(state, kyoku, table)


def legal_here(state: GameState, event: dict, table: Table) -> bool:
    """Whether a player's decision is one of the legal actions of the state (game/legal.py), as the engine
    offered them: a tsumo or a ron on an incomplete hand, a call into a unit the seat cannot form, a そら
    twice in a turn are refused."""
    from game import legal

    kind = event.get("type")
    if kind not in ("sora", "dahai", "chi", "hora"):
        return True
    actor = event.get("actor")
    if not isinstance(actor, int) or not 0 <= actor < len(state.seats):
        return False
    if state.phase == "claim" and kind == "sora":
        state = start_turn(state)  # the next seat's turn begins with it
    if kind == "sora":
        offered = legal.sora_actions(state, table)
    elif kind == "dahai" or (kind == "hora" and event.get("target") == actor):
        offered = legal.discard_actions(state, table) if state.phase == "discard" else []
    elif state.phase == "claim":
        offered = legal.claim_actions(state, table, actor, state.options)
    elif state.phase == "end" and kind == "hora":  # a further winner of the same discard (--multiple-ron)
        before = state.wins[0]
        return legal.can_ron(state, table, actor, before.tile) if actor != before.seat else False
    else:
        offered = []
    return legal.pick(event, offered) is not None


def replay(events: list[dict], table: Table, strict: bool = True) -> list[GameState | None]:
    """The state after each event (None after start_game), rebuilt from the log alone; `strict` also checks
    that every decision was a legal action there (wins complete, calls into units the seat held)."""
    states: list[GameState | None] = [None, first_state(events, table)]
    state = states[1]
    for n, event in enumerate(events[2:], 3):
        try:
            if strict and not legal_here(state, event, table):
                raise IllegalEvent(f"{event.get('type')} is not a legal action there")
            state = apply(state, event, table)
        except IllegalEvent as exc:
            raise MjError(f"line {n}: {exc}") from None
        states.append(state)
    return states
