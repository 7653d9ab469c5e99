"""The bracket's lower side with a fetch-mode そら held (solver/planning/fetch_first.py, QA of 2026-11-27): a row is
raised to "fetch a room tile at once, then the class nearest", exactly, so discarding the そら is no longer
recommended where a room tile is what a win needs."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from solver import Evaluator
from solver.planning.fetch_first import LABEL

HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 そら"
ROOM = "志保 やよい"


@pytest.fixture(scope="module")
def ev():
    return Evaluator("2019-12")


def test_a_fetch_at_once_raises_the_rows_to_real_values_below_the_optimum(ev):
    best = ev.plan(HAND, turns=2, waiting_room=ROOM, both=False, seconds=None)
    assert best.method == "optimal"
    optimum = {r.tile: r.win_probability for r in best.discards}
    bounded = ev.plan(HAND, turns=2, waiting_room=ROOM, both=False, seconds=None, max_states=1)  # (past the optimum)
    assert bounded.method in ("bounds", "estimate")
    assert LABEL.format(n=12, of=13)[2:40] in bounded.policy_class["win_probability"]
    sora = ev.tile("そら")
    assert bounded.recommended.tile != sora and bounded.recommended.sora.use_now
    request = ev.plan_request_of(HAND, 2, waiting_room=ROOM, both=False, seconds=None, nearest=True)
    raised = 0
    for row in bounded.discards:
        assert row.win_probability <= optimum[row.tile] <= row.upper
        if row.sora is None or not row.sora.use_now:
            continue
        raised += 1
        room = [ev.tile(t) for t in ROOM.split()] + [row.tile]
        room.remove(row.sora.take)
        hand = request.position.hand.remove(row.tile).remove(sora).add(row.sora.take)
        seen = tuple(room.count(k) + (k == sora) for k in range(len(hand.concealed)))  # (the room then out of play)
        alone = ev.plan_request(replace(request, position=replace(request.position, hand=hand, seen=seen,
                                                                  waiting_room=())))
        assert row.win_probability == alone.recommended.win_probability == row.sora.value_if_used
        assert row.win_interval is None  # (exact)
    assert raised == 12
    # the optimum's own best discards keep their place at the top
    assert optimum[bounded.recommended.tile] == max(optimum.values())


def test_no_fetch_no_change(ev):
    """Without a waiting room (or a そら) the rows are the bracket's as before: the step does not apply."""
    from solver.planning.fetch_first import applies, fetch_first

    request = ev.plan_request_of(HAND, 2, both=False)
    assert not applies(ev.rules, request)
    rows = ev.plan(HAND, turns=2, both=False, seconds=None, max_states=1).discards
    assert fetch_first(ev.rules, request, rows, None, None) == (rows, 0, 0)


def test_a_take_back_and_the_sora_row_share_their_lower_bounds(ev):
    """A row that keeps a そら can fetch its own discard back: the hand and room of discarding そら. The QA's plan
    showed every row at 11276 by a take-back while the そら row, the same position, kept a sample of 11241."""
    from solver.planning.answer import DiscardPlan, SoraMove
    from solver.planning.fetch_first import same_as_sora

    sora, a, b = ev.tile("そら"), ev.tile("真"), ev.tile("雪歩")
    request = ev.plan_request_of(HAND.replace("奈緒", "星梨花"), 3, waiting_room=ROOM, objective="score")
    back = SoraMove(True, a, Fraction(11276), Fraction(11000))
    rows = (DiscardPlan(a, Fraction(0), Fraction(11276), 2, 1, back, win_interval=(0.0, 0.04), upper=Fraction(1, 2),
                        score_upper=Fraction(15420)),
            DiscardPlan(b, Fraction(1, 100), Fraction(11100), 2, 1, None, win_interval=(0.0, 0.05),
                        upper=Fraction(1, 4), score_upper=Fraction(11200)),
            DiscardPlan(sora, Fraction(21, 100), Fraction(11241), 1, 1, None, win_interval=(0.14, 0.30),
                        score_interval=(11084.0, 11398.0), upper=Fraction(38, 100), score_upper=Fraction(14726)))
    out, raised = same_as_sora(ev.rules, request, rows)
    got = {r.tile: r for r in out}
    assert got[sora].expected_score == 11276 and got[sora].score_interval is None  # (exact, over the sample)
    assert got[a].win_probability == Fraction(21, 100) and got[a].win_interval == (0.14, 0.30)
    assert got[a].expected_score == 11276 and got[a].sora == back  # (the objective's column did not rise)
    # b's bound 11200 is below the そら row's 11276: never past a proved upper bound; its P(win) sample rises
    assert got[b].expected_score == 11100 and got[b].sora is None and got[b].win_probability == Fraction(21, 100)
    assert raised == {"win_probability": 2, "expected_score": 1}
    # a named class keeps its own values
    nearest = ev.plan_request_of(HAND, 3, waiting_room=ROOM, objective="score", nearest=True)
    assert same_as_sora(ev.rules, nearest, rows) == (rows, {"win_probability": 0, "expected_score": 0})


