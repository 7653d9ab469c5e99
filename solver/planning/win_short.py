"""P(win) past the optimum's budget from below by a shorter game: the planner's exact value over the first s draws
alone (docs/formulation.md section 8, "Bounds past the budget").

A way of playing valued exactly over s draws can be played for the first s draws of a longer game, then with any
discards: every win it makes within s draws is a win within more (the game goes on past a win no later), so its
value over the longer game is at least its value over s. Where the optimum over all draws does not finish, the
lower side is a class (nearest) or its estimate, which can lose more than the last draws add (QA: at 4 draws a
discard at 1.47 % whose exact value over 3 draws is 5.55 %). With a そら held the deepening's own levels over fewer
draws do the same (fetch_within.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning.answer import proves_more
from solver.planning.request import PlanRequest
from solver.planning.targets import TooLarge

SHORT = 3  # draws of the shorter game at most (the planner's own search: 0.1-0.3 s median at 3 draws)
TURNS = 5  # draws up to which it is tried (as score_short.TURNS: past them a class loses less than the draws add)
LABEL = "; for {n} of {of} discards P(win) over the first {s} draws alone ({what}; later draws only add wins) does " \
        "better (exact)"


def applies(request: PlanRequest) -> bool:
    return 1 < request.turns <= TURNS


def win_within(rules: RuleSet, request: PlanRequest, rows: tuple, solve: Callable,
               deadline: float | None) -> tuple[tuple, str]:
    """The rows with each one's P(win) raised to the exact value over min(SHORT, turns - 1) draws where higher (the
    caller ranks them after), and the label's note ("" where none was raised or it did not finish by the deadline).
    `solve(request, deadline)`: the planner's exact plan of a request (search_plan.exact_plan: over all play, or
    where a fetch could follow the class that discards a drawn そら), a real way of playing. With a fetch-mode そら
    held, nothing here: the deepening's levels over fewer draws do it (fetch_within.py), with its そら advice."""
    from solver.planning.fetch_within import applies as deepens

    if not applies(request):
        return rows, ""
    short = replace(request, turns=min(SHORT, request.turns - 1), objective="win", both=False, play="optimal",
                    detour=None)
    if deepens(rules, short):  # (a そら held: the deepening's own short levels, fetch_within.py)
        return rows, ""
    try:
        plan = solve(short, deadline)
    except TooLarge:  # (OutOfTime too: the rows stay as they are)
        return rows, ""
    found = {r.tile: r.win_probability for r in plan.discards}
    what = plan.policy_class["win_probability"]
    out, raised = [], 0
    for row in rows:
        value = found.get(row.tile)
        if value is not None and proves_more(value, row.win_probability, row.win_interval):
            row = replace(row, win_probability=value, win_interval=None)
            raised += 1
        out.append(row)
    return tuple(out), LABEL.format(n=raised, of=len(rows), s=short.turns, what=what) if raised else ""


def win_shortened(rules: RuleSet, request: PlanRequest, found, solve: Callable, deadline: float | None):
    """A plan's P(win) column (beside E[score]) with each row raised to the shorter game's value where higher, within
    the deadline, and labelled so."""
    rows, note = win_within(rules, request, found.discards, solve, deadline)
    if not note:
        return found
    labels = dict(found.policy_class, win_probability=found.policy_class["win_probability"] + note)
    return replace(found, discards=rows, policy_class=labels)
