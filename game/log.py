"""The game log: mjai-like JSON lines, one event per line (docs/game.md, "The log"; docs/game-log.schema.json).

The log alone replays the game: `replay` folds the events through the same transitions the engine used,
without the RNG. Lines are written the same way every time (key order as built, no spaces, UTF-8), so the
same seed and players give a byte-identical log.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from game.scoring import seat_result
from game.state import CALLS, GameState, IllegalEvent, Options, Table, apply, initial, start_turn
from solver.core.errors import MjError, shown
from solver.core.rules import rules_digest
from solver.core.wording import count

MAX_LINE = 1 << 20  # bytes: a start_kyoku line is about 2 KB; anything near this is not a game log
MAX_EVENTS = 100_000
UNFINISHED = "the log ends before the game did (no end_game)"

# the fields of each event after the deal and what they hold (docs/game-log.schema.json); "label" (a COM's
# note) and an error's "crashed" and "dropped" are optional
FIELDS = {"sora": {"actor": "seat", "target": "seat", "pai": "tile"}, "tsumo": {"actor": "seat", "pai": "tile"},
          "dahai": {"actor": "seat", "pai": "tile"},
          "chi": {"actor": "seat", "target": "seat", "pai": "tile", "consumed": "tiles", "unit": "text"},
          "hora": {"actor": "seat", "target": "seat", "pai": "tile", "score": "score"}, "ryukyoku": {},
          "end_game": {"scores": "scores"}, "error": {"actor": "seat", "reason": "text"}}
MEANS = {"seat": "a seat number", "tile": "a tile name", "tiles": "a list of tile names", "text": "a string",
         "score": "a whole number or null", "scores": "a list of one score (a whole number or null) per seat"}


def no_constant(name: str):
    """json.loads' parse_constant for the game's JSON (logs, bots' answers, the browser's actions): NaN and
    Infinity are not JSON, refused as text that does not parse."""
    raise ValueError(f"{name} is not JSON")


def dumps(event: dict) -> str:
    """One event as its log line (no newline): compact JSON, idol names as written. A log is one line per event
    (write); a list of events is not one event."""
    if not isinstance(event, dict):  # (QA: dumps(record.events) wrote a JSON array, which read then refused)
        raise MjError(f"dumps takes one event (a dict), not {type(event).__name__}: write(events, stream) writes a log")
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write(events: Iterable[dict], stream) -> None:
    """A log to a text stream: one line per event (what mj play --log writes and read takes)."""
    for event in events:
        stream.write(dumps(event) + "\n")


def parse_line(line: str, number: int = 0) -> dict:
    """One event from one line; bad JSON, a non-object or a huge line is an MjError naming the line."""
    where = f"line {number}: " if number else ""
    if len(line) > MAX_LINE:
        raise MjError(f"{where}a line of more than {MAX_LINE} characters")
    try:
        event = json.loads(line, parse_constant=no_constant)
    except (ValueError, RecursionError) as exc:
        raise MjError(f"{where}not JSON ({shown(str(exc))[:80]})") from None
    if isinstance(event, dict) and "type" not in event and {"game", "seed", "seats"} <= event.keys():
        raise MjError(f"{where}a line of mj tournament's output (game {shown(event['game'])}), not of a game log: "
                      "the tournament's --logs DIR keeps each game's log")  # (QA: read as a corrupt log)
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise MjError(f"{where}an event is a JSON object with a \"type\"")
    return event


def read(text: str) -> list[dict]:
    """The events of a log's text (not a file: read(path.read_text())), each line checked as JSON; MjError names
    the first bad line."""
    if not isinstance(text, str):  # (QA: read(open(f)) raised AttributeError)
        raise MjError(f"read takes the log's text, not {type(text).__name__}: read(open(path).read())")
    text = text.removeprefix("\ufeff")  # a byte order mark (some editors add one) is not part of line 1
    events = [parse_line(line, n) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(events) > MAX_EVENTS:
        raise MjError(f"more than {MAX_EVENTS} events: not one game")
    return events


def _is(value, what: str, seats: int) -> bool:
    whole = type(value) is int  # not a bool: true is no seat and no score
    if what in ("tiles", "scores"):
        item = "tile" if what == "tiles" else "score"
        return isinstance(value, list) and all(_is(v, item, seats) for v in value) \
            and (what == "tiles" or len(value) == seats)
    return {"seat": whole and 0 <= value < seats, "tile": isinstance(value, str), "text": isinstance(value, str),
            "score": value is None or whole}[what]


def header(events: list[dict]) -> tuple[dict, dict]:
    """(start_game, start_kyoku): the first two events of every log, the rule set's fields checked."""
    if len(events) < 2 or events[0].get("type") != "start_game" or events[1].get("type") != "start_kyoku":
        raise MjError("a game log starts with start_game and start_kyoku")
    game = events[0]
    if not isinstance(game.get("rules"), str) or not isinstance(game.get("as_of"), (str, type(None))):
        raise MjError("line 1: start_game needs rules (a rule set's name) and as_of (a date or null)")
    return game, events[1]


