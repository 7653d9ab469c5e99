"""Independent brute-force references for the planner's optimum (issue 22), written to be obviously right.

Plain Python and Fractions; nothing from the project's `solver` package. Two oracles:

- `explicit_value`: the solo model over EXPLICIT tile copies (the wall is a set of physical tiles (kind, copy),
  every ordered draw equally likely), every discard, win or play on, scores from tests/oracle.py. For small
  synthetic games only; no reduction of any kind, plain caching of states.
- `real_win_value`: P(win) on the real catalogue, no そら: expectimax over (hand counts, wall counts, draws
  left), every kind drawn and every kind held discarded; a complete 13-tile hand wins. Its only speed-up is
  the last draw, counted from the hand's waits (a split of the 12 tiles into units with one member missing).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from oracle import best_score


def take(counts, k, n):
    """counts with n more (or fewer) of kind k."""
    out = list(counts)
    out[k] += n
    return tuple(out)


def explicit_value(units, concealed, *, seen, turns, objective, rules, sora=None, favourite=None):
    """{discard kind (None for a 12-tile hand): best value}, wall of physical copies (no called units, no fetch)."""
    K = len(concealed)
    win = objective == "win"
    hand_size = rules.get("hand_size", 13)
    wall0 = frozenset((k, c) for k in range(K) for c in range(3 - concealed[k] - seen[k]))

    @lru_cache(maxsize=None)
    def score(hand, won):
        return best_score(units, list(hand), [], won=won, ron_tile=None, favourite=favourite, rules=rules, sora=sora)

    @lru_cache(maxsize=None)
    def v12(hand, wall, t):
        if t == 0:
            return Fraction(0) if win else Fraction(score(hand, False) or 0)
        total = Fraction(0)
        for tile in wall:  # every physical tile, each with probability 1/|wall|
            total += v13(take(hand, tile[0], 1), wall - {tile}, t - 1)
        return total / len(wall)

    @lru_cache(maxsize=None)
    def v13(hand, wall, t):
        s = score(hand, True)
        best = Fraction(-1)
        if s is not None:
            if win:
                return Fraction(1)
            best = Fraction(s)
        for k in range(K):
            if hand[k]:
                best = max(best, v12(take(hand, k, -1), wall, t))
        return best

    hand = tuple(concealed)
    if sum(hand) == hand_size:
        return {k: v12(take(hand, k, -1), wall0, turns) for k in range(K) if hand[k]}
    return {None: v12(hand, wall0, turns)}


def split_waits(units, hand) -> set[int]:
    """Kinds k such that hand + k splits exactly into units: the hand split into units of which exactly one
    lacks one member (that member is k), or whole units plus a 1-member unit {k}."""
    by_kind = [[u for u in units if k in u] for k in range(len(hand))]
    singles = {u[0] for u in units if len(u) == 1}
    out: set[int] = set()
    counts = list(hand)

    def dfs(missing):
        i = next((k for k, n in enumerate(counts) if n), None)
        if i is None:
            if missing is None:
                out.update(singles)
            else:
                out.add(missing)
            return
        for u in by_kind[i]:
            lacking = [m for m in u if counts[m] == 0]
            if not lacking:
                for m in u:
                    counts[m] -= 1
                dfs(missing)
                for m in u:
                    counts[m] += 1
            if missing is None:  # this unit is the one the drawn tile completes: any member but i missing
                for gone in u:
                    if gone == i or any(counts[m] == 0 for m in u if m != gone):
                        continue
                    for m in u:
                        if m != gone:
                            counts[m] -= 1
                    dfs(gone)
                    for m in u:
                        if m != gone:
                            counts[m] += 1

    dfs(None)
    return out


def is_split(units, hand) -> bool:
    by_kind = [[u for u in units if k in u] for k in range(len(hand))]
    counts = list(hand)

    def dfs():
        i = next((k for k, n in enumerate(counts) if n), None)
        if i is None:
            return True
        for u in by_kind[i]:
            if all(counts[m] for m in u):
                for m in u:
                    counts[m] -= 1
                ok = dfs()
                for m in u:
                    counts[m] += 1
                if ok:
                    return True
        return False

    return dfs()


def real_win_value(units, concealed, *, seen, turns, roots=None):
    """{discard kind: exact P(win)} of a 13-tile concealed hand (no called units, no そら in play) over `turns`
    draws; `roots`: only these discards."""
    K = len(concealed)
    wall0 = tuple(3 - concealed[k] - seen[k] for k in range(K))
    complete = lru_cache(maxsize=None)(lambda hand: is_split(units, hand))
    waits = lru_cache(maxsize=None)(lambda hand: frozenset(split_waits(units, hand)))

    @lru_cache(maxsize=None)
    def v12(hand, wall, t):
        W = sum(wall)
        if t == 1:
            return Fraction(sum(wall[k] for k in waits(hand)), W)
        total = Fraction(0)
        for k in range(K):
            if wall[k]:
                total += wall[k] * v13(take(hand, k, 1), take(wall, k, -1), t - 1)
        return total / W

    @lru_cache(maxsize=None)
    def v13(hand, wall, t):
        if complete(hand):
            return Fraction(1)
        return max(v12(take(hand, k, -1), wall, t) for k in range(K) if hand[k])

    hand = tuple(concealed)
    kinds = [k for k in range(K) if hand[k]] if roots is None else roots
    return {k: v12(take(hand, k, -1), wall0, turns) for k in kinds}
