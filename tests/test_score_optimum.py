"""E[score] over all play (solver/planning/score_optimum.py, issue 22) against independent brute force over
explicit tile copies with the waiting room and every fetch (tests/oracle_fetch.py), its reductions against the
same search without them, and on real hands never below the class it replaces."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, room_positions

from solver import Evaluator, MjError
from solver.core.hand import Hand
from solver.planning import plan as plan_module
from solver.planning.closed import add, falling
from solver.planning.prepare import position_counts, prepare, reach_with_room
from solver.planning.score_optimum import ScoreOptimum, native_tail, score_optimum
from solver.planning.targets import TooLarge


positions = room_positions


def names(counts) -> list[str]:
    return [f"k{k}" for k, n in enumerate(counts) for _ in range(n)]


@settings(BASE_SETTINGS, max_examples=60)
@given(positions(), st.sampled_from(["2019-12", "hitori-jong-2.1"]))
def test_equals_explicit_copies_with_fetches(case, param):
    """Labelled "all play", every discard's E[score] is the brute force's Fraction (fetch mode: every そら held
    or drawn may fetch from the given tiles and the player's own discards)."""
    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator(param)
    try:
        p = ev.plan(deal.hand, turns=turns, objective="score", seen=names(seen), waiting_room=names(room),
                    favourite=None if favourite is None else f"k{favourite}", both=False, seconds=None)
    except MjError:
        return
    assert p.policy_class["expected_score"] == "all play"
    want = fetch_value(list(game.units), list(deal.concealed), seen=seen, room=room, turns=turns,
                       objective="score", rules=game.oracle_rules(param), sora=game.sora, favourite=favourite,
                       called=deal.called)
    assert {r.tile: r.expected_score for r in p.discards} == want
    assert p.method == "optimal"


@settings(BASE_SETTINGS, max_examples=80)
@given(positions(), st.sampled_from(["2019-12", "hitori-jong-2.1"]))
def test_p_win_is_the_optimum_where_labelled_so_and_a_bracket_around_it_elsewhere(case, param):
    """P(win) against the brute force with every fetch: "all play" only where it is the optimum (no fetch could
    follow, or the rule set has none), otherwise lower <= optimum <= upper on every row."""
    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator(param)
    try:
        p = ev.plan(deal.hand, turns=turns, seen=names(seen), waiting_room=names(room),
                    favourite=None if favourite is None else f"k{favourite}", both=False, seconds=None)
    except MjError:
        return
    want = fetch_value(list(game.units), list(deal.concealed), seen=seen, room=room, turns=turns,
                       objective="win", rules=game.oracle_rules(param), sora=game.sora, favourite=favourite,
                       called=deal.called)
    if p.policy_class["win_probability"] == "all play":
        assert {r.tile: r.win_probability for r in p.discards} == want
    else:
        assert all(r.win_probability <= want[r.tile] <= r.upper for r in p.discards)


@settings(BASE_SETTINGS, max_examples=60)
@given(positions())
def test_without_the_fetch_search_the_bracket_holds_the_optimum(case):
    """P(win)'s search with every fetch switched off: the no-fetch optimum below and, with no そら held, that value
    plus the chance of a そら before the last draw above (else the relaxation with the room's copies listed)
    bracket the brute force's optimum on every row."""
    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator("2019-12")
    original = plan_module.score_plan
    plan_module.score_plan = lambda rules, request, *rest: (
        None if request.objective == "win" else original(rules, request, *rest))
    try:
        p = ev.plan(deal.hand, turns=turns, seen=names(seen), waiting_room=names(room),
                    favourite=None if favourite is None else f"k{favourite}", both=False, seconds=None)
    except MjError:
        return
    finally:
        plan_module.score_plan = original
    want = fetch_value(list(game.units), list(deal.concealed), seen=seen, room=room, turns=turns,
                       objective="win", rules=game.oracle_rules("2019-12"), sora=game.sora, favourite=favourite,
                       called=deal.called)
    assert all(r.win_probability <= want[r.tile] <= r.upper for r in p.discards)


@settings(BASE_SETTINGS, max_examples=30)
@given(positions())
def test_reductions_change_no_value(case):
    """The last draw scored only over the kinds touching a unit, the leaf's one packing instead of a discard
    each, and the waiting room dropped from the key once no fetch can follow: the same Fractions without them."""
    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator("2019-12")
    position = ev.plan_request_of(deal.hand, turns, "score", names(seen), names(room), None).position
    discards = [k for k, n in enumerate(deal.concealed) if n] if deal.hand.size(ev.rules) == game.hand_size else [None]
    try:  # (the pure search: the C tail, planc_tail.c, is checked against it below)
        fast, _ = score_optimum(ev.rules, position, turns, discards, state_limit=10**6, native=False)
    except MjError:
        return

    def plain_leaf(self, hand, support=None):
        won = self.tsumo.get(hand)
        best = max(self.nowin.score(hand[:x] + (n - 1,) + hand[x + 1:]) for x, n in enumerate(hand) if n)
        return best if won is None else max(won, best)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ScoreOptimum, "touching", lambda self, hand, support: list(range(len(hand))))
        patch.setattr(ScoreOptimum, "leaf", plain_leaf)
        patch.setattr(ScoreOptimum, "room_matters", lambda self, hand, wall, t: self.sora is not None)
        slow, _ = score_optimum(ev.rules, position, turns, discards, state_limit=10**6, native=False)
    assert slow == fast


