"""P(win) over all play with every fetch (solver/planning/fetch_win.py, issue 22) against the independent brute
force over explicit tile copies with the waiting room (tests/oracle_fetch.py), on small games with そら, seen tiles
and a waiting room, and on the two positions where the class without fetches was once labelled all play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, Game, deals, favourites, games, seen_counts

from solver import Hand, MjError
from solver.planning.fetch_win import fetch_win


@st.composite
def positions(draw):
    """A small game with a fetch-mode そら, a hand of hand_size or one fewer tiles, seen tiles, a waiting room."""
    game = draw(games(min_kinds=4, max_kinds=6, max_units=7, max_unit_size=3, hand_sizes=(3, 4)))
    size = draw(st.sampled_from([game.hand_size - 1, game.hand_size]))
    deal = draw(deals(game, size=size, max_called=1))
    seen = list(draw(st.one_of(st.just((0,) * game.K), seen_counts(game, deal, max_total=4))))
    room = [0] * game.K
    totals = deal.totals(game)
    for _ in range(draw(st.integers(0, 3))):
        free = [k for k in range(game.K) if totals[k] + seen[k] + room[k] < 3]
        if free:
            room[draw(st.sampled_from(free))] += 1
    return game, deal, seen, room, draw(favourites(game, deal)), draw(st.integers(1, 4))


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


@settings(BASE_SETTINGS, max_examples=150)
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
