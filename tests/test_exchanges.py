"""Every distinct optimal exchange by the search walk (solver/core/exchanges.py) against the brute-force
oracle and the CP-SAT enumeration (enumerate.distinct_exchanges, the reference), in every そら mode
and above all with wildcard そら (one to three held), calls and seen tiles; C and pure best leaf alike.
"""

from __future__ import annotations

import random

import oracle
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from synthetic import BASE_SETTINGS, deals, games, oracle_cap, random_real_hands, search_positions, seen_counts
from test_search import check_exchange

from solver import Evaluator, Hand
from solver.analysis import turn
from solver.core.enumerate import distinct_exchanges
from solver.core.exchanges import listed_exchanges
from solver.core.search import NATIVE, TileSearch

MODE_PARAMS = {"fetch": "2019-12", "dead": "hitori-jong-2.1", "wildcard": "2019-10"}
PATHS = [False, pytest.param(True, marks=pytest.mark.skipif(not NATIVE, reason="the C search is not built"))]


def pairs(exchanges) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(e.out, e.into) for e in exchanges]


def agree_with_cpsat(ev: Evaluator, search: TileSearch, hand: Hand, seen: tuple[int, ...], limit: int) -> bool:
    """The walk's answer equals the CP-SAT enumeration's (the same list when complete); False if it gave up."""
    got = listed_exchanges(search, ev.rules, hand, seen, limit)
    if got is None:
        return False
    h, exchanges, complete = got
    ref_h, ref, ref_complete = distinct_exchanges(ev.distance_model, hand, seen, limit)
    assert (h, complete, len(exchanges)) == (ref_h, ref_complete, len(ref)), (hand, seen)
    assert len(set(pairs(exchanges))) == len(exchanges)
    if complete:
        assert pairs(exchanges) == pairs(ref), (hand, seen)
    for exchange in exchanges:
        check_exchange(ev.rules, hand, seen, h, exchange)
    return True


def agree_with_oracle(game, ev: Evaluator, deal, seen, mode: str, native: bool, limit: int) -> None:
    search = TileSearch(ev.rules, native=native)
    seen_t = tuple(seen) if any(seen) else ()
    h0, expected = oracle.optimal_exchanges(game.units, list(deal.concealed), list(deal.called),
                                            cap=oracle_cap(game, game.units, deal.called, seen),
                                            hand_size=game.hand_size, sora=game.sora, sora_mode=mode)
    h, exchanges, complete = listed_exchanges(search, ev.rules, deal.hand, seen_t, limit)
    event(f"{len(expected)} optimal exchanges, {deal.concealed[game.sora] if game.sora is not None else 0} そら")
    assert h == h0
    assert complete == (len(expected) <= limit)
    assert len(exchanges) == min(limit, len(expected))
    assert set(pairs(exchanges)) <= expected
    assert agree_with_cpsat(ev, search, deal.hand, seen_t, limit)


@pytest.mark.parametrize("native", PATHS)
@pytest.mark.parametrize("mode", ["fetch", "dead", "wildcard"])
@settings(BASE_SETTINGS, max_examples=120)
@given(data=st.data())
def test_listed_exchanges_equal_oracle_and_cpsat(mode, native, data):
    game, ev, _, deal, seen, _ = data.draw(search_positions(MODE_PARAMS[mode]))
    agree_with_oracle(game, ev, deal, seen, mode, native, data.draw(st.sampled_from([1, 3, 40]), label="limit"))


@pytest.mark.parametrize("native", PATHS)
@settings(BASE_SETTINGS, max_examples=150)
@given(data=st.data())
def test_wildcard_exchanges_with_soras_held(native, data):
    """Wildcard そら held (one to three), where the stand-ins make a target's tiles differ from its units'."""
    game = data.draw(games(sora=True), label="game")
    ev = game.evaluator("2019-10")
    size = data.draw(st.sampled_from([game.hand_size, game.hand_size - 1]), label="size")
    deal = data.draw(deals(game, size=size, max_swaps=4), label="deal")
    assume(deal.concealed[game.sora] > 0)
    seen = data.draw(st.one_of(st.just((0,) * game.K), seen_counts(game, deal, max_total=3)), label="seen")
    agree_with_oracle(game, ev, deal, seen, "wildcard", native, data.draw(st.sampled_from([2, 40]), label="limit"))


