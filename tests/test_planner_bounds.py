"""The bracket past the optimum's budget (issue 22, solver/planning/bounds.py): the upper bound against an
independent count of the perfect-information relaxation over explicit tile copies, and lower <= optimum <= upper."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from oracle import best_score
from oracle_optimal import explicit_value
from oracle_planner import nearest_value
from synthetic import BASE_SETTINGS, deals, games, random_real_hands, seen_counts

from solver import Evaluator, MjError
from solver.planning import plan as plan_module
from solver.planning import sampled_lower
from solver.planning.targets import OutOfTime, TooLarge


def relaxation(game, rules, hand13, hand12, seen, turns) -> Fraction:
    """P(the 12 tiles kept and the next `turns` draws hold a complete hand): every t-subset of the wall's physical
    copies (not the 13-tile hand's, not seen; the discard is out of play), every sub-multiset of hand + draws of
    the hand's size tried with the oracle's scorer."""
    K = game.K
    wall = [k for k in range(K) for _ in range(3 - hand13[k] - seen[k])]
    size = rules["hand_size"]
    complete_cache: dict = {}

    def holds_complete(pool) -> bool:
        key = tuple(pool)
        if key not in complete_cache:
            ranges = [range(n + 1) for n in pool]
            complete_cache[key] = any(
                sum(c) == size and best_score(list(game.units), list(c), [], won=True, ron_tile=None, favourite=None,
                                              rules=rules, sora=game.sora) is not None
                for c in itertools.product(*ranges))
        return complete_cache[key]

    hits = total = 0
    for draws in itertools.combinations(range(len(wall)), turns):
        pool = list(hand12)
        for i in draws:
            pool[wall[i]] += 1
        total += 1
        hits += holds_complete(pool)
    return Fraction(hits, total)


def lookahead_oracle(game, rules, hand13, seen, turns, discard) -> Fraction:
    """One-step lookahead on the class nearest (lookahead.py), from nearest's literal oracle: discard, draw each
    live copy, win if complete, else the best of nearest's values restarted from the 13 tiles (discard seen)."""
    gone = list(seen)
    gone[discard] += 1
    kept = list(hand13)
    kept[discard] -= 1
    total, W = Fraction(0), 0
    for x in range(game.K):
        n = 3 - kept[x] - gone[x]
        if n <= 0:
            continue
        W += n
        drawn = list(kept)
        drawn[x] += 1
        if best_score(list(game.units), drawn, [], won=True, ron_tile=None, favourite=None, rules=rules,
                      sora=game.sora) is not None:
            total += n
            continue
        values = nearest_value(list(game.units), drawn, [], seen=gone, turns=turns - 1, objective="win",
                               rules=rules, sora=game.sora)
        total += n * max(values.values())
    return total / W


def forced_bounds(monkeypatch):
    """The optimum's exact search stops at once (as past its budget): the plan answers its bracket."""
    original = plan_module.exact_plan

    def exact_plan(rules, request, progress, deadline, prep=None, pace=False):
        if request.play == "optimal" and request.objective == "win":
            raise TooLarge("forced past the budget (test)")
        return original(rules, request, progress, deadline, prep, pace)
    monkeypatch.setattr(plan_module, "exact_plan", exact_plan)
    # the lower side stays exact here (the estimate's policy's sampled values: tests/test_sampled_lower.py)
    monkeypatch.setattr(sampled_lower, "raise_rows", lambda rules, request, rows, clock=None: (rows, 0, 0))
    score_plan = plan_module.score_plan  # P(win) by the search with every fetch (a そら held) stops too

    def no_win_by_fetch(rules, request, prep, progress, deadline, deep=None):
        return None if request.objective == "win" else score_plan(rules, request, prep, progress, deadline, deep)
    monkeypatch.setattr(plan_module, "score_plan", no_win_by_fetch)


def small_game(data, param: str):
    """A small game without そら, a 13-tile-like hand, seen tiles and 1-3 turns: (game, deal, seen, evaluator, the
    oracle's rules, turns, the seen tiles' names)."""
    game = data.draw(games(min_kinds=4, max_kinds=5, max_units=6, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    deal = data.draw(deals(game, size=game.hand_size, max_called=0))
    seen = data.draw(st.one_of(st.just((0,) * game.K), seen_counts(game, deal)))
    names = [f"k{k}" for k, n in enumerate(seen) for _ in range(n)]
    return game, deal, seen, game.evaluator(param), game.oracle_rules(param), data.draw(st.integers(1, 3)), names


@BASE_SETTINGS
@given(st.data())
def test_bracket_holds_the_optimum(data):
    """Past the budget: lower = the better of the class nearest's exact value (its literal oracle) and the
    one-step lookahead on it (its oracle above), upper = the relaxation counted over explicit copies, and
    lower <= the explicit-copy optimum <= upper on every row."""
    game, deal, seen, ev, rules, turns, names = small_game(data, "2019-12")
    with pytest.MonkeyPatch.context() as patch:
        forced_bounds(patch)
        try:
            p = ev.plan(deal.hand, turns=turns, seen=names, both=False, seconds=None)
        except MjError:
            return
    assert p.method == "bounds" and p.stopped == "forced past the budget (test)"
    best = explicit_value(list(game.units), list(deal.concealed), seen=list(seen), turns=turns, objective="win",
                          rules=rules, sora=game.sora)
    near = nearest_value(list(game.units), list(deal.concealed), [], seen=list(seen), turns=turns, objective="win",
                         rules=rules, sora=game.sora)
    for row in p.discards:
        kept = list(deal.concealed)
        kept[row.tile] -= 1
        ahead = lookahead_oracle(game, rules, deal.concealed, seen, turns, row.tile) if turns >= 2 else 0
        assert row.win_probability == max(near[row.tile], ahead)
        assert row.upper == relaxation(game, rules, deal.concealed, kept, seen, turns)
        assert row.win_probability <= best[row.tile] <= row.upper
    gap = p.discards[0].win_probability >= max((r.upper for r in p.discards[1:]), default=0)
    assert p.separated == gap


@BASE_SETTINGS
@given(st.data())
def test_rows_the_clock_leaves_get_the_13_tiles_relaxation(data):
    """The relaxation's count stopped right after the 13 tiles before the discard (counted first): every row's
    upper bound is that count, the oracle's relaxation of the 13 tiles, at least the row's own relaxation and the
    explicit-copy optimum."""
    from solver.planning import bounds

    game, deal, seen, ev, rules, turns, names = small_game(data, "2019-12")
    calls, real = [], bounds.win_upper

    def first_only(*args, **kwargs):
        calls.append(1)
        if len(calls) > 1:
            raise OutOfTime("the upper bound passed its time budget (test)")
        return real(*args, **kwargs)
    with pytest.MonkeyPatch.context() as patch:
        forced_bounds(patch)
        patch.setattr(bounds, "win_upper", first_only)
        try:
            p = ev.plan(deal.hand, turns=turns, seen=names, both=False, seconds=None)
        except MjError:
            return
    assume(len(calls) > 1)  # (one discard kind alone: no count of the 13 tiles first)
    best = explicit_value(list(game.units), list(deal.concealed), seen=list(seen), turns=turns, objective="win",
                          rules=rules, sora=game.sora)
    whole = relaxation(game, rules, deal.concealed, list(deal.concealed), seen, turns)
    for row in p.discards:
        kept = list(deal.concealed)
        kept[row.tile] -= 1
        assert row.upper == whole >= relaxation(game, rules, deal.concealed, kept, seen, turns) >= best[row.tile]


@BASE_SETTINGS
@given(st.data())
def test_where_the_optimum_is_not_started_the_bracket_lists_the_hands_itself(data):
    """The rough count refuses the optimum (as at 5 draws of a real hand): within RELIST_TURNS the bracket lists the
    complete hands for its upper bound itself, and it is the relaxation counted over explicit copies."""
    game, deal, seen, ev, rules, turns, names = small_game(data, "hitori-jong-2.1")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plan_module, "rough_states", lambda *args: 10**12)
        try:
            p = ev.plan(deal.hand, turns=turns, seen=names, both=False, seconds=None)
        except MjError:
            return
    assert p.method in ("bounds", "estimate") and "would visit about" in p.stopped  # (estimate: a lower row sampled)
    for row in p.discards:
        kept = list(deal.concealed)
        kept[row.tile] -= 1
        assert row.upper == relaxation(game, rules, deal.concealed, kept, seen, turns)


def test_lower_below_upper_on_real_positions():
    """Real hands (both rule sets, seen tiles, a called unit now and then) past a small state limit: every row's
    lower bound lies below its upper bound, and the recommended row is the best lower bound."""
    checked = 0
    for name in ("2019-12", "hitori-jong-2.1"):
        ev = Evaluator(name)
        for hand, seen in random_real_hands(ev, 6, seed=22):
            names = [ev.tiles.name(k) for k, n in enumerate(seen) for _ in range(n)]
            try:
                p = ev.plan(hand, turns=3, seen=names, both=False, max_states=200)
            except MjError:
                continue
            assert p.method in ("optimal", "bounds")
            for row in p.discards:
                assert row.upper is not None and row.win_probability <= row.upper <= 1
            assert p.recommended.win_probability == max(r.win_probability for r in p.discards)
            checked += 1
    assert checked >= 6


@BASE_SETTINGS
@given(st.data())
def test_lookahead_falls_back_per_draw(data):
    """Where a drawn tile's restarted plan passes its limits, that draw is valued by discarding it at once (out
    of play) and playing nearest from the 12 tiles: the value is the oracle's sum over draws of that."""
    from solver.planning.lookahead import lookahead_value
    from solver.planning.plan import exact_plan
    from solver.planning.request import PlanRequest, Position

    game = data.draw(games(min_kinds=4, max_kinds=5, max_units=6, max_unit_size=3, hand_sizes=(3, 4), sora=False))
    deal = data.draw(deals(game, size=game.hand_size, max_called=0))
    ev = game.evaluator("2019-12")
    rules = game.oracle_rules("2019-12")
    turns = data.draw(st.integers(2, 3))
    discard = data.draw(st.sampled_from([k for k in range(game.K) if deal.concealed[k]]))

    def solve(sub, deadline):
        if sum(sub.position.hand.concealed) == game.hand_size:
            raise TooLarge("every 13-tile plan refused (test)")
        return exact_plan(ev.rules, sub, None, deadline)
    request = PlanRequest(Position(deal.hand, (0,) * game.K), turns, both=False)
    got = lookahead_value(ev.rules, request, discard, solve, None)
    kept = list(deal.concealed)
    kept[discard] -= 1
    total, W = Fraction(0), 0
    for x in range(game.K):
        n = 3 - kept[x] - (x == discard)
        if n > 0:
            W += n
            gone = [int(k == discard) + int(k == x) for k in range(game.K)]
            total += n * nearest_value(list(game.units), kept, [], seen=gone, turns=turns - 1, objective="win",
                                       rules=rules, sora=game.sora)[None]
    assert got == total / W


def test_lookahead_stops_at_its_clock():
    """With no time the rows stay the base's, and the label says nothing of a lookahead."""
    ev = Evaluator("2019-12")
    hand, _ = next(iter(random_real_hands(ev, 1, seed=7)))
    from solver.planning import lookahead

    with pytest.MonkeyPatch.context() as patch:
        forced_bounds(patch)
        slow = ev.plan(hand, turns=3, both=False, seconds=None)
        patch.setattr(lookahead, "SECONDS", 1e-9)
        fast = ev.plan(hand, turns=3, both=False)
    assert fast.method == slow.method == "bounds"
    assert "lookahead" not in fast.policy_class["win_probability"]
    assert "lookahead" in slow.policy_class["win_probability"]
    assert all(a.win_probability <= b.win_probability for a, b in
               zip(sorted(fast.discards, key=lambda r: r.tile), sorted(slow.discards, key=lambda r: r.tile)))


def test_no_lookahead_with_a_fetching_sora_in_hand():
    """A fetch-mode そら in hand could fetch before the first draw, which the lookahead does not model: the label
    says no lookahead, and the rows are the class nearest's, raised only where the deepening with every fetch
    (fetch_within.py) finds more (here, with no clock, to its last level: the optimum)."""
    from solver.planning.fetch_within import Deepening

    ev = Evaluator("2019-12")
    with_sora = "そら 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子"
    with pytest.MonkeyPatch.context() as patch:
        forced_bounds(patch)
        got = ev.plan(with_sora, turns=2, both=False, seconds=None)
    near = {r.tile: r.win_probability for r in ev.plan(with_sora, turns=2, both=False, nearest=True,
                                                        seconds=None).discards}
    deep = Deepening(ev.rules, ev.plan_request_of(with_sora, 2, both=False, seconds=None))
    deep.deepen(None)
    assert "lookahead" not in got.policy_class["win_probability"] and deep.optimal
    assert {r.tile: r.win_probability for r in got.discards} == {t: max(v, deep.found[1][t][0])
                                                               for t, v in near.items()}
    assert any(deep.found[1][t][0] > v for t, v in near.items())


def test_the_fetch_search_does_not_eat_the_optimums_budget():
    """Where the search with every fetch spends its whole share of the budget and gives up, the no-fetch optimum
    still gets a share of its own: the bracket's lower side is that optimum (plus the そら slack above), not the
    class nearest."""
    import time

    ev = Evaluator("2019-12")
    hand = "ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜"
    seconds = 3.0

    def refused(rules, request, prep, progress, deadline, deep=None, why=None, wait=False):
        if wait:
            time.sleep(max(0.0, deadline - time.monotonic()))
        return None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plan_module, "score_plan", lambda *a: refused(*a, wait=True))
        got = ev.plan(hand, turns=3, both=False, seconds=seconds)
        patch.setattr(plan_module, "score_plan", refused)
        at_once = ev.plan(hand, turns=3, both=False, seconds=seconds)
    assert got.method == "bounds"
    label = got.policy_class["win_probability"]
    assert "nearest" not in label and "plus the chance" in label
    assert [(r.tile, r.win_probability, r.upper) for r in got.discards] == \
        [(r.tile, r.win_probability, r.upper) for r in at_once.discards]


def test_past_nearest_too_the_default_still_answers():
    """Where the class nearest also passes its limits, the default answers with the estimate of nearest's policy
    (labelled, intervals, DEFAULT_GAMES walls) beside the proved upper bounds, not an error; a class asked for still
    stops with its error."""
    from solver.planning.request import DEFAULT_GAMES

    ev = Evaluator("hitori-jong-2.1")
    hand = "春香 千早 貴音 律子 律子 美奈子 杏奈 百合子 亜利沙 亜利沙 志保 志保 ひなた"
    original = plan_module.exact_plan

    def refused(rules, request, progress, deadline, prep=None, pace=False):
        if request.objective == "win":
            raise TooLarge("forced past the budget (test)")
        return original(rules, request, progress, deadline, prep, pace)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plan_module, "exact_plan", refused)
        got = ev.plan(hand, turns=3, both=False)
        with pytest.raises(MjError, match="forced past the budget"):
            ev.plan(hand, turns=3, both=False, nearest=True)
    assert got.method == "estimate" and got.games == DEFAULT_GAMES
    for row in got.discards:
        low, high = row.win_interval
        assert low <= row.win_probability <= high and row.win_probability <= row.upper


