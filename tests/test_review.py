"""`mj review` (issue 21): every decision of a seat graded by the exact evaluator. A seat that never takes a win
has its missed tsumo and ron flagged first; P(win) values equal an independent brute force (tests/oracle_optimal.py);
the decisions found are exactly the seat's; the command's JSON and its errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from oracle_optimal import real_win_value

from game.engine import Game, Setup
from game.grading import Budget, grade
from game.log import write
from game.players import fallback_player, make_player
from game.players.simple import GreedyPlayer
from game.review import decision_tasks, review_game
from game.state import Table
from solver.api import Evaluator
from solver.core.hand import Hand

ROOT = Path(__file__).resolve().parent.parent


class NeverWins(GreedyPlayer):
    """Greedy, except that it never takes a win (tsumo or ron): the mistake a review must flag first."""

    name = "never-wins"

    def act(self, observation, possible_actions):
        return super().act(observation, [a for a in possible_actions if a["type"] != "hora"])


@pytest.fixture(scope="module")
def ev():
    return Evaluator("2019-12")


def game_log(ev, seed: int, players) -> list[dict]:
    return Game(ev, Setup(seed, len(players)), players, fallback_player).play().events


@pytest.fixture(scope="module")
def missed(ev):
    """The first seeded 2-seat game where the seat that never wins had a tsumo and a ron to take."""
    for seed in range(60):
        events = game_log(ev, seed, [NeverWins(), make_player("random")])
        tasks, _ = decision_tasks(events, Table(ev.rules), 0)
        kinds = {t["type"] for t in tasks if any(a["type"] == "hora" for a in t["options"])}
        if {"discard", "claim"} <= kinds:
            # the missed wins and the four discards after each (grading all 60-odd decisions takes a minute)
            wins = [i for i, t in enumerate(tasks) if any(a["type"] == "hora" for a in t["options"])]
            return events, {tasks[j]["index"] for i in wins for j in range(i, min(i + 5, len(tasks)))}
    pytest.fail("no seed in 0..59 gave both a missed tsumo and a missed ron")


def test_missed_wins_are_flagged_first(ev, missed):
    events, some = missed
    review = review_game(ev, events, 0, seconds=0.3, indexes=some, workers=2).to_dict()
    decisions, summary = review["decisions"], review["summary"]
    flagged = [d for d in decisions if d["missed_win"]]
    assert {d["type"] for d in flagged} == {"discard", "claim"}  # a missed tsumo and a missed ron
    assert summary["missed_wins"] == len(flagged)
    # (QA: the total added sampled differences to exact losses; the proved part is said apart, the lower ends of the
    # proved loss bounds; a missed win's loss is proved)
    assert summary["proved_loss"] == pytest.approx(sum(max(0.0, d["loss_bounds"][0]) for d in decisions
                                                       if d["loss_bounds"] and d["loss"] is not None))
    assert summary["proved_loss"] >= sum(d["loss"] for d in flagged if d["loss"] is not None and d["method"] == "optimal") - 1e-9
    worst = decisions[summary["worst"][0]]
    assert worst["missed_win"] and not worst["match"]
    for d in flagged:
        assert d["best"]["action"]["type"] == "hora" and d["best"]["win_probability"] == 1.0
        assert d["chosen"]["action"]["type"] != "hora"
        if d["loss"] is not None:  # graded by P(win): the loss is what passing gave up
            assert d["loss"] == pytest.approx(1.0 - d["chosen"]["win_probability"])
            assert d["loss"] >= max((x["loss"] or 0.0) for x in decisions if not x["missed_win"])


def test_a_log_of_another_rule_set_is_said_so(ev):
    """QA: an Evaluator of another rule set read a 2019-12 log's chi as illegal ("line 51: chi is not a legal
    action there")."""
    from solver.core.errors import MjError

    events = game_log(ev, 1, [make_player("greedy"), make_player("greedy")])
    with pytest.raises(MjError, match="^the log was played under 2019-12: review it with an Evaluator of "
                                      "that rule set, not hitori-jong-2.1$"):
        review_game(Evaluator("hitori-jong-2.1"), events, 0)


