"""`mj play` and `mj replay`: parse, call the game engine (game/), render. The rules live in game/."""

from __future__ import annotations

import re
from typing import Annotated, Optional

import typer

from console.common import (AsOfOpt, CatalogueOpt, JsonOpt, PlannerBudgetOpt, RulesOpt, WholeFile, errors, evaluator,
                            positive)
from solver.core.errors import UNKNOWN_RULES, MjError, shown
from solver.core.rules import DEFAULT_RULES

MAX_LOG = 32 << 20  # characters: a game log is tens of kilobytes

PlayerOpt = Annotated[Optional[list[str]], typer.Option(
    "--player", "-p", metavar="PLAYER", help="A seat's player, once per seat in order: random, greedy, seed000, planner, planner-clock, "
                           "cmd:COMMAND (an external engine) or human; NAME=PLAYER names it in the log (mybot=cmd:./bot). "
                           "Default: four different COMs.")]


def _favourites(items: list[str], seats: int, ev) -> tuple[tuple[int, str], ...]:
    chosen = []
    for item in items:
        seat, sep, name = item.partition("=")
        if not sep or not name.strip():  # (QA: "0" alone was said to be out of range, where the NAME was missing)
            raise MjError(f"--favourite takes SEAT=NAME (e.g. 0=可奈), not {shown(item)}: the NAME is missing")
        if not re.fullmatch(r"[0-9]", seat.strip(), re.ASCII) or not 0 <= int(seat) < seats:
            raise MjError(f"--favourite takes SEAT=NAME with SEAT from 0 to {seats - 1}, not {shown(item)}")
        kind = ev.tile(name.strip())
        if kind == ev.rules.tiles.sora:
            raise MjError("the favourite may be any kind but そら")
        if any(s == int(seat) for s, _ in chosen):
            raise MjError(f"--favourite gives seat {int(seat)} twice: one favourite a seat")
        chosen.append((int(seat), ev.rules.tiles.name(kind)))
    return tuple(chosen)


def play(player: PlayerOpt = None,
         seed: Annotated[int, typer.Option("--seed", help="Seeds the deal (same seed, same deal).")] = 0,
         rules: RulesOpt = DEFAULT_RULES,
         dealer: Annotated[int, typer.Option("--dealer", help="The seat that draws first.")] = 0,
         favourite: Annotated[Optional[list[str]], typer.Option(
             "--favorite", "--favourite", metavar="SEAT=NAME", help="SEAT=NAME, a seat's favourite (担当); else drawn by the seed.")] = None,
         log: Annotated[Optional[str], typer.Option("--log", metavar="FILE", help="Write the game log (JSON lines) to this file.")] = None,
         calls: Annotated[str, typer.Option("--calls", help="Calls (チー) from any seat's discard, or only from "
                                                           "the previous seat's: any or previous.")] = "any",
         multiple_ron: Annotated[bool, typer.Option("--multiple-ron", help="Every seat that can ron a discard "
                                                                          "wins (default: the first in turn order).")] = False,
         bot_timeout: Annotated[float, typer.Option("--bot-timeout", help="Seconds an external engine may take "
                                                                         "to answer.")] = 5.0,
         planner_budget: PlannerBudgetOpt = 0.5,
         json_: JsonOpt = False, catalogue: CatalogueOpt = None, as_of: AsOfOpt = None) -> None:
    """Play one game: COMs, external engines or a human; shows hands, h, waits, calls and every score.

    Example: mj play --seed 7 --player greedy --player seed000 --player random --player cmd:"python3 docs/example_bot.py" (from the repository's root)
    """
    with errors():
        from game.engine import Game, Setup
        from game.players import DEFAULT_PLAYERS, fallback_player, make_player, split_alias
        from game.state import Options

        specs = list(player or DEFAULT_PLAYERS)
        if not 2 <= len(specs) <= 4:
            raise MjError(f"a game has 2 to 4 players, not {len(specs)}")
        positive(bot_timeout=bot_timeout, planner_budget=planner_budget)
        if not 0 <= dealer < len(specs):
            raise MjError(f"--dealer must be a seat from 0 to {len(specs) - 1}, not {dealer}")
        ev = evaluator(rules, catalogue, as_of)
        setup = Setup(seed, len(specs), dealer, _favourites(favourite or [], len(specs), ev), Options(calls, multiple_ron))
        human = None
        if any(split_alias(spec)[1] == "human" for spec in specs):
            from console.game_view import HumanPlayer

            human = HumanPlayer
        players = [make_player(spec, bot_timeout, planner_budget, human) for spec in specs]
        from game.log import dumps

        if json_:
            def on_event(event, state):
                typer.echo(dumps(event))
        else:
            from console.game_view import Narrator

            on_event = Narrator(ev, [player.name for player in players])
        if log == "":  # (refused, not taken for no log; a directory or a bad path: WholeFile says so)
            raise MjError("--log is empty: give a file name")
        # (before the deal: a bad path costs no human's game)
        sink = WholeFile(log, "the log ") if log is not None else None
        try:
            record = Game(ev, setup, players, fallback_player, on_event).play()
            if sink:
                sink.write("".join(dumps(event) + "\n" for event in record.events))
        finally:
            if sink:
                sink.drop()


