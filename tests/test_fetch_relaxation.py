"""The proved upper bound of P(win) with a fetch-mode そら (solver/planning/bounds.py fetch_needs): a win's hand holds
tiles of the hand, of the draws and of the waiting room, and each room tile in it took a fetch (a そら held or
drawn, one a turn). Counted exactly, it equals an independent count over every set of draws of the event it
describes (explicit tile copies, every complete hand of the small game), and it is at least the optimum with every
fetch (the brute force of tests/oracle_fetch.py). Before it, the room's copies were free: 1 on most real hands
holding two そら with a waiting room (the QA's hand: 紬 at most 41.5 % now, the optimum 19.1 %)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
from hypothesis import assume, given, settings
from oracle import complete_targets
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, room_positions, sora_room_request

from solver import Evaluator, MjError
from solver.planning.bounds import fetch_needs, win_upper
from solver.planning.prepare import reach_with_room


def counted_event(targets, hand, room, wall, turns, sora) -> Fraction:
    """P over the sets of `turns` physical wall tiles D that some complete hand T has, with m = (T - hand)^+, each
    kind's shortfall max(0, m - D) within the room and in all at most min(turns, そら held + そら in D)."""
    tiles = [k for k, n in enumerate(wall) for _ in range(n)]
    held, hits, sets = hand[sora], 0, 0
    for drawn in combinations(range(len(tiles)), turns):
        sets += 1
        got = [0] * len(wall)
        for i in drawn:
            got[tiles[i]] += 1
        for target in targets:
            short = [max(0, max(0, t - h) - d) for t, h, d in zip(target, hand, got)]
            if all(s <= r for s, r in zip(short, room)) and sum(short) <= min(turns, held + got[sora]):
                hits += 1
                break
    return Fraction(hits, sets)


@settings(BASE_SETTINGS, max_examples=60)
@given(room_positions(max_kinds=6, max_units=7, max_room=3, max_turns=3))
def test_the_fetch_relaxation_counts_its_event_and_bounds_the_optimum(case):
    game, deal, seen, room, favourite, turns = case
    try:
        ev, request = sora_room_request(case)
        listed = reach_with_room(ev.rules, request.position, turns)
    except MjError:
        return
    units, sora = list(game.units), game.sora
    called = [sum(k in units[j] for j in deal.called) for k in range(game.K)]
    wall = [3 - c - s - r - o for c, s, r, o in zip(deal.concealed, seen, room, called)]
    assume(turns <= sum(wall))
    targets = list(complete_targets(units, deal.called, cap=[3 - o for o in called], hand_size=game.hand_size,
                                    sora=sora, sora_mode="fetch"))
    optimum = fetch_value(units, list(deal.concealed), seen=seen, room=room, turns=turns, objective="win",
                          rules=game.oracle_rules("2019-12"), sora=sora, favourite=favourite, called=deal.called)
    keys = np.array(list(listed.counts), dtype=np.int16).reshape(-1, game.K)
    empty = (0,) * game.K
    # the 13 tiles before the discard (bracket.relaxed_uppers counts them first): a bound of every row
    hand13 = list(deal.concealed)
    needs, _ = fetch_needs(keys, hand13, list(room), wall, turns, hand13[sora], sora)
    whole = win_upper(needs, empty, wall, empty, sum(wall), turns) if len(needs) else Fraction(0)
    assert whole == counted_event(targets, hand13, list(room), wall, turns, sora)
    for discard, best in optimum.items():
        hand, left = list(deal.concealed), list(room)
        if discard is not None:
            hand[discard] -= 1
            left[discard] += 1
        needs, _ = fetch_needs(keys, hand, left, wall, turns, hand[sora], sora)
        upper = win_upper(needs, empty, wall, empty, sum(wall), turns) if len(needs) else Fraction(0)
        assert upper == counted_event(targets, hand, left, wall, turns, sora)
        assert best <= upper <= (whole if discard is not None else 1)


def test_two_sora_with_a_room_get_a_bound_below_one():
    ev = Evaluator("2019-12")
    hand = "律子 そら 紬 ひなた 千早 雪歩 真美 百合子 そら 育 やよい 真美 杏奈"
    room = "風花 美也 星梨花 奈緒 麗花 美奈子 このみ"
    request = ev.plan_request_of(hand, 3, waiting_room=room)
    from solver.planning.prepare import position_counts

    _, room_c, wall, _ = position_counts(ev.rules, request.position, 3)
    listed = reach_with_room(ev.rules, request.position, 3)
    keys = np.array(list(listed.counts), dtype=np.int16)
    kept = request.position.hand.remove(ev.tile("紬")).concealed
    left = list(room_c)
    left[ev.tile("紬")] += 1
    sora, empty = ev.tile("そら"), (0,) * len(wall)
    loose = win_upper(keys, kept, wall, tuple(left), sum(wall), 3)  # (the room's copies free, as before)
    needs, _ = fetch_needs(keys, kept, left, wall, 3, kept[sora], sora)
    tight = win_upper(needs, empty, wall, empty, sum(wall), 3)
    assert loose == 1 and Fraction(534533, 2803080) <= tight < Fraction(42, 100)