def test_relaxation_past_its_clock_keeps_the_discards_it_reached():
    """The relaxation stopped by its clock after the 13 tiles before the discard and two discards: those two (the
    best lower bounds) keep their bound, the same as with no clock, every other discard gets the 13 tiles' bound (at
    least each one's own, below 1), and the label says how many were not reached."""
    from solver.planning import bounds

    ev = Evaluator("hitori-jong-2.1")
    hand = "春香 千早 貴音 律子 律子 美奈子 杏奈 百合子 亜利沙 亜利沙 志保 志保 ひなた"
    with pytest.MonkeyPatch.context() as patch:
        forced_bounds(patch)
        whole = ev.plan(hand, turns=3, both=False, seconds=None)
        counted, win_upper = [], bounds.win_upper

        def two_then_clock(*args, **kwargs):
            if len(counted) == 3:  # (the 13 tiles, then two discards)
                raise OutOfTime("the upper bound passed its time budget (test)")
            counted.append(1)
            return win_upper(*args, **kwargs)
        patch.setattr(bounds, "win_upper", two_then_clock)
        cut = ev.plan(hand, turns=3, both=False, seconds=None)
    assert whole.method == cut.method == "bounds" and all(r.upper < 1 for r in whole.discards)
    reached = [r.tile for r in whole.discards[:2]]  # (best lower bounds first: the order the relaxation takes)
    upper = {r.tile: r.upper for r in whole.discards}
    spread = {row.upper for row in cut.discards if row.tile not in reached}
    assert len(spread) == 1 and max(upper.values()) <= min(spread) < 1
    for row in cut.discards:
        assert row.tile not in reached or row.upper == upper[row.tile]
    assert f"for the {len(cut.discards) - 2} discards it did not reach" in cut.policy_class["win_probability"]
    assert "the relaxation of the 13 tiles before the discard" in cut.policy_class["win_probability"]


