"""The fast exact path (solver/core/search/, partition.py) against the brute-force oracle
and against the CP-SAT models it stands in for, in every そら mode, with calls and seen tiles.

Objectives are compared (h, accepted kinds, totals); witnesses are checked against the hand.
"""

from __future__ import annotations

import pickle
from collections import Counter

import oracle
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from synthetic import (
    BASE_SETTINGS,
    COPIES,
    concealed_kinds,
    deals,
    favourites,
    games,
    oracle_cap,
    random_real_hands,
    search_positions,
)

from solver import Evaluator, Hand
from solver.analysis import turn
from solver.core.search import fast
from solver.core.distance import exchange_distance
from solver.core.enumerate import accepted_kinds
from solver.core.hand import Situation
from solver.core.score import best_score
from solver.core.search import TileSearch

MODE_PARAMS = {"fetch": "2019-12", "dead": "hitori-jong-2.1", "wildcard": "2019-10"}
RULE_SETS = ["2019-12", "2019-10", "hitori-jong-2.1"]


def oracle_h(game, deal, seen, mode):
    return oracle.exchange_distance(game.units, list(deal.concealed), list(deal.called),
                                    cap=oracle_cap(game, game.units, deal.called, seen), hand_size=game.hand_size,
                                    sora=game.sora, sora_mode=mode)


def check_exchange(rules, hand: Hand, seen, h, exchange) -> None:
    """The witness reaches a complete, physically possible target with exactly h tiles drawn."""
    assert len(exchange.into) == h
    held = Counter({k: n for k, n in enumerate(hand.concealed) if n})
    assert not Counter(exchange.out) - held
    target = Counter(k for u in exchange.target for k in rules.units[u].members)
    assert sum(target.values()) == rules.hand_size - sum(rules.units[u].size for u in hand.called)
    assert not Counter(exchange.sora_for) - target
    target.subtract(Counter(exchange.sora_for))
    if exchange.sora_for:
        target[rules.tiles.sora] += len(exchange.sora_for)
    assert +target == held - Counter(exchange.out) + Counter(exchange.into)
    called = hand.called_counts(rules)
    for k, n in target.items():
        if k != rules.tiles.sora or not exchange.sora_for:
            assert n + called[k] + (seen[k] if seen else 0) <= COPIES


@pytest.mark.parametrize("mode", ["fetch", "dead", "wildcard"])
@settings(BASE_SETTINGS, max_examples=150)
@given(data=st.data())
def test_search_h_and_acceptance_agree_with_oracle(mode, data):
    game, ev, size, deal, seen, seen_t = data.draw(search_positions(MODE_PARAMS[mode]))
    search = TileSearch(ev.rules)
    expected = oracle_h(game, deal, seen, mode)
    event(f"h = {expected}")
    assert search.h(deal.hand, seen_t) == expected
    result = fast.exchange_distance(ev.rules, deal.hand, seen_t)
    assert result.h == expected
    if expected is not None:
        check_exchange(ev.rules, deal.hand, seen_t, expected, result.exchange)
    assert search.complete(deal.hand) == (size == game.hand_size and oracle_h(game, deal, (0,) * game.K, mode) == 0)
    # acceptance: exactly the kinds whose draw lowers h (the oracle, draw by draw), and CP-SAT's
    h, kinds, targets = search.accepted(deal.hand, seen_t)
    totals = deal.totals(game)
    want = set()
    if expected:
        for t in range(game.K):
            if totals[t] + seen[t] < COPIES:
                after = Hand(deal.hand.add(t).concealed, deal.called)
                if oracle.exchange_distance(game.units, list(after.concealed), list(deal.called),
                                            cap=oracle_cap(game, game.units, deal.called, seen),
                                            hand_size=game.hand_size, sora=game.sora,
                                            sora_mode=mode) == expected - 1:
                    want.add(t)
    assert h == expected and kinds == sorted(want)
    assert (h, kinds) == accepted_kinds(ev.distance_model, deal.hand, seen_t)
    for target in targets:  # each witness is a complete target keeping the optimum
        counts = Counter(k for u in target for k in game.units[u])
        assert sum(counts.values()) == game.hand_size - sum(len(game.units[u]) for u in deal.called)


