"""Independent brute-force oracle for the planner: expectimax over the FULL game tree of the solo model.

Plain Python and Fractions, no project imports (scores come from tests/oracle.py). No abstraction:
every kind may be drawn, every distinct kind may be discarded, a complete hand may win or play on,
and in fetch mode every そら may take any tile of the waiting room. Only plain caching of states.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from oracle import best_score


def add(t, k, n):
    """The tuple t with n added at position k."""
    out = list(t)
    out[k] += n
    return tuple(out)


def start_wall(units, concealed, called, seen, room=None):
    """Unseen copies of each kind: 3 less those held, called, seen (and in the waiting room)."""
    totals = list(concealed)
    for j in called:
        for m in units[j]:
            totals[m] += 1
    room = room or [0] * len(concealed)
    return tuple(3 - totals[k] - seen[k] - room[k] for k in range(len(concealed)))


def plan_value(units, concealed, called, *, seen, room, turns, objective, rules, sora, favourite=None):
    """{discard kind (None for a 12-tile hand): best value} of the solo model with `turns` draws left."""
    K = len(concealed)
    wall0 = start_wall(units, concealed, called, seen, room)
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


def nearest_value(units, concealed, called, *, seen, turns, objective, rules, sora, favourite=None):
    """{discard kind (None for a 12-tile hand): value} of the class "nearest", played out literally.

    Targets: the complete concealed hands within h exchanges of the starting hand (h its least cost),
    found by listing every multiset of the right size. The targets in play start as all of them; at
    every state they become those still within reach (cost <= draws left, missing copies live) at the
    lowest cost. A drawn tile no target in play needs is discarded at once; a complete hand in play
    wins at once; otherwise the discard is a tile no target in play can use (junk: any of them) if
    there is one, else one leaving the lowest cost. With nothing in play the hand is kept as it is.
    No waiting room, no そら. A complete 13-tile hand (h = 0: only itself listed) values each discard by the class
    restarted from the 12 tiles it leaves, the discard seen.
    """
    K = len(concealed)
    size = sum(concealed)
    wall0 = start_wall(units, concealed, called, seen)
    win = objective == "win"
    concealed_size = rules.get("hand_size", 13) - sum(len(units[j]) for j in called)

    def score_of(hand, won):
        return best_score(units, list(hand), list(called), won=won, ron_tile=None, favourite=favourite,
                          rules=rules, sora=sora)

    def multisets(k, left):
        if k == K:
            if left == 0:
                yield ()
            return
        for n in range(min(left, concealed[k] + wall0[k]) + 1):
            for rest in multisets(k + 1, left - n):
                yield (n,) + rest

    def cost(target, hand):
        return sum(max(0, c - n) for c, n in zip(target, hand))

    complete = {t: score_of(t, True) for t in multisets(0, concealed_size)}
    complete = {t: s for t, s in complete.items() if s is not None}
    h = min((cost(t, concealed) for t in complete), default=None)
    listed = frozenset(t for t in complete if cost(t, concealed) == h)

    def nearest(hand, wall, t, play):
        near = [x for x in play if cost(x, hand) <= t and all(c - n <= wall[k] for k, (c, n) in
                                                              enumerate(zip(x, hand)) if c > n)]
        low = min((cost(x, hand) for x in near), default=None)
        return frozenset(x for x in near if cost(x, hand) == low)

    def nowin(hand):
        return Fraction(0) if win else Fraction(score_of(hand, False) or 0)

    @lru_cache(maxsize=None)
    def v12(hand, wall, t, play):
        if t == 0:
            return nowin(hand)
        play = nearest(hand, wall, t, play)
        if not play:
            return nowin(hand)
        W = sum(wall)
        return sum((Fraction(wall[k], W) * (v13(add(hand, k, 1), add(wall, k, -1), t - 1, play)
                                            if any(x[k] > hand[k] for x in play)
                                            else v12(hand, add(wall, k, -1), t - 1, play))
                    for k in range(K) if wall[k]), Fraction(0))

    @lru_cache(maxsize=None)
    def v13(hand, wall, t, play):
        if hand in play:
            return Fraction(1) if win else Fraction(complete[hand])
        play = nearest(hand, wall, t, play)
        held = [k for k in range(K) if hand[k]]
        if not play:
            return max(nowin(add(hand, k, -1)) for k in held)
        junk = [k for k in held if all(x[k] < hand[k] for x in play)]
        if junk:
            options = junk
        else:
            lowest = {k: min(cost(x, add(hand, k, -1)) for x in play) for k in held}
            options = [k for k in held if lowest[k] == min(lowest.values())]
        return max(v12(add(hand, k, -1), wall, t, play) for k in options)

    hand = tuple(concealed)
    if size == concealed_size and h == 0:  # complete: each discard restarts the class from the 12 tiles it leaves
        return {k: nearest_value(units, add(hand, k, -1), called, seen=add(tuple(seen), k, 1), turns=turns,
                                 objective=objective, rules=rules, sora=sora, favourite=favourite)[None]
                for k in range(K) if hand[k]}
    if size == concealed_size:
        return {k: v12(add(hand, k, -1), wall0, turns, listed) for k in range(K) if hand[k]}
    return {None: v12(hand, wall0, turns, listed)}
