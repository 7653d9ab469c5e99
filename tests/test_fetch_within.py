"""P(win) with a fetch-mode そら held by deepening (solver/planning/fetch_within.py): each level is the exact optimum
of the game in which only the complete hands within B exchanges of the hand win (which hands those are, and that
game's value, from the independent brute force), so a lower bound of the optimum rising with B to the optimum
itself; and the QA's hand with two そら, where the default answer recommended ひなた at 0 % (紬 wins 19 %)."""

from __future__ import annotations

import time

import pytest
from hypothesis import assume, given, settings
from oracle import complete_targets
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, room_positions, sora_room_request

from solver import Evaluator, MjError
from solver.planning.answer import DiscardPlan
from solver.planning.fetch_within import LABEL, SHORT, SHORT_LABEL, Deepening, fetch_within


@settings(BASE_SETTINGS, max_examples=60)
@given(room_positions(max_kinds=6, max_units=7, max_room=3, max_turns=3))
def test_each_level_is_the_optimum_of_its_smaller_game(case):
    game, deal, seen, room, favourite, turns = case
    try:
        ev, request = sora_room_request(case, both=False, seconds=None)
        deep = Deepening(ev.rules, request)
        levels = []
        while deep.step(None):
            levels.append(deep.found)
    except MjError:  # (a position the plan refuses: more draws than the wall holds)
        return
    assert deep.why is None and deep.optimal and levels[-1][0] == deep.top
    units = list(game.units)
    cap = [3 - sum(k in units[j] for j in deal.called) for k in range(game.K)]
    targets = list(complete_targets(units, deal.called, cap=cap, hand_size=game.hand_size, sora=game.sora,
                                    sora_mode="fetch"))
    rules = game.oracle_rules("2019-12")
    optimum = fetch_value(units, list(deal.concealed), seen=seen, room=room, turns=turns, objective="win",
                          rules=rules, sora=game.sora, favourite=favourite, called=deal.called)
    before = None
    for budget, moves in levels:
        allowed = {t for t in targets if sum(max(0, a - b) for a, b in zip(t, deal.concealed)) <= budget}
        smaller = fetch_value(units, list(deal.concealed), seen=seen, room=room, turns=turns, objective="win",
                              rules=rules, sora=game.sora, favourite=favourite, called=deal.called, allowed=allowed)
        values = {d: value for d, (value, _, _) in moves.items()}
        assert values == smaller
        assert all(values[d] <= optimum[d] for d in values)
        assert before is None or all(values[d] >= before[d] for d in values)
        before = values
    assert before == optimum


@pytest.fixture(scope="module")
def ev():
    return Evaluator("2019-12")


HAND = "律子 そら 紬 ひなた 千早 雪歩 真美 百合子 そら 育 やよい 真美 杏奈"
ROOM = "風花 美也 星梨花 奈緒 麗花 美奈子 このみ"


def test_two_sora_the_levels_reach_the_fetching_play(ev):
    """The search with every fetch takes 30-40 s at 3 draws; the complete hands within 3 exchanges (the least) take
    about a second and value 紬 (fetching 美奈子 at once) at 0.188 of the optimum's 0.191 (measured with no clock:
    534533/2803080)."""
    request = ev.plan_request_of(HAND, 3, waiting_room=ROOM, both=False, seconds=None)
    deep = Deepening(ev.rules, request)
    assert deep.step(None) and deep.found[0] == 3
    value, wait, take = deep.found[1][ev.tile("紬")]
    assert 0.188 < value <= 534533 / 2803080 and take == ev.tile("美奈子") and wait < value
    assert max(deep.found[1].items(), key=lambda item: item[1][0])[0] == ev.tile("紬")


def test_past_the_optimum_the_bracket_keeps_the_deepest_level(ev):
    """At 2 draws the last level (every complete hand within 4 exchanges) visits 535 states, the one before it 214:
    past a cap between them the answer is the bracket, its lower side that level's exact values with their そら
    advice, below the optimum and the proved upper bounds."""
    optimum = ev.plan(HAND, 2, waiting_room=ROOM, both=False, seconds=None)
    assert optimum.method == "optimal"
    request = ev.plan_request_of(HAND, 2, waiting_room=ROOM, both=False, seconds=None)
    deep = Deepening(ev.rules, request)
    assert deep.step(None) and deep.found[0] == 3
    plan = ev.plan(HAND, 2, waiting_room=ROOM, both=False, seconds=None, max_states=300)
    assert plan.method == "bounds" and plan.recommended.tile == optimum.recommended.tile == ev.tile("紬")
    assert LABEL.format(n=0, of=0, b="3 exchanges")[20:] in plan.policy_class["win_probability"]
    best = {r.tile: r.win_probability for r in optimum.discards}
    for row in plan.discards:
        value, wait, take = deep.found[1][row.tile]
        assert row.win_probability >= value and row.win_interval is None
        assert row.win_probability <= best[row.tile] <= row.upper
    top = plan.recommended
    assert top.win_probability == deep.found[1][top.tile][0] and top.sora.take == deep.found[1][top.tile][2]


