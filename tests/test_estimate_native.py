"""The estimate's games in C (solver/planning/_estimatec.c) against estimate.py's play() in Python: the same walls
give the same wins, score sums and squares, discard by discard, on real hands of both fetch-free and fetch rule
sets, with seen tiles, at short and long horizons and both objectives."""

from __future__ import annotations

import random

import pytest
from synthetic import random_real_hands

from solver import Evaluator
from solver.planning import estimate
from solver.planning.prepare import prepare, root_states
from solver.planning.request import Position


@pytest.mark.parametrize("rules", ["2019-12", "hitori-jong-2.1"])
def test_native_games_equal_the_python_games(rules, monkeypatch):
    if estimate._estimatec is None or estimate.forced_pure():
        pytest.skip("the C extension is not built, or MJ_PURE=1 asks for the Python games")
    ev = Evaluator(rules)
    rng, checked = random.Random(5), 0
    for hand, seen in random_real_hands(ev, 60, 11):
        if hand.size(ev.rules) != ev.rules.hand_size:  # (13 tiles, a called unit now and then, seen tiles)
            continue
        position = Position(hand, seen)
        turns, objective = rng.choice([2, 3, 6, 12]), rng.choice(["win", "score"])
        prep = prepare(ev.rules, position, turns=turns, objectives=(objective,), play="nearest", state_limit=10 ** 6)
        _, roots = root_states(prep, ev.rules, position)
        search = prep.searches[objective]
        args = (search, [r for r, _ in roots], prep.wall_r, prep.W0, turns, 150, rng.randrange(1000))
        native = estimate.simulate(*args)
        with monkeypatch.context() as m:
            m.setattr(estimate, "_estimatec", None)
            assert estimate.simulate(*args) == native
        checked += 1
    assert checked >= 12


def test_native_games_refuse_what_does_not_fit():
    """Sizes, draws and counts out of range give a ValueError (estimate.py never sends them), not a crash."""
    if estimate._estimatec is None:
        pytest.skip("the C extension is not built")
    play = estimate._estimatec.play_root
    good = (b"\x01", 1, 1, [5], [1], (0, 0), (1,), b"\x01", 1)
    assert play(*good)[:3] == (1, 5, 25)  # (one kind, a 1-tile target: the one draw completes it, worth 5)
    for at, bad in ((7, b"\x05"), (5, (-1, 0)), (0, b"\x01\x01"), (2, 65)):
        args = list(good)
        args[at] = bad
        with pytest.raises(ValueError):
            play(*args)
