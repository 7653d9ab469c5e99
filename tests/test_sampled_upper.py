"""The relaxation sampled where it cannot be counted (solver/planning/sampled_upper.py): PoolWin against the oracle's
scorer over every sub-multiset, each wall's pools against the relaxation's definition, the sample against the exact
count where both exist, and the plan's rows, JSON and text where only 1 is proved."""

from __future__ import annotations

import itertools
import json
import math
import os
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import best_score
from synthetic import BASE_SETTINGS, deals, games, random_real_hands
from test_planner_bounds import forced_bounds

from solver import Evaluator, MjError
from solver.planning import plan as plan_module
from solver.planning.prepare import fetch_could_follow, position_counts
from solver.planning.sampled_upper import (GAMES, MOST_TURNS, above_lower, best_end, pools_in_wall, sampled_relaxation,
                                           settled, with_sampled_uppers)
from solver.planning.targets import NoWinScore, PoolWin
from solver.serialize_plan import plan_dict


def best_within(game, rules, pool, favourite=None) -> int | None:
    """The best tsumo score of a sub-multiset of the pool of the hand's size, by the oracle's scorer (no search)."""
    scores = [best_score(list(game.units), list(c), [], won=True, ron_tile=None, favourite=favourite, rules=rules,
                         sora=game.sora)
              for c in itertools.product(*(range(n + 1) for n in pool)) if sum(c) == game.hand_size]
    return max((x for x in scores if x is not None), default=None)


@BASE_SETTINGS
@given(st.data())
def test_pool_win_is_the_best_complete_hand_within(data):
    """PoolWin (C and pure) gives the best tsumo score of a complete hand within the pool, as the oracle's scorer
    over every sub-multiset does, favourite bonus included; None where there is none; そら counts for nothing."""
    game = data.draw(games(min_kinds=4, max_kinds=5, max_units=6, max_unit_size=3, hand_sizes=(3, 4), sora=True))
    ev = game.evaluator("2019-12")
    rules = game.oracle_rules("2019-12")
    favourite = data.draw(st.sampled_from([None, *game.real_kinds]))
    pool = data.draw(st.lists(st.integers(0, 3), min_size=game.K, max_size=game.K))
    expected = best_within(game, rules, [0 if k == game.sora else n for k, n in enumerate(pool)], favourite)
    for native in (True, False):
        assert PoolWin(ev.rules, (), favourite, native=native).score(tuple(pool), game.hand_size) == expected


def test_pool_win_native_and_pure_agree_on_real_rule_sets():
    """The C searches and the pure ones agree on random pools of 13 to 25 tiles of both real rule sets (a called unit
    and a favourite too): the best win within, and the best end without one."""
    rng = random.Random(7)
    for name in ("2019-12", "hitori-jong-2.1"):
        ev = Evaluator(name)
        copies = [k for k in range(len(ev.tiles)) for _ in range(3)]
        for called, favourite in (((), None), ((3,), 5)):
            native, pure = PoolWin(ev.rules, called, favourite, native=True), PoolWin(ev.rules, called, favourite,
                                                                                       native=False)
            slots = 13 - sum(ev.rules.units[u].size for u in called)
            ends = {native: NoWinScore(ev.rules, called, favourite, native=native) for native in (True, False)}
            found = 0
            for _ in range(150):
                pool = [0] * len(ev.tiles)
                for k in rng.sample(copies, rng.choice((13, 19, 25))):
                    pool[k] += 1
                answer = native.score(tuple(pool), slots)
                assert answer == pure.score(tuple(pool), slots)
                found += answer is not None
                assert ends[True].within(tuple(pool), slots - 1) == ends[False].within(tuple(pool), slots - 1)
            assert 0 < found < 150  # (both answers occur)


