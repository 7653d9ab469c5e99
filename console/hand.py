"""The commands about one hand: `mj units`, `mj score`, `mj h`, `mj analyze` and `mj example`."""

from __future__ import annotations

import time
from enum import Enum
from typing import Annotated, Optional

import typer

from console.common import (MAX_STATES, SECONDS, AsOfOpt, CatalogueOpt, DetourOpt, EstimateOpt, HandArg, JsonOpt,
                            MaxStatesOpt, NearestOpt, RulesOpt, SeedOpt, SeenOpt, emit_json, errors,
                            evaluator, exit_code, plan_request, show)
from solver.api import ANALYSIS_SECONDS, H_SECONDS
from solver.core.errors import MjError, error_line
from solver.core.rules import DEFAULT_RULES

LEAST_PLAN_SECONDS = 0.01  # (--seconds' own least: a plan past the whole budget still answers its quickest)

EXAMPLE_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


class Win(str, Enum):
    tsumo = "tsumo"
    ron = "ron"
    none = "none"


def units(hand: HandArg, rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False,
          catalogue: CatalogueOpt = None, as_of: AsOfOpt = None) -> None:
    """Units present in a hand: complete, one member short, two short.

    Example: mj units "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    """

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        present = ev.units_present(ev.hand(hand))
        if json_:
            from solver.serialize import units_payload  # here: json's import is start-up time

            return emit_json(units_payload(present, ev.rules))
        from console.render import present_view

        show(present_view(present, ev.rules))


def score(hand: HandArg,
          tsumo: Annotated[bool, typer.Option("--tsumo", help="The hand won by self-draw.")] = False,
          ron: Annotated[Optional[str], typer.Option("--ron", help="The hand won on this discarded tile.")] = None,
          no_win: Annotated[bool, typer.Option("--no-win", help="The hand did not win (12 or 13 tiles).")] = False,
          favorite: Annotated[Optional[str], typer.Option("--favorite", "--favourite", help="The player's favourite (担当).")] = None,
          rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
          as_of: AsOfOpt = None) -> None:
    """Best score of a hand: each unit with its points and flags, the bonus, the total.

    Example: mj score "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也" --ron 美也 --favorite 可奈
    """

    with errors():
        if sum((tsumo, ron is not None, no_win)) != 1:
            raise MjError("say how the hand ended: exactly one of --tsumo, --ron TILE, --no-win")
        win = Win.tsumo if tsumo else Win.ron if ron is not None else Win.none
        ev = evaluator(rules, catalogue, as_of)
        result = ev.score(hand, win.value, ron, favorite)
        if json_:
            from solver.serialize import score_payload  # here: json's import is start-up time

            emit_json(score_payload(result, ev.rules, win.value, ev.tile(favorite)))
        else:
            from console.render import score_view

            show(score_view(result, ev.rules, why=True, favourite=ev.tile(favorite)))
        if result.total is None:
            raise typer.Exit(1)


def h(hand: HandArg, seen: SeenOpt = "", rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False,
      catalogue: CatalogueOpt = None, as_of: AsOfOpt = None,
      seconds: Annotated[float, typer.Option("--seconds", min=0.01, help=(
          "Time budget of the search (milliseconds for the built-in rule sets; a house of thousands of units may "
          "take seconds): past it, the bounds it reached and exit code 3."))] = H_SECONDS) -> None:
    """The exchange distance h and one optimal exchange with the hand it reaches.

    Example: mj h "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    """

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        parsed = ev.hand(hand)
        from console.progress import elapsed

        with elapsed("h", seconds, json_):
            result = ev.h(parsed, seen, seconds)
        if json_:
            from solver.serialize import distance_payload  # here: json's import is start-up time

            return emit_json(distance_payload(result, ev.rules))
        from console.render import distance_view

        show(distance_view(result, ev.rules, parsed.called))


