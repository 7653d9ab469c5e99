"""E[score] past 3 draws from below: the optimum over the first 3 draws alone (docs/formulation.md section 8, "Bounds
past the budget").

Play the policy optimal for the game that ends after 3 draws; after its last draw take the tsumo where that policy's
leaf does, else keep the 12 tiles whose no-win score the leaf counts and discard every tile drawn after. The hand
then ends with at least that score: a 13-tile hand's no-win score is at least each of its 12-tile sub-hands' (and a
complete one's leaf is at least those too). So E[score] over all play over 3 draws (score_optimum.py, exact) is at
most the optimum over more draws: a lower bound, and the value of a real way of playing at least. Where E[score]
over all play does not finish, the lower side is a class (nearest) or its estimate, which lose more than a draw: on
12 seeded hands at 4 draws the 3-draw optimum raised the recommended row in 8 (by up to 940 points), at 5 draws in 3
of 6, at 8 draws in none (TURNS).
"""

from __future__ import annotations

from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning.answer import first_advice, holds_sora, proves_more
from solver.planning.request import PlanRequest
from solver.planning.targets import TooLarge

SHORT = 3  # draws of the shorter game (its optimum: about 1 s median at 3 draws, past 3 rarely within a budget)
TURNS = 5  # draws up to which it is tried (at 8 it raised no recommended row of 6 seeded hands)
LABEL = ("; for {n} of {of} discards E[score] over all play over the first {s} draws alone (then the 12 tiles kept: "
         "later draws only add) does better (exact)")


def applies(request: PlanRequest) -> bool:
    return SHORT < request.turns <= TURNS


def score_within(rules: RuleSet, request: PlanRequest, rows: tuple, deadline: float | None,
                 advise: bool = True) -> tuple[tuple, str]:
    """The rows with each one's E[score] raised to the optimum over SHORT draws where higher (the caller ranks them
    after), and the label's note ("" where none was raised or it did not finish by the deadline). `advise`: the
    rows' そら advice is E[score]'s (the request's objective), so a raised row takes the shorter game's."""
    from solver.planning.score_optimum import native_tail, score_optimum

    if not applies(request) or not native_tail(rules, None):  # (in pure Python 3 draws take 100 s: never in time)
        return rows, ""
    try:
        moves, _ = score_optimum(rules, request.position, SHORT, [r.tile for r in rows],
                                 state_limit=request.limits.max_states, deadline=deadline)
    except TooLarge:  # (OutOfTime too: the rows stay as they are)
        return rows, ""
    out, raised = [], 0
    for row, (value, wait, take) in zip(rows, moves):
        if proves_more(value, row.expected_score, row.score_interval):
            row = replace(row, expected_score=value, score_interval=None)
            if advise and holds_sora(rules, request.position.hand, row.tile):
                row = replace(row, sora=first_advice(value, wait, take))
            raised += 1
        out.append(row)
    return tuple(out), LABEL.format(n=raised, of=len(rows), s=SHORT) if raised else ""


def shortened(rules: RuleSet, request: PlanRequest, found, deadline: float | None):
    """A plan's E[score] column (beside P(win)) with each row raised to the optimum over SHORT draws where higher,
    within the deadline, and labelled so (its そら advice stays P(win)'s)."""
    rows, note = score_within(rules, request, found.discards, deadline, advise=False)
    if not note:
        return found
    labels = dict(found.policy_class, expected_score=found.policy_class["expected_score"] + note)
    return replace(found, discards=rows, policy_class=labels)