@BASE_SETTINGS
@given(st.data())
def test_each_wall_as_the_relaxation_defines_it(data):
    """Per wall and discard the pool is the kept tiles and the draws, or where a fetch can happen (a そら kept, or
    drawn before the last draw) those, the waiting room and the discard; a win iff a complete hand lies within it."""
    game = data.draw(games(min_kinds=4, max_kinds=5, max_units=6, max_unit_size=3, hand_sizes=(3, 4), sora=True))
    deal = data.draw(deals(game, size=game.hand_size, max_called=0))
    ev = game.evaluator("2019-12")
    rules = game.oracle_rules("2019-12")
    hand = list(deal.concealed)
    if data.draw(st.booleans()) and hand[game.sora] == 0:  # a そら held now and then
        hand[data.draw(st.sampled_from([k for k, n in enumerate(hand) if n]))] -= 1
        hand[game.sora] += 1
    room = tuple(data.draw(st.lists(st.integers(0, 1), min_size=game.K, max_size=game.K)))
    draws = data.draw(st.lists(st.sampled_from(range(game.K)), min_size=1, max_size=3))
    tiles = sorted({k for k, n in enumerate(hand) if n})
    fetch_mode = data.draw(st.booleans())
    got = dict(pools_in_wall(tuple(hand), room, game.sora if fetch_mode else None, draws, tiles))
    best_win, nowin = PoolWin(ev.rules, (), None), NoWinScore(ev.rules, (), None)
    for tile in tiles:
        pool = list(hand)
        pool[tile] -= 1
        for k in draws:
            pool[k] += 1
        if fetch_mode and pool[game.sora] - draws[-1:].count(game.sora) > 0:
            pool = [n + r + (k == tile) for k, (n, r) in enumerate(zip(pool, room))]
        assert got[tile] == tuple(pool)
        real = [0 if k == game.sora else n for k, n in enumerate(pool)]
        expected = best_within(game, rules, real)
        assert best_win.score(got[tile], game.hand_size) == expected
        # g: the best win, or the best 12-tile end without one (at most N), by the oracle's scorer
        floor = data.draw(st.integers(0, 20))
        end = min(floor, max(best_score(list(game.units), list(c), [], won=False, ron_tile=None, favourite=None,
                                        rules=rules, sora=game.sora)
                             for c in itertools.product(*(range(n + 1) for n in real)) if sum(c) <= game.hand_size - 1))
        assert best_end(best_win, nowin, got[tile], game.hand_size, floor) == \
            (expected is not None, end if expected is None else max(end, expected))


def test_the_sample_agrees_with_the_exact_count():
    """Where the relaxation is counted exactly (3 draws, both rule sets, seen tiles), the sampled P(win) of each row
    lies within four standard errors of it, and E[score]'s mean at most it (its end without a win is capped by the
    pool too); where a fetch could follow, the count lets every wall fetch and the sample only those with a そら in
    time, so the sample is at most the count (fixed seeds: the same every run)."""
    checked = {True: 0, False: 0}
    for name in ("2019-12", "hitori-jong-2.1"):
        ev = Evaluator(name)
        for hand, seen in random_real_hands(ev, 4, seed=41):
            names = [ev.tiles.name(k) for k, n in enumerate(seen) for _ in range(n)]
            request = ev.plan_request_of(hand, turns=3, seen=names, both=False, seconds=None)
            with pytest.MonkeyPatch.context() as patch:
                forced_bounds(patch)
                try:
                    counted = ev.plan_request(request)
                except MjError:
                    continue
            assert "perfect-information relaxation" in counted.policy_class["win_probability"]
            _, _, wall, fetches = position_counts(ev.rules, request.position, 3)
            fetch = fetch_could_follow(ev.rules, wall, fetches, 3)
            sampled = sampled_relaxation(ev.rules, request, [r.tile for r in counted.discards], seed=5)
            for row in counted.discards:
                s = sampled[row.tile]
                p, got = float(row.upper), float(s.win_probability)
                margin = 4 * math.sqrt(p * (1 - p) / GAMES) + 1e-9
                assert got <= p + margin if fetch else abs(got - p) <= margin, (row.tile, got, p)
                # E[score]: the count is E[max(N, the best listed hand the draws complete)] (or a bound above it);
                # the sample's end without a win is capped by the pool too, so at most that
                low, high = s.score_interval()
                spread = 2 * (high - low) + 1e-9  # (the 95 % interval is 4 standard errors wide: this is 8)
                assert float(s.expected_score) <= float(row.score_upper) + spread, (row.tile, s, row)
                checked[fetch] += 1
    assert checked[False] >= 20 and checked[True] >= 10


