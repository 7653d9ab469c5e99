"""P(win) from below by a shorter game (solver/planning/win_short.py): each raised row is a real way of playing's
exact value over the first draws alone, so at most the independent brute force's optimum of that shorter game
(equal to it where the label says all play) and at most the optimum over every draw."""

from __future__ import annotations

from hypothesis import given, settings
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, room_positions, room_request

from solver import Evaluator, MjError
from solver.planning.answer import DiscardPlan
from solver.planning.search_plan import exact_plan
from solver.planning.win_short import LABEL, SHORT, TURNS, win_within


def rows_of(ev, request, value=None) -> tuple:
    hand = request.position.hand
    held = [k for k, n in enumerate(hand.concealed) if n] if hand.size(ev.rules) == ev.rules.hand_size else [None]
    return tuple(DiscardPlan(tile, value, None, None, None) for tile in held)


def solve(ev):
    return lambda sub, deadline: exact_plan(ev.rules, sub, None, deadline)


@settings(BASE_SETTINGS, max_examples=25)
@given(room_positions(max_kinds=6, max_units=7, max_room=2, max_turns=TURNS))
def test_each_raised_row_is_a_shorter_games_value_and_below_both_optima(case):
    game, deal, seen, room, favourite, turns = case
    try:
        ev, request = room_request(case, objective="win", both=False, seconds=None)
        rows, note = win_within(ev.rules, request, rows_of(ev, request), solve(ev), None)
    except MjError:  # (more draws than the wall holds)
        return
    if turns < 2:
        assert note == "" and all(r.win_probability is None for r in rows)
        return
    s = min(SHORT, turns - 1)
    common = dict(seen=seen, room=room, objective="win", rules=game.oracle_rules("2019-12"), sora=game.sora,
                  favourite=favourite, called=deal.called)
    short = fetch_value(list(game.units), list(deal.concealed), turns=s, **common)
    optimum = fetch_value(list(game.units), list(deal.concealed), turns=turns, **common)
    raised = [r for r in rows if r.win_probability is not None]
    assert all(r.win_probability <= short[r.tile] <= optimum[r.tile] and r.win_interval is None for r in raised)
    if "(all play;" in note:
        assert all(r.win_probability == short[r.tile] for r in rows)
    assert (note != "") == bool(raised)
    assert not raised or note.startswith(LABEL.format(n=len(raised), of=len(rows), s=s, what="")[:40])


def test_a_row_already_higher_stays_past_turns_nothing_is_searched_and_the_readme_hand_rises():
    """The README's hand at 4 draws (QA): 海美 was 1.47 % by the class nearest, 5.19 % over the first 3 draws."""
    ev = Evaluator("2019-12")
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    request = ev.plan_request_of(hand, 4, "win", both=False, seconds=None)
    rows, note = win_within(ev.rules, request, rows_of(ev, request), solve(ev), None)
    three = {r.tile: r.win_probability for r in exact_plan(ev.rules, request.__class__(
        request.position, 3, "win", "optimal", None, False, request.limits), None, None).discards}
    assert {r.tile: r.win_probability for r in rows} == three and "over the first 3 draws" in note
    high = rows_of(ev, request, value=1)
    assert win_within(ev.rules, request, high, solve(ev), None) == (high, "")
    far = ev.plan_request_of(hand, TURNS + 1, "win", both=False, seconds=None)
    assert win_within(ev.rules, far, rows, solve(ev), None) == (rows, "")
    nearest = ev.plan(hand, 4, both=False, nearest=True, seconds=None)
    umi = ev.tile("海美")
    assert next(r.win_probability for r in nearest.discards if r.tile == umi) < three[umi]
