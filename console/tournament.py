"""`mj tournament`: parse, run the games on the batch executors (game/tournament_run.py), show the summary.
The format, the schedule and the statistics live in game/tournament.py; this module only renders."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from console.batch import ALL_CORES, ClusterOpt, ForceOpt, OutputOpt, ResumeOpt, TimeBudgetOpt, run_batch
from console.common import CatalogueOpt, JsonOpt, PlannerBudgetOpt, RulesOpt, positive
from solver.batch.job import MAX_WORKERS
from solver.core.rules import DEFAULT_RULES
from solver.core.wording import count

FALLBACK_SHARE = 0.1  # a player's decisions made by the fallback COM from which the table warns, crashed or not


def tournament(
    player: Annotated[Optional[list[str]], typer.Option(
        "--player", "-p", metavar="PLAYER", help="A player, once each (2 to 4): random, greedy, seed000, planner, planner-clock or cmd:COMMAND; "
                               "NAME=PLAYER names it in the table and the logs (mybot=cmd:./bot). The same one twice is numbered "
                               "(greedy#1, greedy#2).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Games in all, rounded up to whole deals: each deal "
                                                             "is played once per seat rotation (P games).")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seeds the deals (same seed, same games, same file).")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "--workers", "-j", min=1, max=MAX_WORKERS,
                                      help="Worker processes (default: every core).")] = ALL_CORES,
    cluster: ClusterOpt = None, output: OutputOpt = None, resume: ResumeOpt = False, force: ForceOpt = False,
    rules: RulesOpt = DEFAULT_RULES, catalogue: CatalogueOpt = None,
    calls: Annotated[str, typer.Option("--calls", help="Calls from any seat's discard, or only from the "
                                                       "previous seat's: any or previous.")] = "any",
    multiple_ron: Annotated[bool, typer.Option("--multiple-ron",
                                               help="Every seat that can ron a discard wins.")] = False,
    planner_budget: PlannerBudgetOpt = 0.5,
    bot_timeout: Annotated[float, typer.Option("--bot-timeout", help="Seconds an external engine may take to "
                                                                     "answer.")] = 5.0,
    json_: JsonOpt = False, time_budget: TimeBudgetOpt = None,
    logs: Annotated[Optional[str], typer.Option("--logs", metavar="DIR", help=(
        "Keep each game's log in this directory (game-000012.jsonl: mj review and mj replay read it)."))] = None,
) -> None:
    """A duplicate tournament: each deal is played once per seat rotation, so luck cancels; win rates, mean
    scores and pairwise differences (paired by deal) with 95 % intervals. Resumable with --output.

    Example: mj tournament -p greedy -p seed000 -p random -p planner --games 400 --output t.jsonl
    """
    def open_run():
        from game.state import Options
        from game.tournament import Settings, check_players, deals_for
        from game.tournament_run import TournamentRun

        specs = check_players(list(player or []))
        positive(bot_timeout=bot_timeout, planner_budget=planner_budget)
        Options(calls, multiple_ron)  # a bad --calls is a usage error here, not in a worker
        from solver.api import house_files

        settings = Settings(tuple(specs), deals_for(games, len(specs)), seed, rules, calls, multiple_ron,
                            planner_budget, bot_timeout, house_files(catalogue))
        if settings.games != games:
            deals = f"{settings.deals} deal{'s' if settings.deals > 1 else ''}"
            print(f"note: {settings.games} games: {deals} x {len(specs)} seat rotations (--games rounds up to "
                  "whole deals)", file=sys.stderr, flush=True)
        return TournamentRun(settings, output, jobs, cluster, resume, force, logs)

    run_batch(open_run, lambda run: show_tournament(run, json_), time_budget)


def show_tournament(run: Any, json_: bool) -> int:
    """Play with a progress bar on a terminal (stderr), then the summary (of the games played where a stop came:
    it says what was written, and the summary `interrupted`)."""
    from contextlib import ExitStack

    from solver.batch.signals import Stopped

    stopped: Stopped | None = None
    with ExitStack() as stack:
        advance = None
        if sys.stderr.isatty() and run.left:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            progress = stack.enter_context(Progress(
                TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TextColumn("games, left:"),
                TimeRemainingColumn(), console=Console(stderr=True), transient=True, redirect_stdout=False,
                redirect_stderr=False))
            task = progress.add_task("games", total=run.left)
            advance = lambda n: progress.advance(task, n)  # noqa: E731
        results = run.games()
        try:
            for batch in results:
                if advance:
                    advance(len(batch))
        except Stopped as exc:
            stopped = exc
        finally:
            results.close()
            for note in run.notes():
                print(f"note: {note}", file=sys.stderr, flush=True)
    if stopped:  # (QA: a stop showed nothing of the games already played; their summary, said to be partial)
        print(run.stopped_text(), file=sys.stderr, flush=True)
        if not run.start + run.written:
            return stopped.exit_code
    summary = run.summary()
    if stopped:
        summary["interrupted"] = True
    if json_:
        from console.common import emit_json

        emit_json(summary)
    else:
        from console.render import console

        for part in summary_view(summary):
            console.print(part)
    return stopped.exit_code if stopped else 0


def _ci(interval: Any, fmt: str, scale: float = 1) -> str:
    return "-" if interval is None else f"[{interval[0] * scale:{fmt}}, {interval[1] * scale:{fmt}}]"


def summary_view(summary: dict[str, Any]) -> list[Any]:
    """The players' table, the pairs' table and a line on the format and the intervals' method."""
    from rich.table import Table
    from rich.text import Text

    from solver.core.errors import safe_text

    def value(x: Any, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    games = f"{count(summary['deals'], 'deal')} x {summary['rotations']} seat rotations = {count(summary['games'], 'game')}"
    if summary.get("unfinished"):  # (stopped within a deal: its games are in no statistic, QA)
        games += f", and {summary['unfinished']} of an unfinished deal left out"
    table = Table(title=f"Tournament: {games} (rules {summary['rules']}, seed {summary['seed']})"
                        + ("; interrupted: the games played before it" if summary.get("interrupted") else ""))
    errors = sum(p["bot_errors"] for p in summary["players"])
    fallback = sum(p.get("fallback_decisions", 0) for p in summary["players"])
    for column in ("player", "wins", "win rate [95 %]", "mean score [95 %]", "dealt in") + (("errors",) if errors
                                                                                            else ()):
        table.add_column(column, justify="left" if column == "player" else "right", no_wrap=column != "player",
                         overflow="fold", min_width=12 if column == "player" else None)  # (a cmd: spec is one long
        # word: folded, never cut, QA; "greedy" whole)
    for p in summary["players"]:  # (each plays every game; the errors per player where any, QA)
        table.add_row(Text(safe_text(p["name"], 80)), str(p["wins"]),
                      f"{value(p['win_rate'], '.1%')} {_ci(p['win_rate_ci'], '.1f', 100)}",
                      f"{value(p['mean_score'], '.0f')} {_ci(p['mean_score_ci'], '.0f')}", str(p["deal_ins"]),
                      *((str(p["bot_errors"]),) if errors else ()))
    pairs = Table(title="Pairs: A - B, paired by deal (* the 95 % interval excludes 0)")
    for column in ("A - B", "mean score [95 %]", "win rate [95 %]"):
        pairs.add_column(column, justify="left" if column == "A - B" else "right", no_wrap=column != "A - B",
                         overflow="fold")
    for q in summary["pairs"]:
        marks = ["*" if ci and (ci[0] > 0 or ci[1] < 0) else " " for ci in (q["score_diff_ci"], q["win_rate_diff_ci"])]
        pairs.add_row(Text(f"{safe_text(q['a'], 60)} - {safe_text(q['b'], 60)}"),
                      f"{value(q['score_diff'], '+.0f')} {_ci(q['score_diff_ci'], '+.0f')}{marks[0]}",
                      f"{value(q['win_rate_diff'], '+.1%')} {_ci(q['win_rate_diff_ci'], '+.1f', 100)}{marks[1]}")
    ends = summary["ends"]
    foot = (f"ends: {ends['tsumo']} tsumo, {ends['ron']} ron, {ends['draw']} exhaustive draws"
            + (f"; {errors} bot errors (dropped lines included), {count(fallback, 'decision')} made by the fallback "
               "COM" if errors else "")
            + ". Intervals: 95 % estimates, Wilson for a win rate, Student t over the deals for a mean and for"
            " the pairs' differences; - where there are too few deals (t needs 2), no spread among them, or no score.")
    # (QA: an engine that crashed in every game was ranked on the fallback's wins, unremarked; then one whose answers
    # were mostly garbled came top with no word, crashing in none)
    flagged = [f"{p['fallback_decisions']} of the {count(p['decisions'], 'decision')} of {safe_text(p['name'], 80)} "
               + (f"(it crashed in {p['crashed_games']} of {count(p['games'], 'game')})" if p.get("crashed_games")
                  else "(its answers late, not JSON or illegal)")
               for p in summary["players"] if p.get("crashed_games")
               or p.get("fallback_decisions", 0) >= FALLBACK_SHARE * max(1, p.get("decisions", 0))]
    if flagged:
        foot += (f"\nWarning: the fallback COM ({summary['fallback']}) made {'; '.join(flagged)}. It decides for a "
                 "faulty answer and plays a crashed seat to the end: those results are not the engine's alone.")
    return [table, pairs, Text(foot)]
