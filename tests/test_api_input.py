"""The Python API's edge (solver/api.py, QA of 2026-11-28): a hand as a list, tile ids checked against the rule
set (a negative id had wrapped round to そら and changed a plan), and every wrong type a typed MjError that says what
was given, never an AttributeError, IndexError or TypeError from inside."""

from __future__ import annotations

import datetime as dt

import pytest

from solver import Evaluator
from solver.core.errors import UNKNOWN_TILE, MjError

HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def ev():
    return Evaluator("2019-12")


def test_a_hand_as_a_list_of_names_or_ids(ev):
    names = HAND.split()
    ids = [ev.tile(n) for n in names]
    assert ev.hand(names) == ev.hand(tuple(ids)) == ev.hand(HAND)
    assert ev.h(names).h == ev.h(HAND).h
    assert ev.is_complete(names) == ev.is_complete(HAND)


@pytest.mark.parametrize("bad", [-1, 54, 999])
def test_an_id_out_of_range_is_refused_never_wrapped(ev, bad):
    assert len(ev.tiles) == 54  # (2019-12: ids 0-53; -1 had counted a そら as seen)
    for call in (lambda: ev.h(HAND, seen=[bad]), lambda: ev.score(HAND, win="ron", winning_tile=bad),
                 lambda: ev.plan(HAND, 1, favourite=bad), lambda: ev.plan(HAND, 1, waiting_room=[bad]),
                 lambda: ev.analyze(HAND.split()[:12], discard=bad), lambda: ev.hand([bad])):
        with pytest.raises(MjError, match=f"no tile has the id {bad} ") as caught:
            call()
        assert caught.value.code == UNKNOWN_TILE


@pytest.mark.parametrize("call, said", [
    (lambda ev: ev.h(None), "a hand is text"),
    (lambda ev: ev.h(5), "not int"),
    (lambda ev: ev.h(HAND, seen=None), "a list of tiles is text"),
    (lambda ev: ev.h(HAND, seen=[1.5]), "not 1.5"),
    (lambda ev: ev.h(HAND, seen=[None]), "not None"),
    (lambda ev: ev.plan(HAND, 1, waiting_room=[None]), "not None"),
    (lambda ev: ev.h([None] * 13), "not None"),
    (lambda ev: ev.plan(HAND, 1, nearest="yes"), "nearest is True or False, not the str 'yes'"),
    (lambda ev: ev.plan(HAND, 1, both="no"), "both is True or False"),
    (lambda ev: ev.plan(HAND, 2, favourite=True), "not True"),
    (lambda ev: ev.plan(HAND, "3"), "turns must be a whole number, not the str '3'"),
    (lambda ev: ev.plan(HAND, 3.5), "turns must be a whole number, not 3.5"),
    (lambda ev: ev.plan(HAND, 2, seconds="abc"), "the time budget must be a finite number"),
    (lambda ev: ev.plan(HAND, 2, seconds=float("inf")), "not inf"),
    (lambda ev: ev.plan(HAND, 2, detour="1"), "detour must be a whole number"),
    (lambda ev: ev.plan(HAND, 12, seed="x"), "seed must be a whole number"),
    (lambda ev: ev.analyze(HAND, max_exchanges=0), "max_exchanges must be a whole number 1 or more"),
    (lambda ev: Evaluator(None), "rules is a rule set's name, not None"),
    (lambda ev: Evaluator(as_of="2020-01-01"), "as_of is a datetime.date"),
    (lambda ev: Evaluator(catalogue="x"), "catalogue is a Catalogue"),
    (lambda ev: Evaluator(catalogue_files="no-such.toml"), "no-such.toml: no such file"),  # (not n, o, -, ...)
])
def test_wrong_types_are_said(ev, call, said):
    with pytest.raises(MjError, match=None) as caught:
        call(ev)
    assert said in str(caught.value)


def test_numpy_integers_are_ids_and_counts(ev):
    """An engine's numpy integers are ids and counts like Python's (QA recheck: refused)."""
    import numpy as np

    ids = [np.int64(ev.tile(n)) for n in HAND.split()]
    assert ev.h(ids).h == ev.h(HAND).h and ev.tile(np.int16(3)) == 3 and type(ev.tile(np.int16(3))) is int
    assert ev.plan(HAND, np.int64(1), seconds=None).method == "optimal"
    request = ev.plan_request_of(HAND, np.int64(2), max_states=np.int32(1000), seed=np.uint8(3))
    assert [type(x) for x in (request.turns, request.limits.max_states, request.limits.seed)] == [int, int, int]


def test_a_date_and_a_plan_as_before(ev):
    assert Evaluator("2019-12", as_of=dt.date(2019, 12, 31)).rules is not None
    plan = ev.plan(HAND, 1, seconds=None)
    assert plan.method == "optimal"


@pytest.mark.parametrize("concealed, called, said", [
    ((-1,) + (1,) * 13 + (0,) * 40, (), "count of .* is -1, not a count from 0"),
    ((1,) * 10 + (0,) * 44, (9999,), "a called unit is an index from 0 to .*, not 9999"),
    ((1,) * 10 + (0,) * 44, [59], "tuples, not tuple and list"),
    ([1] * 13 + [0] * 41, (), "tuples, not list and tuple"),
    ((1.0,) * 13 + (0,) * 41, (), "count of .* is 1.0"),
])
def test_a_hand_built_directly_is_checked_as_a_parsed_one(ev, concealed, called, said):
    """QA: a Hand built directly with a count of -1, a called id past the units or a list raised ValueError,
    IndexError or TypeError from inside; README says it is refused like a bad name."""
    from solver import Hand

    with pytest.raises(MjError, match=said):
        ev.h(Hand(concealed, called))
