"""`--seconds` as the whole answer's budget (solver/planning/clock.py): every step of a plan gets a deadline
within the request's end, and an estimate the clock stops is a prefix of the full sample, labelled so."""

from __future__ import annotations

import time

import pytest

from solver import Evaluator
from solver.planning import bracket, clock, estimate, lookahead, sampled_lower, sampled_upper, side
from solver.planning import plan as plan_module
from solver.planning.prepare import prepare, root_states
from solver.planning.request import Limits, PlanRequest, Position
from solver.planning.targets import OutOfTime, TooLarge

HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"  # seed 000's hand (h = 1)


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


@pytest.mark.parametrize("native", [True, False])
def test_a_sample_stopped_by_the_clock_is_a_prefix_of_the_full_one(ev, native, monkeypatch):
    """Past the deadline the sample stops at the first whole batch with at least `least` walls, and every discard
    has exactly the outcomes of a run asked for that many walls (the same walls, in the same order)."""
    if not native:
        monkeypatch.setattr(estimate, "_estimatec", None)
    position = Position(ev.hand(HAND))
    prep = prepare(ev.rules, position, turns=12, objectives=("score",), play="nearest", state_limit=10 ** 6)
    _, roots = root_states(prep, ev.rules, position)
    args = (prep.searches["score"], [r for r, _ in roots], prep.wall_r, prep.W0, 12)
    stopped = estimate.simulate(*args, 350, 7, deadline=time.monotonic() - 1, least=150)
    assert {s.games for s in stopped} == {2 * estimate.BATCH}
    assert stopped == estimate.simulate(*args, 2 * estimate.BATCH, 7)
    assert estimate.simulate(*args, 350, 7, deadline=time.monotonic() + 600)[0].games == 350


def test_a_stopped_sample_draws_only_the_walls_it_plays(ev, monkeypatch):
    """QA: a million walls asked were all drawn before the first look at the clock (25 s past a 1 s budget); a
    batch's walls are now drawn when it starts."""
    drawn = []

    class Counting(estimate.random.Random):
        def sample(self, population, k, **kwargs):
            drawn.append(k)
            return super().sample(population, k, **kwargs)

    monkeypatch.setattr(estimate.random, "Random", Counting)
    position = Position(ev.hand(HAND))
    prep = prepare(ev.rules, position, turns=12, objectives=("score",), play="nearest", state_limit=10 ** 6)
    _, roots = root_states(prep, ev.rules, position)
    args = (prep.searches["score"], [r for r, _ in roots], prep.wall_r, prep.W0, 12)
    stopped = estimate.simulate(*args, 10 ** 6, 7, deadline=time.monotonic() - 1, least=150)
    assert stopped[0].games == len(drawn) == 2 * estimate.BATCH


def test_an_estimate_the_clock_stopped_says_how_far_it_got(ev, monkeypatch):
    """Where nearest passes its limits and the budget is gone, the estimate still answers with its least walls,
    labelled with how many of how many; without a clock the same request plays them all."""
    def refused(*args, **kwargs):
        raise TooLarge("forced past the budget (test)")
    monkeypatch.setattr(plan_module, "exact_plan", refused)
    request = PlanRequest(Position(ev.hand(HAND)), 12, play="nearest", both=False,
                          limits=Limits(seconds=1e-6, estimate=1000))  # (gone at once)
    got = plan_module.plan(ev.rules, request)
    assert got.method == "estimate" and got.games == clock.LEAST_GAMES
    assert f"stopped it at {clock.LEAST_GAMES} of 1000" in got.policy_class["win_probability"]
    full = plan_module.plan(ev.rules, PlanRequest(request.position, 12, play="nearest", both=False,
                                                  limits=Limits(seconds=None, estimate=1000)))
    assert full.games == 1000 and "stopped" not in full.policy_class["win_probability"]