def test_rows_past_the_counted_relaxation_carry_the_sampled_value():
    """At 6 draws the relaxation is not counted: `upper` stays 1 (what is proved) and beside it the sampled value, at
    least the row's lower bound, inside its interval; the JSON, the label and the headline say it is an estimate."""
    from console.render import plan_headline

    ev = Evaluator("2019-12")
    p = ev.plan("ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜", turns=6)
    assert p.method in ("bounds", "estimate")
    for row in p.discards:
        assert row.upper == 1 and row.upper_estimate is not None
        low, high = row.upper_interval
        assert low <= float(row.upper_estimate) <= high and row.win_probability <= row.upper_estimate < 1
        # E[score] (a bracket here): the relaxation's mean beside its proved upper bound, within it
        low, high = row.score_upper_interval
        assert low <= float(row.score_upper_estimate) <= high
        assert row.expected_score <= row.score_upper_estimate <= row.score_upper
    assert f"sampled over {GAMES} walls" in p.policy_class["win_probability"]
    assert "sampled over the same walls" in p.policy_class["expected_score"]
    first = plan_dict(p, ev.rules)["discards"][0]
    assert first["upper"] == 1.0 and first["upper_estimate"] < 1 and len(first["upper_estimate_interval"]) == 2
    assert first["expected_score_upper_estimate"] <= first["expected_score_upper"]
    assert len(first["expected_score_upper_estimate_interval"]) == 2
    json.dumps(first)
    assert "an estimate, not a proof" in plan_headline(p).plain
    # the kept そら-free hand with no そら drawn early: discards differ (the discard is out of play)
    assert len({r.upper_estimate for r in p.discards}) > 1
    # where the relaxation is counted (or the optimum found) nothing is sampled
    exact = ev.plan("ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜", turns=2, both=False)
    assert all(r.upper_estimate is None for r in exact.discards)
    assert "upper_estimate" not in plan_dict(exact, ev.rules)["discards"][0]


def test_a_sample_below_the_lower_bound_is_brought_up_to_it():
    row = plan_module.DiscardPlan(3, Fraction(1, 10), Fraction(500), 2, 4, upper=Fraction(1),
                                  upper_estimate=Fraction(1, 20), upper_interval=(0.04, 0.12),
                                  score_upper=Fraction(900),
                                  score_upper_estimate=Fraction(400), score_upper_interval=(380.0, 420.0))
    raised = above_lower(row)
    assert raised.upper_estimate == Fraction(1, 10) and raised.upper_interval == (0.1, 0.12)
    assert raised.score_upper_estimate == 500 and raised.score_upper_interval == (500.0, 500.0)
    kept = replace(row, upper_estimate=Fraction(1, 5), upper_interval=(0.15, 0.25), score_upper_estimate=Fraction(600))
    assert above_lower(kept) == kept


def test_e_score_estimates_stay_only_beside_a_bracket():
    """settled(): where E[score] is over all play (its upper bound is its value) or not computed, its sampled
    estimate goes; where it is a bracket it stays, labelled."""
    row = plan_module.DiscardPlan(3, Fraction(1, 10), Fraction(500), 2, 4, upper=Fraction(1),
                                  upper_estimate=Fraction(1, 5), upper_interval=(0.15, 0.25), score_upper=Fraction(900),
                                  score_upper_estimate=Fraction(600), score_upper_interval=(580.0, 620.0))
    labels = {"win_probability": "w", "expected_score": "s"}
    plan = plan_module.Plan(6, "win", 6, 1, False, None, (row,), labels, 0, 100)
    kept = settled(plan)
    assert kept.discards[0].score_upper_estimate == 600 and "sampled over" in kept.policy_class["expected_score"]
    for other in (replace(row, score_upper=Fraction(500)), replace(row, expected_score=None)):
        gone = settled(replace(plan, discards=(other,)))
        assert gone.discards[0].score_upper_estimate is None and gone.policy_class["expected_score"] == "s"
        assert gone.discards[0].upper_estimate == Fraction(1, 5)


