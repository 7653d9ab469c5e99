"""The planner (solver/planning) against the full-tree oracle (tests/oracle_planner.py), closed forms,
a Monte Carlo of its own recommended policy, and the そら and dead-wait cases of docs section 8."""

from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle_planner import nearest_value, plan_value
from synthetic import BASE_SETTINGS, Game, deals, games

from solver import Evaluator, Hand, MjError
from solver.planning.plan import prepare
from solver.planning.request import Position
from solver.planning.estimate import Policy, Sampled
from solver.planning.recursion import Search

EXAMPLE = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


def oracle_rows(game: Game, ev: Evaluator, hand: Hand, param: str, *, turns, objective, seen=None, room=None,
                favourite=None, **overrides):
    seen = seen or [0] * game.K
    room = room or [0] * game.K
    return plan_value(list(game.units), list(hand.concealed), list(hand.called), seen=seen, room=room, turns=turns,
                      objective=objective, rules=game.oracle_rules(param, **overrides), sora=game.sora,
                      favourite=favourite)


def planner_rows(p) -> dict:
    return {r.tile: (r.win_probability, r.expected_score) for r in p.discards}


# --- the full tree on small synthetic games ------------------------------------------------------

@BASE_SETTINGS
@given(st.data())
def test_full_tree_agrees_on_synthetic_games(data):
    """Where the planner claims "all play", both objectives equal the full tree's; otherwise it is a lower bound."""
    game = data.draw(games(min_kinds=4, max_kinds=6, max_units=7, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    size = data.draw(st.sampled_from([game.hand_size - 1, game.hand_size]))
    deal = data.draw(deals(game, size=size, max_called=0))
    param = data.draw(st.sampled_from(["2019-12", "hitori-jong-2.1"]))
    ev = game.evaluator(param)
    unseen = 3 * game.K - size
    turns = data.draw(st.integers(1, min(3, unseen)))
    detour = data.draw(st.integers(0, 3))
    try:
        p = ev.plan(deal.hand, turns=turns, detour=detour)
    except MjError:
        return
    got = planner_rows(p)
    for objective, col in (("win", 0), ("score", 1)):
        want = oracle_rows(game, ev, deal.hand, param, turns=turns, objective=objective)
        assert set(want) == set(got)
        label = p.policy_class["win_probability" if col == 0 else "expected_score"]
        for tile, value in want.items():
            if label == "all play":
                assert got[tile][col] == value, (tile, objective)
            else:
                assert got[tile][col] <= value, (tile, objective)


@BASE_SETTINGS
@given(st.data())
def test_nearest_class_agrees_with_its_literal_definition(data):
    """The default class "nearest" (closed forms, junk draws merged, memo keys) against the same class
    played out literally by the oracle; and never above the full tree."""
    game = data.draw(games(min_kinds=4, max_kinds=6, max_units=7, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    size = data.draw(st.sampled_from([game.hand_size - 1, game.hand_size]))
    deal = data.draw(deals(game, size=size, max_called=0))
    param = data.draw(st.sampled_from(["2019-12", "hitori-jong-2.1"]))
    ev = game.evaluator(param)
    turns = data.draw(st.integers(1, min(4, 3 * game.K - size)))
    try:
        p = ev.plan(deal.hand, turns=turns, nearest=True)
    except MjError:
        return
    got = planner_rows(p)
    for objective, col in (("win", 0), ("score", 1)):
        label = p.policy_class["win_probability" if col == 0 else "expected_score"]
        full = oracle_rows(game, ev, deal.hand, param, turns=turns, objective=objective)
        if label == "all play":
            assert {t: v[col] for t, v in got.items()} == full
            continue
        assert all(got[t][col] <= full[t] for t in full)
        if not label.startswith("nearest"):
            continue  # turns 1, score: the wide class (every discard), a lower bound checked above
        want = nearest_value(list(game.units), list(deal.hand.concealed), list(deal.hand.called),
                             seen=[0] * game.K, turns=turns, objective=objective,
                             rules=game.oracle_rules(param), sora=game.sora)
        assert {t: v[col] for t, v in got.items()} == want, objective
        assert all(want[t] <= full[t] for t in want)


@BASE_SETTINGS
@given(st.data())
def test_score_is_exact_when_no_win_scores_nothing(data):
    """With no score for a hand that did not win, the score class is all play once the budget covers the turns."""
    game = data.draw(games(min_kinds=4, max_kinds=6, max_units=7, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    deal = data.draw(deals(game, size=game.hand_size, max_called=0))
    ev = game.evaluator("2019-12", no_win="none")
    turns = data.draw(st.integers(1, 2))
    p = ev.plan(deal.hand, turns=turns, detour=turns, objective="score")
    assert p.policy_class["expected_score"] == "all play"
    want = oracle_rows(game, ev, deal.hand, "2019-12", turns=turns, objective="score", no_win="none")
    assert {t: v[1] for t, v in planner_rows(p).items()} == want


def test_fetch_sora_against_the_full_tree():
    """Fetch mode: a そら held and a waiting room; the planner's value and advice match the full tree."""
    game = Game(6, ((0, 1), (2, 3), (1, 4)), sora=5, shika=None, hand_size=4)
    ev = game.evaluator("2019-12")
    hand = Hand((1, 0, 1, 0, 0, 1))  # 12-tile analogue: k0 k2 そら, needs k1 and k3
    room = [0, 0, 0, 1, 0, 0]
    for turns in (1, 2, 3):
        p = ev.plan(hand, turns=turns, waiting_room=["k3"], detour=3)
        want = oracle_rows(game, ev, hand, "2019-12", turns=turns, objective="win", room=room)
        assert p.discards[0].win_probability == want[None]
        near = ev.plan(hand, turns=turns, waiting_room=["k3"], nearest=True)  # "nearest": a real policy, so at most that
        assert "can fetch" in near.policy_class["win_probability"] or turns == 1
        assert 0 < near.discards[0].win_probability <= want[None]


# --- real hands ------------------------------------------------------------------------------------

def test_one_turn_is_live_winning_tiles_over_unseen(ev):
    """turns = 1: P(win) after a discard = live winning tiles / unseen tiles (the closed form)."""
    p = ev.plan(EXAMPLE, turns=1)
    unseen = 162 - 13
    analysis = ev.analyze(EXAMPLE)
    for row in p.discards:
        wins = next(r for r in analysis.discards if r.tile == row.tile)
        live = sum(a.live for a in wins.accept) if wins.h == 1 else 0
        assert row.win_probability == Fraction(live, unseen)
    assert p.policy_class["win_probability"] == "all play"


def real_oracle(ev, hand: Hand, turns: int, room: list[int] | None = None, objective: str = "win") -> dict:
    """The full-tree oracle on the real catalogue (it gets the rule set's units as plain tuples)."""
    spec = ev.rules.spec
    rules = dict(min_points=spec.min_points, member_points=spec.member_points, called=spec.called,
                 ron_minus_member=spec.ron_minus_member, no_win=spec.no_win, favourite=spec.favourite,
                 favourite_bonus=spec.favourite_bonus, sora_mode=spec.sora, ron_on_shika=spec.ron_on_shika,
                 shika=ev.tiles.shika, hand_size=13)
    return plan_value([u.members for u in ev.rules.units], list(hand.concealed), [], seen=[0] * 54,
                      room=room or [0] * 54, turns=turns, objective=objective, rules=rules, sora=ev.tiles.sora)


def test_real_hand_two_turns_against_the_full_tree(ev):
    """turns = 2 on a tenpai 12-tile hand of the real catalogue, full tree, exact Fractions."""
    hand = ev.hand("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子")
    p = ev.plan(hand, turns=2, detour=2)
    assert "drawn そら discarded at once" in p.policy_class["win_probability"]  # the full tree discards it too
    assert p.discards[0].win_probability == real_oracle(ev, hand, 2)[None]


@pytest.mark.parametrize("hand, turns, detour", [
    ("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花", 4, 0),
    ("春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美 未来", 3, 0),
    ("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花", 3, 1),
])
def test_memo_reductions_change_no_value(ev, hand, turns, detour, monkeypatch):
    """The memo's shortcuts (interchangeable kinds sorted, the one-draw wait table) against the same
    recursion with them switched off: every discard's P(win) is the same Fraction."""
    fast = planner_rows(ev.plan(hand, turns=turns, detour=detour, both=False, seconds=None))
    monkeypatch.setattr(Search, "interchangeable", lambda self, alive, n: (
        tuple(any(i == k for t in alive for k, _ in t) for i in range(n)), [], [],
        tuple(max((c for t in alive for k, c in t if k == i), default=0) for i in range(n)),
        tuple(min((dict(t).get(i, 0) for t in alive), default=0) for i in range(n))))
    monkeypatch.setattr(Search, "last_discard", lambda self, hand, wall: max(
        self.v12(hand[:i] + (hand[i] - 1,) + hand[i + 1:], wall, (), 0, 1, self.sparse)
        for i, n in enumerate(hand) if n))
    assert planner_rows(ev.plan(hand, turns=turns, detour=detour, both=False, seconds=None)) == fast


def test_monotone_in_turns(ev):
    values = [ev.plan(EXAMPLE, turns=t, detour=0, both=False).discards[0].win_probability for t in (1, 2, 3)]
    assert values == sorted(values) and values[0] < values[-1]


def test_seen_tiles_kill_a_wait(ev):
    """Discarding 奈緒 leaves waits on 紗代子's partners; all of them seen: P(win) in one turn is 0."""
    p = ev.plan(EXAMPLE, turns=1)
    row = next(r for r in p.discards if ev.tiles.name(r.tile) == "奈緒")
    assert row.win_probability > 0
    analysis = ev.analyze(EXAMPLE)
    accept = next(r for r in analysis.discards if ev.tiles.name(r.tile) == "奈緒").accept
    seen = " ".join(ev.tiles.name(a.tile) for a in accept for _ in range(a.live))
    dead = ev.plan(EXAMPLE, turns=1, seen=seen)
    assert next(r for r in dead.discards if r.tile == row.tile).win_probability == 0


def test_monte_carlo_of_the_recommended_policy(ev):
    """Play the planner's own policy (Search.choose, the class's argmax) in random walls: the win rate
    lies within 3.3 standard errors (99.9 %) of the exact value (turns 6, a tenpai hand, detour 0)."""
    hand = ev.hand("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子")
    turns = 6
    prep = prepare(ev.rules, Position(hand), turns=turns, objectives=("win",), play="detour", detour=0)
    search = prep.searches["win"]
    exact = search.first_move(prep.start, prep.wall_r, (), prep.W0, turns).value
    rng = random.Random(7)
    tiles = [k for k in range(54) for _ in range(prep.wall[k])]
    position = {k: i for i, k in enumerate(prep.targets.relevant)}
    played, wins = 400, 0
    for _ in range(played):
        rng.shuffle(tiles)
        wins += play(search, prep, [position.get(k) for k in tiles[:turns]])
    rate, p = wins / played, float(exact)
    assert abs(rate - p) <= 3.3 * (p * (1 - p) / played) ** 0.5


def play(search, prep, draws: list[int | None]) -> bool:
    """One game: a draw of no relevant kind is discarded at once; win when complete; else the class's discard."""
    hand, wall = list(prep.start), list(prep.wall_r)
    W = prep.W0
    for n, pos in enumerate(draws):
        left = len(draws) - n - 1
        W -= 1
        if pos is None:
            continue
        hand[pos] += 1
        wall[pos] -= 1
        if not any(hand[search.nr:]) and tuple(hand[:search.nr]) in search.scores:
            return True
        hand[search.choose(tuple(hand), tuple(wall), (), W, left)] -= 1
    return False


# --- そら (fetch mode) -------------------------------------------------------------------------------

def test_sora_use_now_when_the_wait_is_in_the_room(ev):
    """One turn left and a winning tile lying in the waiting room: fetch it now (P(win) = 1)."""
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 そら"
    p = ev.plan(hand, turns=1, waiting_room="美奈子")
    move = p.discards[0].sora
    assert move is not None and move.use_now and ev.tiles.name(move.take) == "美奈子"
    assert move.value_if_waiting == 0 < p.discards[0].win_probability  # without it, h = 2 > 1 draw


def test_sora_waits_when_the_room_holds_nothing_useful(ev):
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 そら"
    p = ev.plan(hand, turns=1, waiting_room="詩花")
    move = p.discards[0].sora
    assert move is not None and not move.use_now and move.take is None


def test_sora_waits_when_fetching_later_is_worth_more(ev):
    """Two draws left, そら held, 春香 and 詩花 in the waiting room: fetching now cannot win at the first
    draw anyway, while waiting keeps the choice of tile until the first draw is seen (and adds the
    player's own discard to the room). The planner's waiting value is that of a real policy (a lower
    bound), and the full tree values every fetch now lower still: waiting is right under all play."""
    text, room_text = "春香 千早 千早 貴音 律子 未来 静香 星梨花 杏奈 莉緒 麗花 そら", "春香 詩花"
    p = ev.plan(text, turns=2, waiting_room=room_text, detour=4, both=False)
    move = p.discards[0].sora
    assert move is not None and not move.use_now and move.take is None
    hand, sora = ev.hand(text), ev.tiles.sora
    room = [0] * 54
    for name in room_text.split():
        room[ev.tile(name)] += 1
    fetched = []
    for name in room_text.split():
        k = ev.tile(name)
        after = list(hand.concealed)
        after[sora], after[k] = after[sora] - 1, after[k] + 1
        left = list(room)
        left[k], left[sora] = left[k] - 1, left[sora] + 1
        fetched.append(real_oracle(ev, Hand(tuple(after)), 2, left)[None])
    assert move.value_if_waiting == p.discards[0].win_probability > max(fetched) > 0


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [dict(turns=0), dict(turns=500), dict(turns=1, objective="money"),
                                    dict(turns=1, detour=-1)])
def test_bad_input_is_an_mj_error(ev, kwargs):
    with pytest.raises(MjError):
        ev.plan(EXAMPLE, **kwargs)


def test_wildcard_sora_is_refused():
    with pytest.raises(MjError, match="wildcard"):
        Evaluator("2019-10").plan(EXAMPLE, turns=1)


# --- the estimate past the exact frontier ---------------------------------------------------------

def test_wilson_interval_of_half():
    low, high = Sampled(100, 50, 0, 0).win_interval()
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert Sampled(10, 0, 0, 0).win_interval()[0] == 0 < Sampled(10, 0, 0, 0).win_interval()[1]


def policy_value(search, policy: Policy, hand, wall, W: int, t: int, memo: dict) -> Fraction:
    """The exact P(win) of the estimate's policy: every draw weighed, the policy's discard after each."""
    key = (hand, tuple(wall), t)
    if t == 0:
        return Fraction(0)
    if key not in memo:
        total, nr = Fraction(0), search.nr
        for pos in range(nr):
            if wall[pos]:
                h = hand[:pos] + (hand[pos] + 1,) + hand[pos + 1:]
                w = list(wall)
                w[pos] -= 1
                if not any(h[nr:]) and h[:nr] in search.scores:
                    total += wall[pos]
                    continue
                x = policy.discard(h, w, t - 1)
                total += wall[pos] * policy_value(search, policy, h[:x] + (h[x] - 1,) + h[x + 1:], w, W - 1, t - 1,
                                                  memo)
        total += (W - sum(wall)) * policy_value(search, policy, hand, wall, W - 1, t - 1, memo)
        memo[key] = total / W
    return memo[key]


def test_estimate_agrees_with_the_exact_value_of_its_policy(ev):
    """Forced past a tiny state limit: each discard's estimate lies within 3.3 standard errors of its
    policy's exact value (computed here over every draw), and never far above the all-play optimum."""
    hand, turns = ev.hand(EXAMPLE), 3
    est = ev.plan(hand, turns=turns, detour=0, both=False, estimate=3000, max_states=1)
    assert est.method == "estimate" and est.games == 3000 and "Monte Carlo" in est.policy_class["win_probability"]
    exact = {r.tile: r.win_probability for r in ev.plan(hand, turns=turns, detour=2, both=False).discards}
    prep = prepare(ev.rules, Position(hand), turns=turns, objectives=("win",), play="detour", detour=0)
    search = prep.searches["win"]
    policy, memo = Policy(search, prep.wall_r), {}
    for row in est.discards:
        pos = prep.positions.index(row.tile)
        root = prep.start[:pos] + (prep.start[pos] - 1,) + prep.start[pos + 1:]
        p = policy_value(search, policy, root, list(prep.wall_r), prep.W0, turns, memo)
        error = 3.3 * (float(p) * (1 - float(p)) / est.games) ** 0.5 + 1e-9
        assert abs(float(row.win_probability) - float(p)) <= error, ev.tiles.name(row.tile)
        assert p <= exact[row.tile]  # a policy never beats the optimum ("all play" at detour 2)
        assert row.win_interval[0] <= float(row.win_probability) <= row.win_interval[1]


def test_estimate_policy_matrices_against_its_plain_definition(ev):
    """Policy.lowest_h (all discards at once by matrices) against the policy's words in plain Python:
    per discard, h over the targets after it, ties by the start's unseen copies of the kinds lowering it."""
    rng = random.Random(3)
    prep = prepare(ev.rules, Position(ev.hand(EXAMPLE)), turns=3, objectives=("win",), play="detour", detour=1)
    search = prep.searches["win"]
    policy, targets, nr = Policy(search, prep.wall_r), [dict(t) for t in search.sparse], search.nr
    for _ in range(150):
        hand = list(prep.start)
        for _ in range(rng.randint(0, 3)):
            hand[rng.choice([i for i in range(nr) if hand[i]])] -= 1
            hand[rng.choice([i for i in range(nr) if hand[i] < 3])] += 1
        hand[rng.choice([i for i in range(nr) if hand[i] < 3])] += 1
        hand = tuple(hand)
        keys = {}
        for x in (x for x in range(nr) if hand[x]):
            kept = hand[:x] + (hand[x] - 1,) + hand[x + 1:]
            costs = [sum(max(0, c - kept[i]) for i, c in t.items()) for t in targets]
            low = min(costs)
            lowering = {i for t, c in zip(targets, costs) if c == low for i, n in t.items() if n > kept[i]}
            keys[x] = (-low, sum(prep.wall_r[i] for i in lowering))
        best = max(keys.values())
        assert policy.lowest_h(hand) == min(x for x, k in keys.items() if k == best)


@pytest.mark.parametrize("native", [False, True])
@pytest.mark.parametrize("rules", ["2019-12", "hitori-jong-2.1"])
def test_the_no_win_score_shared_by_hands_equal_on_their_units_kinds_is_the_oracles(rules, native):
    """NoWinScore shares one search between hands equal on the kinds of the units they hold whole (the pure path),
    or searches each hand in C (planc_nowin.c): on random 12-tile hands, most of them one junk tile apart, every
    score equals the brute-force oracle's packing."""
    import oracle
    from game_checks import oracle_rules

    from solver.planning.targets import NoWinScore

    ev = Evaluator(rules)
    nowin = NoWinScore(ev.rules, (), ev.tile("可奈"), native=native)
    if native and nowin._c is None:
        if os.environ.get("MJ_REQUIRE_NATIVE") == "1":  # (CI: a missing extension fails)
            pytest.fail("MJ_REQUIRE_NATIVE=1 but solver.planning._planc is not built", pytrace=False)
        pytest.skip("solver.planning._planc is not built")
    assert (nowin._c is not None) == native
    units = [u.members for u in ev.rules.units]
    rng = random.Random(12)
    kinds = [k for k in range(len(ev.tiles)) if k != ev.rules.tiles.sora]
    for _ in range(40):
        base = [0] * len(ev.tiles)
        while sum(base) < 11:
            k = rng.choice(kinds)
            base[k] += base[k] < 3
        for extra in rng.sample(kinds, 4):  # the same 11 tiles and a different 12th
            hand = list(base)
            if hand[extra] == 3:
                continue
            hand[extra] += 1
            expected = oracle.best_score(units, hand, [], won=False, ron_tile=None, favourite=ev.tile("可奈"),
                                         rules=oracle_rules(ev), sora=ev.rules.tiles.sora)
            assert nowin.score(tuple(hand)) == expected