@pytest.mark.parametrize("turns", [3, 12, 28])
def test_every_step_is_due_by_the_requests_end(ev, turns, monkeypatch):
    """Each step of the default plan (both objectives) that takes a deadline gets one, no later than the request's
    end: the answer is due by then, plus the least work that always answers."""
    ends, seen = [], []
    original = clock.Clock.__init__

    def start(self, seconds, end=None):
        original(self, seconds, end)
        if seconds is not None:  # (a part of the request's clock is made from it, with no seconds of its own)
            ends.append(self.end)
    monkeypatch.setattr(clock.Clock, "__init__", start)

    def spy(module, name, position):
        def wrapped(*args, **kwargs):
            given = kwargs.get("deadline", args[position] if len(args) > position else None)
            seen.append((name, given))
            return real(*args, **kwargs)
        real = getattr(module, name)
        monkeypatch.setattr(module, name, wrapped)
    # (every step in this process, so that each is seen: a step in a forked child calls the spy over there, and
    # which steps fork depends on the machine's timing, which once made this test flaky)
    monkeypatch.setattr(side, "can_split", lambda: False)
    spy(plan_module, "exact_plan", 3)
    spy(plan_module, "score_plan", 4)
    spy(bracket, "relaxed_uppers", 5)
    spy(sampled_upper, "with_sampled_uppers", 3)
    spy(sampled_lower, "raise_rows", 3)
    spy(lookahead, "improve", 4)
    plan_module.plan(ev.rules, PlanRequest(Position(ev.hand(HAND)), turns, limits=Limits(seconds=2.0)))
    assert len(ends) == 1
    assert {"exact_plan", "relaxed_uppers", "with_sampled_uppers"} <= {name for name, _ in seen} if turns > 3 \
        else "score_plan" in {name for name, _ in seen}
    assert all(given is not None and given <= ends[0] + 1e-9 for _, given in seen), seen


def test_the_other_column_is_never_left_empty(ev, monkeypatch):
    """Where every exact search of the other objective passes its limits and the first one's values are exact (so
    no sampled values of it stand by), its column is nearest's policy sampled, labelled and with its intervals."""
    original = plan_module.exact_plan

    def exact_plan(rules, request, progress, deadline, prep=None, pace=False):
        if request.objective == "score":
            raise TooLarge("forced past the budget (test)")
        return original(rules, request, progress, deadline, prep, pace)
    monkeypatch.setattr(plan_module, "exact_plan", exact_plan)
    monkeypatch.setattr(plan_module, "score_plan", lambda *args: None)
    got = plan_module.plan(ev.rules, PlanRequest(Position(ev.hand(HAND)), 6, limits=Limits(seconds=None)))
    assert got.method == "bounds" and "sampled walls" in got.policy_class["expected_score"]
    for row in got.discards:
        low, high = row.score_interval
        assert low <= row.expected_score <= high
        assert row.win_interval is None or "estimate's policy" in got.policy_class["win_probability"]


def test_stopped_says_why_the_other_columns_optimum_stopped(ev, monkeypatch):
    """P(win) over all play, E[score]'s optimum stopped: `stopped` names that column and its reason (QA: it was null,
    the reason only in policy_class); where both finish it stays null."""
    from solver.planning import score_optimum

    request = PlanRequest(Position(ev.hand(HAND)), 2, limits=Limits(seconds=None))
    assert plan_module.plan(ev.rules, request).stopped is None

    def stops(*args, **kwargs):
        raise OutOfTime("forced past its budget (test)")
    monkeypatch.setattr(score_optimum, "score_optimum", stops)
    got = plan_module.plan(ev.rules, request)
    assert got.methods == {"win_probability": "optimal", "expected_score": "bounds"}
    assert got.stopped == "E[score] over all play: forced past its budget (test)"


