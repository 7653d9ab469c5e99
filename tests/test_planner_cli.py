"""`mj plan` and `mj analyze --turns` as commands: the JSON keys, bad input, the frontier and its labelled
estimate (the planner itself: test_planner.py)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cli import app
from solver import Evaluator

EXAMPLE = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


def test_cli_plan_json_keys_and_values(ev):

    result = CliRunner().invoke(app, ["plan", EXAMPLE, "--turns", "1", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"turns", "model", "method", "methods", "games", "separated", "stopped", "clocked",
                         "policy_class", "discards", "recommended"}
    assert data["clocked"] is False  # (the optimum within its clock)
    assert data["methods"] == {"win_probability": "optimal", "expected_score": "optimal"}
    assert all(set(d) == {"tile", "win_probability", "upper", "expected_score", "expected_score_upper"}
               for d in data["discards"])
    assert data["method"] == "optimal" and all(d["upper"] == d["win_probability"] for d in data["discards"])
    assert all(d["expected_score_upper"] == d["expected_score"] for d in data["discards"])  # E[score] all play
    exact = ev.plan(EXAMPLE, turns=1)
    assert data["discards"][0]["win_probability"] == float(exact.discards[0].win_probability)
    assert data["recommended"]["tile"] == data["discards"][0]["tile"] in ("sayoko", "nao")  # tied at 11/149


@pytest.mark.parametrize("args", [["--turns", "0"], ["--turns", "1", "--rules", "2019-10"], ["--turns", "x"]])
def test_cli_plan_bad_input_exits_2(args):

    result = CliRunner().invoke(app, ["plan", EXAMPLE, *args])
    assert result.exit_code == 2 and "Traceback" not in result.stderr


def test_cli_estimate_is_labelled_and_the_limit_is_an_error():
    """A class stopped by its limits: one line, exit 3 (the input was fine; bad input exits 2), with the advice."""
    args = ["plan", EXAMPLE, "--turns", "6", "--max-states", "50", "--nearest"]
    stopped = CliRunner().invoke(app, args)
    assert stopped.exit_code == 3 and "--estimate" in stopped.output and "Traceback" not in stopped.output
    got = json.loads(CliRunner().invoke(app, args + ["--estimate", "200", "--json"]).output)
    assert got["method"] == "estimate" and got["games"] == 200
    for row in got["discards"]:
        low, high = row["win_probability_interval"]
        assert 0 <= low <= row["win_probability"] <= high <= 1
    exact = json.loads(CliRunner().invoke(app, ["plan", EXAMPLE, "--turns", "1", "--json"]).output)
    assert exact["method"] == "optimal" and exact["games"] is None and "win_probability_interval" not in exact["discards"][0]


def test_cli_bounds_past_the_budget_bracket_the_optimum():
    """Past the state limit the default answers a bracket per discard: lower <= upper, labelled, and the plain
    output says where the optimum lies."""
    args = ["plan", EXAMPLE, "--turns", "3", "--max-states", "20"]  # the optimum keys 26 states here, nearest 19
    got = json.loads(CliRunner().invoke(app, args + ["--json"]).output)
    assert got["method"] == "bounds" and got["policy_class"]["win_probability"].startswith("bounds: lower")
    assert all(d["win_probability"] <= d["upper"] for d in got["discards"]) and isinstance(got["separated"], bool)
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0 and "(the optimum lies between" in text.stdout
    assert "--estimate" not in got["stopped"]  # (QA: the bracket answers, so no advice to ask for an estimate)


def test_analyze_turns_takes_the_plan_options_and_labels_an_estimate():
    args = ["analyze", EXAMPLE, "--turns", "6", "--max-states", "50", "--nearest"]
    stopped = CliRunner().invoke(app, args)
    assert stopped.exit_code == 3 and "--estimate" in stopped.output and "Traceback" not in stopped.output
    text = CliRunner().invoke(app, args + ["--estimate", "100"])
    assert text.exit_code == 0 and "ESTIMATE, not exact" in text.stdout and "~" in text.stdout
    got = json.loads(CliRunner().invoke(app, args + ["--estimate", "100", "--json"]).output)["plan"]
    assert got["method"] == "estimate" and got["games"] == 100
    classes = [json.loads(CliRunner().invoke(app, ["analyze", EXAMPLE, "--turns", "2", "--json", *more]).output)
               ["plan"]["policy_class"]["win_probability"] for more in ([], ["--nearest"], ["--detour", "1", "--seconds", "120"])]
    assert classes[0] == "all play" and classes[1].startswith("nearest") and not classes[2].startswith("nearest")


def test_the_estimate_note_names_the_sampled_columns_and_only_where_some_are(ev):
    """QA of 2026-11-27: an estimate whose P(win) rows were all raised to exact values (the deepening with a そら
    held) said "ESTIMATE, not exact" under exact numbers. The note now names the columns that hold sampled values,
    and is left out where none does."""
    from dataclasses import replace

    from console.render import estimate_note

    plan = ev.plan("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花", 2, seconds=None)
    exact = replace(plan, games=1000)
    assert estimate_note(plan) == [] and estimate_note(exact) == []
    rows = (replace(exact.discards[0], score_interval=(1.0, 2.0)),) + exact.discards[1:]
    [note] = estimate_note(replace(exact, discards=rows))
    assert note.plain.startswith("ESTIMATE, not exact (E[score]):") and "1000 sampled walls" in note.plain


def test_rows_tied_on_the_objective_are_ranked_by_the_other_one():
    """QA: with one draw left no discard can win here (every P(win) 0, exact), so the rows follow E[score], filled in
    after the first ranking; 風花 and そら score 10,319 where 伊織, first in tile order, scores 6,319."""
    ev = Evaluator("hitori-jong-2.1")
    got = ev.plan("伊織 亜美 エミリー エミリー ひなた 奈緒 千鶴 このみ 風花 風花 瑞希 莉緒 そら", 1,
                  seen="真 伊織 静香 翼 翼 茜 ロコ ロコ ロコ 朋花 桃子 歌織 詩花 詩花")
    keys = [(r.win_probability, r.upper, r.expected_score) for r in got.discards]
    assert all(r.win_probability == 0 for r in got.discards) and keys == sorted(keys, reverse=True)
    assert got.recommended.expected_score == max(r.expected_score for r in got.discards) and \
        round(got.recommended.expected_score) == 10319


def test_the_headline_speaks_of_the_objective_and_counts_read_right():
    text = CliRunner().invoke(app, ["plan", EXAMPLE, "--turns", "1", "--objective", "score"]).stdout
    assert "1 draw left" in text and "E[score] over 1 draw: " in text and "(the optimum)" in text
    assert "P(win) over" not in text and "1 draws" not in text


def test_tiny_percentages_keep_two_significant_digits():
    from console.render import percent

    assert [percent(x) for x in (None, 0, 1e-07, 9.7e-06, 3.2e-05, 0.00012, 0.0012, 0.5)] == \
        ["-", "0.00%", "0.000010%", "0.00097%", "0.0032%", "0.012%", "0.12%", "50.00%"]


def test_the_plans_budget_is_the_commands_less_its_start_up(ev, monkeypatch):
    """QA: `mj plan --seconds 5` took 5.9 s, the clock having started after 0.3-0.8 s of imports. Run as the `mj`
    process, the plan gets what the start-up left (and the printing's share), a quarter of the budget at least, and
    the process ends at once after it; called in a test, neither. The process's age is read from /proc."""
    from console import common

    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
    assert common.plan_request(ev, hand, 3, seconds=5.0).limits.seconds == 5.0  # (a call in this test: no start-up)
    assert not common.quick_exit()
    monkeypatch.setattr(common, "_process", True)
    monkeypatch.setattr(common, "since_start", lambda: 0.7)
    assert common.plan_request(ev, hand, 3, seconds=5.0).limits.seconds == pytest.approx(5.0 - 0.7 - common.RENDER)
    monkeypatch.setattr(common, "since_start", lambda: 3.0)
    assert common.plan_request(ev, hand, 3, seconds=2.0).limits.seconds == pytest.approx(0.5)
    assert common.quick_exit()
    monkeypatch.undo()
    assert 0 < common.since_start() < 24 * 3600 and not common.quick_exit()


def test_each_columns_method_is_read_from_its_numbers():
    """QA: `method` speaks of the objective's column alone, so a program could not tell an E[score] beside an optimal
    P(win) that is a class's value with its bound above. `methods` gives each column's own."""
    from fractions import Fraction

    from solver.planning.answer import DiscardPlan, Plan

    def plan(*rows):
        return Plan(3, "win", 1, 1, False, None, tuple(rows), {}, 0, 100)
    half, third = Fraction(1, 2), Fraction(1, 3)
    exact = DiscardPlan(1, half, 10, 1, 2, upper=half, score_upper=12)
    assert plan(exact).methods == {"win_probability": "optimal", "expected_score": "bounds"}
    sampled = DiscardPlan(2, third, None, 1, 2, win_interval=(0.3, 0.36), upper=half)  # (a bracket, sampled below)
    assert plan(exact, sampled).methods == {"win_probability": "estimate", "expected_score": "bounds"}
    alone = DiscardPlan(2, third, None, 1, 2, win_interval=(0.3, 0.36))
    assert plan(alone).methods["win_probability"] == "estimate"
    bare = DiscardPlan(2, third, None, 1, 2)
    assert plan(bare).methods == {"win_probability": "class", "expected_score": None}
    at_bound = DiscardPlan(2, half, None, 1, 2, win_interval=(0.4, 0.6), upper=half)  # (a sample proves nothing)
    assert plan(at_bound).methods["win_probability"] == "estimate"


def test_the_seed_draws_other_walls_and_the_same_seed_the_same():
    """QA: with one fixed seed, an interval that missed the truth missed it in every run; --seed draws other walls."""
    args = ["plan", EXAMPLE, "--turns", "5", "--max-states", "1", "--nearest", "--estimate", "200", "--json"]

    def values(*more):
        return [d["win_probability"] for d in json.loads(CliRunner().invoke(app, args + list(more)).output)["discards"]]
    assert values() == values("--seed", "0") != values("--seed", "1") == values("--seed", "1")
    analyzed = CliRunner().invoke(app, ["analyze", EXAMPLE, "--seed", "1"])
    assert analyzed.exit_code == 2 and "--seed goes with --turns" in analyzed.output
    assert "leave it out" in analyzed.output


def test_advice_to_fetch_the_discard_back_says_what_it_amounts_to():
    """QA: a bracket's lower side advised taking the discard back as if it were a fetch worth making; it is the hand
    and room of discarding そら, and the plain output says so."""
    from dataclasses import replace
    from fractions import Fraction
    from types import SimpleNamespace

    from console.render import recommendation
    from solver.planning.answer import DiscardPlan, SoraMove

    ev = Evaluator("2019-12")
    kana = ev.tile("可奈")
    back = DiscardPlan(kana, Fraction(1, 5), None, 1, 9, sora=SoraMove(True, kana, Fraction(1, 5), Fraction(1, 6)))
    plan = SimpleNamespace(recommended=back, tsumo_now=False)
    said = " ".join(str(line) for line in recommendation(plan, ev.rules))
    assert "take 可奈 back: the same hand and waiting room as discarding そら" in said
    other = replace(back, sora=SoraMove(True, ev.tile("やよい"), Fraction(1, 5), Fraction(1, 6)))
    assert "back:" not in " ".join(str(line) for line in recommendation(SimpleNamespace(recommended=other,
                                                                                        tsumo_now=False), ev.rules))


def test_analyze_keeps_its_answer_when_the_plan_is_refused_or_stopped():
    """QA: `mj analyze --turns` under 2019-10 (the planner has no wildcard そら) or with a class past its clock lost the
    analysis already made; it stands, and the plan's error follows it (exit 2 refused, 3 stopped)."""
    refused = CliRunner().invoke(app, ["analyze", EXAMPLE, "--turns", "3", "--rules", "2019-10"])
    assert refused.exit_code == 2 and "Per discard" in refused.stdout
    assert refused.stderr.startswith("error: no plan: the planner does not model そら as a wildcard")
    stopped = CliRunner().invoke(app, ["analyze", EXAMPLE, "--turns", "6", "--max-states", "50", "--nearest", "--json"])
    data = json.loads(stopped.stdout)
    assert stopped.exit_code == 3 and data["h"] == 1 and data["plan"] is None and "--estimate" in data["plan_error"]