def test_the_decisions_are_exactly_the_seats(ev):
    """Every discard and tsumo of the seat is one decision; every chosen action is one the engine offered."""
    events = game_log(ev, 5, [make_player(s) for s in ("greedy", "seed000", "random", "greedy")])
    table = Table(ev.rules)
    for seat in range(4):
        tasks, _ = decision_tasks(events, table, seat)
        own = [i for i, e in enumerate(events) if e.get("actor") == seat and
               (e["type"] == "dahai" or (e["type"] == "hora" and e["target"] == seat))]
        assert [t["index"] for t in tasks if t["type"] == "discard"] == own
        claims = [t for t in tasks if t["type"] == "claim"]
        assert all(events[t["index"] - 1]["type"] in ("dahai", "error") for t in claims)
        for task in tasks:
            assert task["chosen"] in task["options"]


def test_p_win_equals_brute_force_where_optimal():
    """With two draws left the planner finishes: each discard's P(win) is the independent full tree's
    (hitori-jong-2.1: そら is a dead tile there, as the oracle has it)."""
    hj = Evaluator("hitori-jong-2.1")
    events = game_log(hj, 2, [make_player("greedy"), make_player("greedy")])
    tasks, _ = decision_tasks(events, Table(hj.rules), 0)
    units = [u.members for u in hj.rules.units]
    checked = 0
    for task in [t for t in tasks if t["type"] == "discard" and not t["called"]][-3:]:
        task = {**task, "turns": 2, "options": [a for a in task["options"] if a["type"] == "dahai"]}
        task["chosen"] = task["options"][0]
        decision = grade(hj, task, Budget(60, 10**6))
        assert decision.method == "optimal"
        truth = real_win_value(units, task["concealed"], seen=task["seen"], turns=2)
        for option in decision.options:
            assert option.win_probability == pytest.approx(float(truth[hj.tile(option.action["pai"])]), abs=1e-12)
        assert decision.loss == pytest.approx(float(max(truth.values()) - truth[hj.tile(task["chosen"]["pai"])]),
                                              abs=1e-12)
        checked += 1
    assert checked


def test_parallel_review_is_the_same(ev):
    events = game_log(ev, 9, [make_player(s) for s in ("greedy", "seed000", "random", "random")])
    some = {t["index"] for t in decision_tasks(events, Table(ev.rules), 2)[0][-6:]}
    one = review_game(ev, events, 2, seconds=0.2, workers=1, indexes=some).to_dict()
    two = review_game(ev, events, 2, seconds=0.2, workers=2, indexes=some).to_dict()
    assert len(one["decisions"]) == len(some)
    assert [d["index"] for d in one["decisions"]] == [d["index"] for d in two["decisions"]]
    def exact(review):  # what no clock decides: P(win) depends on how far the planner got within its budget
        return [(d["index"], d["type"], d["chosen"]["action"], d["chosen"]["h"], d["chosen"]["live"], d["h_lost"],
                 d["missed_win"], sorted((json.dumps(o["action"]), o["h"], o["live"]) for o in d["options"]))
                for d in review["decisions"]]

    assert exact(one) == exact(two)


def log_file(tmp_path: Path, events: list[dict]) -> Path:
    """The game written as `mj play --log` writes it."""
    log = tmp_path / "game.jsonl"
    with log.open("w", encoding="utf-8") as stream:
        write(events, stream)
    return log


def mj(*args: str):
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_cli_json_and_table(ev, missed, tmp_path):
    events, some = missed
    log = log_file(tmp_path, events)
    at = [arg for i in sorted(some) for arg in ("--at", str(i))]  # the position mj replay --at i shows
    code, out, err = mj("review", str(log), "--seat", "0", "--seconds", "0.3", "--json", *at)
    assert code == 0, err
    review = json.loads(out)
    jsonschema.validate(review, json.loads((ROOT / "docs" / "review.schema.json").read_text(encoding="utf-8")))
    assert review["summary"]["missed_wins"] >= 2
    assert {d["index"] for d in review["decisions"]} == some
    assert all({"chosen", "best", "loss"} <= set(d) for d in review["decisions"])
    wins = [arg for d in review["decisions"] if d["missed_win"] for arg in ("--at", str(d["index"]))]
    code, out, err = mj("review", str(log), "--seat", "0", "--seconds", "0.3", *wins)
    assert code == 0 and "missed win" in out and "match" in out and "None" not in out, err


