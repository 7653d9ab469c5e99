"""The C search (solver/core/search/_searchc.c) against the pure-Python one and the CP-SAT model: the same
best leaf (so the same h, witness and acceptance) on hypothesis games and random real hands in every
rule set and そら mode, with calls and seen tiles.

Skipped when the extension is not built, unless MJ_REQUIRE_NATIVE=1 (CI: then it fails).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import BASE_SETTINGS, oracle_cap, random_real_hands, search_positions

from solver import Evaluator
from solver.core.distance import exchange_distance
from solver.core.search import NATIVE, TileSearch

ROOT = Path(__file__).resolve().parent.parent
MODE_PARAMS = {"fetch": "2019-12", "dead": "hitori-jong-2.1", "wildcard": "2019-10"}
RULE_SETS = ["2019-12", "2019-10", "hitori-jong-2.1"]

if not NATIVE:
    if os.environ.get("MJ_REQUIRE_NATIVE") == "1":
        pytest.fail("MJ_REQUIRE_NATIVE=1 but solver.core.search._searchc is not built", pytrace=False)
    pytest.skip("the C extension solver.core.search._searchc is not built (the pure path runs)", allow_module_level=True)


def pair(rules) -> tuple[TileSearch, TileSearch]:
    native, pure = TileSearch(rules, native=True), TileSearch(rules, native=False)
    assert native._c is not None and pure._c is None
    return native, pure


@pytest.mark.parametrize("mode", ["fetch", "dead", "wildcard"])
@settings(BASE_SETTINGS, max_examples=300)
@given(data=st.data())
def test_native_best_leaf_equals_pure_and_oracle(mode, data):
    game, ev, _, deal, seen, seen_t = data.draw(search_positions(MODE_PARAMS[mode]))
    native, pure = pair(ev.rules)
    assert native.best_leaf(deal.hand, seen_t) == pure.best_leaf(deal.hand, seen_t)
    expected = oracle.exchange_distance(game.units, list(deal.concealed), list(deal.called),
                                        cap=oracle_cap(game, game.units, deal.called, seen),
                                        hand_size=game.hand_size, sora=game.sora, sora_mode=mode)
    assert native.h(deal.hand, seen_t) == expected
    assert native.accepted(deal.hand, seen_t) == pure.accepted(deal.hand, seen_t)


@pytest.mark.parametrize("name", RULE_SETS)
def test_native_equals_pure_on_real_hands(name):
    ev = Evaluator(name)
    native, pure = pair(ev.rules)
    for hand, seen in random_real_hands(ev, 400, 21):
        assert native.best_leaf(hand, seen) == pure.best_leaf(hand, seen), (hand, seen)
    for hand, seen in random_real_hands(ev, 60, 22):  # with そら in the hand: the wildcard budget
        if ev.rules.tiles.sora is not None and not hand.concealed[ev.rules.tiles.sora]:
            counts = list(hand.concealed)
            k = max(range(len(counts)), key=counts.__getitem__)
            counts[k] -= 1
            counts[ev.rules.tiles.sora] += 1
            hand = type(hand)(tuple(counts), hand.called)
        assert native.best_leaf(hand, seen) == pure.best_leaf(hand, seen), (hand, seen)
        assert native.accepted(hand, seen) == pure.accepted(hand, seen)
    gave_up = 0
    for hand, seen in random_real_hands(ev, 150, 24):  # acceptance, whole and cut by a node limit
        assert native.accepted(hand, seen) == pure.accepted(hand, seen), (hand, seen)
        for limit in (0, 5, 40):
            got = native.accepted(hand, seen, limit=limit)
            assert got == pure.accepted(hand, seen, limit=limit), (hand, seen, limit)
            gave_up += got is None
    assert gave_up  # the limit was reached somewhere, so that path was compared too


@pytest.mark.parametrize("name", RULE_SETS)
def test_native_agrees_with_cpsat_on_real_hands(name):
    ev = Evaluator(name)
    native = TileSearch(ev.rules, native=True)
    for hand, seen in random_real_hands(ev, 30, 23):
        assert native.h(hand, seen) == exchange_distance(ev.distance_model, hand, seen).h
    hand = next(random_real_hands(ev, 1, 3))[0]
    copy = pickle.loads(pickle.dumps(native))
    assert copy._c is not None and copy.h(hand) == native.h(hand)


def test_mj_pure_forces_the_pure_path():
    code = ("from solver import Evaluator; from solver.core.search import TileSearch; "
            "print(TileSearch(Evaluator('2019-12').rules)._c is None)")
    for env, want in (({"MJ_PURE": "1"}, "True"), ({"MJ_PURE": ""}, "False")):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                             env={**os.environ, **env}, check=True)
        assert out.stdout.strip() == want
