"""A provable upper bound of the optimal P(win) (docs/formulation.md section 8, "Bounds past the budget").

Perfect-information relaxation: a player who knew the coming draws wins iff some complete hand T is made of
the hand's tiles, the draws and (with a fetch-mode そら) the waiting room's tiles, so for every way of playing
    P(win) <= P(for some target T within reach: (T - H - room)^+ <= D),
D the multiset of the next t draws, a uniform t-subset of the wall's physical tiles. That probability is
computed exactly: the number of t-subsets holding some target's missing tiles, summed over the patterns the
draws can show on the needed kinds (win_upper).
"""

from __future__ import annotations

import time
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

from solver.planning.targets import OutOfTime, TooLarge

UPPER_STATES = 300_000  # distinct draw patterns before the bound gives up (then: 1)


def win_upper(targets, hand: tuple[int, ...], wall: tuple[int, ...], room: tuple[int, ...], W: int, t: int,
              limit: int = UPPER_STATES, deadline: float | None = None, scores=None, floor: int = 0):
    """P(some target's missing tiles, less the room's copies, all lie in the next t draws) over `targets`
    (count tuples over the positions of `wall`), `hand` and `room` over the same positions. TooLarge past
    `limit` distinct draw patterns.

    The draws' part over the kinds some need asks for (the "pattern" R, a multiset of at most t tiles) decides:
    the draws satisfy a need N iff R holds N. Every satisfying pattern is some N plus other needed tiles, so
    they are listed (once each) by adding every multiset of at most t - |N| needed tiles to each N; a pattern
    R comes with prod_k C(w_k, R_k) ways for its tiles and C(rest, t - |R|) for the draws of other kinds.

    With `scores` (each target's tsumo score, in the order of `targets`): (that probability, E[max(floor, the best
    score of a target whose missing tiles the draws hold)], floor where none): every need R holds generates R (R is
    that need plus R less it), so the best score of the needs generating R is the best R satisfies.
    """
    n = len(wall)
    needs: dict[tuple[int, ...], int] = {}
    for j, target in enumerate(targets):
        need = tuple(max(0, target[i] - hand[i] - room[i]) for i in range(n))
        if sum(need) <= t and all(need[i] <= wall[i] for i in range(n)):
            needs[need] = max(needs.get(need, floor), floor if scores is None else scores[j])
    if not needs:
        return Fraction(0) if scores is None else (Fraction(0), Fraction(floor))
    if any(not any(need) for need in needs) and scores is None:
        return Fraction(1)  # a target is in hand already
    kinds = sorted({i for need in needs for i in range(n) if need[i]})
    rest = W - sum(wall[i] for i in kinds)  # tiles no need asks for
    patterns: dict[tuple[int, ...], int] = {}  # pattern -> the best score of a need generating it
    for need, score in needs.items():
        tiles = tuple(i for i in kinds for _ in range(need[i]))
        for size in range(t - len(tiles) + 1):
            for extra in combinations_with_replacement(kinds, size):
                pattern = tuple(sorted(tiles + extra))
                if pattern in patterns:
                    patterns[pattern] = max(patterns[pattern], score)
                elif all(pattern.count(i) <= wall[i] for i in set(extra)):
                    patterns[pattern] = score
                    if len(patterns) > limit:
                        raise TooLarge(f"the upper bound passed {limit} draw patterns")
                    if deadline is not None and not len(patterns) & 4095 and time.monotonic() > deadline:
                        raise OutOfTime("the upper bound passed its time budget")
    total = scored = 0
    for pattern, score in patterns.items():
        ways = comb(rest, t - len(pattern))
        for i in set(pattern):
            ways *= comb(wall[i], pattern.count(i))
        total += ways
        scored += ways * score
    subsets = comb(W, t)
    if scores is None:
        return Fraction(total, subsets)
    return Fraction(total, subsets), Fraction(scored + (subsets - total) * floor, subsets)


def separated(rows) -> bool | None:
    """Whether the first row's lower bound reaches every other row's upper bound (the best discard is proved),
    None when some upper bound is missing."""
    if len(rows) < 2:
        return True
    uppers = [r.upper for r in rows[1:]]
    if rows[0].win_probability is None or any(u is None for u in uppers):
        return None
    return rows[0].win_probability >= max(uppers)
