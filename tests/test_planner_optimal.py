"""The planner's optimum (issue 22) against independent brute force (tests/oracle_optimal.py): the bug of a
value labelled "all play" above the optimum, exact fractions of small games over explicit tile copies."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle_optimal import explicit_value, real_win_value
from synthetic import BASE_SETTINGS, deals, games, seen_counts

from solver import Evaluator, MjError

BUG_HAND = "ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜"


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


def rows(ev, p) -> dict:
    return {ev.tiles.name(r.tile): r.win_probability for r in p.discards}


def bug_oracle(ev, turns: int, roots=None) -> dict:
    seen = [0] * len(ev.tiles)
    seen[ev.tile("星梨花")] = 1
    got = real_win_value([u.members for u in ev.rules.units], list(ev.hand(BUG_HAND).concealed), seen=seen,
                         turns=turns, roots=None if roots is None else [ev.tile(n) for n in roots])
    return {ev.tiles.name(k): v for k, v in got.items()}


def test_last_live_copy_discarded_turns_2(ev):
    """Issue 22: discarding 星梨花 (its third copy seen, the other two held) once gave 43/7252 labelled
    "all play"; every discard now equals the independent full tree, 星梨花 39/7252."""
    p = ev.plan(BUG_HAND, turns=2, detour=1, seen="星梨花", both=False)
    # the full tree without fetches (a drawn そら discarded at once): the class, named so since a drawn そら
    # could be kept to fetch back a discard (the model's waiting room holds them)
    assert "drawn そら discarded at once" in p.policy_class["win_probability"]
    got = rows(ev, p)
    assert got["星梨花"] == Fraction(39, 7252)
    assert got == bug_oracle(ev, 2)
    best = ev.plan(BUG_HAND, turns=2, seen="星梨花", both=False)  # all play, every fetch searched: never below
    assert best.policy_class["win_probability"] == "all play"
    assert all(value >= got[tile] for tile, value in rows(ev, best).items())


def test_last_live_copy_discarded_turns_3(ev):
    """The second reproduction: turns 3, detour 2 (every win listed; a drawn そら discarded at once), 星梨花
    18015/1058792 (the full tree's value without fetches, test_last_live_copy_turns_3_oracle)."""
    p = ev.plan(BUG_HAND, turns=3, detour=2, seen="星梨花", both=False)
    assert "drawn そら discarded at once" in p.policy_class["win_probability"]
    assert rows(ev, p)["星梨花"] == Fraction(18015, 1058792)


@pytest.mark.slow
def test_last_live_copy_turns_3_oracle(ev):
    assert bug_oracle(ev, 3, roots=["星梨花"])["星梨花"] == Fraction(18015, 1058792)


# --- small games over explicit tile copies -----------------------------------------------------------

def explicit(game, deal, param, *, turns, objective, seen=None):
    return explicit_value(list(game.units), list(deal.concealed), seen=list(seen or [0] * game.K), turns=turns,
                          objective=objective, rules=game.oracle_rules(param), sora=game.sora)


@BASE_SETTINGS
@given(st.data())
def test_all_play_equals_explicit_copies(data):
    """Where the planner says "all play", its Fractions equal the expectimax over explicit tile copies."""
    game = data.draw(games(min_kinds=4, max_kinds=5, max_units=6, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    size = data.draw(st.sampled_from([game.hand_size - 1, game.hand_size]))
    deal = data.draw(deals(game, size=size, max_called=0))
    param = data.draw(st.sampled_from(["2019-12", "hitori-jong-2.1"]))
    ev = game.evaluator(param)
    seen = data.draw(st.one_of(st.just((0,) * game.K), seen_counts(game, deal)))  # last live copies (issue 22)
    turns = data.draw(st.integers(1, 3))
    try:
        p = ev.plan(deal.hand, turns=turns, seen=[f"k{k}" for k, n in enumerate(seen) for _ in range(n)],
                    seconds=None)
    except MjError:
        return
    assert p.method in ("optimal", "bounds")
    for objective, col, label in (("win", "win_probability", "win_probability"),
                                  ("score", "expected_score", "expected_score")):
        want = explicit(game, deal, param, turns=turns, objective=objective, seen=seen)
        got = {r.tile: getattr(r, col) for r in p.discards}
        if p.policy_class[label] == "all play":
            assert got == want, objective
        else:
            assert all(got[k] <= want[k] for k in want), objective


# --- each reduction against the same search without it ---------------------------------------------

@BASE_SETTINGS
@given(st.data())
def test_reductions_change_no_value(data):
    """The optimum's reductions (kinds no target within reach holds merged, interchangeable kinds sorted in the
    key, the one-draw wait table, junk discarded first, two draws in closed form, one discard per swap, the best
    discard with two draws left in one pass) against the same search with each switched off, on
    small games with seen tiles: the same Fractions."""
    from solver.planning.recursion import Search

    game = data.draw(games(min_kinds=4, max_kinds=6, max_units=7, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    deal = data.draw(deals(game, size=game.hand_size, max_called=0))
    seen = data.draw(seen_counts(game, deal))
    ev = game.evaluator("2019-12")
    turns = data.draw(st.integers(1, 3))
    names = [f"k{k}" for k, n in enumerate(seen) for _ in range(n)]
    try:
        fast = {r.tile: r.win_probability for r in ev.plan(deal.hand, turns=turns, seen=names, both=False,
                                                           seconds=None).discards}
    except MjError:
        return
    for name in ("canonical", "last_discard", "junk", "two_draws", "one_per_swap", "two_draws_best"):
        with pytest.MonkeyPatch.context() as patch:
            if name == "two_draws_best":  # every discard's 12-tile state searched (listed, keyed, two_draws)
                patch.setattr(Search, "two_draws_best", lambda self, hand, wall, W, alive: max(
                    self.discard_value(hand, wall, (), W, 2, alive, i) for i, n in enumerate(hand) if n))
            elif name == "canonical":
                patch.setattr(Search, "canonical", lambda self, hand, wall, alive: ((hand, wall), (hand, wall)))
            elif name == "one_per_swap":
                patch.setattr(Search, "one_per_swap", staticmethod(lambda hand, wall, candidates, classes: candidates))
            elif name == "two_draws":
                patch.setattr(Search, "two_draws", lambda self, hand, wall, W, alive: self.draw(hand, wall, (), W, 2,
                                                                                                 alive))
            elif name == "last_discard":
                patch.setattr(Search, "last_discard", lambda self, hand, wall: max(
                    self.v12(hand[:i] + (hand[i] - 1,) + hand[i + 1:], wall, (), 0, 1, self.sparse)
                    for i, n in enumerate(hand) if n))
            else:
                original = Search.discard_options

                def every_discard(self, hand, wall, room, t, alive, exact=False, original=original):
                    alive, _ = original(self, hand, wall, room, t, alive, exact)
                    return alive, [i for i, n in enumerate(hand) if n]
                patch.setattr(Search, "discard_options", every_discard)
            slow = {r.tile: r.win_probability for r in ev.plan(deal.hand, turns=turns, seen=names, both=False,
                                                               seconds=None).discards}
            assert slow == fast, name


@pytest.mark.parametrize("split", [True, False])
@BASE_SETTINGS
@given(data=st.data())
def test_the_first_draw_in_parts_changes_no_value(split, data):
    """From SPLIT_TURNS draws P(win)'s first draw is valued in parts (each relevant kind, the rest), in a forked
    child and here (split) or all here: the same Fractions as the roots valued whole, and as explicit copies."""
    from solver.planning import first_draw, side

    game = data.draw(games(min_kinds=4, max_kinds=5, max_units=6, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    deal = data.draw(deals(game, size=game.hand_size, max_called=0))
    seen = data.draw(st.one_of(st.just((0,) * game.K), seen_counts(game, deal)))
    param = data.draw(st.sampled_from(["2019-12", "hitori-jong-2.1"]))
    turns = data.draw(st.integers(first_draw.SPLIT_TURNS, first_draw.SPLIT_TURNS + 1))
    ev = game.evaluator(param)
    names = [f"k{k}" for k, n in enumerate(seen) for _ in range(n)]
    values = []
    for parts in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(side, "can_split", lambda: split)
            if not parts:
                patch.setattr(first_draw, "SPLIT_TURNS", 99)
            try:
                p = ev.plan(deal.hand, turns=turns, seen=names, both=False, seconds=None)
            except MjError:
                return
        values.append({r.tile: r.win_probability for r in p.discards})
    assert values[0] == values[1]
    if turns == first_draw.SPLIT_TURNS and p.policy_class["win_probability"] == "all play":
        assert values[0] == explicit(game, deal, param, turns=turns, objective="win", seen=seen)
