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
    if case[0].sora is None:
        return
    for value, wait, take in against_explicit_copies(case).values():
        assert wait <= value and (take is None) == (wait == value)


def against_explicit_copies(case) -> dict:
    """The search's moves of a small game's position, its values asserted equal to the brute force's ({}: a position
    the plan refuses)."""
    game, deal, seen, room, favourite, turns = case
    try:
        got, moves = search_values(game, deal.concealed, deal.called, seen, room, turns, favourite)
    except MjError:
        return {}
    want = fetch_value(list(game.units), list(deal.concealed), seen=seen, room=room, turns=turns, objective="win",
                       rules=game.oracle_rules("2019-12"), sora=game.sora, favourite=favourite, called=deal.called)
    assert got == want
    return moves


@pytest.mark.parametrize("split", [True, False])
@settings(BASE_SETTINGS, max_examples=40)
@given(room_positions(max_kinds=6, max_units=7, max_room=3, max_turns=5))
def test_the_first_draws_parts_valued_apart_sum_to_the_value(split, case):
    """From SPLIT_TURNS draws the first draw's parts (each relevant kind, a そら, the rest) are valued apart, in a forked
    child and here (split) or all here: each way equals the explicit copies' brute force."""
    from solver.planning import fetch_win as module
    from solver.planning import side

    if case[0].sora is None or case[-1] < module.SPLIT_TURNS:
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(side, "can_split", lambda: split)
        against_explicit_copies(case)


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
    """drawn_swaps and its C twin (a 12-tile hand holding one そら, two draws left) against each draw's own value, on real
    a 2019-12 hand holding a そら with a waiting room (every root, turns 2)."""
    from solver import Evaluator
    from solver.planning import fetch_win as module

    ev = Evaluator("2019-12")
    calls = []
    either = module.FetchWin.swaps  # C where built, else drawn_swaps

    def per_draw(self, hand, wall, room, near):  # (near: sparse targets, or rows of the matrix)
        total, live = either(self, hand, wall, room, near)
        want = sum(wall[k] * self.v13(module.add(hand, k, 1), module.add(wall, k, -1), 0, 10 ** 6, 1, self.all_rows)
                   for k in range(self.nr) if wall[k])
        calls.append(total == want and (total, live) == self.drawn_swaps(hand, wall, room, self.targets(near)))
        return total, live

    class Checked(module.FetchWin):
        swaps = per_draw

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


def test_real_hands_at_two_draws_equal_the_full_count_search():
    """On real 2019-12 hands (seed 000's, and one holding a そら, with a waiting room), P(win) at turns 2 equals the
    plain expectimax over full tile counts with every fetch (score_optimum.ScoreOptimum with a win worth 1 and
    nothing else anything): the same game searched with none of this module's reductions."""
    from solver import Evaluator
    from solver.planning import score_optimum
    from solver.planning.prepare import position_counts, reach_with_room

    class Zero(score_optimum.NoWinScore):
        def _score(self, concealed):
            return 0

        def score_held(self, concealed, support):
            return 0

    ev = Evaluator("2019-12")
    for text, room in (("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花", "雪歩 可奈"),
                       ("そら 静香 静香 翼 翼 ジュリア ジュリア 未来 杏奈 百合子 紗代子 可奈 志保", "未来 杏奈 星梨花")):
        position = ev.plan_request_of(text, 2, waiting_room=room).position
        discards = [k for k, n in enumerate(position.hand.concealed) if n]
        got, _ = fetch_win(ev.rules, position, 2, discards, state_limit=10 ** 7)
        _, room_counts, wall, _ = position_counts(ev.rules, position, 2)
        targets = reach_with_room(ev.rules, position, 2)
        plain = score_optimum.ScoreOptimum(ev.rules, position.hand.called, None, dict.fromkeys(targets.counts, 1),
                                           state_limit=10 ** 7, native=False)  # (the pure search: its nowin is Zero)
        plain.nowin = Zero(ev.rules, position.hand.called, None)
        for d, (value, wait, take) in zip(discards, got):
            held = score_optimum.add(position.hand.concealed, d, -1)
            want = plain.first_move(held, wall, score_optimum.add(room_counts, d, 1), 2)
            assert (value, wait, take) == want


@pytest.mark.parametrize("text, seen, room", [
    ("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花", "", "雪歩 可奈 翼"),
    ("静香 静香 翼 翼 ジュリア ジュリア 未来 杏奈 百合子 紗代子 可奈 志保 星梨花", "春香 千早 星梨花", "杏奈"),
])
def test_three_draws_in_c_equal_the_python_search(monkeypatch, text, seen, room):
    """A 12-tile hand with three draws left and a そら live draws in one C call (the no-fetch two-draw form plus a
    drawn そら's swap, _planc.drawn_best with the room): the same Fractions as the Python search, on real hands."""
    from solver import Evaluator
    from solver.planning import closed
    from solver.planning import fetch_win as module

    if not closed.native_two_draws():
        pytest.skip("the C extension is not built, or MJ_PURE=1 asks for the Python search")
    ev = Evaluator("2019-12")
    position = ev.plan_request_of(text, 3, seen=seen, waiting_room=room).position
    discards = [k for k, n in enumerate(position.hand.concealed) if n]
    calls = []
    native = module.FetchWin.drawn_natively
    monkeypatch.setattr(module.FetchWin, "drawn_natively", lambda self, *a: calls.append(1) or native(self, *a))
    fast, _ = fetch_win(ev.rules, position, 3, discards, state_limit=10 ** 7)
    monkeypatch.setattr(module, "native_two_draws", lambda: False)
    slow, _ = fetch_win(ev.rules, position, 3, discards, state_limit=10 ** 7)
    assert calls and fast == slow