def test_a_paced_plan_gives_up_once_its_first_discards_show_it_cannot_finish(monkeypatch):
    """first_moves with a pace: a first discard that took 0.5 s of a 1 s deadline, with 3 left at half that each,
    gives up at once (OutOfTime); with a far deadline every discard is valued."""
    from solver.planning import search_plan

    clock = [0.0]
    monkeypatch.setattr(search_plan.time, "monotonic", lambda: clock[0])

    class Slow:
        visited, deadline = 7, None

        def first_move(self, *args):
            clock[0] += 0.5
            return "move"

        def splits(self, turns):  # (the search's first draw never in parts here: the roots are paced)
            return False

    class Prep:
        wall_r, W0 = (), 0
    roots = [((), ())] * 4
    with pytest.raises(OutOfTime, match="1 of 4 discards valued"):
        search_plan.first_moves(Prep, Slow(), roots, 3, lambda: None, pace=1.0)
    clock[0] = 0.0
    assert search_plan.first_moves(Prep, Slow(), roots, 3, lambda: None, pace=10.0) == ["move"] * 4


def test_a_paced_root_still_running_when_it_is_already_behind_gives_up_then(monkeypatch):
    """A root's search gets the pace's own deadline (clock.root_deadline): (1 + a * 0) / (1 + a), a = 3 * 0.5, so
    0.4 s of a 1 s budget for the first of 4 discards. A search that checks it gives up there, not at the end of
    the budget; the search's own deadline is put back; a root that finishes by it is valued as before."""
    from solver.planning import clock as clock_module
    from solver.planning import search_plan

    clock = [0.0]
    monkeypatch.setattr(search_plan.time, "monotonic", lambda: clock[0])
    assert clock_module.root_deadline(0.0, 0, 3, 1.0) == pytest.approx(0.4)
    assert clock_module.root_deadline(0.0, 2, 0, 1.0) == 1.0  # (the last root: the budget's end)

    class Checked:
        visited = 3

        def __init__(self, step, deadline=None):
            self.step, self.deadline, self.asked = step, deadline, []

        def first_move(self, *args):
            self.asked.append(self.deadline)
            for _ in range(10):  # (a search reads the clock as it goes)
                clock[0] += self.step / 10
                if self.deadline is not None and clock[0] > self.deadline:
                    raise OutOfTime("the search's deadline")
            return "move"

        def splits(self, turns):
            return False

    class Prep:
        wall_r, W0 = (), 0
    roots = [((), ())] * 4
    slow = Checked(0.9)
    with pytest.raises(OutOfTime, match="0 of 4 discards valued"):
        search_plan.first_moves(Prep, slow, roots, 3, lambda: None, pace=1.0)
    assert clock[0] == pytest.approx(0.45) and slow.asked == [pytest.approx(0.4)] and slow.deadline is None
    clock[0] = 0.0
    quick = Checked(0.1, deadline=5.0)
    assert search_plan.first_moves(Prep, quick, roots, 3, lambda: None, pace=5.0) == ["move"] * 4
    assert quick.deadline == 5.0
    clock[0] = 0.0
    own = Checked(0.9, deadline=0.2)  # (its own deadline first: its own OutOfTime, as before)
    with pytest.raises(OutOfTime, match="the search's deadline"):
        search_plan.first_moves(Prep, own, roots, 3, lambda: None, pace=1.0)