def test_a_relaxation_its_share_stopped_is_tried_again_on_the_time_left(ev, monkeypatch):
    """A slower run of this hand at 4 draws (5 s) had every upper bound 1, its relaxation stopped by its share,
    and answered 1.1 s early. Where the first count is cut, the time the lower side leaves counts it again: the
    same bounds as with no clock, the sampled estimates of a bound dropped where a bound below 1 is proved, and
    the plain note."""
    real, calls = bracket.relaxed_uppers, []

    def cut_first(request, lower, *args, **kwargs):
        calls.append(args)
        uppers, note, context, cut = real(request, lower, *args, **kwargs)
        if len(calls) == 1:  # (as the clock would: the first 3 rows reached)
            reached = [r.tile for r in lower.discards[:3]]
            return ({t: uppers[t] if t in reached else 1 for t in uppers}, note + "; 1 for the rest (cut)",
                    {t: context[t] for t in reached}, frozenset(reached))
        return uppers, note, context, cut
    monkeypatch.setattr(bracket, "relaxed_uppers", cut_first)
    listings, lister = [], bracket.relaxation_inputs
    monkeypatch.setattr(bracket, "relaxation_inputs", lambda *args: listings.append(1) or lister(*args))
    got = ev.plan(HAND, turns=3, max_states=1, seconds=60)  # (the bracket: past the states, the hands relisted)
    assert got.method in ("bounds", "estimate") and len(calls) == 2  # (past one state, the lower side sampled)
    assert len(listings) == 1  # (the second count reads the first's inputs)
    assert len(calls[1][-3]) == 3  # (the rows the first count reached are not counted again)
    monkeypatch.setattr(bracket, "relaxed_uppers", real)
    plain = {r.tile: r for r in ev.plan(HAND, turns=3, max_states=1, seconds=None).discards}
    assert all(r.upper < 1 for r in plain.values())
    for row in got.discards:
        assert row.upper == plain[row.tile].upper and row.score_upper == plain[row.tile].score_upper
        assert row.upper_estimate is None and row.win_probability <= row.upper
    label = got.policy_class["win_probability"]
    assert "upper = " + bracket.UPPER in label and "not computed" not in label and "sampled over" not in label


def test_a_sampled_p_win_beside_e_score_stays_within_its_proved_bound(ev):
    """QA: sorted by E[score], the P(win) column sampled (100 walls: 1/100) lay above the bracket's proved upper
    bound (551/162448 on そら), which the bracket brings down for a P(win) plan, and its label had lost the bounds'
    note ("upper = ...")."""
    hand = "やよい 未来 琴葉 まつり 茜 紗代子 亜利沙 海美 志保 このみ 風花 美也 そら"
    got = ev.plan(hand, 3, seen="亜美 瑞希 紬", waiting_room="伊織 翼", objective="score", seconds=None, max_states=1)
    assert any(r.win_interval is not None for r in got.discards)  # (past one state: P(win) sampled)
    assert all(r.upper is not None and r.win_probability <= r.upper for r in got.discards)
    assert all(r.win_interval[1] <= float(r.upper) for r in got.discards if r.win_interval is not None)
    assert "; upper = " in got.policy_class["win_probability"]


def test_rows_the_relaxation_does_not_reach_get_the_13_tiles_bound(ev, monkeypatch):
    """The 13 tiles before the discard are counted first: each row's pool (the 12 tiles kept, the draws, the room
    with the discard) lies within theirs, so that count bounds every row, and the rows the clock leaves get it
    instead of 1. Here the clock stops the count right after it."""
    from solver.planning import bounds

    exact = ev.plan(HAND, turns=3, both=False, seconds=None)
    assert exact.method == "optimal"
    optimum = {r.tile: r.win_probability for r in exact.discards}
    plain = {r.tile: r.upper for r in ev.plan(HAND, turns=3, max_states=1, both=False, seconds=None).discards}
    real, calls = bounds.win_upper, []

    def first_only(*args, **kwargs):
        calls.append(args)
        if len(calls) > 1:
            raise OutOfTime("the upper bound passed its time budget (test)")
        return real(*args, **kwargs)
    monkeypatch.setattr(bounds, "win_upper", first_only)
    got = ev.plan(HAND, turns=3, max_states=1, both=False, seconds=None)
    whole = {r.upper for r in got.discards}
    assert len(whole) == 1 and max(plain.values()) <= min(whole) < 1
    assert all(optimum[r.tile] <= r.upper for r in got.discards)
    said = bracket.WHOLE_NOTE.format(n=len(got.discards), exc="x").split("(x), ")[1]
    assert said in got.policy_class["win_probability"]


def test_the_13_tiles_bound_stays_said_after_a_second_count_cut_too(ev, monkeypatch):
    """The first count reaches the 13 tiles and one row, the second one more row; both are cut. The rows left keep
    the 13 tiles' bound, and the label says so (it had said "1 for the discards it did not reach" beside them)."""
    from solver.planning import bounds

    real, calls = bounds.win_upper, []
    cut_at = {3, 5}  # (the 13 tiles and a row, then a row)

    def scheduled(*args, **kwargs):
        calls.append(1)
        if len(calls) in cut_at:
            raise OutOfTime("the upper bound passed its time budget (test)")
        return real(*args, **kwargs)
    monkeypatch.setattr(bounds, "win_upper", scheduled)
    got = ev.plan(HAND, turns=3, max_states=1, both=False, seconds=60)
    assert len(calls) >= 5
    uppers = sorted(r.upper for r in got.discards)
    spread = uppers[-1]
    assert spread < 1 and uppers.count(spread) == len(uppers) - 2  # (two rows counted, each below the 13 tiles')
    label = got.policy_class["win_probability"]
    assert "the relaxation of the 13 tiles before the discard" in label and "; 1 for the" not in label