def test_the_p_win_column_beside_e_score_is_raised_too(ev):
    """Sorted by E[score], the P(win) column (with_other) past its limits is the estimate's sample, raised to the
    deepening's exact values where higher and labelled so."""
    plan = ev.plan(HAND, 2, objective="score", waiting_room=ROOM, seconds=None, max_states=300)
    deep = Deepening(ev.rules, ev.plan_request_of(HAND, 2, waiting_room=ROOM, both=False, seconds=None,
                                                  max_states=300))
    deep.deepen(None)
    assert plan.method in ("bounds", "estimate") and deep.found[0] == 3
    assert LABEL.format(n=0, of=0, b="3 exchanges")[20:] in plan.policy_class["win_probability"]
    for row in plan.discards:
        assert row.win_probability >= deep.found[1][row.tile][0] and row.win_probability <= row.upper
    assert any(row.win_probability == deep.found[1][row.tile][0] and row.win_interval is None for row in plan.discards)


@settings(BASE_SETTINGS, max_examples=20)
@given(room_positions(max_kinds=6, max_units=7, max_room=3, max_turns=5))
def test_the_short_levels_are_lower_bounds(case):
    """The levels over the first s = min(SHORT, turns - 1) draws alone (past SHORT draws before those of every draw,
    within them after: QA, a two-そら hand at 3 draws whose best row is 7.37 % over 2 draws and 4.02 % at the level
    of every draw reached): each the brute force's value of its smaller game over s draws, and at most the optimum
    over every draw (later draws only add wins)."""
    game, deal, seen, room, favourite, turns = case
    assume(turns > 1)
    s = min(SHORT, turns - 1)
    try:
        ev, request = sora_room_request(case, both=False, seconds=None)
        deep = Deepening(ev.rules, request)
        deep.why = "stopped"  # (as where the levels of every draw passed a limit: the short ones go on)
        deep.deepen(None)
    except MjError:  # (more draws than the wall holds)
        return
    assert deep.short.request.turns == s and deep.short.optimal and deep.levels() == [deep.short, deep]
    assert deep.short.short is None  # (levels over fewer draws still would be read by no one)
    units = list(game.units)
    rules = game.oracle_rules("2019-12")
    common = dict(seen=seen, room=room, objective="win", rules=rules, sora=game.sora, favourite=favourite,
                  called=deal.called)
    optimum = fetch_value(units, list(deal.concealed), turns=turns, **common)
    short = fetch_value(units, list(deal.concealed), turns=s, **common)
    values = {d: value for d, (value, _, _) in deep.short.found[1].items()}
    assert values == short and all(values[d] <= optimum[d] for d in values)


def test_at_four_draws_the_short_levels_recommend_the_fetching_play(ev):
    """At 4 draws the least level of every draw passes 30,000 states (it visits 920,000, 25 s), while the one over the
    first 3 draws (20,804) values 紬 as at 3 draws: the rows' lower side, labelled so, where the estimate's policy
    (never fetching) had recommended ひなた at 0.2 %."""
    three = Deepening(ev.rules, ev.plan_request_of(HAND, 3, waiting_room=ROOM, both=False, seconds=None))
    assert three.step(None) and three.found[0] == 3
    request = ev.plan_request_of(HAND, 4, waiting_room=ROOM, both=False, seconds=None, max_states=30_000)
    deep = Deepening(ev.rules, request)
    rows = tuple(DiscardPlan(tile, None, None, None, None, None) for tile in deep.discards)
    rows, notes = fetch_within(ev.rules, request, rows, None, deep)
    assert deep.found is None and deep.short.found[0] == 3 and deep.short.why  # (its next level passed the cap)
    assert notes == [SHORT_LABEL.format(n=len(rows), of=len(rows), b="3 exchanges", s=SHORT)]
    best = max(rows, key=lambda r: r.win_probability)
    assert best.tile == ev.tile("紬") and best.sora.take == ev.tile("美奈子")
    assert all(r.win_probability == three.found[1][r.tile][0] for r in rows) and best.win_probability > 0.188


def test_a_level_judged_hopeless_is_tried_again_with_more_time(ev):
    """with_other calls the deepening twice, the second time with a later deadline: a level judged hopeless before
    it started (nothing spent) is tried then, where it had ended the deepening for good (QA hand at 3 draws with
    --objective score: P(win) stayed at its first level's 6.0 % where the second reaches 20.9 %)."""
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 そら"
    request = ev.plan_request_of(hand, 3, waiting_room="星梨花", both=False, seconds=None)
    deep = Deepening(ev.rules, request)
    assert deep.step(None) and deep.found[0] == 1
    # (its first level took ~0.03 s and the next lists 50 times the hands: about 0.6 s, hopeless in 0.2 s)
    assert not deep.step(time.monotonic() + 0.2) and deep.found[0] == 1
    assert deep.step(None) and deep.found[0] == 2
    plain = Deepening(ev.rules, request)
    plain.step(None), plain.step(None)
    assert deep.found == plain.found and max(v for v, _, _ in deep.found[1].values()) > 0.2
