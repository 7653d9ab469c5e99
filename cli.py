"""mj: exact answers for Milli-Jong (ミリジャン) hands. Typer commands only: parse, call, render."""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from enum import Enum
from typing import Annotated, Any, Iterator, Optional

import typer

from catalogue import CatalogueError, check_file
from solver.api import Evaluator, open_catalogue
from solver.core.errors import MjError
from solver.core.rules import DEFAULT_RULES, parse_date

EXAMPLE_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"

app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Exact evaluator for Milli-Jong (ミリジャン) hands: units, score, h, analysis.")
catalogue_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                            help="List or check the catalogue: idols, units, rule sets. Example: mj catalogue units --rules hitori-jong-2.1")
app.add_typer(catalogue_app, name="catalogue")

# Shared options keep the flags identical across commands.
HandArg = Annotated[str, typer.Argument(help="The hand, e.g. '[翼 可憐 茜] 春香 千早 ...' (called units in brackets).")]
RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rule set: 2019-12, 2019-10, hitori-jong-2.1 or your own.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
CatalogueOpt = Annotated[Optional[list[str]], typer.Option(
    "--catalogue", help="Extra catalogue file (TOML) with units or rule sets of your own; repeatable.")]
AsOfOpt = Annotated[Optional[str], typer.Option("--as-of", help="Drop units dated after this day (YYYY-MM-DD).")]
SeenOpt = Annotated[str, typer.Option("--seen", help="Tiles visible elsewhere (discards, others' calls).")]


class Win(str, Enum):
    tsumo = "tsumo"
    ron = "ron"
    none = "none"


@contextmanager
def errors() -> Iterator[None]:
    """Domain errors become one line on stderr and exit code 2; never a traceback."""
    try:
        yield
    except (MjError, CatalogueError) as exc:
        prefix = "bad catalogue: " if isinstance(exc, CatalogueError) else ""
        message = " ".join(str(exc).split("\n"))  # one line, whatever the input held
        typer.echo(f"error: {prefix}{message}", err=True)
        raise typer.Exit(2) from None


def evaluator(rules: str, catalogue: Optional[list[str]], as_of: Optional[str]) -> Evaluator:
    return Evaluator(rules, catalogue_files=catalogue or (), as_of=parse_date(as_of) if as_of else None)


def emit_json(payload: Any) -> None:
    typer.echo(json.dumps(payload, ensure_ascii=False))


def show(renderable: Any) -> None:
    from render import console

    console.print(renderable)


@app.command()
def units(hand: HandArg, rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False,
          catalogue: CatalogueOpt = None, as_of: AsOfOpt = None) -> None:
    """Units present in a hand: complete, one member short, two short.

    Example: mj units "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    """
    from solver.serialize import present_dict

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        present = ev.units_present(ev.hand(hand))
        if json_:
            return emit_json({"rules": ev.rules.name, **present_dict(present, ev.rules)})
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
    from solver.serialize import score_dict

    with errors():
        if sum((tsumo, ron is not None, no_win)) != 1:
            raise MjError("say how the hand ended: exactly one of --tsumo, --ron TILE, --no-win")
        win = Win.tsumo if tsumo else Win.ron if ron is not None else Win.none
        ev = evaluator(rules, catalogue, as_of)
        result = ev.score(hand, win.value, ron, favorite)
        if json_:
            emit_json({"rules": ev.rules.name, "win": win.value, **score_dict(result, ev.rules)})
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
    from solver.serialize import distance_dict

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        parsed = ev.hand(hand)
        result = ev.h(parsed, seen)
        if json_:
            return emit_json({"rules": ev.rules.name, **distance_dict(result, ev.rules)})
        from render import distance_view

        show(distance_view(result, ev.rules, parsed.called))