def test_the_no_fetch_optimum_plus_the_sora_slack_meets_the_relaxation_per_row():
    """QA: where the no-fetch optimum answers (a そら live, none held) its rows' bound, that optimum plus the chance of
    a そら in time, was kept even where the relaxation proves less (0.0675 against 0.0126 on a 4-draw hand). Each row
    now gets the lesser of the two, both proved: at least the optimum, equal to the lesser of each computed alone."""
    from fractions import Fraction

    from solver.planning import bracket

    ev = Evaluator("2019-12")
    hand = "ジュリア 翼 静香 詩花 可奈 詩花 ジュリア 星梨花 環 星梨花 美也 静香 茜"
    optimum = {r.tile: r.win_probability for r in ev.plan(hand, turns=3, both=False, seconds=None).discards}
    relaxed = {r.tile: r.upper for r in ev.plan(hand, turns=3, both=False, max_states=1, seconds=None).discards}
    real = bracket.relaxed_uppers

    def not_counted(request, lower, *args, **kwargs):
        return {r.tile: Fraction(1) for r in lower.discards}, "1 (test)", None, None
    with pytest.MonkeyPatch.context() as patch:  # (the search with every fetch refused: the no-fetch optimum)
        patch.setattr(plan_module, "score_plan", lambda *a, **k: None)
        got = ev.plan(hand, turns=3, both=False, seconds=None)
        patch.setattr(bracket, "relaxed_uppers", not_counted)
        slack = {r.tile: r.upper for r in ev.plan(hand, turns=3, both=False, seconds=None).discards}
    assert bracket.relaxed_uppers is real and "plus the chance" in got.policy_class["win_probability"]
    for row in got.discards:
        assert row.upper == min(slack[row.tile], relaxed[row.tile]) and optimum[row.tile] <= row.upper
    assert sum(relaxed[t] < s for t, s in slack.items()) >= 2  # (here 5 of 9 rows)
    assert "per discard the lesser of" in got.policy_class["win_probability"]


