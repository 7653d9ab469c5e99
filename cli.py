"""mj: exact answers for Milli-Jong (ミリジャン) hands. Typer commands only: parse, call, render."""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Annotated, Optional

import typer

from cli_batch import ALL_CORES, ClusterOpt, ForceOpt, OutputOpt, ResumeOpt, WorkersOpt, run_batch
from cli_catalogue import catalogue_app
from cli_common import (MAX_STATES, AsOfOpt, CatalogueOpt, DetourOpt, EstimateOpt, HandArg, JsonOpt, MaxStatesOpt,
                        RulesOpt, SeenOpt, emit_json, errors, evaluator, show)
from cli_params import take_plain_values_as_is
from solver.api import open_catalogue
from solver.core.errors import MjError
from solver.core.rules import DEFAULT_RULES

take_plain_values_as_is()  # text parameters without pydantic: start-up time (cli_params.py)

EXAMPLE_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"

app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Exact evaluator for Milli-Jong (ミリジャン) hands: units, score, h, analysis.")
app.add_typer(catalogue_app, name="catalogue")


class Win(str, Enum):
    tsumo = "tsumo"
    ron = "ron"
    none = "none"


@app.command()
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
        from render import present_view

        show(present_view(present, ev.rules))


@app.command()
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
            from render import score_view

            show(score_view(result, ev.rules))
        if result.total is None:
            raise typer.Exit(1)


@app.command()
def h(hand: HandArg, seen: SeenOpt = "", rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False,
      catalogue: CatalogueOpt = None, as_of: AsOfOpt = None) -> None:
    """The exchange distance h and one optimal exchange with the hand it reaches.

    Example: mj h "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    """

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        parsed = ev.hand(hand)
        result = ev.h(parsed, seen)
        if json_:
            from solver.serialize import distance_payload  # here: json's import is start-up time

            return emit_json(distance_payload(result, ev.rules))
        from render import distance_view

        show(distance_view(result, ev.rules, parsed.called))


@app.command()
def analyze(hand: HandArg, seen: SeenOpt = "",
            favorite: Annotated[Optional[str], typer.Option("--favorite", "--favourite", help="The player's favourite (担当).")] = None,
            discard: Annotated[Optional[str], typer.Option("--discard", help="Another player's discard: the calls (and ron) it allows.")] = None,
            waiting_room: Annotated[Optional[str], typer.Option("--waiting-room", help="Tiles in the waiting room, for そら.")] = None,
            max_exchanges: Annotated[int, typer.Option("--max-exchanges", min=1, help="List at most this many exchanges.")] = 20,
            turns: Annotated[Optional[int], typer.Option("--turns", help="Add P(win) and E[score] over this many draws (mj plan).")] = None,
            detour: DetourOpt = None, estimate: EstimateOpt = None, max_states: MaxStatesOpt = MAX_STATES,
            rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
            as_of: AsOfOpt = None) -> None:
    """Full turn analysis: h, every optimal exchange, per-discard acceptance, waits, calls, そら.

    Example: mj analyze "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    """

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        parsed = ev.hand(hand)
        result = ev.analyze(parsed, seen, favorite, discard, waiting_room, max_exchanges)
        planned = None
        if turns is not None:
            from render import progress_bar

            with progress_bar(json_) as progress:
                planned = ev.plan(parsed, turns, seen=seen, waiting_room=waiting_room or "", favourite=favorite,
                                  detour=detour, progress=progress, estimate=estimate, max_states=max_states)
        if json_:
            from solver.serialize import analysis_payload  # here: json's import is start-up time

            payload = analysis_payload(result, parsed, ev.rules, ev.tile(favorite))
            if planned is not None:
                from solver.serialize_plan import plan_dict

                payload["plan"] = plan_dict(planned, ev.rules)
            return emit_json(payload)
        from render import analysis_view

        for part in analysis_view(result, parsed, ev.rules, planned):
            show(part)


class Objective(str, Enum):
    win = "win"
    score = "score"


@app.command()
def plan(hand: HandArg,
         turns: Annotated[int, typer.Option("--turns", "-n", help="Draws left in the game.")],
         objective: Annotated[Objective, typer.Option("--objective", help="Sort and recommend by P(win) or E[score].")] = Objective.win,
         seen: SeenOpt = "",
         waiting_room: Annotated[str, typer.Option("--waiting-room", help="Tiles in the waiting room (fetch-mode そら takes one).")] = "",
         favorite: Annotated[Optional[str], typer.Option("--favorite", "--favourite", help="The player's favourite (担当).")] = None,
         detour: DetourOpt = None, estimate: EstimateOpt = None, max_states: MaxStatesOpt = MAX_STATES,
         rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
         as_of: AsOfOpt = None) -> None:
    """Exact P(win) and E[score] per discard over the draws left, the recommended play and そら use.

    Example: mj plan "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花" --turns 3
    """
    from render import progress_bar

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        with progress_bar(json_) as progress:
            result = ev.plan(hand, turns, objective.value, seen, waiting_room, favorite, detour, progress,
                             estimate=estimate, max_states=max_states)
        if json_:
            from solver.serialize_plan import plan_dict

            return emit_json(plan_dict(result, ev.rules))
        from render import plan_view

        for part in plan_view(result, ev.rules):
            show(part)