@app.command()
def analyze(hand: HandArg, seen: SeenOpt = "",
            favorite: Annotated[Optional[str], typer.Option("--favorite", "--favourite", help="The player's favourite (担当).")] = None,
            discard: Annotated[Optional[str], typer.Option("--discard", help="Another player's discard: the calls (and ron) it allows.")] = None,
            waiting_room: Annotated[Optional[str], typer.Option("--waiting-room", help="Tiles in the waiting room, for そら.")] = None,
            max_exchanges: Annotated[int, typer.Option("--max-exchanges", min=1, help="List at most this many exchanges.")] = 20,
            turns: Annotated[Optional[int], typer.Option("--turns", help="Add P(win) and E[score] over this many draws (mj plan).")] = None,
            rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
            as_of: AsOfOpt = None) -> None:
    """Full turn analysis: h, every optimal exchange, per-discard acceptance, waits, calls, そら.

    Example: mj analyze "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    """
    from solver.serialize import analysis_dict

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        parsed = ev.hand(hand)
        result = ev.analyze(parsed, seen, favorite, discard, waiting_room, max_exchanges)
        planned = None
        if turns is not None:
            from render import progress_bar

            with progress_bar(json_) as progress:
                planned = ev.plan(parsed, turns, seen=seen, waiting_room=waiting_room or "", favourite=favorite,
                                  progress=progress)
        if json_:
            payload = {"rules": ev.rules.name, **analysis_dict(result, parsed, ev.rules)}
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
         detour: Annotated[int, typer.Option("--detour", min=0, help="Targets within h + d exchanges when all play is out of reach.")] = 1,
         rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
         as_of: AsOfOpt = None) -> None:
    """Exact P(win) and E[score] per discard over the draws left, the recommended play and そら use.

    Example: mj plan "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花" --turns 3
    """
    from render import progress_bar

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        with progress_bar(json_) as progress:
            result = ev.plan(hand, turns, objective.value, seen, waiting_room, favorite, detour, progress)
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
def check(
    file: Annotated[str, typer.Argument(help="Claims, one JSON object per line (docs/checker.md); '-' reads stdin.")],
    json_: Annotated[bool, typer.Option("--json", help="Print a JSON report {\"claims\": [...], \"summary\": {...}}.")] = False,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, help="Worker processes (default: every core).")]
    = os.cpu_count() or 1,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", help="Also write each result to this file as one JSON line as soon as it is known, "
                               "then a last {\"summary\": ...} line (absent if the run was interrupted).")] = None,
    rules: Annotated[str, typer.Option("--rules", "-r", help="Rule set for claims that name none.")] = DEFAULT_RULES,
) -> None:
    """Check other engines' answers (h, score, units, exchanges, waits, discard, complete) exactly.

    Each claim is right, wrong (with the exact value and why) or invalid (with the parse error).
    Prints the claims that are not right and a summary by field and reason; exits 0 only if every
    claim is right, 1 otherwise, 2 on a usage error.

    Example: mj check claims.jsonl --rules hitori-jong-2.1 --output results.jsonl
    """
    from contextlib import ExitStack

    from render import check_line, check_summary_view
    from solver.checking.batch import Summary, check_lines, count_lines, record
    from solver.checking.check import validate_rules

    with errors():
        validate_rules(rules)
        try:
            source = sys.stdin.buffer if file == "-" else open(file, "rb")
            total = None if file == "-" else count_lines(file)
            sink = open(output, "w", encoding="utf-8") if output else None
        except OSError as exc:
            raise MjError(f"cannot open {exc.filename}: {exc.strerror}") from None

    summary = Summary()
    checked = check_lines(source, workers, rules)
    results = record(checked, sink) if sink else checked
    say = typer.echo
    with ExitStack() as stack:
        if file != "-":
            stack.callback(source.close)
        if sink:
            stack.callback(sink.close)
        stack.callback(checked.close)  # first: stops the workers (also on Ctrl-C) before the input closes
        advance = None
        if sys.stderr.isatty():  # a progress bar on a terminal only
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            progress = stack.enter_context(Progress(
                TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True, redirect_stdout=False, redirect_stderr=False))
            task = progress.add_task("check", total=total)
            advance = lambda: progress.advance(task)  # noqa: E731
            if sys.stdout.isatty():  # one terminal: print above the bar
                say = lambda text: progress.console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
        if json_:
            say('{"claims": [')
        for n, result in enumerate(results):
            summary.add(result)
            if json_:
                say(("," if n else "") + json.dumps(result, ensure_ascii=False))
            elif result["verdict"] != "correct":
                say(check_line(result))
            if advance:
                advance()
        report = summary.to_dict()
        if sink:
            sink.write(json.dumps({"summary": report}, ensure_ascii=False) + "\n")

    if json_:
        typer.echo('], "summary": ' + json.dumps(report, ensure_ascii=False) + "}")
    else:
        for part in check_summary_view(report):
            show(part)
    if not summary.all_correct:
        raise typer.Exit(1)


# --- catalogue ---------------------------------------------------------------------------------


@catalogue_app.command("idols")
def catalogue_idols(json_: JsonOpt = False, catalogue: CatalogueOpt = None) -> None:
    """The 54 tile kinds with their names.

    Example: mj catalogue idols --json
    """
    with errors():
        rows = [vars(i) | {"romaji": list(i.romaji), "other_names": list(i.other_names)}
                for i in open_catalogue(catalogue or ()).idols]
        if json_:
            return emit_json(rows)
        from render import rows_view

        show(rows_view(f"{len(rows)} tile kinds", rows, ("id", "name", "kana", "full_name", "attribute")))


@catalogue_app.command("units")
def catalogue_units(rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
                    as_of: AsOfOpt = None) -> None:
    """The units that count under a rule set.

    Example: mj catalogue units --rules hitori-jong-2.1
    """
    from solver.serialize import unit_dict

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        if json_:
            rows = [unit_dict(u.index, ev.rules) | {"aliases": list(u.aliases), "since": str(u.since or "") or None}
                    for u in ev.rules.units]
            return emit_json({"rules": ev.rules.name, "as_of": str(ev.rules.as_of or "") or None, "units": rows})
        from render import units_view

        show(units_view(ev.rules))


@catalogue_app.command("rules")
def catalogue_rules(json_: JsonOpt = False, catalogue: CatalogueOpt = None) -> None:
    """The rule sets and their parameters.

    Example: mj catalogue rules
    """
    with errors():
        rows = [{k: (str(v) if k == "as_of" and v else list(v) if isinstance(v, tuple) else v)
                 for k, v in vars(spec).items()} for spec in open_catalogue(catalogue or ()).rules.values()]
        if json_:
            return emit_json(rows)
        from render import rows_view

        show(rows_view("Rule sets", rows, ("name", "sora", "called", "no_win", "favourite", "description")))


@catalogue_app.command("check")
def catalogue_check(files: Annotated[list[str], typer.Argument(help="Catalogue TOML files to check.")],
                    json_: JsonOpt = False) -> None:
    """Validate catalogue files; exits 1 when any has problems.

    Example: mj catalogue check my-units.toml
    """
    with errors():
        missing = [path for path in files if not os.path.isfile(path)]
        if missing:
            raise MjError(f"no such catalogue file: {missing[0]}")
    report = {path: check_file(path) for path in files}
    if json_:
        emit_json({"files": [{"file": f, "problems": p, "ok": not p} for f, p in report.items()]})
    else:
        for path, problems in report.items():
            typer.echo(f"{path}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
            for problem in problems:
                typer.echo(f"  - {problem}")
    if any(report.values()):
        raise typer.Exit(1)


def main() -> None:  # console script entry point
    try:
        code = app(standalone_mode=False)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
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