def test_cli_shows_progress_on_a_terminal(missed, tmp_path):
    """On a terminal the review draws how many decisions are graded of how many; off it, nothing."""
    from test_bounded import on_terminal

    events, some = missed
    log = log_file(tmp_path, events)
    at = [arg for i in sorted(some)[:2] for arg in ("--at", str(i))]
    done, seen = on_terminal("review", str(log), "--seconds", "0.2", "-j", "1", *at)
    assert done.returncode == 0 and b"grading" in seen and b"2/2" in seen and b"None" not in seen, seen[-500:]
    assert mj("review", str(log), "--seconds", "0.2", "-j", "1", *at)[2] == ""


@pytest.mark.parametrize("args, said", [
    (["--seat", "2"], "seat (--seat) must be from 0 to 1"),
    (["--seconds", "0"], "time budget"),
    (["--workers", "0"], "--workers"),
])
def test_cli_bad_input_is_one_line(ev, missed, tmp_path, args, said):
    log = log_file(tmp_path, missed[0])
    code, out, err = mj("review", str(log), *args)
    assert code == 2 and err.count("\n") == 1 and said in err and "Traceback" not in err, err


def test_cli_max_states_reaches_the_planner(missed, tmp_path, monkeypatch):
    """QA: review capped each plan at 50,000 states with no option to raise it, so a larger --seconds could not
    reach the optimum `mj plan` found; --max-states now goes to review_game (its default is the module's)."""
    from typer.testing import CliRunner

    import game.review
    from cli import app
    from console.review import REVIEW_STATES

    assert REVIEW_STATES == game.review.MAX_STATES
    log = log_file(tmp_path, missed[0])
    asked = []

    def recorded(*args, **kwargs):
        asked.append(kwargs["max_states"])
        raise KeyboardInterrupt  # (nothing graded: only what was asked)

    monkeypatch.setattr(game.review, "review_game", recorded)
    for extra in ([], ["--max-states", "123456"]):
        CliRunner().invoke(app, ["review", str(log), *extra])
    assert asked == [REVIEW_STATES, 123456]


def test_cli_time_budget_stops_the_review_with_what_it_graded(missed, tmp_path):
    """Every long computation has a budget: --time-budget stops the whole review as Ctrl-C does, exit 124."""
    log = log_file(tmp_path, missed[0])
    code, out, err = mj("review", str(log), "--seconds", "1", "-j", "1", "--json", "--time-budget", "0.5")
    review = json.loads(out)
    assert code == 124 and review["interrupted"] and "Traceback" not in err, err
    assert err.endswith(f"the time budget of 0.5 s ran out: the review holds the {len(review['decisions'])} "
                        "decisions graded before it\n")


def test_cli_bad_log_is_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "start_game"}\nnot json\n', encoding="utf-8")
    for path in (str(bad), str(tmp_path / "missing.jsonl")):
        code, _, err = mj("review", path)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err


def test_calls_are_graded_by_the_p_win_after_them(ev):
    """With few draws left a call is planned like a pass: the 13 tiles after it, from the caller's position."""
    events = game_log(ev, 5, [make_player(s) for s in ("greedy", "seed000", "random", "greedy")])
    table = Table(ev.rules)
    found = [t for seat in range(4) for t in decision_tasks(events, table, seat)[0]
             if t["type"] == "claim" and any(a["type"] == "chi" for a in t["options"])]
    assert found, "seed 5 has no call to grade"
    task = found[0]
    task = {**task, "turns": 2, "call_turns": {unit: 2 for unit in task["call_turns"]}}
    decision = grade(ev, task, Budget(60, 10**6))
    assert decision.method in ("optimal", "bounds")
    for option in decision.options:
        assert option.win_probability is not None and 0 <= option.win_probability <= (option.win_upper or 1.0) <= 1
        if option.action["type"] == "chi":
            assert option.h is not None and option.live is None


