"""`mj review`: every decision of one seat in a game log graded by the exact evaluator (game/review.py), shown
as a table and a summary like mjai-reviewer's, or as JSON. A progress bar on a terminal."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from console.common import CatalogueOpt, JsonOpt, emit_json, errors
from solver.batch.job import MAX_WORKERS

REVIEW_STATES = 50_000  # game.review.MAX_STATES, not imported here: the command's start-up (tests hold them equal)


def review(log: Annotated[str, typer.Argument(metavar="LOG", help="A game log written by mj play --log.")],
           seat: Annotated[int, typer.Option("--seat", help="The seat whose decisions are graded.")] = 0,
           seconds: Annotated[float, typer.Option("--seconds", help="The planner's time budget a decision; past "
                                                                    "it, bounds or h and acceptance grade it.")] = 1.0,
           workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=MAX_WORKERS,
                                                            help="Worker processes grading decisions (2, not every core: each "
                                                                 "decision's plan may put a second core to work).")] = 2,
           max_states: Annotated[int, typer.Option("--max-states", min=1, help="The planner's cap on memoised states a "
                                                                          "decision (mj plan's default: 500,000); "
                                                                          "with --seconds, what bounds the optimum.")
                                 ] = REVIEW_STATES,
           estimate: Annotated[Optional[int], typer.Option("--estimate", help="Past the class nearest's limits, this "
                                                                              "many sampled walls per action "
                                                                              "(default 1,000; labelled estimate, "
                                                                              "with 95 % intervals).")] = None,
           at: Annotated[Optional[list[int]], typer.Option("--at", metavar="N", help="Only the decision taken at the position "
                                                                        "`mj replay --at N` shows (the # column); repeatable.")] = None,
           time_budget: Annotated[Optional[float], typer.Option(
               "--time-budget", min=0.1, help="Stop grading after this many seconds, as Ctrl-C does: the decisions "
                                              "graded by then are shown, and the exit code is 124.")] = None,
           json_: JsonOpt = False, catalogue: CatalogueOpt = None) -> None:
    """Grade every decision of a seat: per discard P(win) and E[score] of the chosen and the best action (solo
    model, opponents not modelled), the loss, h kept or lost; claims (ron, call, pass) by P(win), by h where
    it has none; missed wins.

    Example: mj review game.jsonl --seat 1   (a log written by mj play --log game.jsonl)
    """
    with errors():
        from console.game import noted_end, read_log
        from console.progress import count_bar
        from game.review import review_game
        from solver.batch.signals import EXIT_BUDGET, stop_signals

        events, ev = read_log(log, catalogue)
        # (the budget of the whole review, beside each decision's --seconds: QA, a long log had none)
        with stop_signals(time_budget), count_bar("grading", None) as progress:
            result = review_game(ev, events, seat, seconds=seconds, max_states=max_states, estimate=estimate,
                                 workers=workers, progress=progress, indexes=None if at is None else set(at))
        ended = noted_end(events)  # a cut log: the decisions it holds are reviewed all the same
        if json_:
            emit_json(result.to_dict() if ended else {**result.to_dict(), "unfinished": True})
        else:
            _show(result.to_dict())
        if result.interrupted:
            why = f"the time budget of {time_budget:g} s ran out" if result.interrupted == EXIT_BUDGET else "interrupted"
            typer.echo(f"{why}: the review holds the {len(result.decisions)} decisions graded before it", err=True)
            raise typer.Exit(result.interrupted)


def _pct(value) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _loss(d: dict) -> str:
    """The loss as graded, and the loss against the optimum beside it where that is proved and not the same (QA: a
    loss within the class nearest had stood alone where only 0-100 % was proved)."""
    bounds = d["loss_bounds"]
    if bounds is None or bounds == [d["loss"], d["loss"]]:
        return _pct(d["loss"])
    proved = f"proved {_pct(bounds[0])}–{_pct(bounds[1])}"
    return proved if d["loss"] is None else f"{_pct(d['loss'])} ({proved})"


def _value(option: dict) -> str:
    """P(win) and, where known, E[score] of the same play; `~` before a sampled one (it has an interval), as in mj plan's
    table (QA: only the method column said so)."""
    score = option["expected_score"]
    sampled = "~" if option.get("win_interval") else ""
    return sampled + _pct(option["win_probability"]) + ("" if score is None else
                                                       f" · {'~' if option.get('score_interval') else ''}{score:,.0f}")


def _show(review: dict) -> None:
    from rich.table import Table

    from console.game_view import describe
    from console.render import console
    from solver.core.wording import count

    title = f"seat {review['seat']} ({review['name']}): {count(len(review['decisions']), 'decision')}"
    table = Table(title=title)
    for column in ("#", "type", "chosen", "best", "P(win) · E[score]", "the best's", "loss", "h", "method"):
        table.add_column(column, justify="right" if column in ("#", "loss", "h") else "left", overflow="fold")
    for d in review["decisions"]:
        chosen, best = d["chosen"], d["best"]
        mark = "" if d["match"] else ("missed win" if d["missed_win"] else "≠")
        h = f"{'—' if chosen['h'] is None else chosen['h']}" + (f" (+{d['h_lost']})" if d["h_lost"] else "")
        best_cell = "=" if d["match"] else describe(best["action"], short=True)
        table.add_row(str(d["index"]) + ("*" if d["clocked"] else ""), d["type"], describe(chosen["action"], short=True),
                      best_cell, _value(chosen), _value(best),
                      _loss(d) + (f" {mark}" if mark else ""), h, d["method"])
    if review["decisions"]:  # (none: an interrupt before the first, no empty table, QA)
        console.print(table)
    else:  # (QA: a seat the fallback played throughout had no header at all)
        console.print(title, markup=False, highlight=False)
    s = review["summary"]
    rate = "—" if s["match_rate"] is None else f"{100 * s['match_rate']:.1f}%"
    by_win = s["graded_by_win_probability"]
    # (none graded by P(win): every decision by h, and the first one's note says why, e.g. 2019-10's wildcard そら)
    lost = (f"P(win) lost {100 * s['total_loss']:.1f} points ({100 * s['proved_loss']:.1f} of them proved against the "
            f"optimum) over {count(by_win, 'decision')} graded by P(win)"
            if by_win else "nothing graded" if not s["decisions"] else
            "graded by h alone" + (f" ({review['decisions'][0]['note']})" if review["decisions"][0].get("note") else ""))
    console.print(f"match {s['matches']}/{s['decisions']} ({rate}) · {lost} · missed wins {s['missed_wins']} "
                  f"· h lost {s['h_lost']}" + (f" · {count(s['skipped'], 'decision')} not the player's (claims another "
                                               "seat's claim overrode, the fallback COM's)" if s["skipped"] else ""),
                  markup=False, highlight=False)
    if s["clocked"]:  # (QA: the same log graded a match in one run and a loss in the next, under one label)
        them = "them" if s["clocked"] > 1 else "it"  # (marked in the # column: never cut off on a narrow terminal)
        console.print(f"* {count(s['clocked'], 'decision')} graded within a clock that stopped a planner step: another "
                      f"run, or a larger --seconds, may grade {them} otherwise", markup=False, highlight=False)
    if s["worst"]:
        worst = ", ".join(f"#{review['decisions'][i]['index']}" for i in s["worst"])
        console.print(f"worst: {worst}", markup=False, highlight=False)
    console.print(f"model: {review['model']}. Methods: optimal = the exact optimum; bounds = the exact value of the "
                  "class nearest (a real policy, a lower bound of the optimum); estimate = sampled past the class's "
                  "limits (--estimate); h = exchanges and live acceptance only.",
                  markup=False, highlight=False, style="dim")