def _tiles(value, table: Table, what: str) -> list[int]:
    if not isinstance(value, list):
        raise MjError(f"{what} must be a list of tile names")
    return [table.kind(name) for name in value]


def _settings(game: dict, table: Table) -> tuple[list[int], Options]:
    """start_game's favourites and house options (the engine refuses そら as a favourite)."""
    names, seed = game.get("names"), game.get("seed")
    if not isinstance(names, list) or not 2 <= len(names) <= 4 or not all(isinstance(n, str) for n in names):
        raise MjError("start_game: names must list 2 to 4 players")
    if type(seed) is not int:
        raise MjError("start_game: seed must be a whole number")
    favourites = _tiles(game.get("favourites"), table, "start_game: favourites")
    if len(favourites) != len(names):  # (QA: 2 names and 4 favourites had been said as a bad favourite)
        raise MjError(f"start_game: {count(len(names), 'name')} and {count(len(favourites), 'favourite')}: one of "
                      "each per seat")
    if table.sora in favourites:
        raise MjError("start_game: one favourite per seat, any kind but そら")
    calls, multiple = game.get("calls", "any"), game.get("multiple_ron", False)
    if calls not in CALLS or not isinstance(multiple, bool):
        raise MjError("start_game: calls must be any or previous, multiple_ron true or false")
    return favourites, Options(calls, multiple)


def _deal(kyoku: dict, table: Table, seats: int) -> tuple[list[list[int]], list[int], int]:
    tehais = kyoku.get("tehais")
    if not isinstance(tehais, list) or len(tehais) != seats:
        raise MjError(f"start_kyoku: tehais must hold one hand per player of start_game ({seats})")
    hands = [_tiles(hand, table, "start_kyoku: each hand") for hand in tehais]
    wall = _tiles(kyoku.get("wall"), table, "start_kyoku: wall")
    dealer = kyoku.get("oya")
    if type(dealer) is not int or not 0 <= dealer < seats:
        raise MjError(f"start_kyoku: oya must be a seat from 0 to {seats - 1}, not "
                      f"{shown(json.dumps(dealer, ensure_ascii=False))}")
    counts = [0] * len(table.names)
    for k in [k for hand in hands for k in hand] + wall:
        counts[k] += 1
    if any(n != 3 for n in counts) or any(len(hand) != 12 for hand in hands):
        raise MjError("start_kyoku: the hands and the wall must hold every tile exactly 3 times, 12 per hand")
    return hands, wall, dealer


def first_state(events: list[dict], table: Table) -> GameState:
    """The state right after start_kyoku."""
    game, kyoku = header(events)
    try:
        favourites, options = _settings(game, table)
    except MjError as exc:
        raise MjError(f"line 1: {exc}") from None
    try:
        hands, wall, dealer = _deal(kyoku, table, len(favourites))
    except MjError as exc:
        raise MjError(f"line 2: {exc}") from None
    state = initial(hands, wall, dealer, favourites, len(table.names), options)
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
        if not state.wins or state.wins[0].tsumo or actor == state.wins[0].seat:
            return False  # after an exhaustive draw or a tsumo nobody wins
        return legal.can_ron(state, table, actor, state.wins[0].tile)
    else:
        offered = []
    return legal.pick(event, offered) is not None


