"""h under an engine's shortcut (solver/core/search/shortcut.py, the exact search) against the CP-SAT model of the
same question (distance.shortcut_distance) and the brute-force oracle, and the checker's explanations
of a wrong h through either path.
"""

from __future__ import annotations

import json
from collections import Counter

import oracle
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from synthetic import BASE_SETTINGS, oracle_cap, random_real_hands, search_positions

from solver import Evaluator
from solver.checking import context
from solver.checking.check import check_claim
from solver.core import distance
from solver.core.search import fast, shortcut
from solver.core.hand import COPIES
from solver.core.search import NATIVE, TileSearch

MODES = {"fetch": "2019-12", "dead": "hitori-jong-2.1", "wildcard": "2019-10"}
SHORTCUTS = [(COPIES, False), (COPIES, True), (COPIES + 1, False), (COPIES + 1, True)]


def witness_ok(rules, hand, seen, h, exchange, copies, allowed) -> None:
    """The witness draws exactly h tiles into a target of allowed units within the copy limit."""
    assert len(exchange.into) == h
    assert set(exchange.target) <= set(allowed)
    after = Counter({k: n for k, n in enumerate(hand.concealed) if n})
    after.subtract(Counter(exchange.out))
    after.update(Counter(exchange.into))
    assert min(after.values(), default=0) >= 0
    target = Counter(k for u in exchange.target for k in rules.units[u].members)
    stand_ins = Counter(exchange.sora_for)
    real = target - stand_ins
    if exchange.sora_for:
        real[rules.tiles.sora] = len(exchange.sora_for)
    assert +after == +real
    called = hand.called_counts(rules)
    for k, n in (target - stand_ins).items():
        assert n + called[k] + (seen[k] if seen else 0) <= copies


@pytest.mark.parametrize("mode", list(MODES))
@settings(BASE_SETTINGS, max_examples=120)
@given(data=st.data())
def test_shortcut_search_agrees_with_oracle_and_cpsat(mode, data):
    game, ev, _, deal, seen, seen_t = data.draw(search_positions(MODES[mode]))
    hand, rules = deal.hand, ev.rules
    got = {}
    for copies, two in SHORTCUTS:
        allowed = shortcut.two_missing_units(fast.search_for(rules), hand) if two else tuple(range(len(rules.units)))
        # the oracle over the allowed units only: the called units fold into the caps and the slots
        cap = [c + copies - COPIES for c in oracle_cap(game, game.units, deal.called, seen)]
        slots = game.hand_size - sum(len(game.units[u]) for u in deal.called)
        want = oracle.exchange_distance([game.units[u] for u in allowed], list(deal.concealed), [], cap=cap,
                                        hand_size=slots, sora=game.sora, sora_mode=mode)
        model = distance.shortcut_distance(ev.distance_model, hand, seen_t, copies, two)
        result = shortcut.shortcut_distance(rules, hand, seen_t, copies, two)
        assert result.h == want == model.h, (copies, two)
        # told the unrestricted answer (whose witness may already use allowed units only): the same h
        told = shortcut.shortcut_distance(rules, hand, seen_t, copies, two,
                                          unrestricted=shortcut.shortcut_distance(rules, hand, seen_t, copies))
        assert told.h == want
        if want is not None:
            witness_ok(rules, hand, seen_t, want, result.exchange, copies, allowed)
            witness_ok(rules, hand, seen_t, want, told.exchange, copies, allowed)
        got[copies, two] = float("inf") if want is None else want
    event(f"two-missing raises h: {got[3, True] > got[3, False]}")
    # the order explain_h relies on to stop early
    assert got[4, False] <= got[3, False] <= got[3, True] and got[4, True] <= got[3, True]
    assert got[4, False] <= got[4, True]


@pytest.mark.parametrize("name", list(MODES.values()))
def test_shortcut_search_agrees_with_cpsat_on_real_hands(name):
    ev = Evaluator(name)
    for hand, seen in random_real_hands(ev, 40, 23):
        for copies, two in SHORTCUTS:
            want = distance.shortcut_distance(ev.distance_model, hand, seen, copies, two)
            got = shortcut.shortcut_distance(ev.rules, hand, seen, copies, two)
            assert got.h == want.h
            allowed = shortcut.two_missing_units(fast.search_for(ev.rules), hand) if two else tuple(range(len(ev.rules.units)))
            witness_ok(ev.rules, hand, seen, got.h, got.exchange, copies, allowed)


@pytest.mark.skipif(not NATIVE, reason="the C search is not built")
def test_restricted_search_c_equals_pure():
    ev = Evaluator("2019-10")  # wildcard: the stand-in budget too
    pure, native = TileSearch(ev.rules, native=False), TileSearch(ev.rules, native=True)
    for hand, seen in random_real_hands(ev, 30, 41):
        units = shortcut.two_missing_units(native, hand)
        a, b = pure.restricted(units), native.restricted(units)
        assert a._c is None and b.compiled
        for copies in (COPIES, COPIES + 1):
            assert a.h(hand, seen, copies) == b.h(hand, seen, copies)
            assert a.best_leaf(hand, seen, copies) == b.best_leaf(hand, seen, copies)


def _cpsat_h_with(ctx, copies, two):
    result = distance.shortcut_distance(ctx.dm, ctx.hand, ctx.seen, copies, two)
    return result.h, result.exchange


@pytest.mark.parametrize("name", list(MODES.values()))
def test_h_explanations_are_those_of_the_cpsat_shortcuts(name, monkeypatch):
    """Every claimed h from 0 to 8 on real hands: the same verdict and reason code through the search as
    through the CP-SAT shortcut model (the witness tiles in the text may be another optimal target)."""
    ev = Evaluator(name)
    names = [ev.tiles.ids[k] for k in range(len(ev.tiles))]
    codes = Counter()
    for n, (hand, seen) in enumerate(random_real_hands(ev, 24, 31)):
        tiles = [names[k] for k, c in enumerate(hand.concealed) for _ in range(c)]
        called = [[names[k] for k in ev.rules.units[u].members] for u in hand.called]
        claim = {"rules": name, "hand": called + tiles, "seen": [names[k] for k, c in enumerate(seen) for _ in range(c)]}
        for h in range(9):
            line = json.dumps({**claim, "h": h})
            fast = check_claim(line, n)
            with monkeypatch.context() as patch:
                patch.setattr(context, "_h_with", _cpsat_h_with)
                slow = check_claim(line, n)
            assert fast["verdict"] == slow["verdict"]
            assert [r["code"] for r in fast["fields"]["h"].get("reasons", [])] == \
                [r["code"] for r in slow["fields"]["h"].get("reasons", [])]
            codes.update(r["code"] for r in fast["fields"]["h"].get("reasons", []))
    assert codes["h_value"]  # the claims reach the explanations, not only correct verdicts
