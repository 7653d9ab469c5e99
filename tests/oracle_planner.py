"""Independent brute-force oracle for the planner: expectimax over the FULL game tree of the solo model.

Plain Python and Fractions, no project imports (scores come from tests/oracle.py). No abstraction:
every kind may be drawn, every distinct kind may be discarded, a complete hand may win or play on,
and in fetch mode every そら may take any tile of the waiting room. Only plain caching of states.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from oracle import best_score


def plan_value(units, concealed, called, *, seen, room, turns, objective, rules, sora, favourite=None):
    """{discard kind (None for a 12-tile hand): best value} of the solo model with `turns` draws left."""
    K = len(concealed)
    totals = list(concealed)
    for j in called:
        for m in units[j]:
            totals[m] += 1
    wall0 = tuple(3 - totals[k] - seen[k] - room[k] for k in range(K))
    fetch = rules.get("sora_mode") == "fetch" and sora is not None
    win = objective == "win"

    @lru_cache(maxsize=None)
    def complete_score(hand):
        return best_score(units, list(hand), list(called), won=True, ron_tile=None, favourite=favourite,
                          rules=rules, sora=sora)

    @lru_cache(maxsize=None)
    def nowin(hand):
        if win:
            return Fraction(0)
        got = best_score(units, list(hand), list(called), won=False, ron_tile=None, favourite=favourite,
                         rules=rules, sora=sora)
        return Fraction(got or 0)

    def add(t, k, n):
        out = list(t)
        out[k] += n
        return tuple(out)

    @lru_cache(maxsize=None)
    def v12(hand, wall, rm, t):
        if t == 0:
            return nowin(hand)
        best = draw(hand, wall, rm, t)
        if fetch and hand[sora]:
            for k in range(K):
                if rm[k] and k != sora:
                    best = max(best, draw(add(add(hand, sora, -1), k, 1), wall, add(add(rm, k, -1), sora, 1), t))
        return best

    def draw(hand, wall, rm, t):
        W = sum(wall)
        return sum((Fraction(wall[k], W) * v13(add(hand, k, 1), add(wall, k, -1), rm, t - 1)
                    for k in range(K) if wall[k]), Fraction(0))

    @lru_cache(maxsize=None)
    def v13(hand, wall, rm, t):
        score = complete_score(hand)
        best = Fraction(-1)
        if score is not None:
            best = Fraction(1) if win else Fraction(score)
            if win:
                return best
        for k in range(K):
            if hand[k]:
                best = max(best, v12(add(hand, k, -1), wall, add(rm, k, 1), t))
        return best

    hand = tuple(concealed)
    rm = tuple(room)
    size = sum(concealed) + sum(len(units[j]) for j in called)
    if size == rules.get("hand_size", 13):
        return {k: v12(add(hand, k, -1), wall0, add(rm, k, 1), turns) for k in range(K) if hand[k]}
    return {None: v12(hand, wall0, rm, turns)}
