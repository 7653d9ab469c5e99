"""E[score] past 3 draws from below (solver/planning/score_short.py): the optimum over the first 3 draws alone, each
row the independent brute force's value of that shorter game and at most its optimum over every draw."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, room_positions, room_request

from solver import Evaluator, MjError
from solver.planning.answer import DiscardPlan
from solver.planning.score_optimum import native_tail
from solver.planning.score_short import LABEL, SHORT, TURNS, score_within

# (without the C tail the 3-draw optimum takes 100 s: score_within is not tried, and says so by its empty note)
native = pytest.mark.skipif(not native_tail(Evaluator("2019-12").rules, None), reason="the C extension is not built")


def rows_of(ev, request) -> tuple:
    hand = request.position.hand
    held = [k for k, n in enumerate(hand.concealed) if n] if hand.size(ev.rules) == ev.rules.hand_size else [None]
    return tuple(DiscardPlan(tile, None, None, None, None) for tile in held)


@native
@settings(BASE_SETTINGS, max_examples=15)
@given(room_positions(max_kinds=6, max_units=7, max_room=2, max_turns=TURNS))
def test_each_row_is_the_shorter_games_optimum_and_below_the_optimum(case):
    game, deal, seen, room, favourite, turns = case
    assume(turns > SHORT)
    try:
        ev, request = room_request(case, objective="score", both=False, seconds=None)
        rows, note = score_within(ev.rules, request, rows_of(ev, request), None)
    except MjError:  # (more draws than the wall holds)
        return
    common = dict(seen=seen, room=room, objective="score", rules=game.oracle_rules("2019-12"), sora=game.sora,
                  favourite=favourite, called=deal.called)
    short = fetch_value(list(game.units), list(deal.concealed), turns=SHORT, **common)
    optimum = fetch_value(list(game.units), list(deal.concealed), turns=turns, **common)
    assert {r.tile: r.expected_score for r in rows} == short
    assert all(r.expected_score <= optimum[r.tile] and r.score_interval is None for r in rows)
    assert note == LABEL.format(n=len(rows), of=len(rows), s=SHORT)


@native
def test_a_row_already_higher_stays_and_past_turns_nothing_is_searched():
    ev = Evaluator("2019-12")
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    request = ev.plan_request_of(hand, 4, "score", both=False, seconds=None)
    rows, note = score_within(ev.rules, request, rows_of(ev, request), None)
    high = tuple(DiscardPlan(r.tile, None, r.expected_score + 1, None, None) for r in rows)
    assert score_within(ev.rules, request, high, None) == (high, "")
    far = ev.plan_request_of(hand, TURNS + 1, "score", both=False, seconds=None)
    assert score_within(ev.rules, far, rows, None) == (rows, "")
    assert note and all(r.expected_score is not None for r in rows)
