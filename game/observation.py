"""What one seat sees: the observation a built-in player decides on, and the events as an external engine
receives them. Other seats' concealed tiles and draws are hidden ("?"), and so is the wall."""

from __future__ import annotations

from dataclasses import dataclass

from game.state import GameState, Table
from solver.core.hand import Hand
from solver.core.rules import RuleSet

HIDDEN = "?"


@dataclass(frozen=True)
class Observation:
    seat: int
    phase: str
    hand: Hand  # own concealed tiles and called units
    rooms: tuple[tuple[int, ...], ...]  # every seat's waiting room, oldest first
    called: tuple[tuple[int, ...], ...]  # every seat's called units
    sizes: tuple[int, ...]  # tiles each seat holds, concealed and called
    wall_left: int
    turns_left: int  # draws this seat can still make if nobody calls or wins
    favourite: int
    seen: tuple[int, ...]  # per kind: copies visible to this seat outside its own hand (rooms, others' calls)
    last: tuple[int, int] | None  # (discarder, tile) of the latest discard
    rules: RuleSet
    table: Table
    drawn: int | None = None  # the tile this seat just drew (its 13th), if it came from the wall

    @property
    def room_tiles(self) -> list[int]:
        return [k for room in self.rooms for k in room]


def observe(state: GameState, seat: int, table: Table) -> Observation:
    """What `seat` sees of the state: its own hand and favourite, every waiting room and called unit, each seat's
    tile count and the wall's size, never another hand or the wall's order."""
    rules = table.rules
    kinds = len(rules.tiles)
    seen = [0] * kinds
    for room in (s.room for s in state.seats):
        for k in room:
            seen[k] += 1
    for i, other in enumerate(state.seats):
        if i != seat:
            for u in other.called:
                for k in rules.units[u].members:
                    seen[k] += 1
    n = len(state.seats)
    # the wall is dealt in turn order from the seat to move: count this seat's future draws
    start = state.next_seat if state.phase == "claim" else state.turn
    if state.phase == "discard" and start == seat:
        start = (start + 1) % n
    offset = (seat - start) % n
    turns = max(0, (state.wall_left - offset + n - 1) // n)
    me = state.seats[seat]
    return Observation(seat, state.phase, me.hand(), tuple(s.room for s in state.seats),
                       tuple(s.called for s in state.seats), tuple(s.size(rules) for s in state.seats),
                       state.wall_left, turns, state.favourites[seat], tuple(seen), state.last, rules, table,
                       state.wall[state.drawn - 1] if state.may_tsumo and state.turn == seat else None)


def plan_position(hand: Hand, seen, room, favourite: int | None):
    """The planner's Position of what a seat saw (`seen` counts the waiting rooms' tiles too; the planner
    takes the rooms apart, as the tiles a そら can fetch)."""
    from solver.planning.request import Position

    return Position(hand, elsewhere(seen, room), tuple(room), favourite)


def elsewhere(seen, room) -> tuple[int, ...]:
    """The counts a seat saw (`seen`: the waiting rooms' tiles too) less its own room's tiles, which the analysis
    and the planner take apart, as tiles a そら can fetch: counted in both they passed three copies (QA)."""
    out = list(seen)
    for k in room:
        out[k] -= 1
    return tuple(out)


def seat_event(event: dict, seat: int) -> dict:
    """The event as `seat` sees it: others' starting hands and draws hidden, the wall never shown."""
    kind = event.get("type")
    if kind == "start_game":  # the seed would give the wall away
        return {key: value for key, value in event.items() if key != "seed"}
    if kind == "start_kyoku":
        shown = dict(event)
        shown["tehais"] = [hand if i == seat else [HIDDEN] * len(hand) for i, hand in enumerate(event["tehais"])]
        shown.pop("wall", None)
        return shown
    if kind == "tsumo" and event.get("actor") != seat:
        return {**event, "pai": HIDDEN}
    return event


def distance(rules: RuleSet, hand: Hand, seen: tuple[int, ...] = ()) -> tuple[int | None, list[int]]:
    """(h, the kinds that lower it) of a 12-tile hand, from the exact search; at h = 1 the kinds are the waits
    (physics only: three copies a kind, the hand's own included)."""
    from solver.core.search.fast import ACCEPT_NODES_C, search_for

    search = search_for(rules)
    h = search.h(hand, seen)
    if h != 1:
        return h, []
    found = search.accepted(hand, seen, limit=ACCEPT_NODES_C, witnesses=False)
    return h, [] if found is None else found[1]
