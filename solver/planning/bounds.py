"""A provable upper bound of the optimal P(win) (docs/formulation.md section 8, "Bounds past the budget").

Perfect-information relaxation: a player who knew the coming draws wins iff some complete hand T is made of
the hand's tiles, the draws and (with a fetch-mode そら) the waiting room's tiles, so for every way of playing
    P(win) <= P(for some target T within reach: (T - H - room)^+ <= D),
D the multiset of the next t draws, a uniform t-subset of the wall's physical tiles. That probability is
computed exactly (win_upper): the draws' counts on the needed kinds, chosen one kind at a time, with the set of
needs they still hold as a bitmask.
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb

import numpy as np

from solver.planning.targets import OutOfTime, TooLarge

UPPER_STATES = 300_000  # (draws so far, needs still held) states of one kind's step before the bound gives up (then 1)
UPPER_BYTES = 400 << 20  # and the most their masks may take (each about a bit per need)


def win_upper(targets, hand: tuple[int, ...], wall: tuple[int, ...], room: tuple[int, ...], W: int, t: int,
              limit: int = UPPER_STATES, deadline: float | None = None, scores=None, floor: int = 0):
    """P(some target's missing tiles, less the room's copies, all lie in the next t draws) over `targets`
    (count tuples over the positions of `wall`, or their matrix, a row each), `hand` and `room` over the same
    positions. TooLarge past `limit` states in one kind's step (OutOfTime past `deadline`).

    The needs (each target's missing tiles) are bits of a mask, the best score first. The draws' counts r_k on the
    needed kinds are chosen one kind at a time: C(w_k, r_k) ways; the needs asking for more than r_k, or for more
    of the kinds still to come than draws are left, drop out of the mask, and equal states merge. A need whose
    kinds are all chosen is held by the draws; once the mask's best need is such a one, the rest of the draws
    cannot matter, and they are counted at once: C(tiles of the kinds left and of no needed kind, draws left), by
    Vandermonde's identity the sum over every way to choose them.

    With `scores` (each target's tsumo score, in the order of `targets`): (that probability, E[max(floor, the best
    score of a target whose missing tiles the draws hold)], floor where none).
    """
    n = len(wall)
    best: dict[tuple[int, ...], int] = {}
    # (numpy: a row per target, so that a caller valuing many discards over one list converts it once)
    matrix = targets if isinstance(targets, np.ndarray) else np.array(targets, dtype=np.int16).reshape(-1, n)
    need = np.maximum(matrix - np.array(hand, dtype=np.int16) - np.array(room, dtype=np.int16), 0)
    ok = (need.sum(1) <= t) & (need <= np.array(wall, dtype=np.int16)).all(1)
    values = [floor] * int(ok.sum()) if scores is None else np.asarray(scores)[ok].tolist()
    for key, score in zip(map(tuple, need[ok].tolist()), values):
        best[key] = max(best.get(key, floor), score)
    if not best:
        return Fraction(0) if scores is None else (Fraction(0), Fraction(floor))
    if any(not any(need) for need in best) and scores is None:
        return Fraction(1)  # a target is in hand already
    needs = sorted(best, key=lambda need: (-best[need], need))  # bit j: the j-th best score
    if not any(map(any, needs)):  # (every target in hand already: any draws hold them)
        return Fraction(1), Fraction(best[needs[0]])
    gain = [best[need] - floor for need in needs]
    asks = np.array(needs, dtype=np.int16).reshape(-1, n)
    kinds = settling_order(asks > 0)
    later = W - sum(wall[i] for i in kinds)  # tiles of no needed kind
    free = []  # per step, the tiles not chosen yet after it: the kinds after it and those of no needed kind
    for i in reversed(kinds):
        free.append(later)
        later += wall[i]
    free.reverse()
    rest = asks[:, kinds[::-1]].cumsum(1)[:, ::-1]  # per need and step, its tiles of that kind and the later ones
    total = scored = 0
    states = {(0, (1 << len(needs)) - 1): 1}  # (draws of needed kinds so far, needs still held) -> ways
    for step, i in enumerate(kinds):
        most = min(wall[i], t)
        after_rest = rest[:, step + 1] if step + 1 < len(kinds) else np.zeros(len(needs), dtype=rest.dtype)
        settled = bits(after_rest == 0)  # needs whose kinds are all chosen after this step
        # held after drawing r of kind i with u drawn in all: asking at most r of it, and at most t - u after it
        keep = [bits(asks[:, i] <= r) for r in range(most + 1)]
        room_for = [bits(after_rest <= t - u) for u in range(t + 1)]
        ways_of = [comb(wall[i], r) for r in range(most + 1)]
        after: dict[tuple[int, int], int] = {}
        for (used, alive), ways in states.items():
            for r in range(min(most, t - used) + 1):
                held = alive & keep[r] & room_for[used + r]
                if not held:
                    continue  # (no need can be held any more)
                w = ways * ways_of[r]
                top = held & -held  # the best need still held
                if (top if scores is not None else held) & settled:  # held by the draws (none better to hope for)
                    count = w * comb(free[step], t - used - r)
                    total += count
                    scored += count * gain[top.bit_length() - 1]
                    continue
                key = (used + r, held)
                after[key] = after.get(key, 0) + w
        if len(after) > min(limit, UPPER_BYTES // (len(needs) // 8 + 64)):
            raise TooLarge(f"the upper bound passed {len(after):,} states of draws (past its states or memory)")
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime("the upper bound passed its time budget")
        states = after
    subsets = comb(W, t)  # (every state is settled at the last kind: all needs are chosen by then)
    if scores is None:
        return Fraction(total, subsets)
    return Fraction(total, subsets), Fraction(scored, subsets) + floor


def settling_order(asked: np.ndarray) -> list[int]:
    """The needed kinds in the order the count takes them: next, the kind that completes the most needs (all
    their kinds taken), ties by the most needs asking for it, then the lowest kind. Needs complete early, so
    states settle and leave the count early."""
    missing = asked.sum(1)  # per need, its kinds not taken yet
    uses = asked.sum(0)
    order: list[int] = []
    left = [i for i in range(asked.shape[1]) if uses[i]]
    while left:
        completes = ((missing == 1)[:, None] & asked[:, left]).sum(0)
        i = left[max(range(len(left)), key=lambda j: (completes[j], uses[left[j]], -left[j]))]
        order.append(i)
        left.remove(i)
        missing = missing - asked[:, i]
    return order


def bits(flags: np.ndarray) -> int:
    """A boolean per need as the mask whose bit j is need j's flag."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def separated(rows) -> bool | None:
    """Whether the first row's lower bound reaches every other row's upper bound (the best discard is proved),
    None when some upper bound is missing."""
    if len(rows) < 2:
        return True
    uppers = [r.upper for r in rows[1:]]
    if rows[0].win_probability is None or any(u is None for u in uppers):
        return None
    return rows[0].win_probability >= max(uppers)
