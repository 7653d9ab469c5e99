"""P(win) over all play with every fetch (solver/planning/fetch_win.py, issue 22) against the independent brute
force over explicit tile copies with the waiting room (tests/oracle_fetch.py), on small games with そら, seen tiles
and a waiting room, and on the two positions where the class without fetches was once labelled all play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, Game, room_positions

from solver import Hand, MjError
from solver.planning.fetch_win import fetch_win


def positions():
    return room_positions(max_kinds=6, max_units=7, max_room=3, max_turns=4)


def names(counts) -> list[str]:
    return [f"k{k}" for k, n in enumerate(counts) for _ in range(n)]


def search_values(game, concealed, called, seen, room, turns, favourite=None):
    ev = game.evaluator("2019-12")
    request = ev.plan_request_of(Hand(tuple(concealed), tuple(called)), turns, seen=names(seen),
                                 waiting_room=names(room), favourite=None if favourite is None else f"k{favourite}")
    position = request.position
    thirteen = position.hand.size(ev.rules) == ev.rules.hand_size
    discards = [k for k, n in enumerate(concealed) if n] if thirteen else [None]
    moves, _ = fetch_win(ev.rules, position, turns, discards, state_limit=10**7)
    return {d: value for d, (value, _, _) in zip(discards, moves)}, {d: m for d, m in zip(discards, moves)}


@settings(BASE_SETTINGS, max_examples=300)
@given(positions())
def test_equals_explicit_copies_with_every_fetch(case):
    game, deal, seen, room, favourite, turns = case
    if game.sora is None:
        return
    try:
        got, moves = search_values(game, deal.concealed, deal.called, seen, room, turns, favourite)
    except MjError:
        return
    want = fetch_value(list(game.units), list(deal.concealed), seen=seen, room=room, turns=turns, objective="win",
                       rules=game.oracle_rules("2019-12"), sora=game.sora, favourite=favourite, called=deal.called)
    assert got == want
    for value, wait, take in moves.values():
        assert wait <= value and (take is None) == (wait == value)


@pytest.mark.parametrize("units, sora, concealed, seen, room, turns", [
    (((0,), (0, 1, 3), (0, 3), (1, 4)), 2, (0, 1, 2, 0, 0), (1, 0, 1, 1, 1), (1, 0, 0, 0, 0), 3),
    (((1, 2), (0, 1, 2), (0, 2), (2,)), 3, (0, 2, 0, 0), (0, 0, 0, 0), (1, 1, 0, 0), 2),
])
def test_the_positions_the_class_once_got_wrong(units, sora, concealed, seen, room, turns):
    game = Game(len(concealed), units, sora, None, sum(concealed) + 1)
    got, _ = search_values(game, concealed, (), seen, room, turns)
    want = fetch_value(list(units), list(concealed), seen=list(seen), room=list(room), turns=turns, objective="win",
                       rules=game.oracle_rules("2019-12"), sora=sora)
    assert got == want


def test_every_draws_swap_in_one_pass_equals_the_draw_by_draw_values():
    """drawn_swaps (a 12-tile hand holding one そら, two draws left) against each draw's own 13-tile value, on real
    a 2019-12 hand holding a そら with a waiting room (every root, turns 2)."""
    from solver import Evaluator
    from solver.planning import fetch_win as module

    ev = Evaluator("2019-12")
    calls = []
    one_pass = module.FetchWin.drawn_swaps

    def per_draw(self, hand, wall, room, near):
        total, live = one_pass(self, hand, wall, room, near)
        want = sum(wall[k] * self.v13(module.plus(hand, k, 1), module.plus(wall, k, -1), 0, 10 ** 6, 1, self.all_rows)
                   for k in range(self.nr) if wall[k])
        calls.append(total == want)
        return total, live

    class Checked(module.FetchWin):
        drawn_swaps = per_draw

    original = module.FetchWin
    module.FetchWin = Checked
    try:
        position = ev.plan_request_of("そら 春香 春香 千早 千早 美希 美希 伊織 伊織 真 真 雪歩 やよい", 2,
                                      waiting_room="律子 亜美 真美 響 貴音 あずさ").position
        discards = [k for k, n in enumerate(position.hand.concealed) if n]
        fetch_win(ev.rules, position, 2, discards, state_limit=10 ** 7)
    finally:
        module.FetchWin = original
    assert calls and all(calls)