def test_no_sample_past_its_horizon():
    """Past MOST_TURNS draws the relaxation is not sampled (its pools take seconds a few hundred walls, and it is
    about 1 there): the rows come back as they were, at once, even with no clock."""
    ev = Evaluator("2019-12")
    request = ev.plan_request_of("ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜",
                                 turns=MOST_TURNS + 1, seconds=None)
    rows = (plan_module.DiscardPlan(3, Fraction(1, 10), None, 2, 4, upper=Fraction(1)),)
    assert with_sampled_uppers(ev.rules, request, rows, None) == (rows, 0, 0)


def test_the_sample_stops_at_its_clock():
    ev = Evaluator("2019-12")
    request = ev.plan_request_of("ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜", turns=6)
    assert sampled_relaxation(ev.rules, request, [None], seed=0, deadline=0.0) is None
    # past its clock after some walls: the first walls of the same sequence, whole batches of them
    full = sampled_relaxation(ev.rules, request, [None], seed=0, games=300)[None]
    import solver.planning.sampled_upper as module
    from solver.planning import targets
    looks = iter([False, True])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(targets.time, "monotonic", lambda: 1.0 if next(looks, True) else 0.0)  # (targets.past's)
        part = sampled_relaxation(ev.rules, request, [None], seed=0, games=300, deadline=0.5)[None]
    head = sampled_relaxation(ev.rules, request, [None], seed=0, games=module.BATCH)[None]
    assert part == head and part.games == module.BATCH < full.games


def test_real_positions_keep_each_estimate_between_its_bounds():
    """Random real positions at 6 draws (both rule sets; 12 and 13 tiles, a called unit, seen tiles, a waiting room
    under 2019-12 now and then): every row's sampled P(win) lies between its lower bound and the proved 1, and
    E[score]'s, where kept, between its lower bound and its proved upper bound."""
    checked = 0
    for name in ("2019-12", "hitori-jong-2.1"):
        ev = Evaluator(name)
        for i, (hand, seen) in enumerate(random_real_hands(ev, 4, seed=66)):
            names = [ev.tiles.name(k) for k, n in enumerate(seen) for _ in range(n)]
            room = [ev.tiles.name(k) for k in range(len(ev.tiles))
                    if hand.concealed[k] + (seen[k] if seen else 0) == 0][:2] if name == "2019-12" and i % 2 else []
            try:
                p = ev.plan(hand, turns=6, seen=names, waiting_room=room, seconds=3)  # (the sample: its share)
            except MjError:
                continue
            for row in p.discards:
                if row.upper_estimate is not None:
                    assert row.upper == 1 and row.win_probability <= row.upper_estimate <= 1
                    checked += 1
                if row.score_upper_estimate is not None:
                    assert row.expected_score <= row.score_upper_estimate <= row.score_upper
    assert checked >= 25


def test_the_native_pool_search_refuses_what_does_not_fit():
    """The C search (NoWin) says what is wrong in one ValueError: more than 64 kinds, slots outside 0-64."""
    native = PoolWin(Evaluator("2019-12").rules, (), None, native=True)._c
    if native is None:
        if os.environ.get("MJ_REQUIRE_NATIVE") == "1":  # (CI: a missing extension fails)
            pytest.fail("MJ_REQUIRE_NATIVE=1 but solver.planning._planc is not built", pytrace=False)
        pytest.skip("solver.planning._planc is not built")
    for call in (lambda: native.complete(bytes(65), 13), lambda: native.complete(bytes(54), 65),
                 lambda: native.complete(bytes(54), -1), lambda: native.score(bytes(65))):
        with pytest.raises(ValueError):
            call()
