"""A complete 13-tile hand in the planner (QA of 2026-11-27): a win declined is valued by playing on from the 12 tiles
each discard leaves (the class nearest restarted, solver/planning/restart.py), winning now is what is recommended,
and the builds of its long list of complete hands read the clock."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest
from test_hardening import run_mj

from solver import Evaluator
from solver.planning import clock
from solver.planning.restart import after_discard
from solver.planning.targets import OutOfTime

HAND = "春香 千早 美希 雪歩 やよい 律子 あずさ 伊織 真 亜美 真美 響 貴音"  # complete (2019-12)
SEEN = "春香 春香"


@pytest.fixture(scope="module")
def ev():
    return Evaluator("2019-12")


def test_a_declined_win_is_valued_by_playing_on_from_the_12_tiles(ev):
    """Each row of the class nearest is that class's own plan of the 12 tiles the discard leaves (so at most the
    optimum), where the class as defined for the 13 tiles kept the hand alone in play (4 % a row: only drawing the
    discard back won)."""
    near = ev.plan(HAND, turns=2, seen=SEEN, both=False, seconds=None, nearest=True)
    best = ev.plan(HAND, turns=2, seen=SEEN, both=False, seconds=None)
    assert near.complete and best.method == "optimal"
    optimum = {r.tile: r.win_probability for r in best.discards}
    request = ev.plan_request_of(HAND, 2, seen=SEEN, both=False, seconds=None, nearest=True)
    for row in near.discards:
        alone = ev.plan_request(replace(request, position=after_discard(ev.rules, request.position, row.tile)))
        assert row.win_probability == alone.recommended.win_probability
        assert row.win_probability <= optimum[row.tile]
    assert near.recommended.tile == best.recommended.tile == ev.tile("響")
    assert near.recommended.win_probability > 0.5  # (the optimum: 0.601)
    assert "restarted from the 12 tiles" in near.policy_class["win_probability"]


def test_winning_now_is_recommended(ev):
    """P(win): a complete hand wins for sure. E[score]: winning now where its score is at least the best discard's
    value."""
    p = ev.plan(HAND, turns=2, seen=SEEN, both=False, seconds=None)
    assert p.complete and p.tsumo_now
    s = ev.plan(HAND, turns=2, seen=SEEN, both=False, seconds=None, objective="score")
    assert s.tsumo_now == (s.tsumo >= s.recommended.expected_score)
    assert not replace(s, tsumo=int(s.recommended.expected_score) - 1).tsumo_now
    assert not ev.plan(HAND.rsplit(" ", 1)[0], turns=2, both=False, seconds=None).tsumo_now  # (12 tiles: no win)
    code, out, err = run_mj("plan", HAND, "--turns", "2", "--seen", SEEN, "--json")
    assert code == 0, err
    assert json.loads(out)["recommended"]["tsumo_now"] is True
    code, out, err = run_mj("plan", HAND, "--turns", "2", "--seen", SEEN)
    assert code == 0 and "Recommended: tsumo now (scores 24000); declining it, discard 響" in out, out


def test_the_clock_is_read_between_and_inside_the_long_builds(ev):
    """A deadline already past: clock.check says so, and the waits' table of a long list is not built (nor kept
    half built) past it."""
    with pytest.raises(OutOfTime, match="the exact plan passed its time budget"):
        clock.check(time.monotonic() - 1, "the exact plan")
    clock.check(None, "no clock")
    clock.check(time.monotonic() + 60, "not yet")
    from solver.planning.prepare import prepare

    prep = prepare(ev.rules, ev.plan_request_of(HAND, 3, seen=SEEN).position, turns=3, objectives=("win",),
                   play="optimal")
    search = prep.searches["win"]
    search.deadline = time.monotonic() - 1
    waits = search.completing
    with pytest.raises(OutOfTime):
        waits.built()
    assert not waits.whole
    search.deadline = None  # (the search's deadline as it stands, read when the table is built)
    assert waits.built()  # (built whole without a clock)


def test_the_waits_found_per_hand_are_those_of_the_whole_map(ev):
    """closed.Waits answers a hand by looking up hand + k in the targets until enough hands were asked, then builds
    the map over every target less each tile: both ways give the same waits, for hands with and without any."""
    from solver.planning.prepare import prepare

    prep = prepare(ev.rules, ev.plan_request_of(HAND, 3, seen=SEEN).position, turns=3, objectives=("win",),
                   play="optimal")
    search = prep.searches["win"]
    waits = search.completing
    whole = waits.built()
    keys = list(whole)[:len(search.scores) // 8] + [tuple(0 for _ in range(search.nr))]
    for key in keys:
        assert not waits.whole
        assert sorted(waits.get(key)) == sorted(whole.get(key, ()))
    while not waits.whole:
        waits.get(tuple(0 for _ in range(search.nr)) [:-1] + (waits.asked,))
    for key in keys:
        assert sorted(waits.get(key)) == sorted(whole.get(key, ()))


def test_the_counted_relaxation_gives_whole_rows_or_none(ev):
    from solver.planning.counted_upper import counted_relaxation

    request = ev.plan_request_of(HAND, 2, seen=SEEN, objective="score")
    tiles = [ev.tile("響"), ev.tile("伊織")]
    assert counted_relaxation(ev.rules, request, tiles, time.monotonic() - 1) == {}
    rows = counted_relaxation(ev.rules, request, tiles)
    assert set(rows) == set(tiles)
    best = ev.plan(HAND, turns=2, seen=SEEN, objective="score", both=False, seconds=None)
    optimum = {r.tile: r.expected_score for r in best.discards}
    assert all(rows[t] >= optimum[t] for t in tiles)  # (an upper bound)


def test_equal_lower_bounds_rank_the_larger_upper_bound_first():
    """QA: three rows tied at 9.80 % went to the one whose upper bound was 10.7 % (the others' 19 %)."""
    from fractions import Fraction

    from solver.planning.answer import DiscardPlan, ranked

    def row(tile, lower, upper, score=None):
        return DiscardPlan(tile, Fraction(lower), score, 1, 1, upper=None if upper is None else Fraction(upper))
    rows = [row(0, "0.098", "0.107"), row(1, "0.098", "0.193"), row(2, "0.04", "0.5"), row(3, "0.098", "0.190")]
    assert [r.tile for r in ranked(rows, "win")] == [1, 3, 0, 2]
    exact = [row(0, "0.1", None, 5), row(1, "0.1", None, 7)]  # (no upper: by the other objective, as before)
    assert [r.tile for r in ranked(exact, "win")] == [1, 0]
