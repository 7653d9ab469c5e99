"""The complete hands within a budget listed in C (solver/planning/planc_list.c) against the pure search they
replace (targets.enumerate_targets with native=False): the same hands with the same best tsumo scores on random
small games (called units, seen tiles, favourites, both rule sets) and real hands, and the same stops."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import BASE_SETTINGS, favourites, search_positions

from solver import Evaluator
from solver.planning.targets import OutOfTime, TooLarge, enumerate_targets, packer_built

needs_c = pytest.mark.skipif(not packer_built(Evaluator("2019-12").rules, None), reason="_planc is not built")


@needs_c
@settings(BASE_SETTINGS, max_examples=80)
@given(st.data(), st.sampled_from(["2019-12", "hitori-jong-2.1"]), st.integers(0, 4))
def test_the_c_listing_equals_the_pure_one(data, param, budget):
    game, ev, _, deal, seen, _ = data.draw(search_positions(param))
    favourite = data.draw(favourites(game, deal))
    seen = tuple(seen)
    pure = enumerate_targets(ev.rules, deal.hand, seen, budget, favourite, native=False)
    assert enumerate_targets(ev.rules, deal.hand, seen, budget, favourite, native=True) == pure


REAL = "春香 千早 美希 真 やよい 伊織 亜美 真美 律子 あずさ 貴音 響 雪歩"


@needs_c
@pytest.mark.parametrize("rules, favourite", [("2019-12", "千早"), ("hitori-jong-2.1", None)])
def test_a_real_hand(rules, favourite):
    """157 units and more, a favourite, 3 exchanges: thousands of hands, the same scores."""
    ev = Evaluator(rules)
    hand, seen, fav = ev.hand(REAL), ev.seen(["星梨花", "静香"]), ev.tile(favourite)
    pure = enumerate_targets(ev.rules, hand, seen, 3, fav, native=False)
    assert len(pure.counts) > 100
    assert enumerate_targets(ev.rules, hand, seen, 3, fav, native=True) == pure


@needs_c
def test_the_same_stops():
    """Past the limit of hands: TooLarge in both; past the deadline: OutOfTime."""
    ev = Evaluator("2019-12")
    hand, seen = ev.hand(REAL), ev.seen(())
    for native in (True, False):
        with pytest.raises(TooLarge, match="more than 50 complete hands"):
            enumerate_targets(ev.rules, hand, seen, 3, limit=50, native=native)
        with pytest.raises(OutOfTime):
            enumerate_targets(ev.rules, hand, seen, 4, deadline=time.monotonic() - 1, native=native)


@needs_c
@pytest.mark.parametrize("rules", ["2019-12", "hitori-jong-2.1"])
def test_the_matrix_listing_holds_the_same_hands(rules):
    """complete_matrix (the relaxation's own listing: counts and scores as bytes from C) holds the hands and scores
    of enumerate_targets, and the kinds they hold."""
    from solver.planning.targets import complete_matrix

    ev = Evaluator(rules)
    hand, seen, fav = ev.hand(REAL), ev.seen(["星梨花"]), ev.tile("千早")
    listed = enumerate_targets(ev.rules, hand, seen, 3, fav)
    counts, scores, kinds = complete_matrix(ev.rules, hand, seen, 3, fav)
    assert dict(zip(map(tuple, counts.tolist()), scores.tolist())) == listed.counts
    assert len(counts) == len(listed.counts) and kinds == listed.relevant
    with pytest.raises(TooLarge, match="more than 50 complete hands"):
        complete_matrix(ev.rules, hand, seen, 3, fav, limit=50)


def test_slots_no_sizes_add_up_to_hold_no_complete_hand():
    """QA: a house of trios alone never fills 13 slots, and proving it took the listing minutes and h 7 s a hand;
    both now see at once that no sum of the units' sizes meets the slots (and list the same where one does)."""
    import itertools

    from synthetic import PARAMS, make_catalogue

    from solver.core.search.tile_search import slot_sums

    assert [slot_sums([3], 13)[3][r] for r in (0, 3, 12, 13)] == [True, True, True, False]
    assert slot_sums([3, 2], 13)[3][13] and not slot_sums([3, 2], 13)[2][11]  # (11 of twos alone: no)
    assert not slot_sums([5, 3], 13)[3][13 - 5] and slot_sums([5, 3], 13)[5][13]  # (8 = 5 + 3: a 5 first)
    trios = list(itertools.combinations(range(12), 3))
    for extra, reachable in (([], False), ([(0, 1)], True)):
        ev = Evaluator("syn", catalogue=make_catalogue(trios + extra, 12, params=PARAMS["2019-12"]))
        hand = ev.hand(" ".join(f"k{i}" for i in range(12)) + " k0")
        assert (ev.h(hand).h is not None) == reachable
        listed = [enumerate_targets(ev.rules, hand, (0,) * 12, 2, native=native).counts for native in (True, False)]
        assert listed[0] == listed[1] and bool(listed[0]) == reachable
