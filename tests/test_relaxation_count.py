"""bounds.win_upper (the draws' counts chosen kind by kind, the needs still held as a bitmask) against the plain
listing it replaced: every draw pattern on the needed kinds, generated from each need plus every multiset of other
needed tiles, counted by its ways. Random needs over up to 9 kinds, up to 6 draws, with and without scores."""

from __future__ import annotations

import random
import time
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

import numpy as np
import pytest

from solver.planning.bounds import win_upper
from solver.planning.targets import OutOfTime, TooLarge, planc_built


def listed_upper(targets, hand, wall, room, W, t, scores=None, floor=0):
    n = len(wall)
    needs: dict = {}
    for j, target in enumerate(targets):
        need = tuple(max(0, target[i] - hand[i] - room[i]) for i in range(n))
        if sum(need) <= t and all(need[i] <= wall[i] for i in range(n)):
            needs[need] = max(needs.get(need, floor), floor if scores is None else scores[j])
    kinds = sorted({i for need in needs for i in range(n) if need[i]})
    rest = W - sum(wall[i] for i in kinds)
    patterns: dict = {}
    for need, score in needs.items():
        tiles = tuple(i for i in kinds for _ in range(need[i]))
        for size in range(t - len(tiles) + 1):
            for extra in combinations_with_replacement(kinds, size):
                pattern = tuple(sorted(tiles + extra))
                if all(pattern.count(i) <= wall[i] for i in set(pattern)):
                    patterns[pattern] = max(patterns.get(pattern, score), score)
    total = scored = 0
    for pattern, score in patterns.items():
        ways = comb(rest, t - len(pattern))
        for i in set(pattern):
            ways *= comb(wall[i], pattern.count(i))
        total += ways
        scored += ways * score
    subsets = comb(W, t)
    return Fraction(total, subsets), Fraction(scored + (subsets - total) * floor, subsets)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("native", [True, False])
def test_kind_by_kind_count_equals_the_listed_patterns(seed, native):
    """Both counts (planc_count.c where built, and Python) equal the listing."""
    if native and not planc_built(None):
        pytest.skip("_planc is not built")
    rng = random.Random(seed)
    for _ in range(60):
        n, t = rng.randint(1, 9), rng.randint(1, 6)
        hand = tuple(rng.randint(0, 2) for _ in range(n))
        room = tuple(rng.choice([0, 0, 0, 1]) for _ in range(n))
        wall = tuple(rng.randint(0, 3) for _ in range(n))
        W = sum(wall) + rng.randint(0, 20)
        if W < t:
            continue
        targets = [tuple(rng.randint(0, 3) for _ in range(n)) for _ in range(rng.randint(1, 25))]
        scores = [rng.choice([1000, 2000, 3000, 8000]) for _ in targets]
        floor = rng.choice([0, 500, 2500])
        want = listed_upper(targets, hand, wall, room, W, t, scores, floor)
        assert win_upper(targets, hand, wall, room, W, t, native=native) == want[0]
        assert win_upper(targets, hand, wall, room, W, t, scores=scores, floor=floor, native=native) == want
        # other floors from the same count: each the listing's mean at that floor (scores between them too)
        floors = (floor, floor + 700, 2999, 3000, 9000)
        p, mean, means = win_upper(targets, hand, wall, room, W, t, scores=scores, floor=floor, native=native,
                                   floors=floors)
        assert (p, mean) == want
        assert means == {n: listed_upper(targets, hand, wall, room, W, t, scores, n)[1] for n in floors}


@pytest.mark.parametrize("native", [True, False])
def test_past_its_states_or_its_time_it_says_so(native):
    n = 12
    targets = [tuple(1 if i in (a, b) else 0 for i in range(n)) for a in range(n) for b in range(a + 1, n)]
    with pytest.raises(TooLarge, match="states of draws"):
        win_upper(targets, (0,) * n, (3,) * n, (0,) * n, 60, 6, limit=5, native=native)
    with pytest.raises(OutOfTime):
        win_upper(targets, (0,) * n, (3,) * n, (0,) * n, 60, 6, deadline=time.monotonic() - 1, native=native)


@pytest.mark.parametrize("seed", range(4))
def test_the_dominated_needs_dropped_are_exactly_those_another_covers(seed):
    """bounds.undominated against the pairwise definition: n goes where some other need m <= n (and, with scores,
    scores at least as much)."""
    from solver.planning.bounds import undominated
    from solver.planning.needs import digits_of

    rng = random.Random(seed)
    for _ in range(80):
        n = rng.randint(1, 8)
        best = {}
        for _ in range(rng.randint(1, 40)):
            need = tuple(rng.choice([0, 0, 0, 1, 1, 2]) for _ in range(n))
            best[need] = rng.choice([1000, 2000, 3000])
        for scored in (False, True):
            want = {need: s for need, s in best.items()
                    if not any(m != need and all(a <= b for a, b in zip(m, need)) and (not scored or best[m] >= s)
                               for m in best)}
            needs = list(best)
            keep = undominated(digits_of(np.array(needs)).digits, np.array([best[m] for m in needs]), scored)
            assert {m: best[m] for m, kept in zip(needs, keep) if kept} == want


@pytest.mark.parametrize("native", [True, False])
def test_a_state_settles_on_any_held_need_scoring_as_much_as_the_best(native):
    """QA: two needs of one score, their order changed, made the count keep states it need not (past limit=3 here,
    where the order before finished): with scores, a state settles once some held need of the best held score is
    settled, whichever of them comes first."""
    if native and not planc_built(None):
        pytest.skip("_planc not built")
    case = ([(2, 0, 0, 1, 2, 3, 1, 2, 2, 0), (1, 0, 0, 0, 1, 0, 2, 2, 1, 0)], (1, 0, 0, 0, 1, 3, 1, 2, 1, 0),
            (3, 2, 1, 3, 3, 3, 8, 8, 0, 3), (1, 0, 0, 0, 0, 0, 0, 0, 1, 0), 39, 5)
    got = win_upper(*case, limit=3, scores=[3200, 3200], native=native)
    assert got == listed_upper(*case, scores=[3200, 3200]) == (Fraction(20587, 27417), Fraction(65878400, 27417))
