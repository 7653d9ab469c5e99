"""`mj review`: every decision of one seat in a game log graded by the exact evaluator (game/review.py), shown
as a table and a summary like mjai-reviewer's, or as JSON. A progress bar on a terminal."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from console.common import CatalogueOpt, JsonOpt, emit_json, errors
from solver.core.errors import MjError


def review(log: Annotated[str, typer.Argument(help="A game log written by mj play --log.")],
           seat: Annotated[int, typer.Option("--seat", help="The seat whose decisions are graded.")] = 0,
           seconds: Annotated[float, typer.Option("--seconds", help="The planner's time budget a decision; past "
                                                                    "it, bounds or h and acceptance grade it.")] = 1.0,
           workers: Annotated[int, typer.Option("--workers", "-j", help="Worker processes grading decisions.")] = 2,
           at: Annotated[Optional[list[int]], typer.Option("--at", help="Only the decision taken at the position "
                                                                        "`mj replay --at N` shows (the # column); repeatable.")] = None,
           json_: JsonOpt = False, catalogue: CatalogueOpt = None) -> None:
    """Grade every decision of a seat: per discard P(win) and E[score] of the chosen and the best action (solo
    model, opponents not modelled), the loss, h kept or lost; missed wins, calls and そら by h.

    Example: mj play --seed 3 --log game.jsonl && mj review game.jsonl --seat 1
    """
    with errors():
        from console.game import read_log
        from game.review import review_game

        if workers < 1:
            raise MjError(f"--workers must be 1 or more, not {workers}")
        events, ev = read_log(log, catalogue)
        with _progress() as progress:
            result = review_game(ev, events, seat, seconds=seconds, workers=workers, progress=progress,
                                 indexes=None if at is None else set(at))
        if json_:
            return emit_json(result.to_dict())
        _show(result.to_dict())


class _progress:
    """A bar on stderr when it is a terminal (a review takes seconds to a minute)."""

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.start()
        self.task = self.bar.add_task("review", total=None)
        return lambda done, total: self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc):
        if hasattr(self, "bar"):
            self.bar.stop()


def _pct(value) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _what(action: dict) -> str:
    """Short, for a table cell: 打 X, WIN X, call UNIT, そら → X, pass."""
    kind = action["type"]
    if kind == "dahai":
        return f"打 {action['pai']}"
    if kind == "hora":
        return f"WIN {action['pai']}"
    if kind == "chi":
        return f"call {action['unit']}"
    if kind == "sora":
        return f"そら → {action['pai']}"
    return "pass"


def _show(review: dict) -> None:
    from rich.table import Table

    from console.render import console

    table = Table(title=f"seat {review['seat']} ({review['name']}): {len(review['decisions'])} decisions")
    for column in ("#", "type", "chosen", "best", "P(win) chosen", "P(win) best", "loss", "h", "method"):
        table.add_column(column, justify="right" if column in ("#", "loss", "h") else "left")
    for d in review["decisions"]:
        chosen, best = d["chosen"], d["best"]
        mark = "" if d["match"] else ("missed win" if d["missed_win"] else "≠")
        h = f"{'—' if chosen['h'] is None else chosen['h']}" + (f" (+{d['h_lost']})" if d["h_lost"] else "")
        table.add_row(str(d["index"]), d["type"], _what(chosen["action"]), "=" if d["match"] else _what(best["action"]),
                      _pct(chosen["win_probability"]), _pct(best["win_probability"]),
                      _pct(d["loss"]) + (f" {mark}" if mark else ""), h, d["method"])
    console.print(table)
    s = review["summary"]
    rate = "—" if s["match_rate"] is None else f"{100 * s['match_rate']:.1f}%"
    console.print(f"match {s['matches']}/{s['decisions']} ({rate}) · P(win) lost {100 * s['total_loss']:.1f} points over "
                  f"{s['graded_by_win_probability']} decisions graded by P(win) · missed wins {s['missed_wins']} · "
                  f"h lost {s['h_lost']}" + (f" · {s['skipped']} claims not in the log" if s["skipped"] else ""),
                  markup=False, highlight=False)
    if s["worst"]:
        worst = ", ".join(f"#{review['decisions'][i]['index']}" for i in s["worst"])
        console.print(f"worst: {worst}", markup=False, highlight=False)
    console.print(f"model: {review['model']}. Methods: optimal = the exact optimum; bounds = the exact value of the "
                  "class nearest (a real policy, a lower bound of the optimum); h = exchanges and live acceptance only.",
                  markup=False, highlight=False, style="dim")