def test_every_claim_is_graded_with_the_discard_counted_once(ev):
    """The discard a claim is about lies in the discarder's waiting room (seen); a call takes it out again. Counted
    twice, `mj review` refused ordinary logs ("1 春香 in hand and 3 seen: there are only 3", seed 7 seat 1)."""
    from solver.analysis.turn import call_options

    events = game_log(ev, 7, [make_player(s) for s in ("greedy", "seed000", "random")])
    table = Table(ev.rules)
    claims = [t for seat in range(3) for t in decision_tasks(events, table, seat)[0] if t["type"] == "claim"]
    calls = [t for t in claims if any(a["type"] == "chi" for a in t["options"])]
    assert calls, "seed 7 has no call to grade"
    for task in claims:  # (no draw left: graded by h alone, quickly)
        decision = grade(ev, {**task, "turns": 0, "call_turns": dict.fromkeys(task["call_turns"], 0)}, Budget(1, 10))
        tile = ev.tile(task["options"][0]["pai"])
        seen = list(task["seen"])
        seen[tile] -= 1
        hand = Hand(tuple(task["concealed"]), tuple(sorted(task["called"])))
        best = {}
        for option in call_options(ev.distance_model, hand, tile, tuple(seen)):
            best.setdefault(ev.rules.units[option.unit].name, option.h)
        assert {o.action["unit"]: o.h for o in decision.options if o.action["type"] == "chi"} == \
            {a["unit"]: best[a["unit"]] for a in task["options"] if a["type"] == "chi"}


def test_a_sora_decision_is_graded_as_mj_analyze_advises_it(ev):
    """The seat's own waiting room is among the tiles it saw; the そら advice takes it apart (a tile it can fetch).
    Counted in both, `mj review` refused every そら decision of seed 11's game ("1 茜 in hand and 3 seen: there are
    only 3", QA): each option's h is now `mj analyze`'s for the same hand, seen tiles and waiting room."""
    from game.observation import elsewhere

    events = game_log(ev, 11, [make_player(s) for s in ("greedy", "random", "seed000", "greedy")])
    table = Table(ev.rules)
    tasks = [t for seat in range(4) for t in decision_tasks(events, table, seat)[0] if t["type"] == "sora"]
    assert any(t["room"].count(k) > 1 for t in tasks for k in t["room"]), "seed 11 no longer holds the QA's case"
    for task in tasks:
        decision = grade(ev, task, Budget(1, 10))
        hand = Hand(tuple(task["concealed"]), tuple(sorted(task["called"])))
        seen = [k for k, n in enumerate(elsewhere(task["seen"], task["room"])) for _ in range(n)]
        advice = ev.analyze(hand, seen, waiting_room=task["room"]).sora
        after = {ev.tiles.name(o.take): o.h for o in advice.options}
        assert {o.action.get("pai"): o.h for o in decision.options} == \
            {a.get("pai"): after[a["pai"]] if a["type"] != "none" else advice.h_now for a in task["options"]}
        lowers = advice.options and advice.options[0].h is not None and advice.options[0].h < advice.h_now
        assert (decision.best.action["type"] == "none") == (not lowers)  # (a tie is no reason to use it: QA)


def test_a_review_of_some_decisions_counts_none_skipped(ev):
    """QA: with --at the summary said "decisions 1, skipped 1", the skipped claims of the whole log."""
    events = game_log(ev, 4, [make_player(s) for s in ("greedy", "random", "seed000", "greedy")])
    tasks, skipped = decision_tasks(events, Table(ev.rules), 0)
    assert skipped, "seed 4 no longer skips a claim of seat 0"
    sora = next(t["index"] for t in tasks if t["type"] == "sora")  # (graded by h: quick)
    review = review_game(ev, events, 0, indexes={sora})
    assert len(review.decisions) == 1 and review.skipped == 0


