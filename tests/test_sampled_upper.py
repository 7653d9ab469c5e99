"""The relaxation sampled where it cannot be counted (solver/planning/sampled_upper.py): TileSearch.fits against a
plain containment check, each wall's verdict against the relaxation's definition over explicit sub-multisets, the
sample against the exact count where both exist, and the plan's rows, JSON and text where only 1 is proved."""

from __future__ import annotations

import itertools
import json
import math
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
from solver.core.search.tile_search import TileSearch
from solver.planning import plan as plan_module
from solver.planning.prepare import fetch_could_follow, position_counts
from solver.planning.sampled_upper import GAMES, above_lower, sampled_relaxation, wins_in_wall
from solver.serialize_plan import plan_dict


def holds_complete(game, rules, pool) -> bool:
    """Some sub-multiset of the pool of the hand's size is complete, by the oracle's scorer (no search)."""
    return any(sum(c) == game.hand_size and best_score(list(game.units), list(c), [], won=True, ron_tile=None,
                                                       favourite=None, rules=rules, sora=game.sora) is not None
               for c in itertools.product(*(range(n + 1) for n in pool)))


@BASE_SETTINGS
@given(st.data())
def test_fits_is_containment_of_a_complete_hand(data):
    """fits (C and pure) says whether some complete hand lies within the counts, as the oracle's scorer over every
    sub-multiset says; そら counts for nothing."""
    game = data.draw(games(min_kinds=4, max_kinds=5, max_units=6, max_unit_size=3, hand_sizes=(3, 4), sora=True))
    ev = game.evaluator("2019-12")
    rules = game.oracle_rules("2019-12")
    pool = data.draw(st.lists(st.integers(0, 3), min_size=game.K, max_size=game.K))
    expected = holds_complete(game, rules, [0 if k == game.sora else n for k, n in enumerate(pool)])
    for native in (True, False):
        assert TileSearch(ev.rules, native=native).fits(tuple(pool), game.hand_size) == expected


def test_fits_native_and_pure_agree_on_real_rule_sets():
    """The C check and the pure one agree on random pools of 13 to 25 tiles of both real rule sets."""
    rng = random.Random(7)
    for name in ("2019-12", "hitori-jong-2.1"):
        ev = Evaluator(name)
        native, pure = TileSearch(ev.rules, native=True), TileSearch(ev.rules, native=False)
        copies = [k for k in range(len(ev.tiles)) for _ in range(3)]
        found = 0
        for _ in range(300):
            pool = [0] * len(ev.tiles)
            for k in rng.sample(copies, rng.choice((13, 19, 25))):
                pool[k] += 1
            answer = native.fits(tuple(pool), 13)
            assert answer == pure.fits(tuple(pool), 13)
            found += answer
        assert 0 < found < 300  # (both answers occur)


@BASE_SETTINGS
@given(st.data())
def test_each_wall_as_the_relaxation_defines_it(data):
    """Per wall and discard: a win iff a complete hand lies within the kept tiles and the draws, or where a fetch can
    happen (a そら kept, or drawn before the last draw) within those, the waiting room and the discard."""
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
    got = dict(wins_in_wall(TileSearch(ev.rules), game.hand_size, tuple(hand), room,
                            game.sora if fetch_mode else None, draws, tiles))
    for tile in tiles:
        pool = list(hand)
        pool[tile] -= 1
        for k in draws:
            pool[k] += 1
        fetch = fetch_mode and pool[game.sora] - draws[-1:].count(game.sora) > 0
        if fetch:
            pool = [n + r + (k == tile) for k, (n, r) in enumerate(zip(pool, room))]
        assert got[tile] == holds_complete(game, rules, [0 if k == game.sora else n for k, n in enumerate(pool)])


def test_the_sample_agrees_with_the_exact_count():
    """Where the relaxation is counted exactly (3 draws, both rule sets, seen tiles), the sampled value of each row
    lies within four standard errors of it; where a fetch could follow, the count lets every wall fetch and the
    sample only those with a そら in time, so the sample is at most the count (fixed seeds: the same every run)."""
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
                p, got = float(row.upper), float(sampled[row.tile].win_probability)
                margin = 4 * math.sqrt(p * (1 - p) / GAMES) + 1e-9
                assert got <= p + margin if fetch else abs(got - p) <= margin, (row.tile, got, p)
                checked[fetch] += 1
    assert checked[False] >= 20 and checked[True] >= 10


def test_rows_past_the_counted_relaxation_carry_the_sampled_value():
    """At 6 draws the relaxation is not counted: `upper` stays 1 (what is proved) and beside it the sampled value, at
    least the row's lower bound, inside its interval; the JSON, the label and the headline say it is an estimate."""
    from console.render import plan_headline

    ev = Evaluator("2019-12")
    p = ev.plan("ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜", turns=6, both=False)
    assert p.method in ("bounds", "estimate")
    for row in p.discards:
        assert row.upper == 1 and row.upper_estimate is not None
        low, high = row.upper_interval
        assert low <= float(row.upper_estimate) <= high and row.win_probability <= row.upper_estimate < 1
    assert f"sampled over {GAMES} walls" in p.policy_class["win_probability"]
    first = plan_dict(p, ev.rules)["discards"][0]
    assert first["upper"] == 1.0 and first["upper_estimate"] < 1 and len(first["upper_estimate_interval"]) == 2
    json.dumps(first)
    assert "an estimate, not a proof" in plan_headline(p).plain
    # the kept そら-free hand with no そら drawn early: discards differ (the discard is out of play)
    assert len({r.upper_estimate for r in p.discards}) > 1
    # where the relaxation is counted (or the optimum found) nothing is sampled
    exact = ev.plan("ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜", turns=2, both=False)
    assert all(r.upper_estimate is None for r in exact.discards)
    assert "upper_estimate" not in plan_dict(exact, ev.rules)["discards"][0]


def test_a_sample_below_the_lower_bound_is_brought_up_to_it():
    row = plan_module.DiscardPlan(3, Fraction(1, 10), None, 2, 4, upper=Fraction(1), upper_estimate=Fraction(1, 20),
                                  upper_interval=(0.04, 0.12))
    raised = above_lower(row)
    assert raised.upper_estimate == Fraction(1, 10) and raised.upper_interval == (0.1, 0.12)
    assert above_lower(replace(row, upper_estimate=Fraction(1, 5), upper_interval=(0.15, 0.25))).upper_estimate == \
        Fraction(1, 5)


def test_the_sample_stops_at_its_clock():
    ev = Evaluator("2019-12")
    request = ev.plan_request_of("ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜", turns=6)
    assert sampled_relaxation(ev.rules, request, [None], seed=0, deadline=0.0) is None