def with_soras(ev: Evaluator, hand: Hand, n: int, rng: random.Random) -> Hand:
    """The hand with n of its concealed tiles replaced by そら (as far as copies allow)."""
    sora, counts = ev.rules.tiles.sora, list(hand.concealed)
    called = hand.called_counts(ev.rules)
    for _ in range(n):
        kinds = [k for k, c in enumerate(counts) if c and k != sora]
        if not kinds or counts[sora] + called[sora] >= 3:
            break
        counts[rng.choice(kinds)] -= 1
        counts[sora] += 1
    return Hand(tuple(counts), hand.called)


@pytest.mark.parametrize("native", PATHS)
def test_listed_exchanges_equal_cpsat_on_wildcard_hands(native):
    """2019-10 (wildcard そら): random 12- and 13-tile hands holding one to three そら, calls and seen tiles."""
    ev = Evaluator("2019-10")
    search = TileSearch(ev.rules, native=native)
    rng = random.Random(9)
    answered = 0
    for i, (hand, seen) in enumerate(random_real_hands(ev, 45, 31)):
        hand = with_soras(ev, hand, 1 + i % 3, rng)
        if seen and seen[ev.rules.tiles.sora] + hand.totals(ev.rules)[ev.rules.tiles.sora] > 3:
            seen = ()
        answered += agree_with_cpsat(ev, search, hand, seen, 25)
    assert answered >= 40  # the walk answered (did not hand over to CP-SAT) on nearly every hand


@pytest.mark.parametrize("name", ["2019-12", "hitori-jong-2.1"])
def test_listed_exchanges_equal_cpsat_on_real_hands(name):
    ev = Evaluator(name)
    search = TileSearch(ev.rules)
    assert all(agree_with_cpsat(ev, search, hand, seen, 25) for hand, seen in random_real_hands(ev, 25, 32))


def test_issue_hands_complete_with_soras():
    """The issue's complete hands with two and three そら: one exchange (keep everything)."""
    ev = Evaluator("2019-10")
    search = TileSearch(ev.rules)
    for text in ("美希 未来 翼 翼 杏奈 百合子 瑞希 麗花 ジュリア 詩花 詩花 そら そら",
                 "やよい 真 律子 真美 響 杏奈 ロコ 百合子 可憐 昴 そら そら そら"):
        hand = ev.hand(text)
        h, exchanges, complete = listed_exchanges(search, ev.rules, hand, (), 20)
        assert (h, pairs(exchanges), complete) == (0, [((), ())], True)
        assert agree_with_cpsat(ev, search, hand.remove(ev.rules.tiles.sora), (), 20)  # 12 tiles: h = 1


def test_work_limit_hands_over_to_cpsat(monkeypatch):
    """Past its work limit the walk answers None, and the analysis then lists by CP-SAT: same answer."""
    ev = Evaluator("2019-10")
    hand = ev.hand("亜美 真美 琴葉 恵美 星梨花 杏奈 ロコ ロコ 海美 育 志保 可憐 そら")
    assert listed_exchanges(TileSearch(ev.rules), ev.rules, hand, (), 20, work=5) is None
    walked = ev.analyze(hand)
    calls = []

    def tight(*args, **kwargs):
        calls.append(listed_exchanges(*args, work=5, **kwargs))
        return calls[-1]

    monkeypatch.setattr(turn, "listed_exchanges", tight)
    handed = ev.analyze(hand)
    assert calls == [None]
    assert (walked.h, walked.exchanges_complete, len(walked.exchanges)) == \
        (handed.h, handed.exchanges_complete, len(handed.exchanges)) == (3, False, 20)


def test_wait_scores_with_three_soras_equal_the_model():
    """The partition scorer on the waits of a hand holding three wildcard そら, favourite or not: the
    CP-SAT score model's totals (the scorer's kind order and byte keys change nothing)."""
    from solver.core.hand import Situation
    from solver.core.partition import WinScorer
    from solver.core.score import best_score

    ev = Evaluator("2019-10")
    hand = ev.hand("やよい 真 律子 真美 響 杏奈 ロコ 百合子 可憐 昴 そら そら そら").remove(ev.tile("響"))
    scorer, checked = WinScorer(ev.rules), 0
    for favourite in (None, ev.tile("真")):
        for t in range(0, len(ev.tiles), 3):
            full = hand.add(t)
            if max(full.totals(ev.rules)) > 3:
                continue
            situation = Situation("tsumo", favourite=favourite)
            model = best_score(full, ev.rules, situation)
            assert scorer.total(full, situation) == (model.total if model.won else None), (t, favourite)
            checked += model.won
    assert checked > 10