@app.command()
def example(json_: JsonOpt = False) -> None:
    """Run the main job on a built-in example: the full analysis of seed 000's hand.

    Example: mj example
    """
    analyze(EXAMPLE_HAND, json_=json_)


@app.command()
def serve(host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback by default).")] = "127.0.0.1",
          port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free one).")] = 8000,
          open_: Annotated[bool, typer.Option("--open", help="Open the page in the default browser.")] = False,
          workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=32, help="Solver worker processes.")] = 2,
          timeout: Annotated[float, typer.Option("--timeout", min=1, help="Stop a request after this many seconds.")] = 300,
          catalogue: CatalogueOpt = None) -> None:
    """A local web page for the same answers: tiles to click, analysis, scores (docs/web.md).

    Example: mj serve --open
    """
    from server.run import serve as run_server

    with errors():
        open_catalogue(catalogue or ())  # a bad catalogue file is a usage error here, not on every request
        run_server(host, port, open_, workers, tuple(catalogue or ()), timeout)


@app.command()
def check(
    file: Annotated[str, typer.Argument(help="Claims, one JSON object per line (docs/checker.md); '-' reads stdin.")],
    json_: Annotated[bool, typer.Option("--json", help="Print a JSON report {\"claims\": [...], \"summary\": {...}}.")] = False,
    workers: WorkersOpt = ALL_CORES, output: OutputOpt = None, resume: ResumeOpt = False, force: ForceOpt = False,
    rules: Annotated[str, typer.Option("--rules", "-r", help="Rule set for claims that name none.")] = DEFAULT_RULES,
    cluster: ClusterOpt = None,
) -> None:
    """Check other engines' answers (h, score, units, exchanges, waits, discard, complete) exactly.

    Each claim is right, wrong (with the exact value and why), invalid (with the parse error) or error
    (the checker failed on it). Prints the claims that are not right and a summary by field and reason;
    exits 0 only if every claim is right, 1 otherwise (also when there is no claim), 2 on a usage error,
    130 / 143 when stopped by Ctrl-C / SIGTERM (rerun with --resume to continue). --output ends with a
    {"summary": ...} line (absent if the run was interrupted).

    Example: mj check claims.jsonl --rules hitori-jong-2.1 --output results.jsonl
    """
    from render_check import check_run_output
    from solver.checking.run import CheckRun

    run_batch(lambda: CheckRun(file, output, workers, rules, resume, force, cluster),
              lambda run: check_run_output(run, json_), errors)


@app.command()
def generate(
    kind: Annotated[str, typer.Argument(help="waits, exchanges, discard or traps (docs/generation.md).")],
    count: Annotated[int, typer.Option("--count", "-n", min=0, help="How many positions.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same file (on any executor).")] = 0,
    rules: RulesOpt = DEFAULT_RULES,
    difficulty: Annotated[Optional[str], typer.Option(
        "--difficulty", help="easy, medium, hard, any, or bounds on features such as 'waits>=3,depth>=1'.")] = None,
    output: OutputOpt = None, workers: WorkersOpt = ALL_CORES, cluster: ClusterOpt = None,
    resume: ResumeOpt = False, force: ForceOpt = False,
) -> None:
    """Positions with proven answers, one JSON line each in the claims format of mj check (stdout or --output).

    Example: mj generate waits --count 20 --seed 7 --difficulty hard --output waits.jsonl
    """
    from cli_batch import show_generate
    from solver.generation.run import GenerateRun

    run_batch(lambda: GenerateRun(kind, count, seed, rules, difficulty, output, workers, cluster, resume, force,
                                  stdout=sys.stdout), show_generate, errors)


def main(argv: Optional[list[str]] = None) -> None:  # console script entry point (argv: for tests)
    for stream in (sys.stdout, sys.stderr):  # whatever the locale, output never fails on a character
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        code = app(args=argv, standalone_mode=False)
    except KeyboardInterrupt as exc:
        typer.echo("interrupted", err=True)
        sys.exit(getattr(exc, "exit_code", 130))
    except BrokenPipeError:  # the reader of stdout went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:
        # typer's usage errors (bad option value, missing argument): one line too, exit 2. Its click is
        # private to typer, so recognise them by their interface rather than their class.
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `mj` or `mj catalogue`: the help itself
            typer.echo(exc.format_message())
            sys.exit(0)
        typer.echo(f"error: {' '.join(exc.format_message().split())} (see mj --help)", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