def test_every_row_keeping_a_sora_is_worth_at_least_the_sora_row(ev):
    """On the bracket past the optimum (max_states 1), in both columns: a row that keeps the そら is never shown
    below the そら row (it can fetch its discard back), and the そら row never below a take-back's value."""
    sora = ev.tile("そら")
    for objective in ("win", "score"):
        plan = ev.plan(HAND, turns=2, waiting_room=ROOM, objective=objective, seconds=None, max_states=1)
        assert plan.method in ("bounds", "estimate")
        base = next(r for r in plan.discards if r.tile == sora)
        for row in plan.discards:
            for field, interval in (("win_probability", "win_interval"), ("expected_score", "score_interval")):
                if getattr(base, interval) is None and getattr(row, interval) is None:
                    assert getattr(row, field) >= getattr(base, field), (objective, field, row)


def test_past_the_class_limits_a_fetch_is_sampled(ev):
    """At 28 draws no exact plan of the class follows a fetch; the policy "fetch the room tile whose 12 tiles have
    the lowest h, then the most live tiles, then the estimate's policy" is sampled instead, its tile chosen by that
    rule and not by the samples (QA: a review graded a pass holding そら at 27.7 % by a policy that never fetched,
    where fetching 亜美 was worth over 53 %)."""
    from solver.planning.fetch_first import sampled_fetch
    from solver.planning.prepare import position_counts, searched_acceptance
    from solver.planning.search_plan import estimate_plan

    hand, room = "千早 真 伊織 律子 あずさ 亜美 紗代子 ひなた 可憐 莉緒 紬 そら", "紬 千鶴 亜美"
    request = ev.plan_request_of(hand, 28, waiting_room=room, favourite="桃子")
    kept, tiles, sora = request.position.hand, list(request.position.waiting_room), ev.tile("そら")
    calls = []

    def sample(sub, end):
        calls.append(sub)
        return estimate_plan(ev.rules, sub, None, end)
    got = sampled_fetch(ev.rules, request, kept, tiles, sample, None)
    assert len(calls) == 1 and calls[0].play == "nearest" and calls[0].position.waiting_room == ()
    seen, _, wall, _ = position_counts(ev.rules, request.position, 28)

    def rank(take):
        left = list(tiles) + [sora]
        left.remove(take)
        h, live = searched_acceptance(ev.rules, kept.remove(sora).add(take),
                                      tuple(n + left.count(k) for k, n in enumerate(seen)), wall)
        return h, -live
    assert got.tile == min(sorted(set(tiles)), key=rank)
    again = estimate_plan(ev.rules, calls[0], None).recommended  # (the same walls: the same number)
    assert got.win_probability == again.win_probability and got.win_interval == again.win_interval
    never = ev.plan(hand, 28, waiting_room=room, favourite="桃子", nearest=True, estimate=1000, both=False)
    assert got.win_interval[0] > never.recommended.win_interval[1]  # (the never-fetching policy, well below)


def test_the_sampled_fetch_note_counts_only_the_rows_still_sampled():
    """same_as_sora can replace a sampled fetch's value with the そら row's exact one: the note then counts the rows
    left (QA: with two そら held it still said "for 11 of 12 discards ... by a sample" over exact values)."""
    from types import SimpleNamespace

    from solver.planning.answer import SoraMove
    from solver.planning.fetch_first import SAMPLED, sampled_recounted

    def row(tile, value, interval, sora=None):
        return SimpleNamespace(tile=tile, expected_score=value, score_interval=interval, sora=sora)
    drawn = (90, 110)
    before = (row(0, 120, None), row(1, 100, drawn, SoraMove(True, 5, 100, 80)),
              row(2, 100, drawn, SoraMove(True, 6, 100, 80)), row(3, 95, drawn))  # (the last: the estimate's, no fetch)
    label = "lower = x" + SAMPLED.format(n=2, of=4) + "; upper = y"
    one = (before[0], replace_row(before[1], 120), before[2], before[3])
    assert sampled_recounted(label, before, one, "expected_score", "score_interval") == \
        "lower = x" + SAMPLED.format(n=1, of=4) + "; upper = y"
    both = (before[0], replace_row(before[1], 120), replace_row(before[2], 120), before[3])
    assert sampled_recounted(label, before, both, "expected_score", "score_interval") == "lower = x; upper = y"
    assert sampled_recounted("lower = x", before, both, "expected_score", "score_interval") == "lower = x"


def replace_row(row, value):
    from types import SimpleNamespace
    return SimpleNamespace(**{**vars(row), "expected_score": value, "score_interval": None})
