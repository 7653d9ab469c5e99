"""The planner's typed request (solver/planning/request.py, issue 20/22): validation, the API's keywords and
the request give one plan, and the keyword form of plan() before the request still means the class nearest
(game/players/planner.py calls it)."""

from __future__ import annotations

import pytest

from solver import Evaluator, MjError
from solver.planning.plan import plan
from solver.planning.request import Limits, PlanRequest, Position

EXAMPLE = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


def rows(p):
    return [(r.tile, r.win_probability, r.expected_score, r.upper) for r in p.discards]


def test_keywords_and_request_give_one_plan(ev):
    request = ev.plan_request_of(EXAMPLE, 2, seen="春香 春香", both=False)
    assert request == PlanRequest(Position(ev.hand(EXAMPLE), ev.seen("春香 春香")), 2, both=False)
    assert request.play == "optimal" and request.limits == Limits()
    assert rows(ev.plan_request(request)) == rows(ev.plan(EXAMPLE, 2, seen="春香 春香", both=False))
    assert ev.plan_request_of(EXAMPLE, 2, nearest=True).play == "nearest"
    assert ev.plan_request_of(EXAMPLE, 2, detour=1).play == "detour"


@pytest.mark.parametrize("kwargs", [dict(objective="money"), dict(play="greedy"), dict(play="detour"),
                                    dict(detour=1), dict(play="detour", detour=-1)])
def test_bad_requests_are_mj_errors(ev, kwargs):
    with pytest.raises(MjError):
        PlanRequest(Position(ev.hand(EXAMPLE)), 2, **kwargs)


@pytest.mark.parametrize("kwargs", [dict(max_states=0), dict(seconds=0), dict(estimate=1)])
def test_bad_limits_are_mj_errors(kwargs):
    with pytest.raises(MjError):
        Limits(**kwargs)


def test_detour_and_nearest_together_are_refused(ev):
    with pytest.raises(MjError, match="nearest"):
        ev.plan(EXAMPLE, 2, detour=1, nearest=True)


def test_keyword_form_before_the_request_is_the_class_nearest(ev):
    old = plan(ev.rules, ev.hand(EXAMPLE), turns=3, objective="win", seen=(), waiting_room=(), favourite=None,
               both=False, state_limit=100_000)
    new = ev.plan(EXAMPLE, 3, both=False, nearest=True, seconds=None)
    assert old.method == new.method == "class" and rows(old) == rows(new)
    assert old.policy_class["win_probability"].startswith("nearest")


@pytest.mark.parametrize("turns", [0, 150, 3000, 10**6])
@pytest.mark.parametrize("nearest", [False, True])
def test_turns_past_the_unseen_tiles_are_one_error_at_any_size(ev, turns, nearest):
    """Checked before the rough count of states (past 2,000 turns that count's digits had raised a ValueError)."""
    with pytest.raises(MjError, match=f"between 1 and the 149 unseen tiles, not {turns}"):
        ev.plan(EXAMPLE, turns, nearest=nearest, both=False)


def test_a_wall_with_nothing_left_and_a_waiting_room_past_three_copies_are_said_plainly(ev):
    """QA: "--turns must be between 1 and the 0 unseen tiles", and a room of four copies reported as "seen"."""
    from solver.planning.request import PlanRequest, Position

    hand = ev.hand(EXAMPLE)
    everything = tuple(3 - n for n in hand.totals(ev.rules))
    with pytest.raises(MjError, match="^no tile is left to draw: every copy is in the hand, seen or in the"):
        ev.plan_request(PlanRequest(Position(hand, everything), 1, both=False))
    haruka = ev.tile("春香")
    with pytest.raises(MjError, match="^0 春香 seen and 4 in the waiting room: there are only 3$"):
        ev.plan_request(PlanRequest(Position(hand, (), (haruka,) * 4), 2, both=False))
    held = next(k for k, n in enumerate(hand.concealed) if n == 1)  # (the hand's copies with the room's: not "seen")
    name = ev.tiles.name(held)
    with pytest.raises(MjError, match=f"^1 {name} in hand and 3 in the waiting room: there are only 3$"):
        ev.plan_request(PlanRequest(Position(hand, (), (held,) * 3), 2, both=False))
    seen = tuple(int(k == held) for k in range(len(hand.concealed)))
    said = f"^1 {name} in hand, 1 seen and 2 in the waiting room: there are only 3 \\(a tile in the waiting room is not "
    with pytest.raises(MjError, match=said):
        ev.plan_request(PlanRequest(Position(hand, seen, (held,) * 2), 2, both=False))
    with pytest.raises(MjError, match=said):  # (QA: the analysis had taken a 4th copy across seen and the room)
        ev.analyze(hand, seen=[held], waiting_room=[held, held])
    twelve = hand.remove(next(k for k, n in enumerate(hand.concealed) if n and k != held))
    with pytest.raises(MjError, match=f"^1 {name} in hand, 0 seen, 2 in the waiting room and the discard: there are "
                                      "only 3$"):  # (QA: the discard on offer, a 4th copy, was analysed)
        ev.analyze(twelve, discard=held, waiting_room=[held, held])
    assert ev.analyze(twelve, discard=held, waiting_room=[held]).call_tile == held


