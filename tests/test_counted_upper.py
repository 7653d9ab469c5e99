"""E[score]'s relaxation counted over every draw (solver/planning/counted_upper.py): its draw multisets against the
explicit tiles, its value at least the exact optimum wherever that exists, equal in expectation to the sample of the
same per-wall value, and in a plan a proved bound between the lower bound and the bound it tightens."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from synthetic import random_real_hands

from solver import Evaluator
from solver.planning import plan as plan_module
from solver.planning.counted_upper import COUNT_TURNS, counted_relaxation, draw_multisets
from solver.planning.request import Position
from solver.planning.sampled_upper import sampled_relaxation
from solver.planning.score_optimum import score_optimum
from solver.planning.targets import TooLarge


@pytest.mark.parametrize("wall,t", [((2, 0, 3, 1), 3), ((3, 3, 1, 0, 2), 2), ((1, 1, 1), 3), ((3,), 2)])
def test_draw_multisets_count_the_physical_draws(wall, t):
    """Each multiset's weight is the number of t-subsets of the physical tiles that draw it; they sum to C(W, t)."""
    tiles = [k for k, n in enumerate(wall) for _ in range(n)]
    want = Counter(tuple(sorted(tiles[i] for i in chosen)) for chosen in itertools.combinations(range(len(tiles)), t))
    got = dict(draw_multisets(wall, t))
    assert got == dict(want) and sum(got.values()) == math.comb(len(tiles), t)


@pytest.mark.parametrize("rules", ["2019-12", "hitori-jong-2.1"])
def test_at_least_the_exact_optimum(rules):
    """Where E[score] over all play is computed (1 and 2 draws; seen tiles, called units, 12- and 13-tile hands),
    the counted relaxation is at least it on every discard."""
    ev = Evaluator(rules)
    checked = 0
    for hand, seen in random_real_hands(ev, 6, seed=17):
        position = Position(hand, seen)
        tiles = [k for k, n in enumerate(hand.concealed) if n] if hand.size(ev.rules) == ev.rules.hand_size \
            else [None]
        for turns in (1, 2):
            exact, _ = score_optimum(ev.rules, position, turns, tiles, state_limit=10 ** 6)
            request = ev.plan_request_of(hand, turns, "score", [ev.tiles.name(k) for k, n in enumerate(seen)
                                                                for _ in range(n)], seconds=None)
            counted = counted_relaxation(ev.rules, request, tiles)
            for tile, (value, _, _) in zip(tiles, exact):
                assert counted[tile] >= value, (tile, turns, counted[tile], value)
                checked += 1
    assert checked >= 40


def test_the_count_is_the_samples_expectation():
    """Without a fetch (hitori-jong-2.1) the count and the sample take the mean of the same per-wall value: the
    sample lies within four standard errors of the count (fixed seeds)."""
    ev = Evaluator("hitori-jong-2.1")
    checked = 0
    for hand, seen in random_real_hands(ev, 3, seed=29):
        request = ev.plan_request_of(hand, 3, "score", [ev.tiles.name(k) for k, n in enumerate(seen)
                                                       for _ in range(n)], seconds=None)
        tiles = [k for k, n in enumerate(hand.concealed) if n][:4]
        counted = counted_relaxation(ev.rules, request, tiles)
        sampled = sampled_relaxation(ev.rules, request, tiles, seed=3)
        for tile in tiles:
            s = sampled[tile]
            low, high = s.score_interval()
            assert abs(float(s.expected_score) - float(counted[tile])) <= (high - low) + 1e-9, (tile, s, counted)
            checked += 1
    assert checked >= 8


def test_a_plan_at_three_draws_gets_the_counted_bound(monkeypatch):
    """The default plan at 3 draws: E[score]'s bound is the counted relaxation where it is tighter, between the
    lower bound and the bound without it (N + (S - N) U), and the label says so; past 3 draws nothing is counted."""
    ev = Evaluator("2019-12")
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    exact = plan_module.exact_plan

    def exact_plan(rules, request, progress, deadline, prep=None, pace=False):  # (E[score]'s optimal class: 16 s)
        if request.objective == "score" and request.play == "optimal":
            raise TooLarge("forced past the budget (test)")
        return exact(rules, request, progress, deadline, prep, pace)
    monkeypatch.setattr(plan_module, "exact_plan", exact_plan)
    searched = plan_module.score_plan  # (E[score] over all play: 6-12 s at 3 draws, so past a default budget)
    monkeypatch.setattr(plan_module, "score_plan", lambda rules, request, *rest: (
        None if request.objective == "score" else searched(rules, request, *rest)))
    got = ev.plan(hand, turns=COUNT_TURNS, seconds=None)
    assert "counted over every draw (proved)" in got.policy_class["expected_score"]
    monkeypatch.setattr(plan_module, "with_counted_uppers", lambda rules, request, plan, deadline: plan)
    before = {r.tile: r for r in ev.plan(hand, turns=COUNT_TURNS, seconds=None).discards}
    tightened = 0
    for row in got.discards:
        assert row.expected_score == before[row.tile].expected_score
        assert row.expected_score <= row.score_upper <= before[row.tile].score_upper
        tightened += row.score_upper < before[row.tile].score_upper
    assert tightened >= len(got.discards) // 2
    assert isinstance(got.recommended.score_upper, Fraction)