def test_past_the_exact_frontier_an_estimate_is_labelled_with_its_interval(ev):
    """Early in a game (28 draws left) no exact answer comes within the budget: with --estimate the actions get
    sampled P(win) values with 95 % intervals, the method says estimate, and no proved loss is claimed."""
    events = game_log(ev, 5, [make_player(s) for s in ("greedy", "seed000", "random", "greedy")])
    task = decision_tasks(events, Table(ev.rules), 0)[0][0]
    assert task["type"] == "discard" and task["turns"] >= 25
    decision = grade(ev, task, Budget(0.2, 2_000, estimate=200))
    assert decision.method == "estimate" and decision.loss_bounds is None and decision.loss is not None
    for option in decision.options:
        low, high = option.win_interval
        assert low <= option.win_probability <= high


def test_a_sampled_difference_within_the_noise_is_no_mistake():
    """QA: the same review graded a discard a match one run and a 0.33-point loss the next, between two sampled
    values whose 95 % intervals overlapped ([0.375, 0.439] against [0.378, 0.442]). Under `estimate` such an
    action matches and loses nothing; one whose interval lies wholly below the best's is a mistake with its
    sampled loss."""
    from game.grading import Option, _decide

    def option(tile, p, low, high):
        return Option({"type": "dahai", "pai": tile}, p, 1.0, None, 2, 10, (low, high))
    best, close, far = option("a", 0.410, 0.378, 0.442), option("b", 0.407, 0.375, 0.439), option("c", 0.30, 0.27, 0.33)
    options = [best, close, far]
    near = _decide(0, "discard", 20, options, close, "estimate")
    assert near.match and near.loss == 0.0 and near.best.action["pai"] == "a"
    wrong = _decide(0, "discard", 20, options, far, "estimate")
    assert not wrong.match and wrong.loss == pytest.approx(0.11)
    exact = _decide(0, "discard", 20, [replace_interval(o) for o in options], replace_interval(close), "bounds")
    assert not exact.match and exact.loss == pytest.approx(0.003)  # (exact values: any difference counts)


def replace_interval(option):
    from dataclasses import replace

    return replace(option, win_interval=None)


def test_near_the_end_e_score_is_graded_at_its_optimum(ev):
    """Two draws left: P(win) and E[score] are over all play, so each planned action's proved E[score] bound is
    its value (a bracket of width 0)."""
    events = game_log(ev, 5, [make_player(s) for s in ("greedy", "seed000", "random", "greedy")])
    task = next(t for t in decision_tasks(events, Table(ev.rules), 0)[0] if t["type"] == "discard")
    decision = grade(ev, {**task, "turns": 2}, Budget(30, 10**6))
    assert decision.method == "optimal"
    planned = [o for o in decision.options if o.action["type"] == "dahai"]
    assert planned and all(o.score_upper == o.expected_score is not None for o in planned)
    assert all(o.score_interval is None and o.score_upper_estimate is None for o in planned)


def test_an_upper_bound_of_1_comes_with_the_relaxations_sampled_value(ev):
    """Six draws left: the planner's proved upper bound is 1 there, so each graded action also carries the
    relaxation's sampled value (an estimate of a bound, with its interval), never used for the proved loss; the
    review JSON stays valid against its schema."""
    events = game_log(ev, 5, [make_player(s) for s in ("greedy", "seed000", "random", "greedy")])
    task = next(t for t in decision_tasks(events, Table(ev.rules), 0)[0] if t["type"] == "discard")
    decision = grade(ev, {**task, "turns": 6}, Budget(5, 50_000))
    assert decision.method in ("bounds", "estimate")
    sampled = [o for o in decision.options if o.win_upper_estimate is not None]
    assert sampled
    for option in sampled:
        low, high = option.win_upper_interval
        assert option.win_upper == 1.0 and option.win_probability <= option.win_upper_estimate < 1
        assert low <= option.win_upper_estimate <= high
    assert decision.loss_bounds is None or decision.loss_bounds[1] >= decision.loss_bounds[0]
    scored = [o for o in decision.options if o.expected_score is not None and o.score_upper is not None]
    assert scored, "no E[score] bound graded"
    for option in scored:  # E[score]'s own bracket, and its sampled bound where P(win)'s proof is 1
        assert option.expected_score <= option.score_upper
        if option.score_upper_estimate is not None:
            low, high = option.score_upper_interval
            assert option.expected_score <= option.score_upper_estimate <= option.score_upper
            assert low <= option.score_upper_estimate <= high
    assert any(o.score_upper_estimate is not None for o in scored)
    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "review.schema.json").read_text())
    as_json = json.loads(json.dumps(decision.to_dict()))
    jsonschema.validate(as_json, {"$defs": schema["$defs"], "$ref": "#/$defs/decision"})