def check_fields(event: dict, seats: int) -> None:
    """An event after the deal holds the fields of its type, of the right types (a corrupt or edited log)."""
    kind = event["type"]
    if kind in ("start_game", "start_kyoku"):
        raise IllegalEvent(f"{kind} only as line {1 if kind == 'start_game' else 2}")
    fields = FIELDS.get(kind)
    if fields is None:
        raise IllegalEvent(f"unknown event type {shown(kind)}")
    optional = {"label": "text"} if kind in ("sora", "dahai", "chi", "hora") else {}
    for name, what in {**fields, **{k: v for k, v in optional.items() if k in event}}.items():
        if not _is(event.get(name), what, seats):
            means = f"a seat from 0 to {seats - 1}" if what == "seat" else MEANS[what]  # (QA: "3" is a number)
            value = event.get(name)  # (text quoted: "1" is no seat, 1 is)
            raise IllegalEvent(f"{kind}: {name} must be {means}, not {shown(json.dumps(value, ensure_ascii=False))}")
    if kind == "error" and event.get("crashed", True) is not True:
        raise IllegalEvent("error: crashed is true or absent")
    if kind == "error" and event.get("dropped", True) is not True:
        raise IllegalEvent("error: dropped is true or absent")


def _check_scores(state: GameState, event: dict, table: Table) -> None:
    """A win's score and end_game's scores are the engine's own (game/scoring.py), recomputed."""
    if event["type"] == "hora":
        win = state.wins[-1]
        result = seat_result(table.rules, state, win.seat)
        if result is None or not result.won or result.total != win.score:
            raise IllegalEvent(f"hora: score {shown(win.score)}, but the hand scores "
                               f"{result.total if result is not None and result.won else 'no win'}")
    elif event["type"] == "end_game":
        won = {win.seat: win.score for win in state.wins}  # checked at their hora
        expected = [won[s] if s in won else getattr(seat_result(table.rules, state, s), "total", None)
                    for s in range(len(state.seats))]
        if list(state.scores) != expected:
            raise IllegalEvent(f"end_game: scores {shown(list(state.scores))}, but the hands score {expected}")


def replay(events: list[dict], table: Table, strict: bool = True) -> list[GameState | None]:
    """The state after each event (None after start_game), rebuilt from the log alone; every event's fields
    are checked; `strict` also checks that every decision was a legal action there (wins complete, calls into
    units the seat held) and that every score is the one the engine computes."""
    states: list[GameState | None] = [None, first_state(events, table)]
    state = states[1]
    for n, event in enumerate(events[2:], 3):
        try:
            check_fields(event, len(state.seats))
            if state.scores is not None and event["type"] != "error":
                raise IllegalEvent(f"{event['type']} after end_game")
            if strict and not legal_here(state, event, table):
                raise IllegalEvent(f"{event.get('type')} is not a legal action there")
            state = apply(state, event, table)
            if strict:
                _check_scores(state, event, table)
        except MjError as exc:  # IllegalEvent, an unknown tile or unit
            changed = changed_note(events[0], table.rules)
            raise MjError(f"line {n}: {exc}" + (f" ({changed})" if changed else "")) from None
        states.append(state)
    return states


def changed_note(game: dict, rules) -> str:
    """What to add where a log does not replay: the rule set differs from the one it was played under."""
    played = game.get("rules_digest")
    if not isinstance(played, str) or played == rules_digest(rules):
        return ""
    return (f"rule set {rules.name} is not the one this game was played under: its units or scoring changed since; "
            "give the catalogue it was played with")


def finished(events: list[dict]) -> bool:
    """Whether a replayed log holds the game's end (replay refuses an end_game anywhere else): a log cut at a
    line boundary does not."""
    return any(event.get("type") == "end_game" for event in events)