needs_c = pytest.mark.skipif(not native_tail(Evaluator("2019-12").rules, None), reason="the C tail is not built")


@needs_c
@settings(BASE_SETTINGS, max_examples=60)
@given(positions(), st.sampled_from(["2019-12", "hitori-jong-2.1"]))
def test_the_c_tail_equals_the_pure_search(case, param):
    """The last two draws in C (planc_tail.c: its branch and bound over the moves, its memo of no-win scores) give the
    pure search's Fractions on every root, fetches and called units included."""
    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator(param)
    position = ev.plan_request_of(deal.hand, turns, "score", names(seen), names(room),
                                  None if favourite is None else f"k{favourite}").position
    discards = [k for k, n in enumerate(deal.concealed) if n] if deal.hand.size(ev.rules) == game.hand_size else [None]
    try:
        pure, _ = score_optimum(ev.rules, position, turns, discards, state_limit=10**6, native=False)
    except MjError:
        return
    c, _ = score_optimum(ev.rules, position, turns, discards, state_limit=10**6, native=True)
    assert c == pure


@needs_c
@pytest.mark.parametrize("rules", ["2019-12", "hitori-jong-2.1"])
def test_the_c_tail_on_a_real_hand(rules):
    """Real units (157 under 2019-12, overlapping packings, the favourite's bonus), 2 draws, seen tiles: the C
    tail's values equal the pure search's on every discard."""
    ev = Evaluator(rules)
    request = ev.plan_request_of(REAL[1], 2, "score", ["星梨花", "静香", "翼"], [], "静香")
    discards = [k for k, n in enumerate(request.position.hand.concealed) if n]
    pure, _ = score_optimum(ev.rules, request.position, 2, discards, state_limit=10**6, native=False)
    c, _ = score_optimum(ev.rules, request.position, 2, discards, state_limit=10**6, native=True)
    assert c == pure and len({v for v, _, _ in c}) > 1


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


REAL = ["真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花",  # seed 000's hand (h = 1)
        "ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜",
        "春香 千早 美希 真 やよい 伊織 亜美 真美 そら 律子 あずさ 貴音"]  # 12 tiles, そら held


@needs_c
@pytest.mark.parametrize("rules, seen", [("2019-12", ()), ("hitori-jong-2.1", ("可奈", "未来", "そら"))])
def test_the_branch_and_bound_at_two_draws_keeps_the_best_discard(rules, seen):
    """3 draws on a real 12-tile hand: with two draws left the moves skipped by their upper bounds change no
    value against valuing every move (a fetch after a drawn そら included)."""
    ev = Evaluator(rules)
    position = ev.plan_request_of(REAL[0], 3, "score", seen).position
    position = replace(position, hand=Hand(add(position.hand.concealed, position.hand.concealed.index(1), -1)))
    pruned, _ = score_optimum(ev.rules, position, 3, [None], state_limit=10**7)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ScoreOptimum, "best_of_two", every_move)
        plain, _ = score_optimum(ev.rules, position, 3, [None], state_limit=10**7)
    assert pruned == plain