def test_a_sample_outranks_a_proved_value_only_where_its_interval_lies_above_it():
    """QA: a sampled 3.50 % (2.53-4.83 %) was recommended over exact rows of 3.39 %, and its row's optimum was the
    least of all. Mixed rows rank a sample at its interval's lower end; among samples alone (the same walls) the point
    estimates decide; an exact value replaces a sample that does not prove more (answer.proves_more)."""
    from fractions import Fraction

    from solver.planning.answer import DiscardPlan, proves_more, ranked

    exact = DiscardPlan(1, Fraction(339, 10000), None, 1, 2, upper=Fraction(6, 100))
    lucky = DiscardPlan(2, 0.035, None, 1, 2, win_interval=(0.0253, 0.0483), upper=Fraction(6, 100))
    sure = DiscardPlan(3, 0.045, None, 1, 2, win_interval=(0.036, 0.055), upper=Fraction(6, 100))
    assert [r.tile for r in ranked([lucky, exact], "win")] == [1, 2]
    assert [r.tile for r in ranked([lucky, exact, sure], "win")] == [3, 1, 2]
    wide = DiscardPlan(4, 0.5, 100, 1, 2, score_interval=(50, 150))
    narrow = DiscardPlan(5, 0.5, 90, 1, 2, score_interval=(85, 95))
    assert [r.tile for r in ranked([narrow, wide], "score")] == [4, 5]  # (samples alone: by their means)
    assert proves_more(0.03, None, None) and proves_more(0.03, 0.02, None) and not proves_more(0.02, 0.03, None)
    assert proves_more(0.03, 0.035, (0.0253, 0.0483)) and not proves_more(0.02, 0.035, (0.0253, 0.0483))