def analyze(hand: HandArg, seen: SeenOpt = "",
            favorite: Annotated[Optional[str], typer.Option("--favorite", "--favourite", help="The player's favourite (担当).")] = None,
            discard: Annotated[Optional[str], typer.Option("--discard", help="Another player's discard: the calls (and ron) it allows.")] = None,
            waiting_room: Annotated[Optional[str], typer.Option("--waiting-room", help="Tiles in the waiting room, for そら.")] = None,
            max_exchanges: Annotated[int, typer.Option("--max-exchanges", min=1, help="List at most this many exchanges.")] = 20,
            turns: Annotated[Optional[int], typer.Option("--turns", "-n", help="Add P(win) and E[score] over this many draws (mj plan).")] = None,
            detour: DetourOpt = None, nearest: NearestOpt = False, estimate: EstimateOpt = None,
            max_states: MaxStatesOpt = MAX_STATES,
            seconds: Annotated[Optional[float], typer.Option("--seconds", min=0.01, help=(
                f"Time budget of the whole answer: the analysis, then with --turns the plan in what it left (default "
                f"{SECONDS:g} s with --turns, else {ANALYSIS_SECONDS:g} s; the built-in rule sets take milliseconds, a "
                "house of thousands of units may need more; past it one error line and exit 3)."))] = None,
            seed: SeedOpt = 0, rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
            as_of: AsOfOpt = None) -> None:
    """Full turn analysis: h, every optimal exchange, per-discard acceptance, waits, calls, そら.

    Example: mj analyze "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    """

    with errors():
        planning = {"--detour": detour is not None, "--nearest": nearest, "--estimate": estimate is not None,
                    "--max-states": max_states != MAX_STATES, "--seed": seed != 0}
        if turns is None and any(planning.values()):  # (they shape the plan's columns, which --turns asks for)
            given = [name for name, on in planning.items() if on]
            one = len(given) == 1
            raise MjError(f"{', '.join(given)} {'goes' if one else 'go'} with --turns (the plan's columns); "
                          f"add --turns N or leave {'it' if one else 'them'} out")
        ev = evaluator(rules, catalogue, as_of)
        parsed = ev.hand(hand)
        start = time.monotonic()
        seconds = seconds if seconds is not None else SECONDS if turns is not None else ANALYSIS_SECONDS
        from console.progress import elapsed

        with elapsed("analysing", seconds, json_):
            result = ev.analyze(parsed, seen, favorite, discard, waiting_room, max_exchanges, seconds)
        planned = refused = None
        if turns is not None:
            from console.progress import progress_bar

            # --seconds is the whole answer's: the plan gets what the analysis left (QA: 0.85 s for 0.01 s asked)
            left = max(LEAST_PLAN_SECONDS, seconds - (time.monotonic() - start))
            request = plan_request(ev, parsed, turns, seen=seen, waiting_room=waiting_room or "", favourite=favorite,
                                   detour=detour, nearest=nearest, estimate=estimate, max_states=max_states,
                                   seconds=left, seed=seed)
            try:  # (QA: a refused or stopped plan lost the analysis already made: it stands, the plan's error after it)
                with progress_bar(json_) as progress:
                    planned = ev.plan_request(request, progress)
            except MjError as exc:
                refused = exc
        if json_:
            from solver.serialize import analysis_payload  # here: json's import is start-up time

            payload = analysis_payload(result, parsed, ev.rules, ev.tile(favorite))
            if planned is not None:
                from solver.serialize_plan import plan_dict

                payload["plan"] = plan_dict(planned, ev.rules)
            elif refused is not None:
                payload["plan"], payload["plan_error"] = None, str(refused)
            emit_json(payload)
        else:
            from console.render import analysis_view

            for part in analysis_view(result, parsed, ev.rules, planned):
                show(part)
        if refused is not None:
            typer.echo(error_line(f"no plan: {refused}"), err=True)
            raise typer.Exit(exit_code(refused))


def example(json_: JsonOpt = False) -> None:
    """Run the main job on a built-in example: the full analysis of seed 000's hand.

    Example: mj example
    """
    analyze(EXAMPLE_HAND, json_=json_)