@needs_c
def test_the_branch_and_bound_with_a_sora_held():
    """A そら held with two draws left and a waiting room: every fetch before the next draw is a move of its own
    in the branch and bound; the 13-tile hand's value equals valuing every move."""
    ev = Evaluator("2019-12")
    position = ev.plan_request_of(REAL[2], 3, "score", ["千早"], ["雪歩", "響"]).position
    _, room, wall, _ = position_counts(ev.rules, position, 3)
    targets = reach_with_room(ev.rules, position, 3).counts
    drawn = ev.tiles.resolve("伊織")
    hand13, wall2 = add(position.hand.concealed, drawn, 1), add(wall, drawn, -1)
    values = []
    for best_of_two in (ScoreOptimum.best_of_two, every_move):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ScoreOptimum, "best_of_two", best_of_two)
            search = ScoreOptimum(ev.rules, position.hand.called, None, targets, state_limit=10**7)
            values.append(search.v13(hand13, wall2, room, 2))
    assert values[0] == values[1] > 0


@needs_c
@pytest.mark.parametrize("rules, room", [("2019-12", ("雪歩", "響")), ("hitori-jong-2.1", ())])
def test_every_discards_bound_at_once(rules, room):
    """Tail.bounds (the tables of the pairs a discard and the next one leave, shared) gives each discard the bound
    draw(..., exact=False) gives it alone (while no table is exact yet), a drawn そら fetching from a room that holds
    the discard, some discards asked or all; each bound is at least the discard's exact value."""
    ev = Evaluator(rules)
    position = ev.plan_request_of(REAL[1], 2, "score", ["千早"], list(room)).position
    _, kept, wall, _ = position_counts(ev.rules, position, 2)
    search = ScoreOptimum(ev.rules, (), None, reach_with_room(ev.rules, position, 2).counts, state_limit=10**7)
    hand, fetch = position.hand.concealed, kept if search.room_matters(position.hand.concealed, wall, 2) else None
    assert (fetch is not None) == (rules == "2019-12")  # (a live そら: a room, a fetch after drawing it)
    bounds = search.tail.bounds(bytes(hand), bytes(wall), None if fetch is None else bytes(fetch))
    assert sorted(bounds) == [x for x, n in enumerate(hand) if n]
    some = sorted(bounds)[1::2]  # (asked for some discards: theirs, the same numbers)
    asked = search.tail.bounds(bytes(hand), bytes(wall), None if fetch is None else bytes(fetch),
                               sum(1 << x for x in some))
    assert asked == {x: bounds[x] for x in some}
    moves = {x: (bytes(add(hand, x, -1)), bytes(wall), None if fetch is None else bytes(add(fetch, x, 1)))
             for x in bounds}
    assert bounds == {x: search.tail.draw(*move, False) for x, move in moves.items()}  # (before any row is exact)
    assert all(bounds[x] >= search.tail.draw(*move) for x, move in moves.items())


@pytest.mark.parametrize("rules, hand, room", [("2019-12", REAL[2], ()), ("hitori-jong-2.1", REAL[0], ()),
                                               ("2019-12", REAL[2], ("雪歩",))])
def test_the_plans_listing_is_the_searchs_own_without_a_room(rules, hand, room):
    """score_plan hands prepare's list of complete hands to the search where no waiting room is given: it is the
    list the search makes itself (a そら held: a fetch each), and it differs once a room is given."""
    ev = Evaluator(rules)
    position = ev.plan_request_of(hand, 2, "score", ["千早"], list(room)).position
    made = prepare(ev.rules, position, turns=2, objectives=("score",)).targets.counts
    assert (made == reach_with_room(ev.rules, position, 2).counts) == (not room)


def every_move(self, hand, wall, room):
    """best_of_two without its bounds: every discard valued (v12 takes each fetch after it)."""
    won = self.tsumo.get(hand)
    got = -1 if won is None else won * falling(sum(wall), 2)
    for x, n in enumerate(hand):
        if n:
            held, r = add(hand, x, -1), None if room is None else add(room, x, 1)
            got = max(got, self.v12(held, wall, r if r is not None and self.room_matters(held, wall, 2) else None, 2))
    return got


@pytest.mark.parametrize("hand", REAL)
def test_real_hands_never_below_the_class(ev, hand):
    """On real 2019-12 hands (one holding そら, with a waiting room), the optimum is labelled all play and is
    at least the class value it replaces (a real policy's value) on every discard."""
    room = "響 千早" if "そら" in hand else ""
    p = ev.plan(hand, turns=1, objective="score", waiting_room=room, both=False, seconds=None)
    assert p.policy_class["expected_score"] == "all play"
    cls = ev.plan(hand, turns=1, objective="score", waiting_room=room, both=False, seconds=None, nearest=True)
    assert "all play" != cls.policy_class["expected_score"]
    got = {r.tile: r.expected_score for r in p.discards}
    floor = {r.tile: r.expected_score for r in cls.discards}
    assert got.keys() == floor.keys() and all(got[t] >= floor[t] for t in got)
    assert any(got[t] > floor[t] for t in got) or "そら" in hand