def replay(log: Annotated[str, typer.Argument(metavar="LOG", help="A game log written by mj play --log.")],
           at: Annotated[Optional[int], typer.Option("--at", help="Show the position after this many events "
                                                                  "(default: the end).")] = None,
           seat: Annotated[Optional[int], typer.Option("--seat", help="The seat to analyse (default: the one "
                                                                      "to move).")] = None,
           analyze: Annotated[bool, typer.Option("--analyze", help="Hand the seat's position to mj analyze "
                                                                   "(its own view: tiles seen, waiting rooms).")] = False,
           json_: JsonOpt = False, catalogue: CatalogueOpt = None) -> None:
    """The position at any event of a game log, shown or analysed; the log alone rebuilds it (no RNG).

    Example: mj replay game.jsonl --at 40 --analyze
    """
    with errors():
        if seat is not None and not analyze:
            raise MjError("--seat goes with --analyze (which seat's hand to analyse): add --analyze, or leave --seat "
                          "out")
        from game.log import replay as rebuild
        from game.state import Table

        events, ev = read_log(log, catalogue)
        table = Table(ev.rules)
        states = rebuild(events, table)
        ended = noted_end(events)
        n = len(events) if at is None else at
        if not 2 <= n <= len(events):
            raise MjError(f"--at must be from 2 (the deal) to {len(events)} (the end), not {n}")
        state = states[n - 1]
        who = (state.next_seat if state.phase == "claim" else state.turn) if seat is None else seat
        if not 0 <= who < len(state.seats):
            raise MjError(f"--seat must be from 0 to {len(state.seats) - 1}, not {who}")
        from console.game_view import show_analysis, show_position

        if json_ and not analyze:
            from console.common import emit_json
            from game.serialize import replay_step

            step = replay_step(n, events[n - 1], state, table)
            return emit_json(step if ended else {**step, "unfinished": True})
        if not json_:
            show_position(state, ev, n, events[n - 1], events[0].get("names"))
        if analyze:
            show_analysis(state, ev, who, json_)


def noted_end(events: list[dict]) -> bool:
    """Whether the log holds the game's end; where it does not (a cut log), one note on stderr says so."""
    from game.log import UNFINISHED, finished

    if finished(events):
        return True
    typer.echo(f"note: {UNFINISHED}", err=True)
    return False


def read_log(path: str, catalogue: Optional[list[str]]):
    """(the events of a game log, the evaluator of its rule set): bad files and bad lines are MjErrors."""
    from game.log import changed_note, header, read

    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read(MAX_LOG + 1)  # never all of /dev/zero
    except (OSError, UnicodeDecodeError) as exc:
        raise MjError(f"cannot read the log {shown(path)}: {getattr(exc, 'strerror', None) or exc}") from None
    if len(text) > MAX_LOG:
        raise MjError(f"the log {shown(path)} holds more than {MAX_LOG:,} characters: not one game")
    events = read(text)
    start, _ = header(events)
    try:
        ev = evaluator(start["rules"], catalogue, start.get("as_of"))  # header checked both
    except MjError as exc:
        if exc.code != UNKNOWN_RULES:
            raise
        files = start.get("catalogue")
        played = (f"it was played with {', '.join(shown(f) for f in files)}" if isinstance(files, list) and files
                  and all(isinstance(f, str) for f in files) else "the log names the rule set, not the file")
        raise MjError(f"{exc}; a game of a house rule set is replayed with its catalogue file: add --catalogue FILE "
                      f"({played})", UNKNOWN_RULES) from None  # (QA: no hint)
    changed = changed_note(start, ev.rules)
    if changed:  # (it may still replay: what follows is then under today's units and scores)
        typer.echo(f"note: {changed}", err=True)
    return events, ev