def test_a_decision_whose_planner_step_the_clock_cut_says_so(ev):
    """QA: the same log graded a match in one run and a loss in the next under one label, the lookahead cut by the
    clock in one of them. A decision is `clocked` where a planner step stopped at its time budget, never where
    the plan finished within it; the summary counts them."""
    from game.review import Review

    events = game_log(ev, 5, [make_player(s) for s in ("greedy", "seed000", "random", "greedy")])
    task = next(t for t in decision_tasks(events, Table(ev.rules), 0)[0] if t["type"] == "discard")
    calm = grade(ev, {**task, "turns": 2}, Budget(30, 10**6))
    assert calm.method == "optimal" and not calm.clocked
    rushed = grade(ev, {**task, "turns": 12}, Budget(0.05, 50_000))
    assert rushed.clocked
    summary = Review(0, "seat 0", (calm.to_dict(), rushed.to_dict()), 0).summary()
    assert summary["clocked"] == 1 and calm.to_dict()["clocked"] is False


def test_the_best_discard_is_the_one_mj_plan_recommends():
    """Where the plan ranks a proved 3.39 % above a sample of 3.50 % (2.53-4.83 %) (a sample outranks a proved value
    only where its interval lies above it), the review's best is the plan's first row, and the sampled choice, whose
    mean is higher, is no mistake."""
    from game.grading import Option, _decide

    proved = Option({"type": "dahai", "pai": "a"}, 0.0339, 0.06, None, 1, 2)
    sampled = Option({"type": "dahai", "pai": "b"}, 0.035, 0.06, None, 1, 2, (0.0253, 0.0483))
    order = {"a": 0, "b": 1}
    took_sample = _decide(0, "discard", 3, [sampled, proved], sampled, "estimate", planned=order)
    assert took_sample.best.action["pai"] == "a" and took_sample.match and took_sample.loss == 0.0
    took_proved = _decide(0, "discard", 3, [sampled, proved], proved, "estimate", planned=order)
    assert took_proved.match and took_proved.loss == 0.0
    assert _decide(0, "discard", 3, [sampled, proved], proved, "estimate").best.action["pai"] == "b"  # (no plan order)


def test_an_interrupted_review_keeps_what_it_graded(ev, missed):
    """QA: Ctrl-C during `mj review` printed only "interrupted" and lost every decision graded; the review now holds
    them, says `interrupted`, and keeps the signal's exit code (130 here)."""
    events, some = missed
    first = sorted(some)[:3]

    def stop_after_two(done, total):
        if done == 2:
            raise KeyboardInterrupt

    review = review_game(ev, events, 0, seconds=0.2, indexes=set(first), progress=stop_after_two)
    assert review.interrupted == 130 and [d["index"] for d in review.decisions] == first[:2]
    data = review.to_dict()
    assert data["interrupted"] is True and data["summary"]["decisions"] == 2
    jsonschema.validate(json.loads(json.dumps(data)),
                        json.loads((ROOT / "docs" / "review.schema.json").read_text(encoding="utf-8")))
    assert "interrupted" not in review_game(ev, events, 0, seconds=0.2, indexes={first[0]}).to_dict()


def test_the_terminal_says_a_proved_loss_beside_the_graded_one():
    """QA: a loss within the class nearest stood alone where only 0-100 % was proved against the optimum."""
    from console.review import _loss

    assert _loss({"loss": 0.109, "loss_bounds": [0.0, 1.0]}) == "10.9% (proved 0.0%–100.0%)"
    assert _loss({"loss": 0.109, "loss_bounds": [0.109, 0.109]}) == "10.9%"
    assert _loss({"loss": 0.109, "loss_bounds": None}) == "10.9%"
    assert _loss({"loss": None, "loss_bounds": [0.02, 0.5]}) == "proved 2.0%–50.0%"
