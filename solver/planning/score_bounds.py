"""A proved upper bound of the optimal E[score] per discard (docs/formulation.md section 8, "Bounds past the
budget"). For every way of playing (fetches of a fetch-mode そら included) the game ends either in a win, scoring
the tsumo score of a complete hand, or after the last draw, scoring a 12-tile hand that did not win, so with
S >= every tsumo score a win can reach, N >= every no-win score a final hand can have and U >= the optimal P(win)
(the row's proved `upper`):

    E[score] <= S P(win) + N (1 - P(win)) <= N + (S - N) U      (S > N; else every end scores at most N).

S and N come from one relaxation (caps): every tile of a hand the play reaches is a kept tile, a draw or (while a
fetch can follow) a waiting-room tile, and at most turns + fetches of it (fetches: the そら kept, at most turns) lie
outside the kept hand. Any split of it into units (a complete hand's, or a no-win packing) is a multiset of units
each made of available copies, and a member of a kind the kept hand does not hold costs one of those tiles each.
The best points over unit multisets with total cost <= turns + fetches and size == the concealed slots (win) or
<= one fewer (no win) is a knapsack over (cost, size, favourite held), solved exactly by a small table: at least
every reachable score.

Where every win is listed (the P(win) relaxation was counted, bounds.py), the same relaxation bounds E[score]
directly: on every draw set D the play scores at most max(N, the best tsumo score of a listed hand whose missing
tiles D holds), whose mean bounds.win_upper counts in the same pass; the smaller of the two bounds is kept.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from solver.core.hand import Hand
from solver.core.rules import RuleSet
from solver.planning.prepare import fetch_could_follow, position_counts
from solver.planning.request import Position
from solver.planning.targets import called_points

UPPER = ("N + (S - N) * U: N caps the score of a hand that did not win, S the tsumo score of any win within reach "
         "(a knapsack over units by their missing tiles), U the P(win) upper bound; where the complete hands are "
         "listed, at most the relaxation's mean of max(N, the best listed hand the draws complete)")


def knapsack(items, budget: int, slots: int, exact: bool, bonus: int, fav_called: bool) -> int | None:
    """The most points of a multiset of `items` ((cost, size, points, holds the favourite, copies)) with cost at
    most `budget` and size `slots` (exact) or at most `slots`, the favourite bonus added once where a unit (or a
    called one) holds the favourite; None where no multiset fits (exact)."""
    width = slots + 1
    best = {(0, 0, False): 0}  # (cost, size, favourite held) -> points
    for cost, size, points, fav, copies in items:
        for _ in range(min(copies, slots // size)):  # one more copy of this item each pass (0/1 per copy)
            grown = dict(best)
            for (c, s, f), p in best.items():
                key = (c + cost, s + size, f or fav)
                if key[0] <= budget and key[1] < width and grown.get(key, -1) < p + points:
                    grown[key] = p + points
            if grown == best:
                break
            best = grown
    values = [p + (bonus if f or fav_called else 0) for (c, s, f), p in best.items() if not exact or s == slots]
    return max(values) if values else None


def caps(rules: RuleSet, position: Position, turns: int, discard: int | None) -> tuple[int | None, int]:
    """(S, N) of the row that discards `discard` (None: a 12-tile hand as it stands): S at least every tsumo score
    a win within the turns can reach (None: no complete hand can be reached), N at least the score of every
    12-tile hand that did not win the play can end in (0 where the rule set gives it none)."""
    hand: Hand = position.hand
    kept = hand if discard is None else hand.remove(discard)
    _, room, wall, _ = position_counts(rules, position, turns)
    sora = rules.tiles.sora
    fetches = min(kept.concealed[sora], turns) if rules.sora_mode == "fetch" and sora is not None else 0
    room = list(room)
    if discard is not None:
        room[discard] += 1  # the discard lies in the waiting room
    fetch = fetch_could_follow(rules, wall, fetches, turns)
    held = kept.concealed
    available = [held[k] + wall[k] + (room[k] if fetch else 0) for k in range(len(held))]
    budget = turns + fetches
    slots = rules.concealed_slots(kept.called)
    favourite = position.favourite
    won, nowin = {}, {}  # (cost, size, points, favourite) -> copies, per scoring
    for u in rules.units:
        if sora in u.members or not all(available[k] for k in u.members):
            continue
        cost = sum(1 for k in u.members if not held[k])
        if cost > budget:
            continue
        fav = favourite in u.members
        copies = min(available[k] for k in u.members)
        for table, win in ((won, True), (nowin, False)):
            key = (cost, u.size, rules.points(u.size, won=win, has_favourite=fav), fav)
            table[key] = table.get(key, 0) + copies
    bonus = rules.favourite_bonus
    base, fav_called = called_points(rules, kept.called, won=True, favourite=favourite)
    best_win = knapsack([k + (n,) for k, n in won.items()], budget, slots, True, bonus, fav_called)
    S = None if best_win is None else base + best_win
    if not rules.scores_no_win:
        return S, 0
    base, fav_called = called_points(rules, kept.called, won=False, favourite=favourite)
    return S, base + knapsack([k + (n,) for k, n in nowin.items()], budget, slots - 1, False, bonus, fav_called)


def bound(S: int | None, N: int, U: Fraction) -> Fraction:
    """N + (S - N) U where a win can score more than N, else N (every end scores at most N)."""
    if S is None or S <= N:
        return Fraction(N)
    return N + (S - N) * min(Fraction(1), U)


def row_upper(rules: RuleSet, position: Position, turns: int, row, relaxed: Fraction | None = None):
    """The row's proved upper bound of the optimal E[score]: N + (S - N) U from its P(win) upper bound U, or
    `relaxed` (another proved bound: the relaxation's, or one found before) where given and lower (None where the
    row has no P(win) bound)."""
    if row.upper is None:
        return None
    S, N = caps(rules, position, turns, row.tile)
    simple = bound(S, N, row.upper)
    return simple if relaxed is None else min(simple, relaxed)


def with_score_uppers(rules: RuleSet, position: Position, turns: int, rows, relaxed: dict | None = None) -> tuple:
    """The rows with `score_upper` (row_upper; `relaxed` per tile as there). A sampled E[score] estimates a policy's
    value, at most the optimum: a sample mean above the proved bound is brought down to it, and so is the top of
    its interval."""
    return tuple(bounded(row, row_upper(rules, position, turns, row, (relaxed or {}).get(row.tile))) for row in rows)


def bounded(row, upper):
    """The row with `score_upper` = upper; a sampled E[score] (its value and the top of its interval) above it
    brought down to it."""
    row = replace(row, score_upper=upper)
    if upper is not None and row.score_interval is not None and row.expected_score is not None:
        cap = float(upper)
        if row.expected_score > upper:
            row = replace(row, expected_score=upper)
        if row.score_interval[1] > cap:
            row = replace(row, score_interval=(min(row.score_interval[0], cap), cap))
    return row
