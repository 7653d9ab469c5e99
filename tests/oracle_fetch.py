"""Independent brute force of the planner's E[score] over all play WITH the waiting room (issue 22), written to be
obviously right: explicit tile copies (every ordered draw of physical tiles equally likely), every discard,
every win taken or declined, and before each draw, while a fetch-mode そら is held (from the start or drawn),
every fetch (そら to the waiting room, any tile of the waiting room into the hand). The waiting room is the
given tiles plus the player's own discards. Plain Python and Fractions; nothing from the `solver` package.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from oracle import best_score


def plus(counts, k, n):
    out = list(counts)
    out[k] += n
    return tuple(out)


def fetch_value(units, concealed, *, seen, room, turns, objective, rules, sora, favourite=None, called=(),
                allowed=None):
    """{discard kind (None for a hand one tile short): best value}. `room`: waiting-room counts per kind
    (out of the wall, like `seen`); `called`: indices of the called units (locked, their copies out). `allowed`: a
    set of concealed count tuples, the only complete hands that may win (None: every complete hand)."""
    K = len(concealed)
    win = objective == "win"
    fetch = rules.get("sora_mode") == "fetch" and sora is not None
    out = [seen[k] + room[k] + sum(k in units[j] for j in called) for k in range(K)]
    wall0 = frozenset((k, c) for k in range(K) for c in range(3 - concealed[k] - out[k]))

    @lru_cache(maxsize=None)
    def score(hand, won):
        return best_score(units, list(hand), list(called), won=won, ron_tile=None, favourite=favourite, rules=rules, sora=sora)

    @lru_cache(maxsize=None)
    def v12(hand, wall, room, t):
        if t == 0:
            return Fraction(0) if win else Fraction(score(hand, False) or 0)
        best = draw(hand, wall, room, t)
        if fetch and hand[sora]:
            for x in range(K):
                if room[x]:
                    best = max(best, draw(plus(plus(hand, sora, -1), x, 1), wall, plus(plus(room, x, -1), sora, 1), t))
        return best

    def draw(hand, wall, room, t):
        total = Fraction(0)
        for tile in wall:
            total += v13(plus(hand, tile[0], 1), wall - {tile}, room, t - 1)
        return total / len(wall)

    @lru_cache(maxsize=None)
    def v13(hand, wall, room, t):
        s = score(hand, True) if allowed is None or hand in allowed else None
        best = Fraction(-1)
        if s is not None:
            if win:
                return Fraction(1)
            best = Fraction(s)
        for k in range(K):
            if hand[k]:
                best = max(best, v12(plus(hand, k, -1), wall, plus(room, k, 1), t))
        return best

    hand, room = tuple(concealed), tuple(room)
    if sum(hand) + sum(len(units[j]) for j in called) == rules.get("hand_size", 13):
        return {k: v12(plus(hand, k, -1), wall0, plus(room, k, 1), turns) for k in range(K) if hand[k]}
    return {None: v12(hand, wall0, room, turns)}