@pytest.mark.parametrize("param_set", ["2019-12", "2019-10", "hitori-jong-2.1", "mixed"])
@settings(BASE_SETTINGS, max_examples=150)
@given(data=st.data())
def test_partition_score_agrees_with_oracle_and_model(param_set, data):
    game = data.draw(games(), label="game")
    ev, rules = game.evaluator(param_set), game.oracle_rules(param_set)
    deal = data.draw(deals(game), label="deal")
    favourite = data.draw(favourites(game, deal), label="favourite")
    # a ron tile (any concealed kind; not a wildcard そら where the ron unit loses a member) or tsumo
    options = concealed_kinds(deal, exclude=[game.sora] if rules["ron_minus_member"] else [])
    ron = data.draw(st.one_of(st.none(), st.sampled_from(options)) if options else st.none(), label="ron")
    win = "tsumo" if ron is None else "ron"
    expected = oracle.best_score(game.units, list(deal.concealed), list(deal.called), won=True, ron_tile=ron,
                                 favourite=favourite, rules=rules, sora=game.sora)
    situation = Situation(win, ron, favourite)
    total = fast.scorer_for(ev.rules).total(deal.hand, situation)
    model = best_score(deal.hand, ev.rules, situation)
    event(f"{win}: {'won' if expected is not None else 'no win'}")
    if ron is not None and ron == ev.rules.tiles.shika and not ev.rules.spec.ron_on_shika:
        assert not model.won  # D2 is the caller's (turn.waits) to apply; the split itself still scores
        return
    assert total == expected == model.total


@pytest.mark.parametrize("name", RULE_SETS)
def test_search_agrees_with_cpsat_on_real_hands(name):
    ev = Evaluator(name)
    search = TileSearch(ev.rules)
    for hand, seen in random_real_hands(ev, 40, 11):
        want = exchange_distance(ev.distance_model, hand, seen)
        assert search.h(hand, seen) == want.h
        got = fast.exchange_distance(ev.rules, hand, seen)
        check_exchange(ev.rules, hand, seen, want.h, got.exchange)
        assert got.sora_exchanges == want.sora_exchanges
    hand = next(random_real_hands(ev, 1, 3))[0]
    assert pickle.loads(pickle.dumps(search)).h(hand) == search.h(hand)


def _view(a):
    """An analysis as comparable data: the exchange list only when it is complete (a cut list is some
    `limit` of the optimal exchanges), and pairs only (a witness decomposition is any optimal one)."""
    exchanges = sorted((e.out, e.into) for e in a.exchanges) if a.exchanges_complete else len(a.exchanges)
    return (a.h, a.complete, a.score, a.discards, a.waits, exchanges, a.calls, a.sora, a.present)


@pytest.mark.parametrize("name", RULE_SETS)
def test_analysis_fast_path_equals_cpsat_path(name, monkeypatch):
    ev = Evaluator(name)
    names = [ev.tiles.name(k) for k in range(len(ev.tiles))]
    cases = list(random_real_hands(ev, 6, 5))
    seed = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"  # docs/rules.md 6: h = 1
    near = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 そら"  # a 12-tile hand holding そら
    cases += [(ev.hand(seed), ()), (ev.hand(near), ()), (ev.hand(seed), ev.seen("奈緒 紗代子"))]
    room = [names[k] for k in (0, 10, 20, 30)]
    for i, (hand, seen) in enumerate(cases):
        seen_names = [names[k] for k, n in enumerate(seen) for _ in range(n)]
        kw = dict(seen=seen_names, discard=names[i] if hand.size(ev.rules) == 12 else None,
                  waiting_room=room if ev.tiles.sora is not None and hand.concealed[ev.tiles.sora] else None)
        got = ev.analyze(hand, **kw)
        monkeypatch.setattr(turn, "FAST", False)
        want = ev.analyze(hand, **kw)
        monkeypatch.setattr(turn, "FAST", True)
        assert _view(got) == _view(want)