def test_a_house_past_the_listings_units_is_refused_in_one_line():
    """QA: a catalogue of 6,796 units ended in a traceback from planc_list.c's ValueError ("units: at most 4096")."""
    import itertools

    from solver.planning.targets import LIST_UNITS
    from synthetic import PARAMS, make_catalogue

    trios = list(itertools.combinations(range(32), 3))[:LIST_UNITS + 1]
    big = Evaluator("syn", catalogue=make_catalogue(trios, 32, params=PARAMS["2019-12"]))
    with pytest.raises(MjError, match="^the planner lists complete hands over at most 4,096 units; rule set syn has "
                                      "4,097$"):
        big.plan(" ".join(f"k{i}" for i in range(13)), 2)


def test_a_rough_count_reads_at_any_size():
    from solver.planning.prepare import about

    assert [about(n) for n in (999, 10**9, 123456789012, 10**9 - 1)] == \
        ["999", "1.0 x 10^9", "1.2 x 10^11", "999,999,999"]
    assert about(7 * 10**12345) == "7.0 x 10^12345" and about(10**12345 - 1) == "9.9 x 10^12344"


def test_every_rows_h_and_live_are_the_analysis_ones_in_any_class(ev):
    """The class nearest lists only the targets at h: a discard that raises h had shown "unreachable" (with a
    P(win) above 0). Its h and live acceptance come from the exact search then, as `mj analyze` gives them."""
    table = {d.tile: (d.h, d.live) for d in ev.analyze(EXAMPLE).discards}
    for nearest in (True, False):
        p = ev.plan(EXAMPLE, 12 if nearest else 2, nearest=nearest, both=False, seconds=None)
        assert {r.tile: (r.h, r.live) for r in p.discards} == table
    assert {h for h, _ in table.values()} == {1, 2}


def test_method_speaks_of_the_objectives_column(ev, monkeypatch):
    """QA: E[score] over all play beside a P(win) of a named class was said to be "class" (a rule from when `method`
    spoke of P(win)); it is the objective's column, so "optimal", as `methods` reads it from the numbers."""
    from solver.planning import plan as plan_module

    real = plan_module.score_plan
    monkeypatch.setattr(plan_module, "score_plan", lambda rules, request, *rest: None if request.objective == "win"
                        else real(rules, request, *rest))  # (P(win) by the planner's class: a drawn そら discarded)
    got = ev.plan("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 そら 美奈子 星梨花", 2, objective="score",
                  seconds=None)
    assert got.policy_class["expected_score"] == "all play"
    assert got.policy_class["win_probability"] != "all play"
    assert got.method == got.methods["expected_score"] == "optimal"


def test_the_default_method_is_the_objective_columns_own(ev):
    """QA: a bracket with a sampled row said "bounds" where `methods` said "estimate"."""
    for objective in ("win", "score"):
        got = ev.plan(EXAMPLE, 4, objective=objective, max_states=2_000, estimate=100, seconds=None)
        assert got.method == got.methods["win_probability" if objective == "win" else "expected_score"]