def test_a_held_sora_is_discarded_last_among_rows_tied_on_every_proved_number():
    """QA: rows tied at a shallow level of the deepening went to the other objective, sampled from a policy that never
    fetches (it favours discarding そら), and そら, whose optimum was the least of the 13, was recommended."""
    from fractions import Fraction

    from solver.planning.answer import DiscardPlan, ranked

    tie, upper = Fraction(46, 1000), Fraction(1035, 10000)
    sora = DiscardPlan(0, tie, 9160, 2, 42, upper=upper, score_interval=(8791, 9529))
    nao = DiscardPlan(5, tie, 8740, 2, 31, upper=upper, score_interval=(8478, 9002))
    better = DiscardPlan(0, tie + Fraction(1, 1000), 100, 2, 42, upper=upper)
    assert [r.tile for r in ranked([sora, nao], "win", last=0)] == [5, 0]
    assert [r.tile for r in ranked([sora, nao], "win")] == [0, 5]  # (no そら held: the other objective decides)
    assert [r.tile for r in ranked([nao, better], "win", last=0)] == [0, 5]  # (a proved difference still decides)


def test_a_row_fetching_its_discard_back_ranks_with_the_sora_discard_and_a_placeholder_bound_breaks_no_tie():
    """QA (one そら, a waiting room, 3 draws): every row tied at a shallow level of the deepening, and the tie went to
    a row whose bound was the placeholder 1 of the rows the relaxation did not reach, its advice to fetch its own
    discard back: the hand and room of discarding そら, the worst row by the optimum."""
    from dataclasses import replace
    from fractions import Fraction

    from solver.planning.answer import DiscardPlan, SoraMove, ranked, sora_like

    tie = Fraction(1749, 10000)
    back = DiscardPlan(7, tie, None, 1, 9, sora=SoraMove(True, 7, tie, tie / 2), upper=Fraction(1), upper_own=False)
    kana = DiscardPlan(3, tie, None, 1, 9, sora=SoraMove(True, 4, tie, tie / 2), upper=Fraction(59, 100))
    umi = DiscardPlan(2, tie, None, 1, 9, upper=Fraction(1), upper_own=False)
    assert sora_like(back, 0) and not sora_like(kana, 0) and not sora_like(back, None)
    assert [r.tile for r in ranked([back, umi, kana], "win", last=0)] == [3, 2, 7]
    assert [r.tile for r in ranked([back, umi, kana], "win")] == [3, 7, 2]  # (no そら held: 7's fetch is no fetch back)
    ahead = replace(back, win_probability=tie + Fraction(1, 10 ** 6))
    assert [r.tile for r in ranked([kana, ahead], "win", last=0)] == [7, 3]  # (a proved difference still decides)


def test_separated_is_said_for_e_score_too_and_not_for_a_sampled_best_row():
    """QA: with --objective score `separated` was always null; it is claimed on the objective's own column, never
    where the best row's value is sampled."""
    from dataclasses import replace
    from fractions import Fraction

    from solver.planning.answer import DiscardPlan
    from solver.planning.bounds import separated

    best = DiscardPlan(1, Fraction(1, 10), 13753, 1, 2, upper=Fraction(3, 10), score_upper=24000)
    other = DiscardPlan(2, Fraction(2, 10), 9000, 1, 2, upper=Fraction(25, 100), score_upper=13000)
    assert separated([best, other], "score") is True and separated([best, other], "win") is False
    assert separated([best, replace(other, score_upper=24000)], "score") is False
    sampled = DiscardPlan(1, Fraction(1, 10), 13753, 1, 2, score_interval=(13000, 14500), score_upper=24000)
    assert separated([sampled, other], "score") is None
    assert separated([best, DiscardPlan(2, Fraction(2, 10), 9000, 1, 2)], "score") is None  # (no bound: not said)
