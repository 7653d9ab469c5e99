"""The bracket's lower side at long horizons: the estimate's policy (estimate.py) played in sampled walls, where its
estimated value is above a row's exact lower bound (docs/formulation.md section 8, "Bounds past the budget").

Past the exact frontier the class nearest is the lower policy valued exactly, but at many draws it plays worse than
the estimate's policy, which re-chooses the lowest-h discard after every draw. A Monte Carlo value of a real policy
estimates a lower bound of the optimum (issue 22, item 3), so a row whose sampled value is higher reports that value
with its 95 % interval (the row's `win_interval` / `score_interval` say it is sampled), labelled.
Two stages, so picking the rows that sampled high does not bias what is reported: SELECT games choose the rows to
raise, then GAMES fresh walls value them, and a row is raised only where the whole 95 % interval of that value lies
above its exact value (a proved number is never swapped for one that is higher only within its noise). Fixed
numbers of games (the same walls for every discard, seeded) keep answers reproducible; the clock (none where the
request has none) only stops early (then nothing is raised).
"""

from __future__ import annotations

from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning.estimate import Sampled, simulate
from solver.planning.prepare import prepare, root_states
from solver.planning.request import PlanRequest
from solver.planning.targets import TooLarge

SELECT = 400  # sampled walls per discard to choose the rows to raise
GAMES = 1000  # fresh walls per raised discard for the value reported (95 % half-width at most 3.1 points of P(win))
LABEL = ("; for {n} of {of} discards the estimate's policy ({policy}) does better: its Monte Carlo value over "
         "{games} sampled walls with a 95 % interval (a real policy's value, estimated)")


def sample_rows(rules: RuleSet, request: PlanRequest, keep, seed: int, games: int,
                deadline: float | None) -> dict | None:
    """Per kept discard (keep(tile): a tile, None for a 12-tile hand) the estimate's policy's Sampled outcome over
    the class nearest's listed hands in `games` walls; None where the clock or the listing stopped it."""
    try:
        prep = prepare(rules, request.position, turns=request.turns, objectives=(request.objective,),
                       play="nearest", state_limit=request.limits.max_states, deadline=deadline)
    except TooLarge:
        return None
    choices, roots = root_states(prep, rules, request.position)
    tiles = [None if c is None else prep.positions[c] for c in choices]
    picked = [(tile, hand12) for tile, (hand12, _) in zip(tiles, roots) if keep(tile)]
    if not picked:
        return {}
    got = simulate(prep.searches[request.objective], [hand12 for _, hand12 in picked], prep.wall_r, prep.W0,
                   request.turns, games, seed, deadline=deadline)
    if got[0].games < games:  # stopped by the clock: a fixed number of walls, or nothing
        return None
    return {tile: s for (tile, _), s in zip(picked, got)}


def raise_rows(rules: RuleSet, request: PlanRequest, rows: tuple,
               deadline: float | None = None) -> tuple[tuple, int, int]:
    """The rows with the objective's exact class value replaced by the estimate's policy's sampled value where that
    is higher in both stages (for P(win) also at most the row's proved upper bound: above it the sample is plainly
    off and the exact value stays); re-sorted. Also how many rows were raised and the games of the second stage."""
    if request.limits.seconds is None:  # (no clock asked: none here)
        deadline = None
    win = request.objective == "win"
    field, interval = ("win_probability", "win_interval") if win else ("expected_score", "score_interval")
    exact = {r.tile: r for r in rows if getattr(r, field) is not None and getattr(r, interval) is None}

    def value(s: Sampled):
        return s.win_probability if win else s.expected_score

    def beats(tile, s: Sampled, sure: bool = False) -> bool:
        """Higher than the row's exact value; `sure`: the whole 95 % interval is (a proved value is not swapped
        for a sample that is higher only within its noise)."""
        row = exact[tile]
        above = (s.win_interval() if win else s.score_interval())[0] if sure else value(s)
        return above > getattr(row, field) and (not win or row.upper is None or value(s) <= row.upper)
    seed = request.limits.seed
    first = sample_rows(rules, request, lambda tile: tile in exact, seed, SELECT, deadline) or {}
    chosen = {tile for tile, s in first.items() if beats(tile, s)}
    second = sample_rows(rules, request, chosen.__contains__, seed + SELECT, GAMES, deadline) if chosen else None
    raised, out = 0, []
    for row in rows:
        s = (second or {}).get(row.tile)
        if s is not None and beats(row.tile, s, sure=True):
            row = replace(row, **{field: value(s), interval: s.win_interval() if win else s.score_interval()})
            raised += 1
        out.append(row)
    out.sort(key=lambda r: getattr(r, field), reverse=True)
    return tuple(out), raised, GAMES
