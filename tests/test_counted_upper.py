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
from solver.planning.counted_upper import COUNT_TURNS, NATIVE_TURNS, counted_relaxation, draw_multisets
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


def room_hands(ev, n: int, seed: int):
    """(hand, seen, waiting room, favourite) from random_real_hands: under 2019-12 now and then a そら held and a
    waiting room (a fetch can happen), and a favourite."""
    import random
    rng = random.Random(seed)
    sora = ev.rules.tiles.sora
    for i, (hand, seen) in enumerate(random_real_hands(ev, n, seed)):
        room, favourite = [], None
        if ev.rules.sora_mode == "fetch" and i % 2 == 0:
            seen_of = seen or (0,) * len(hand.concealed)
            free = [k for k in range(len(seen_of)) if k != sora and hand.concealed[k] + seen_of[k] < 3]
            room = rng.sample(free, 4)
            if hand.concealed[sora] + seen_of[sora] < 3 and hand.size(ev.rules) == ev.rules.hand_size:
                drop = next(k for k, c in enumerate(hand.concealed) if c and k != sora)
                hand = hand.remove(drop).add(sora)
        if i % 3 == 2:
            favourite = next(k for k, c in enumerate(hand.concealed) if c and k != sora)
        yield hand, seen, room, favourite


@pytest.mark.parametrize("rules", ["2019-12", "hitori-jong-2.1", "2019-10"])
def test_the_count_in_c_is_the_python_loops(rules):
    """planc_relax.c gives the same Fractions as the plain loop over the multisets (its memo of pools equal on the
    kinds of the units held whole, its units found by the kinds they miss): 1-3 draws, seen tiles, called units,
    favourites, 12- and 13-tile hands, and under 2019-12 a そら held with a waiting room (the fetch's pool)."""
    ev = Evaluator(rules)
    checked = 0
    for hand, seen, room, favourite in room_hands(ev, 6, seed=41):
        tiles = [k for k, n in enumerate(hand.concealed) if n] if hand.size(ev.rules) == ev.rules.hand_size \
            else [None]
        for turns in (1, 2, 3):
            request = ev.plan_request_of(hand, turns, "score", [ev.tiles.name(k) for k, n in enumerate(seen)
                                                                for _ in range(n)],
                                         waiting_room=[ev.tiles.name(k) for k in room],
                                         favourite=None if favourite is None else ev.tiles.name(favourite),
                                         seconds=None)
            rows = tiles if turns < 3 else tiles[:2]
            native = counted_relaxation(ev.rules, request, rows)
            assert native == counted_relaxation(ev.rules, request, rows, native=False), (hand, turns, room)
            checked += len(rows)
    assert checked >= 60


def test_the_count_in_c_stops_at_its_deadline_with_whole_rows():
    """A deadline already past: no row (a row is given whole or not at all); bad arguments are a ValueError."""
    from solver.planning.targets import _planc
    if _planc is None:
        pytest.skip("the C extension is not built")
    ev = Evaluator("2019-12")
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    request = ev.plan_request_of(hand, NATIVE_TURNS, "score", seconds=None)
    tiles = [k for k, n in enumerate(request.position.hand.concealed) if n]
    assert counted_relaxation(ev.rules, request, tiles, deadline=1.0) == {}
    win = _planc.NoWin([((0, 1), 10, False)], 0, 0, 0)
    for args in ((bytes(3), bytes(4), 2, 13, None, -1, [], 0.0), (bytes(3), bytes([4, 0, 0]), 2, 13, None, -1, [], 0.0),
                 (bytes(3), bytes(3), 2, 13, None, -1, [(1, 0, 0)], 0.0)):
        with pytest.raises(ValueError, match="relax_count"):
            _planc.relax_count(win, win, *args)


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


@pytest.mark.parametrize("rules,turns", [("2019-12", COUNT_TURNS), ("hitori-jong-2.1", NATIVE_TURNS)])
def test_a_plan_at_three_or_four_draws_gets_the_counted_bound(monkeypatch, rules, turns):
    """The default plan at 3 draws (4 with the C count): E[score]'s bound is the counted relaxation where it is
    tighter, between the lower bound and the bound without it (N + (S - N) U), and the label says so."""
    from solver.planning.targets import packer_built
    ev = Evaluator(rules)  # (4 draws: hitori-jong-2.1, whose P(win) optimum takes 1 s there, not 2019-12's 4-10 s)
    if turns > COUNT_TURNS and not packer_built(ev.rules, None):
        pytest.skip("the C extension is not built")
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
    got = ev.plan(hand, turns=turns, objective="score", both=False, seconds=None)
    assert "counted over every draw (proved)" in got.policy_class["expected_score"]
    monkeypatch.setattr(plan_module, "with_counted_uppers", lambda rules, request, plan, deadline: plan)
    before = {r.tile: r for r in ev.plan(hand, turns=turns, objective="score", both=False, seconds=None).discards}
    tightened = 0
    for row in got.discards:
        assert row.expected_score == before[row.tile].expected_score
        assert row.expected_score <= row.score_upper <= before[row.tile].score_upper
        tightened += row.score_upper < before[row.tile].score_upper
    assert tightened >= len(got.discards) // 2
    assert isinstance(got.recommended.score_upper, Fraction)


def test_a_four_draw_score_plan_keeps_time_for_the_count_and_says_when_it_reached_none():
    """QA: a hand holding そら spent all of a 10 s budget before the count, so every row kept N + (S - N) U and the
    label said nothing. A 4-draw E[score] plan now keeps time for it (clock.COUNT), and a count that reaches no row
    says so."""
    from solver.planning.counted_upper import UNREACHED, counted_at_end, native_count, with_counted_uppers
    ev = Evaluator("2019-12")
    hand = "美希 未来 翼 翼 静香 志保 可奈 奈緒 百合子 昴 そら 歩 エレナ"
    asks = {(turns, objective): counted_at_end(ev.rules, ev.plan_request_of(hand, turns, objective))
            for turns in (3, 4, 5) for objective in ("win", "score")}
    assert asks == {(t, o): native_count(ev.rules) and (t, o) == (NATIVE_TURNS, "score") for t, o in asks}
    from dataclasses import replace
    request = ev.plan_request_of(hand, 2, "score", seconds=None)
    plan = ev.plan_request(request)
    opened = replace(plan, discards=tuple(replace(r, score_upper=r.expected_score + 1000) for r in plan.discards))
    late = with_counted_uppers(ev.rules, request, opened, deadline=1.0)  # (a deadline long past)
    assert late.policy_class["expected_score"].endswith(UNREACHED)
