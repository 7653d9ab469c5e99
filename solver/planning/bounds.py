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

from solver.planning.needs import Lists, Needs, codes, lists_of, needed, row_keys, sizes, within, without
from solver.planning.targets import OutOfTime, TooLarge, _planc, planc_built

UPPER_STATES = 300_000  # (draws so far, needs still held) states of one kind's step before the bound gives up (then 1)
UPPER_BYTES = 400 << 20  # and the most their masks may take (each about a bit per need)
DOMINATED_DRAWS = 8  # draws up to which dominated needs are dropped first (2^t - 1 sub-multisets of each looked up)


def win_upper(targets, hand: tuple[int, ...], wall: tuple[int, ...], room: tuple[int, ...], W: int, t: int,
              limit: int = UPPER_STATES, deadline: float | None = None, scores=None, floor: int = 0,
              native: bool | None = None, floors: tuple[int, ...] = ()):
    """P(some target's missing tiles, less the room's copies, all lie in the next t draws) over `targets`
    (count tuples over the positions of `wall`, their matrix, a row each, or their needs.Lists; or fetch_needs'
    Needs, with an empty hand and room), `hand` and `room` over the same positions. TooLarge past `limit` states in
    one kind's step (OutOfTime past `deadline`).

    The needs (each target's missing tiles) are bits of a mask, the best score first. The draws' counts r_k on the
    needed kinds are chosen one kind at a time: C(w_k, r_k) ways; the needs asking for more than r_k, or for more
    of the kinds still to come than draws are left, drop out of the mask, and equal states merge. A need whose
    kinds are all chosen is held by the draws; once the mask's best need is such a one, the rest of the draws
    cannot matter, and they are counted at once: C(tiles of the kinds left and of no needed kind, draws left), by
    Vandermonde's identity the sum over every way to choose them.

    With `scores` (each target's tsumo score, in the order of `targets`): (that probability, E[max(floor, the best
    score of a target whose missing tiles the draws hold)], floor where none); with `floors` too (each at least
    `floor`), a third item {N: the same mean with floor N}, from the same count: per need the draw sets whose best
    held need it is, E = (sum of those sets x max(N, its score) + the sets holding none x N) / C(W, t).
    """
    n = len(wall)
    if isinstance(targets, Needs):  # (fetch_needs': the hand and the room already out of them)
        needs, values = targets, np.full(len(targets), floor, dtype=np.int64) if scores is None else \
            np.asarray(scores, dtype=np.int64)
        ok = sizes(needs) <= t
    else:  # (a caller valuing many discards over one list converts it to Lists once)
        lists = targets if isinstance(targets, Lists) else \
            lists_of(np.array(targets, dtype=np.int16).reshape(-1, n))
        near, needs = needed(lists, np.add(hand, room), t)
        values = np.full(len(near), floor, dtype=np.int64) if scores is None else \
            np.asarray(scores, dtype=np.int64)[near]
        ok = np.ones(len(near), dtype=bool)
    ok &= within(needs, wall)
    if not ok.any():
        return Fraction(0) if scores is None else floored((Fraction(0), Fraction(floor)), floors, {}, 1)
    needs, values = Needs(needs.digits[ok], n), values[ok]
    # each distinct need once, with the best score of the targets asking for it (at least the floor)
    _, first, inverse = np.unique(codes(needs), return_index=True, return_inverse=True)
    asked, best = needs.digits[first], np.full(len(first), floor, dtype=np.int64)
    np.maximum.at(best, inverse.ravel(), values)
    if scores is None and not asked.any(1).all():
        return Fraction(1)  # a target is in hand already
    if t <= DOMINATED_DRAWS:
        keep = undominated(asked, best, scores is not None)
        asked, best = asked[keep], best[keep]
    asks = Needs(asked, n).dense()
    if not asks.any():  # (every target in hand already: any draws hold them)
        return floored((Fraction(1), Fraction(int(best.max()))), floors, {int(best.max()): 1}, 1)
    if deadline is not None and time.monotonic() > deadline:  # (the steps above take up to a second at 5 draws)
        raise OutOfTime("the upper bound passed its time budget")
    kinds = settling_order(asks > 0)
    # bit j: the j-th best score; equal scores by their copies of each kind in the count's order, so that the needs
    # still held after the commonest draws (none of the next kind) stay at the front of the mask (C skips its words
    # past the last one held: on a hard 5-draw hand's 20,000 needs, about 1.2x faster)
    order = np.lexsort(tuple(asks[:, k] for k in reversed(kinds)) + (-best,))
    asks, best = asks[order], best[order]
    gain = (best - floor).tolist()
    later = W - sum(wall[i] for i in kinds)  # tiles of no needed kind
    free = []  # per step, the tiles not chosen yet after it: the kinds after it and those of no needed kind
    for i in reversed(kinds):
        free.append(later)
        later += wall[i]
    free.reverse()
    rest = asks[:, kinds[::-1]].cumsum(1)[:, ::-1]  # per need and step, its tiles of that kind and the later ones
    most_states = min(limit, UPPER_BYTES // (len(asks) // 8 + 64))
    if planc_built(native) and len(kinds) <= 64 and t <= 16 and 2 * t <= W and comb(W, t) < 1 << 62:  # (C: 64 bits)
        total, scored, stop, tops = _planc.count_needs(
            np.ascontiguousarray(asks[:, kinds], dtype=np.int8).tobytes(), len(asks), len(kinds),
            [int(wall[i]) for i in kinds], free, t, gain if scores is not None else None, most_states,
            -1.0 if deadline is None else deadline)
        if stop:
            raise OutOfTime("the upper bound passed its time budget") if stop == 2 else \
                TooLarge(f"the upper bound passed {most_states:,} states of draws (past its states or memory)")
        subsets = comb(W, t)
        return Fraction(total, subsets) if scores is None else floored(
            (Fraction(total, subsets), Fraction(scored, subsets) + floor), floors, tops_of(tops, best), subsets)
    total = scored = 0
    tops = [0] * len(asks)  # per need, the draw sets whose best held need it is
    ends = np.r_[np.flatnonzero(best[1:] != best[:-1]) + 1, len(best)]  # (each score's needs: bits start..end)
    starts = np.r_[0, ends[:-1]]
    ties: list[int] = []  # per need, its score's bits (one int per score, shared)
    for b, e in zip(starts.tolist(), ends.tolist()):
        ties += [((1 << e) - 1) ^ ((1 << b) - 1)] * (e - b)
    states = {(0, (1 << len(asks)) - 1): 1}  # (draws of needed kinds so far, needs still held) -> ways
    for step, i in enumerate(kinds):
        most = min(wall[i], t)
        after_rest = rest[:, step + 1] if step + 1 < len(kinds) else np.zeros(len(asks), dtype=rest.dtype)
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
                # held by the draws, none better to hope for: with scores, a settled one scoring as much as the top
                if (ties[top.bit_length() - 1] if scores is not None else held) & held & settled:
                    count = w * comb(free[step], t - used - r)
                    total += count
                    scored += count * gain[top.bit_length() - 1]
                    tops[top.bit_length() - 1] += count
                    continue
                key = (used + r, held)
                after[key] = after.get(key, 0) + w
        if len(after) > most_states:
            raise TooLarge(f"the upper bound passed {len(after):,} states of draws (past its states or memory)")
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime("the upper bound passed its time budget")
        states = after
    subsets = comb(W, t)  # (every state is settled at the last kind: all needs are chosen by then)
    if scores is None:
        return Fraction(total, subsets)
    return floored((Fraction(total, subsets), Fraction(scored, subsets) + floor), floors, tops_of(tops, best), subsets)


def fetch_needs(targets: np.ndarray, hand, room, wall, t: int, held: int, sora: int, scores=None):
    """The relaxation's needs where a fetch-mode そら may fetch (docs/formulation.md section 8, "Bounds past the
    budget"), and each one's score (0 without `scores`): a win's hand holds tiles of the hand H, of the draws D and
    of the waiting room, and each room tile in it took a fetch, that is a そら held or drawn, one a turn at most. So
    for a target T with m = (T - H)^+, some r <= min(m, room) with |r| <= t has D >= m - r and max(0, |r| - held)
    そら in D. Each such need once (r grows a tile at a time; the best score of the targets asking for it).
    Columns are `wall`'s, the そら's at `sora`; the result (needs.Needs, and their scores) goes to win_upper with an
    empty hand and room."""
    lists = targets if isinstance(targets, Lists) else lists_of(np.asarray(targets))
    # a need from T keeps m - |r| + max(0, |r| - held) >= m - held tiles to draw: past t + held none is kept (the
    # filter below), so those targets go first (on a 4-draw hand's 67,778 listed hands, most of the work)
    near, need = needed(lists, hand, t + held, never=sora)
    values = np.zeros(len(near), dtype=np.int64) if scores is None else np.asarray(scores, dtype=np.int64)[near]
    kinds = [k for k, r in enumerate(room) if r and k != sora]  # (the room's kinds: each a column of `avail`)
    have = np.array([room[k] for k in kinds], dtype=np.int16)
    avail = np.minimum(np.stack([(need.digits == k + 1).sum(1) for k in kinds], 1), have) if kinds else \
        np.zeros((len(near), 0), dtype=np.int16)
    needs, kept = [need.digits], [values]
    for fetched in range(1, min(t, held + int(wall[sora])) + 1):  # (one fetch a turn, before its draw)
        rows, which = np.nonzero(avail)
        if not len(rows):
            break
        need = without(need, rows, np.array(kinds, dtype=np.int64)[which], sora if fetched > held else None)
        avail, values = avail[rows], values[rows]
        avail[np.arange(len(rows)), which] -= 1
        alive = sizes(need) - max(0, held - fetched) <= t  # (each later fetch of a そら held saves one draw at most)
        need, avail, values = Needs(need.digits[alive], need.kinds), avail[alive], values[alive]
        key = row_keys(np.concatenate([need.digits, avail.astype(need.digits.dtype)], 1), need.kinds + 1)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        best = np.full(len(first), np.iinfo(np.int64).min, dtype=np.int64)
        np.maximum.at(best, inverse.ravel(), values)
        need, avail, values = Needs(need.digits[first], need.kinds), avail[first], best
        needs.append(need.digits)
        kept.append(values)
    need, values = Needs(np.concatenate(needs), lists.kinds), np.concatenate(kept)
    ok = (sizes(need) <= t) & within(need, wall)
    return Needs(np.ascontiguousarray(need.digits[ok]), lists.kinds), values[ok]


def tops_of(tops, best) -> dict[int, int]:
    """{score: the draw sets whose best held need scores that} (needs of one score merged)."""
    out: dict[int, int] = {}
    for count, score in zip(tops, best.tolist()):
        if count:
            out[score] = out.get(score, 0) + count
    return out


def floored(answer: tuple, floors: tuple[int, ...], tops: dict[int, int], subsets: int) -> tuple:
    """`answer` (P, E at the floor), and with `floors` a third item: {N: E[max(N, the best score held)]}. The draw
    sets holding no need score N; the others max(N, their best), each need's score already at least the floor."""
    if not floors:
        return answer
    held = sum(tops.values())
    return (*answer, {n: Fraction(sum(c * max(n, v) for v, c in tops.items()) + (subsets - held) * n, subsets)
                      for n in floors})


def undominated(digits: np.ndarray, scores: np.ndarray, scored: bool) -> np.ndarray:
    """Per need (a row of `digits`, needs.py's form, distinct) whether no other need dominates it: m dominates n
    when m <= n (every draw set holding n holds m) and, with scores, m's score is at least n's. Dropping n changes
    neither the chance that some need is held nor the best score held, and the count's masks get shorter (at 5
    draws about 27,000 needs, 4,900 undominated: 6x faster). Each need is its tiles sorted, one digit each; its
    proper sub-multisets are the sub-lists, looked up among the needs' codes, one selection of positions at a
    time."""
    size = (digits > 0).sum(1)
    t = int(size.max()) if len(digits) else 0
    dominated = np.zeros(len(digits), dtype=bool)
    if t < 1:
        return ~dominated
    empty = np.flatnonzero(size == 0)  # (the need of no tile: under every other, and no sub-list finds it)
    if len(empty):
        dominated |= (size > 0) & (not scored or scores <= scores[empty[0]])
    digits = digits[:, :t].astype(np.int64)
    base = np.int64(digits.max() + 1)
    codes = (digits * base ** np.arange(t, dtype=np.int64)).sum(1)
    order = np.argsort(codes)
    sorted_codes = codes[order]
    for mask in range(1, 1 << t):
        cols = [j for j in range(t) if mask >> j & 1]
        proper = (mask & ((1 << size) - 1)) != (1 << size) - 1  # (leaves out a tile of the need)
        sub = (digits[:, cols] * base ** np.arange(len(cols), dtype=np.int64)).sum(1)
        at = np.minimum(np.searchsorted(sorted_codes, sub), len(digits) - 1)
        found = proper & (sorted_codes[at] == sub)
        if scored:
            found &= scores[order[at]] >= scores
        dominated |= found
    return ~dominated


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


def separated(rows, objective: str = "win") -> bool | None:
    """Whether the first row's lower bound reaches every other row's upper bound (the best discard is proved) for
    the objective's column; None when some upper bound is missing or the first row's value is sampled (not claimed)."""
    value, upper, interval = ("win_probability", "upper", "win_interval") if objective == "win" else \
        ("expected_score", "score_upper", "score_interval")
    if len(rows) < 2:
        return True
    uppers = [getattr(r, upper) for r in rows[1:]]
    best = getattr(rows[0], value)
    if best is None or getattr(rows[0], interval) is not None or any(u is None for u in uppers):
        return None
    return best >= max(uppers)
