"""A better lower bound past the optimum's budget: one-step lookahead on the class nearest (docs/formulation.md
section 8, "Bounds past the budget").

For a root discard d of the 13-tile hand H, with t draws left and the wall's live counts w (W tiles), the policy
"discard d; after the first draw x, win if H - d + x is complete, else play the class nearest restarted from
H - d + x (its targets listed afresh from that hand) with its best discard" has the exact value
    LA(d) = sum_x w_x / W * (1 if H - d + x is complete else max_d' nearest(H - d + x, d', t - 1)),
each term the exact value of a real way of playing. The bound kept is max(nearest(d), LA(d)): the better of two
real policies, chosen before the first draw, so still a real policy, and never below the base.

A draw whose restarted plan passes its limits (its states, its share of the clock) is valued instead by
discarding the drawn tile at once (out of play) and playing nearest from the 12 tiles, also a real policy. The
step has a work budget (PLANS restarted plans, so answers are reproducible) and a clock; a discard is looked
ahead whole or keeps its base value, the best discards first, so the recommendation gains first.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from solver.core.errors import MjError
from solver.core.rules import RuleSet
from solver.planning.answer import ranked
from solver.planning.request import Limits, PlanRequest, Position
from solver.planning.targets import TooLarge, cut_by_clock, past

LABEL = (", or for the first {n} of {of} discards (best first) the better of it and a one-step lookahead on it "
         "(the first draw valued exactly, then the best discard of the class nearest restarted from that hand)")
PLANS = 120  # restarted plans in all (about two discards' draws): the work budget, so answers are reproducible
SECONDS = 2.0  # and a clock (at most the request's) for the plans that are slow to list their targets
PACE = 8  # a draw's plan may take this many times its share of the clock left
SUB_STATES = 2_000  # memoised states of one draw's restarted plan; past them that draw is valued by its fallback
# (the drawn tile discarded at once): one slow draw had taken the whole clock, so answers varied with the load

Solve = Callable[[PlanRequest, float | None], object]  # (a request of the class nearest, deadline) -> Plan


def applies(rules: RuleSet, request: PlanRequest) -> bool:
    """P(win) of a 13-tile hand with draws after the first, and no そら in hand that could fetch before it."""
    hand, sora = request.position.hand, rules.tiles.sora
    fetch = rules.sora_mode == "fetch" and sora is not None and hand.concealed[sora] > 0
    return (request.objective == "win" and request.turns >= 2 and not fetch
            and hand.size(rules) == rules.hand_size)


def wall_of(rules: RuleSet, position: Position) -> list[int]:
    """Live copies per kind: 3 less those held (called units included), seen, or in the waiting room."""
    from solver.planning.prepare import wall_counts

    out = [0] * len(position.hand.concealed)
    for k in position.waiting_room:
        out[k] += 1
    seen = position.seen or (0,) * len(out)
    return wall_counts(rules, position.hand, tuple(s + r for s, r in zip(seen, out)))


def lookahead_value(rules: RuleSet, request: PlanRequest, discard: int, solve: Solve,
                    deadline: float | None, max_states: int = SUB_STATES) -> Fraction:
    """LA(discard) exactly (see the module doc); TooLarge (or another MjError) when a draw's plan fails."""
    position = request.position
    kept = position.hand.remove(discard)
    # (the discard out of play: a later fetch of it is not counted; a real policy still, a fetch forgone)
    after = replace(position.seeing([discard]), hand=kept)
    wall = wall_of(rules, after)
    W = sum(wall)
    total = Fraction(0)
    start, done, draws = time.monotonic(), 0, sum(1 for n in wall if n > 0)
    for x, n in enumerate(wall):
        if n <= 0:
            continue
        now = time.monotonic()
        seconds = None if deadline is None else deadline - now
        # stop as soon as the pace so far would pass the clock: a slow discard gives its time back at once
        if seconds is not None and (seconds <= 0 or done and (now - start) / done * (draws - done) > seconds):
            cut_by_clock()
            raise MjError("the lookahead would pass its time budget")
        done += 1
        # one plan may take a few times its share of the time left before the pace check above can see it
        until = None if deadline is None else min(deadline, now + PACE * seconds / (draws - done + 1))
        limits = Limits(max_states, None if until is None else until - now)
        try:
            got = solve(PlanRequest(replace(after, hand=kept.add(x)), request.turns - 1, "win", "nearest", None,
                                    False, limits), until)
            value = Fraction(1) if got.complete else max(r.win_probability for r in got.discards)  # complete: tsumo
        except TooLarge:  # past its share or states (a drawn そら that could fetch, say): the drawn tile discarded
            # at once, out of play, and nearest played from the 12 tiles
            got = solve(PlanRequest(after.seeing([x]), request.turns - 1, "win", "nearest", None,
                                    False, limits), deadline)
            value = got.discards[0].win_probability
        total += n * value
    return total / W


def improve(rules: RuleSet, request: PlanRequest, rows: tuple, solve: Solve,
            clock: float | None = None) -> tuple[tuple, int]:
    """The rows (best first) with each discard's lower bound raised to its lookahead value where that is higher,
    the best discards first while PLANS restarted plans last and the clock (SECONDS, or the request's if
    shorter; none if the request has none) runs; re-sorted. Also how many discards were looked ahead."""
    if not applies(rules, request):
        return rows, 0
    seconds = request.limits.seconds
    deadline = None if seconds is None else time.monotonic() + min(seconds, SECONDS)
    if clock is not None and deadline is not None:  # (a clock shared with the step before it)
        deadline = min(deadline, clock)
    done = 0
    out = list(rows)
    plans = PLANS
    for i, row in enumerate(rows):
        if row.tile is None or row.win_probability is None or row.win_interval is not None:  # (sampled)
            continue
        draws = sum(1 for n in wall_of(rules, replace(request.position, hand=request.position.hand.remove(row.tile)))
                    if n > 0)  # (at most: the discard's own kind has one copy fewer)
        if draws > plans or past(deadline):
            break
        plans -= draws
        try:
            value = lookahead_value(rules, request, row.tile, solve, deadline,
                                    min(SUB_STATES, request.limits.max_states))
        except MjError:  # a draw's plan passed its limits: this discard keeps the base value
            continue
        done += 1
        if value > row.win_probability:
            out[i] = replace(row, win_probability=value)
    return tuple(ranked(out, "win")), done

