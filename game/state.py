"""The state of one game and its pure transitions (docs/game.md, "Rules").

A `GameState` is frozen; `apply(state, event)` returns the next state for one log event, so a game is the
fold of its log (game/log.py replays it without the RNG). The RNG only deals (`deal`). Tiles are kind indices
inside; events carry the catalogue's short names (the log's language), converted by `Table`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from solver.core.errors import MjError, shown
from solver.core.hand import COPIES, Hand
from solver.core.rules import RuleSet

HAND = 12  # tiles between turns (docs/rules.md section 2)
CALLS = ("any", "previous")  # chi from any seat's discard, or only from the previous seat's


@dataclass(frozen=True)
class Options:
    """House options where rules differ (documented flags; the defaults are the issue's)."""

    calls: str = "any"
    multiple_ron: bool = False  # False: only the first seat in turn order after the discarder wins the ron

    def __post_init__(self):
        if self.calls not in CALLS:
            raise MjError(f"calls must be one of {', '.join(CALLS)}, not {shown(self.calls)}")


class Table:
    """Names <-> kind indices and unit names <-> unit indices for one rule set (the log's edge)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.names = tuple(rules.tiles.name(k) for k in range(len(rules.tiles)))
        self.kinds = {name: k for k, name in enumerate(self.names)}
        self.unit_names = tuple(u.name for u in rules.units)
        self.unit_by_name = {}
        for u in rules.units:  # a few units share a name across rule lists: the first (lowest index) wins
            self.unit_by_name.setdefault(u.name, u.index)
        self.sora = rules.tiles.sora
        self.shika = rules.tiles.shika

    def kind(self, name) -> int:
        kind = self.kinds.get(name) if isinstance(name, str) else None
        if kind is None:
            raise MjError(f"unknown tile {shown(name)} in a game event")
        return kind

    def unit(self, name) -> int:
        unit = self.unit_by_name.get(name) if isinstance(name, str) else None
        if unit is None:
            raise MjError(f"unknown unit {shown(name)} in a game event")
        return unit


@dataclass(frozen=True)
class Seat:
    concealed: tuple[int, ...]  # counts per kind
    called: tuple[int, ...] = ()  # unit indices, in call order
    room: tuple[int, ...] = ()  # this seat's waiting room (控え室), oldest first

    def hand(self) -> Hand:
        return Hand(self.concealed, tuple(sorted(self.called)))

    def size(self, rules: RuleSet) -> int:
        return sum(self.concealed) + sum(rules.units[u].size for u in self.called)


@dataclass(frozen=True)
class Win:
    seat: int
    target: int  # the discarder, or the winner for tsumo
    tile: int
    score: int | None

    @property
    def tsumo(self) -> bool:
        return self.seat == self.target


@dataclass(frozen=True)
class GameState:
    """Phases: "draw" (turn's seat before drawing: そら or draw), "discard" (13 tiles), "claim" (others may
    answer `last`), "end"."""

    seats: tuple[Seat, ...]
    wall: tuple[int, ...]  # the undrawn tiles at the deal, in draw order
    drawn: int = 0  # tiles drawn so far
    dealer: int = 0
    turn: int = 0  # the seat that acts (or whose discard is claimed)
    phase: str = "draw"
    sora_used: bool = False  # the turn's seat used そら this turn
    may_tsumo: bool = False  # the 13th tile came from the wall (not from a call)
    last: tuple[int, int] | None = None  # (discarder, tile) of the latest discard
    wins: tuple[Win, ...] = ()
    exhausted: bool = False
    scores: tuple[int | None, ...] | None = None
    events: int = 0  # events applied (an index for `mj replay --at`)
    favourites: tuple[int, ...] = field(default=())
    options: Options = Options()

    @property
    def wall_left(self) -> int:
        return len(self.wall) - self.drawn

    @property
    def next_seat(self) -> int:
        """The seat that draws after a discard goes unclaimed."""
        return (self.turn + 1) % len(self.seats)


# --- the deal ----------------------------------------------------------------------------------------------

def deal(seed: int, rules: RuleSet, seats: int = 4, dealer: int = 0,
         favourites: dict[int, int] | None = None) -> tuple[list[list[int]], list[int], list[int]]:
    """(hands of 12 kinds per seat, the wall in draw order, favourites): `random.Random(seed)` shuffles the
    162 tiles; the dealer takes the first 12, then each seat in turn order; favourites not given are drawn
    next from the same RNG (never そら), one draw per seat either way, so the deal never depends on them."""
    if not 2 <= seats <= 4:
        raise MjError(f"a game has 2 to 4 seats, not {seats}")
    if not 0 <= dealer < seats:
        raise MjError(f"the dealer is a seat from 0 to {seats - 1}, not {dealer}")
    kinds = len(rules.tiles)
    tiles = [k for k in range(kinds) for _ in range(COPIES)]
    rng = random.Random(seed)
    rng.shuffle(tiles)
    hands: list[list[int]] = [[] for _ in range(seats)]
    for n in range(seats):
        seat = (dealer + n) % seats
        hands[seat] = sorted(tiles[HAND * n:HAND * (n + 1)])
    wall = tiles[HAND * seats:]
    choices = [k for k in range(kinds) if k != rules.tiles.sora]
    drawn = [rng.choice(choices) for _ in range(seats)]
    chosen = favourites or {}
    return hands, wall, [chosen.get(s, drawn[s]) for s in range(seats)]


def initial(hands: list[list[int]], wall: list[int], dealer: int, favourites: list[int], kinds: int,
            options: Options = Options()) -> GameState:
    seats = []
    for tiles in hands:
        counts = [0] * kinds
        for k in tiles:
            counts[k] += 1
        seats.append(Seat(tuple(counts)))
    return GameState(tuple(seats), tuple(wall), dealer=dealer, turn=dealer, favourites=tuple(favourites),
                     options=options)


# --- transitions -------------------------------------------------------------------------------------------

class IllegalEvent(MjError):
    """An event that the state does not allow (a corrupt or foreign log)."""


def _need(condition: bool, why: str) -> None:
    if not condition:
        raise IllegalEvent(why)


def _moved(seat: Seat, **changes) -> Seat:
    return replace(seat, **changes)


def _counts(concealed: tuple[int, ...], kind: int, n: int) -> tuple[int, ...]:
    counts = list(concealed)
    counts[kind] += n
    _need(counts[kind] >= 0, "a tile the seat does not hold")
    return tuple(counts)


def _without_last(room: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """The room without its latest copy of `kind`."""
    for i in range(len(room) - 1, -1, -1):
        if room[i] == kind:
            return room[:i] + room[i + 1:]
    raise IllegalEvent("a tile that is not in that waiting room")


def start_turn(state: GameState) -> GameState:
    """After an unclaimed discard, the next seat's turn begins (the log has no event for passing)."""
    if state.phase == "claim":
        return replace(state, turn=state.next_seat, phase="draw", sora_used=False)
    return state


def _with_seat(state: GameState, i: int, seat: Seat) -> tuple[Seat, ...]:
    return state.seats[:i] + (seat,) + state.seats[i + 1:]


def apply(state: GameState, event: dict, table: Table) -> GameState:
    """The state after one event (events are checked, not trusted: IllegalEvent names what is wrong)."""
    kind = event.get("type")
    state = replace(state, events=state.events + 1)
    if kind in ("error", "start_game", "start_kyoku"):
        return state  # a bot's fault changes nothing; the start events build the first state (log.py)
    if kind == "end_game":
        scores = event.get("scores")
        _need(state.phase == "end" and state.scores is None, "end_game before the game ended")
        _need(isinstance(scores, list) and len(scores) == len(state.seats), "end_game needs one score per seat")
        return replace(state, scores=tuple(scores))
    _need(state.phase != "end" or kind == "hora", f"{kind} after the game ended")
    if kind in ("sora", "tsumo"):
        state = start_turn(state)
        _need(state.phase == "draw" and event.get("actor") == state.turn, f"{kind} out of turn")
    actor = event.get("actor")
    if kind == "sora":
        _need(not state.sora_used and table.sora is not None, "そら used twice in a turn")
        target, tile = event.get("target"), table.kind(event.get("pai"))
        _need(isinstance(target, int) and 0 <= target < len(state.seats) and tile != table.sora, "bad そら target")
        seat = state.seats[actor]
        seat = _moved(seat, concealed=_counts(_counts(seat.concealed, table.sora, -1), tile, 1),
                      room=seat.room + (table.sora,))
        seats = _with_seat(state, actor, seat)
        other = seats[target]
        seats = seats[:target] + (_moved(other, room=_without_last(other.room, tile)),) + seats[target + 1:]
        return replace(state, seats=seats, sora_used=True)
    if kind == "tsumo":
        _need(state.wall_left > 0 and table.kind(event.get("pai")) == state.wall[state.drawn], "not the next wall tile")
        seat = state.seats[actor]
        seat = _moved(seat, concealed=_counts(seat.concealed, state.wall[state.drawn], 1))
        return replace(state, seats=_with_seat(state, actor, seat), drawn=state.drawn + 1, phase="discard",
                       may_tsumo=True)
    if kind == "dahai":
        _need(state.phase == "discard" and actor == state.turn, "a discard out of turn")
        tile = table.kind(event.get("pai"))
        seat = state.seats[actor]
        seat = _moved(seat, concealed=_counts(seat.concealed, tile, -1), room=seat.room + (tile,))
        return replace(state, seats=_with_seat(state, actor, seat), phase="claim", last=(actor, tile),
                       may_tsumo=False)
    if kind == "chi":
        _need(state.phase == "claim" and state.last is not None, "a call without a discard")
        discarder, tile = state.last
        _need(event.get("target") == discarder and table.kind(event.get("pai")) == tile
              and isinstance(actor, int) and actor != discarder and 0 <= actor < len(state.seats), "a call on another tile")
        _need(state.options.calls == "any" or actor == (discarder + 1) % len(state.seats),
              "a call from a seat other than the next (calls: previous)")
        unit = table.rules.units[table.unit(event.get("unit"))]
        consumed = sorted(table.kind(t) for t in event.get("consumed") or ())
        _need(unit.size >= 3 and sorted(consumed + [tile]) == list(unit.members), "a call into no unit of 3+ members")
        seat = state.seats[actor]
        concealed = seat.concealed
        for k in consumed:
            concealed = _counts(concealed, k, -1)
        seats = _with_seat(state, actor, _moved(seat, concealed=concealed, called=seat.called + (unit.index,)))
        loser = seats[discarder]
        seats = seats[:discarder] + (_moved(loser, room=loser.room[:-1]),) + seats[discarder + 1:]
        return replace(state, seats=seats, turn=actor, phase="discard", may_tsumo=False, sora_used=False)
    if kind == "hora":
        return _hora(state, event, table)
    if kind == "ryukyoku":
        _need(state.phase in ("claim", "draw") and state.wall_left == 0, "an exhaustive draw with tiles left")
        return replace(state, phase="end", exhausted=True)
    raise IllegalEvent(f"unknown event type {shown(kind)}")


def _hora(state: GameState, event: dict, table: Table) -> GameState:
    actor, target, tile = event.get("actor"), event.get("target"), table.kind(event.get("pai"))
    score = event.get("score")
    if actor == target:  # tsumo: the drawn tile is already in the hand
        _need(state.phase == "discard" and state.may_tsumo and actor == state.turn, "a tsumo out of turn")
        return replace(state, phase="end", wins=(Win(actor, actor, tile, score),))
    # ron: the first winner takes the tile out of the room; further winners (--multiple-ron) score with it too
    if state.phase == "end":
        _need(state.options.multiple_ron and bool(state.wins) and not state.wins[0].tsumo
              and state.wins[0].target == target and state.wins[0].tile == tile
              and actor not in {w.seat for w in state.wins}, "a second ron without --multiple-ron, or on another tile")
        return replace(state, wins=state.wins + (Win(actor, target, tile, score),))
    _need(state.phase == "claim" and state.last == (target, tile) and actor != target, "a ron without that discard")
    seats = list(state.seats)
    seats[actor] = _moved(seats[actor], concealed=_counts(seats[actor].concealed, tile, 1))
    seats[target] = _moved(seats[target], room=seats[target].room[:-1])
    return replace(state, seats=tuple(seats), phase="end", wins=(Win(actor, target, tile, score),))


def winning_hand(state: GameState, win: Win) -> Hand:
    """The 13 tiles a win is scored on (a further ron winner's hand with the shared ron tile added)."""
    hand = state.seats[win.seat].hand()
    first = state.wins[0]
    if not win.tsumo and win.seat != first.seat:
        hand = hand.add(win.tile)
    return hand