def test_the_default_plan_at_three_draws_is_the_optimum_with_every_fetch():
    """Under 2019-12 a drawn そら could fetch from turn 2 on: the default plan at 3 draws is now the optimum (the
    search with every fetch finishes within the default limits), labelled all play, with the search's values."""
    from solver import Evaluator

    ev = Evaluator("2019-12")
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    p = ev.plan(hand, turns=3, both=False, seconds=None)
    assert p.method == "optimal" and p.policy_class["win_probability"] == "all play"
    position = ev.plan_request_of(hand, 3).position
    discards = [r.tile for r in p.discards]
    moves, _ = fetch_win(ev.rules, position, 3, discards, state_limit=10 ** 7)
    assert [r.win_probability for r in p.discards] == [value for value, _, _ in moves]
    assert all(r.upper == r.win_probability for r in p.discards)


def test_the_optimum_is_not_started_past_a_rough_count():
    """At 8 draws a real hand's optimum would pass the default state limit by far: the plan answers the bracket at
    once, saying why, instead of listing complete hands until the budget is gone; a higher limit lets it try."""
    from solver import Evaluator

    ev = Evaluator("hitori-jong-2.1")
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    p = ev.plan(hand, turns=8, both=False, seconds=1, max_states=500_000)
    assert p.method in ("bounds", "estimate") and "would visit about" in p.stopped
    q = ev.plan(hand, turns=8, both=False, seconds=1, max_states=10 ** 12)
    assert q.method in ("bounds", "estimate") and "would visit about" not in q.stopped


def test_row_filters_in_c_equal_their_numpy_lines():
    """planc_rows.c's filters against the numpy lines they replace in fetch_win.py, on random matrices and lists."""
    import numpy as np

    from solver.planning.closed import _planc, native_two_draws

    if not native_two_draws():
        pytest.skip("the C extension is not built, or MJ_PURE=1 asks for the Python search")
    rng = np.random.default_rng(4)
    for _ in range(200):
        T, nr = int(rng.integers(1, 60)), int(rng.integers(1, 64))
        matrix = rng.integers(0, 4, size=(T, nr)).astype(np.int16)
        mb = matrix.astype(np.uint8).tobytes()
        rows = np.sort(rng.choice(T, size=int(rng.integers(0, T + 1)), replace=False)).astype(np.intp)
        hand = [int(x) for x in rng.integers(0, 4, size=nr + 2)]  # (junk slots past nr)
        available = [int(x) for x in rng.integers(0, 4, size=nr)]
        cap, p = int(rng.integers(0, 8)), int(rng.integers(0, nr + 2))
        need = np.maximum(matrix[rows] - np.array(hand[:nr], dtype=np.int16), 0)
        want = rows[(need.sum(1) <= cap) & (need <= np.array(available, dtype=np.int16)).all(1)]
        sparse = _planc.sparse_rows(mb, nr)
        assert np.frombuffer(_planc.reach_rows(sparse, rows, hand, available, cap), np.intp).tolist() == want.tolist()
        own = _planc.sparse_rows(matrix.astype(np.int8), nr)  # (what fetch_win passes: the search's int8 matrix)
        assert np.frombuffer(_planc.reach_rows(own, rows, hand, available, cap), np.intp).tolist() == want.tolist()
        base = [a + h for a, h in zip(available, hand)]  # (less_hand: the available copies are base - hand)
        assert np.frombuffer(_planc.reach_rows(own, rows, hand, base, cap, True), np.intp).tolist() == want.tolist()
        cost = need.sum(1) + ((matrix[rows, p] >= hand[p]) if p < nr else 0)
        got = np.frombuffer(_planc.narrowed_rows(sparse, rows, hand, p, cap), np.intp)
        assert got.tolist() == rows[cost <= cap].tolist()
        most = matrix[rows].max(0).tolist() if len(rows) else [0] * nr
        assert _planc.most_rows(sparse, rows) == most
    with pytest.raises(IndexError):
        _planc.reach_rows(sparse, np.array([T], dtype=np.intp), hand, available, cap)
    with pytest.raises(ValueError):  # (only sparse_rows' own object is read as rows)
        _planc.reach_rows(mb, rows, hand, available, cap)


def test_a_roots_own_discard_is_fetched_last_so_ties_advise_another_tile():
    """Taken back, a discard leaves the hand and room of discarding そら: among fetches of equal value the advice
    names another tile (QA: the recommended row's advice took its own discard back). best_moves keeps the first of
    equal values, so the order decides."""
    from types import SimpleNamespace

    from solver.planning.closed import best_moves
    from solver.planning.fetch_win import FetchWin
    from solver.planning.score_optimum import ScoreOptimum

    engine = SimpleNamespace(sp=3, nr=3, room=lambda hand, wall: (1, 1, 1))
    assert FetchWin.takes(engine, (1, 0, 0, 1), None, 0) == [None, 1, 2, 0]
    assert FetchWin.takes(engine, (1, 0, 0, 1), None) == [None, 0, 1, 2]
    search = SimpleNamespace(sora=3, room_matters=lambda *args: True,
                             fetches=lambda hand, room: ScoreOptimum.fetches(search, hand, room))
    moves = ScoreOptimum.root_moves(search, (0, 1, 0, 1), None, (1, 0, 1, 0), 2, last=0)
    assert [m[0] for m in moves] == [None, 2, 0]
    assert best_moves([(0, None), (0, 2), (0, 0)], [5, 7, 7], 10)[0][2] == 2
