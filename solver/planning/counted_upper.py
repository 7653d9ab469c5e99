"""E[score]'s perfect-information relaxation counted over every draw at short horizons (docs/formulation.md section
8, "Bounds past the budget"): a proved upper bound of the optimal E[score] where E[score] is not over all play.

In each wall a play holds only tiles of its pool (sampled_upper.py: the kept tiles, the draws, and the waiting room
while a fetch can happen) and scores at most g = max(min(N, the pool's best no-win packing of 12 tiles), the pool's
best tsumo score). g depends on the draws only through their multiset D, so the relaxation's value is
    sum over D of  prod_k C(w_k, r_k) / C(W, t)  *  g(pool(D)),
exact over every multiset of t draws (about 22,000 of 3 draws from 50 live kinds, 290,000 of 4). A drawn そら counts
as drawn in time to fetch whatever its place (a larger pool: still a bound). The sample of the same g estimates it
past the turns counted; here it is counted, so it is proved. Where a fetch can happen the pool is the hand, the draws
and the room, whatever the discard. In C (planc_relax.c, the same Fractions) up to NATIVE_TURNS.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

from solver.core.rules import RuleSet
from solver.planning.request import PlanRequest
from solver.planning.sampled_upper import best_end, pool_of, pool_tools
from solver.planning.score_bounds import bounded, caps
from solver.planning.targets import _planc, packer_built, past

COUNT_TURNS = 3  # counted up to this many draws in Python (4 draws: about 270,000 multisets, 10x the time)
NATIVE_TURNS = 4  # in C (planc_relax.c: about 1-2 s for 11 rows at 4 draws; 5 draws would take 10 times that)
NATIVE_KINDS = 63  # (its keys: 3 bits a kind in three words)
LABEL = ("; for {n} of {of} discards at most the relaxation's mean of the best end within the tiles a play can hold "
         "(a win, or at most N without one), counted over every draw (proved)")
UNREACHED = "; the relaxation counted over every draw reached no discard within the time budget"


def draw_multisets(wall: tuple[int, ...], t: int) -> list[tuple[tuple[int, ...], int]]:
    """Every multiset of t draws from the live copies (kinds, with repeats) and its number of physical draws."""
    kinds = [k for k, n in enumerate(wall) if n]
    out = []
    for draws in combinations_with_replacement(kinds, t):
        ways = 1
        for k, r in Counter(draws).items():
            ways *= comb(wall[k], r)  # 0 where more copies are drawn than are live
        if ways:
            out.append((draws, ways))
    return out


def counted_relaxation(rules: RuleSet, request: PlanRequest, tiles: list[int | None],
                       deadline: float | None = None, native: bool = True) -> dict[int | None, Fraction]:
    """Per discard in `tiles` (taken in order; past the deadline the rest are left out) the relaxation's E[score]
    bound, exactly. In C where built (planc_relax.c; `native` False: this loop)."""
    position, turns = request.position, request.turns
    hand, best_win, nowin, slots, room, wall, sora = pool_tools(rules, request)
    total = comb(sum(wall), turns)
    if native and native_count(rules) and nowin._c is not None:  # (no C no-win score where the rules give none)
        rows = [(-1 if tile is None else tile,
                 0 if sora is None else hand.concealed[sora] - (tile == sora),
                 caps(rules, position, turns, tile)[1]) for tile in tiles]
        sums = _planc.relax_count(best_win._c, nowin._c, bytes(hand.concealed), bytes(wall), turns, slots,
                                  None if sora is None else bytes(room), -1 if sora is None else sora, rows,
                                  deadline or 0.0)
        return {tile: Fraction(value, total) for tile, value in zip(tiles, sums)}
    walls = draw_multisets(wall, turns)
    # per multiset: can any pool of it win at all (the largest pool holds every other); found with the first row
    whole: list[bool] = []
    out: dict[int | None, Fraction] = {}
    for tile in tiles:
        floor = caps(rules, position, turns, tile)[1]
        kept = 0 if sora is None else hand.concealed[sora] - (tile == sora)
        value = 0
        for n, (draws, ways) in enumerate(walls):
            if not n & 1023 and past(deadline):
                return out  # (a row is given whole or not at all)
            if n == len(whole):
                whole.append(best_win.score(pool_of(hand.concealed, room, draws, None, True), slots) is not None)
            fetch = sora is not None and kept + draws.count(sora) > 0
            pool = pool_of(hand.concealed, room, draws, tile, fetch)
            value += ways * best_end(best_win if whole[n] else None, nowin, pool, slots, floor)[1]
        out[tile] = Fraction(value, total)
    return out


def counted_at_end(rules: RuleSet, request: PlanRequest) -> bool:
    """Whether an E[score] plan's clock keeps time for the count at its end (clock.COUNT): at the draws counted in C
    alone (below them the optimum answers first, and the count takes a fraction of a second)."""
    return request.objective == "score" and request.play == "optimal" and request.turns > COUNT_TURNS \
        and request.turns <= NATIVE_TURNS and native_count(rules)


def native_count(rules: RuleSet) -> bool:
    return packer_built(rules, None) and len(rules.tiles) <= NATIVE_KINDS


def with_counted_uppers(rules: RuleSet, request: PlanRequest, plan, deadline: float | None):
    """The plan with each row's E[score] bound lowered to the counted relaxation where that is tighter (rows whose
    E[score] is a bracket, best first, while the deadline lasts); labelled with how many it reached."""
    if request.turns > (NATIVE_TURNS if native_count(rules) else COUNT_TURNS) or request.turns < 1:
        return plan
    open_rows = [r.tile for r in plan.discards if r.expected_score is not None and r.score_upper is not None
                 and r.score_upper > r.expected_score]
    if not open_rows:
        return plan
    counted = counted_relaxation(rules, request, open_rows, deadline)
    # (a proof of the value the sample estimated: the estimate goes)
    rows = tuple(r if r.tile not in counted or counted[r.tile] >= r.score_upper else
                 bounded(replace(r, score_upper_estimate=None, score_upper_interval=None), counted[r.tile])
                 for r in plan.discards)
    labels = dict(plan.policy_class)
    labels["expected_score"] += LABEL.format(n=len(counted), of=len(plan.discards)) if counted else UNREACHED
    return replace(plan, discards=rows, policy_class=labels)