def test_unclocked_past_the_listings_limit_the_relaxation_lists_its_own(ev, monkeypatch):
    """QA: where the optimum's listing passed its limit (a 4-draw hand holding two そら: more than 200,000 hands
    within 6 exchanges), the bracket did not list for itself and every upper bound was 1, even with no clock (where
    its own listing, up to a larger limit, took 8 s). Unclocked it lists now; on a clock, as before, it does not
    (that listing would take the lower side's time for a bound the clock rarely leaves room for)."""
    plain = {r.tile: r.upper for r in ev.plan(HAND, turns=3, max_states=1, both=False, seconds=None).discards}

    real = plan_module.prepare

    def past_limit(*args, **kwargs):  # (the optimum's listing alone: the class nearest lists its own)
        if kwargs.get("play") == "optimal" and "state_limit" in kwargs:
            raise TooLarge("more than 200,000 complete hands within 3 exchanges (test)")
        return real(*args, **kwargs)
    monkeypatch.setattr(plan_module, "prepare", past_limit)
    unclocked = ev.plan(HAND, turns=3, both=False, seconds=None)
    assert {r.tile: r.upper for r in unclocked.discards} == plain and all(u < 1 for u in plain.values())
    clocked = ev.plan(HAND, turns=3, both=False, seconds=60)
    assert all(r.upper == 1 for r in clocked.discards)
    assert "not computed: the complete hands within reach were not listed (more than 200,000" in \
        clocked.policy_class["win_probability"]


def test_unclocked_the_class_nearest_stops_at_its_steps_too(ev):
    """QA: unclocked, a 4-draw hand holding two そら ran the class nearest past 10 minutes, its state limit alone
    stopping it while each state cost 30 post-draw steps. The steps are limited too (recursion.STEPS_PER_STATE per
    state of the limit), and past them the plan still answers, its lower side the estimate's, labelled."""
    from solver.planning.recursion import STEPS_PER_STATE

    sora2 = "そら そら 春香 千早 美希 雪歩 やよい 真 伊織 律子 あずさ 亜美 響"
    steps = f"passed {STEPS_PER_STATE * 2000:,} steps \\({STEPS_PER_STATE} for each of the 2,000 states"
    with pytest.raises(TooLarge, match=steps):
        ev.plan(sora2, turns=4, both=False, nearest=True, max_states=2000, seconds=None)
    got = ev.plan(sora2, turns=4, both=False, max_states=2000, seconds=None)
    assert got.method == "estimate" and "Monte Carlo" in got.policy_class["win_probability"]
    assert all(r.win_probability <= r.upper for r in got.discards)


def test_a_class_past_its_clock_says_what_to_do(ev):
    """QA: a class asked for (--nearest, --detour) that its clock stopped said only where it stopped."""
    with pytest.raises(OutOfTime, match=r"raise --seconds, or ask for an estimate past it \(--estimate GAMES\)"):
        ev.plan(HAND, turns=12, nearest=True, seconds=0.001)


def test_a_scan_of_many_targets_reads_the_clock():
    """QA: with a full waiting room every state scans tens of thousands of targets (0.1 s each), and `--detour 1`
    ran 5 s past a 2 s budget before the state count reached the clock; such a scan reads it first."""
    from solver.planning.reach import CLOCKED_FROM, Reach

    class Scan(Reach):
        sora, visited = None, 0
        deadline = time.monotonic() - 1

    hand = (1, 0)
    few, many = [((0, 1),)] * 3, [((0, 1),)] * (CLOCKED_FROM + 1)
    assert len(Scan().within_reach(hand, (3, 3), (1, 1), 1, few)) == 3  # (a short scan is cheap: no clock)
    with pytest.raises(OutOfTime):
        Scan().within_reach(hand, (3, 3), (1, 1), 1, many)
    Scan.deadline = None
    assert len(Scan().within_reach(hand, (3, 3), (1, 1), 1, many)) == CLOCKED_FROM + 1