def test_past_the_limits_the_class_answers(ev, monkeypatch):
    """When the exact search passes its limits, E[score] is the class value as before, labelled as the class."""
    hand = REAL[0]

    def stop(self):
        raise TooLarge("stopped")
    monkeypatch.setattr(ScoreOptimum, "counted", stop)
    p = ev.plan(hand, turns=1, objective="win", seconds=None)
    assert p.policy_class["expected_score"] != "all play"
    monkeypatch.setattr(plan_module, "score_plan", lambda *args: None)
    q = ev.plan(hand, turns=1, objective="win", seconds=None)
    assert [(r.tile, r.expected_score) for r in p.discards] == [(r.tile, r.expected_score) for r in q.discards]
    assert all(isinstance(r.expected_score, Fraction) for r in p.discards)


@pytest.mark.parametrize("units, sora, concealed, seen, room, turns", [
    # two そら held, a room copy of k0 that (k0) (0, 1, 3) needs: the brute force's 26/35
    (((0,), (0, 1, 3), (0, 3), (1, 4)), 2, (0, 1, 2, 0, 0), (1, 0, 1, 1, 1), (1, 0, 0, 0, 0), 3),
    # no そら held, three live: a drawn one kept and sent for the room's k0 or k1 (27/56)
    (((1, 2), (0, 1, 2), (0, 2), (2,)), 3, (0, 2, 0, 0), (0, 0, 0, 0), (1, 1, 0, 0), 2),
])
def test_where_a_fetch_could_follow_p_win_comes_from_the_search_with_every_fetch(units, sora, concealed, seen, room,
                                                                                 turns):
    """These two positions were labelled "all play" with a value below the optimum (the P(win) search lists its
    wins with the waiting room out and discards a drawn そら at once). Where a fetch could follow, P(win) now comes
    from the search over full counts with every fetch (the brute force's Fraction); that class is named."""
    from synthetic import Game

    from solver import Hand

    game = Game(len(concealed), units, sora, None, sum(concealed) + 1)
    ev = game.evaluator("2019-12")
    p = ev.plan(Hand(concealed, ()), turns=turns, seen=names(seen), waiting_room=names(room), both=False,
                seconds=None)
    want = fetch_value(list(units), list(concealed), seen=list(seen), room=list(room), turns=turns, objective="win",
                       rules=game.oracle_rules("2019-12"), sora=sora)
    assert p.method == "optimal" and p.policy_class["win_probability"] == "all play"  # the search with every fetch
    assert {r.tile: r.win_probability for r in p.discards} == want
    q = ev.plan(Hand(concealed, ()), turns=turns, seen=names(seen), waiting_room=names(room), both=False,
                seconds=None, detour=turns)  # the class without fetches of room copies: a bracket around it
    assert q.policy_class["win_probability"] != "all play"
    assert all(r.win_probability <= want[r.tile] for r in q.discards)


def test_not_started_past_a_rough_count(ev):
    """Turns 4 of a real hand would pass the default state limit by far: refused before any search (the class
    answers), while the same hand at turns 1 is searched."""
    position = ev.plan_request_of(REAL[0], 4).position
    discards = [k for k, n in enumerate(position.hand.concealed) if n]
    with pytest.raises(TooLarge, match="would visit"):
        score_optimum(ev.rules, position, 4, discards, state_limit=500_000)
    moves, states = score_optimum(ev.rules, position, 1, discards, state_limit=500_000)
    assert len(moves) == len(discards) and states > 0


def test_method_names_the_win_column(ev):
    """Objective score: "optimal" only where P(win) is over all play too (with そら held, P(win) comes from the
    search with every fetch, so both are)."""
    p = ev.plan(REAL[0], turns=1, objective="score", seconds=None)
    assert p.method == "optimal" and set(p.policy_class.values()) == {"all play"}
    q = ev.plan(REAL[2], turns=1, objective="score", waiting_room="響 千早", seconds=None)
    # そら held: P(win) by the search with every fetch too, so both are over all play
    assert set(q.policy_class.values()) == {"all play"} and q.method == "optimal"
