"""`mj tournament`: the duplicate schedule, the intervals against independent plain-Python computations, the
summary of known results, the same bytes on any --jobs, SIGKILL then --resume, refusals and bad input."""

from __future__ import annotations

import json
import math
import signal
import statistics
import subprocess
import sys
from pathlib import Path
from collections import defaultdict

import pytest
from test_check import wait_for_lines
from test_hardening import ROOT, assert_one_error_line, run_mj

from solver.core.errors import MjError
from game.stats import mean_interval, t_quantile, wilson
from game.tournament import Settings, Tally, deal_seed, player_names, seating

Z = statistics.NormalDist().inv_cdf(0.975)
RUN = ["tournament", "-p", "greedy", "-p", "seed000", "--games", "40", "--seed", "5"]  # about 2.5 s a run


# --- oracles -------------------------------------------------------------------------------------------


def t_cdf_by_integration(x: float, df: int, steps: int = 20000) -> float:
    """P(T <= x), x >= 0, by Simpson's rule over Student's density (an independent computation)."""
    front = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    density = lambda t: front * (1 + t * t / df) ** (-(df + 1) / 2)  # noqa: E731
    h = x / steps
    total = density(0) + density(x) + sum((4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
    return 0.5 + total * h / 3


def wilson_by_scan(wins: int, n: int, grid: int = 200_000) -> tuple[float, float]:
    """The Wilson interval by its definition: every p with |wins/n - p| <= z sqrt(p(1-p)/n), on a grid."""
    ps = [i / grid for i in range(grid + 1)]
    inside = [p for p in ps if (wins / n - p) ** 2 <= Z * Z * p * (1 - p) / n]
    return min(inside), max(inside)


# --- the schedule ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_sits_at_every_seat_once_per_deal(players):
    seats = defaultdict(list)
    for rotation in range(players):
        order = seating(players, rotation)
        assert sorted(order) == list(range(players))  # every player plays every game of the deal
        for seat, player in enumerate(order):
            seats[player].append(seat)
    assert all(sorted(s) == list(range(players)) for s in seats.values()) and len(seats) == players


def test_deal_seeds_differ_by_deal_and_by_tournament_seed():
    seeds = {deal_seed(s, d) for s in range(5) for d in range(200)}
    assert len(seeds) == 1000 and all(0 <= s < 1 << 48 for s in seeds)
    assert deal_seed(3, 7) == deal_seed(3, 7)


def test_the_same_spec_twice_is_numbered():
    assert player_names(["greedy", "seed000", "greedy"]) == ["greedy#1", "seed000", "greedy#2"]


# --- the intervals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("df", [1, 2, 3, 7, 30, 200])
def test_t_quantile_matches_the_integrated_density(df):
    q = t_quantile(0.975, df)
    assert abs(t_cdf_by_integration(q, df) - 0.975) < 1e-7
    if df == 1:  # Cauchy: closed form
        assert math.isclose(q, math.tan(math.pi * 0.475), rel_tol=1e-9)
    if df == 2:  # closed form (2p - 1) / sqrt(2p(1 - p))
        assert math.isclose(q, 0.95 / math.sqrt(2 * 0.975 * 0.025), rel_tol=1e-9)
    assert math.isclose(t_quantile(0.025, df), -q)


@pytest.mark.parametrize("wins, n", [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (37, 120), (500, 1000)])
def test_wilson_interval_matches_its_definition(wins, n):
    lo, hi = wilson(wins, n)
    slo, shi = wilson_by_scan(wins, n)
    assert abs(lo - slo) < 2e-5 and abs(hi - shi) < 2e-5
    assert wilson(0, 0) is None


def test_mean_interval_matches_the_statistics_module():
    values = [3.0, 7.5, -2.0, 11.0, 4.25, 0.0, 9.0]
    mean, (lo, hi) = mean_interval(values)
    half = (hi - lo) / 2
    assert math.isclose(mean, statistics.mean(values)) and math.isclose((lo + hi) / 2, mean)
    # half = q s / sqrt(n), q the 97.5 % quantile with n - 1 degrees of freedom: check q by the density
    q = half / (statistics.stdev(values) / math.sqrt(len(values)))
    assert abs(t_cdf_by_integration(q, len(values) - 1) - 0.975) < 1e-7
    assert mean_interval([5.0]) == (5.0, None) and mean_interval([]) == (None, None)
    assert mean_interval([2.0, 2.0, 2.0]) == (2.0, (2.0, 2.0))


# --- the summary of known results -----------------------------------------------------------------------


def game_line(settings: Settings, index: int, scores: list[int], winner: int | None, discarder: int | None = None):
    n = len(settings.players)
    end = "draw" if winner is None else ("tsumo" if discarder is None else "ron")
    return {"game": index, "deal": index // n, "rotation": index % n, "seed": deal_seed(settings.seed, index // n),
            "seats": seating(n, index % n), "end": end, "winners": [] if winner is None else [winner],
            "from": None if winner is None else (winner if discarder is None else discarder), "scores": scores,
            "errors": [0] * n, "events": 10}


@pytest.mark.parametrize("change", [{"winners": [9]}, {"from": -1}, {"winners": [1, 1]}, {"from": 1},
                                    {"end": "tsumo"}, {"winners": []}, {"end": "draw"}, {"from": True}])
def test_resumed_lines_with_an_impossible_end_are_refused(change):
    """A ron of seat 1 off seat 0's discard, edited into an end no game has (a winner past the seats, a discarder
    who won or is no seat, a tsumo or a draw with a discarder)."""
    from game.tournament import check_line

    settings = Settings(("A", "B", "C"), deals=1)
    line = game_line(settings, 0, [0, 12000, -12000], 1, 0)
    check_line(line, 0, settings)  # (as played: taken)
    with pytest.raises(MjError, match="line 1 is not game 0"):
        check_line({**line, **change}, 0, settings)


def test_summary_of_known_small_results():
    settings = Settings(("A", "B"), deals=3)
    # (scores by seat, winner seat, discarder seat); in odd games seat 0 is B, seat 1 is A
    games = [([10, 2], 0, None), ([6, 4], 0, 1), ([5, 5], None, None), ([3, 8], 1, None), ([9, 1], 0, 1),
             ([2, 2], None, None)]
    tally = Tally(settings)
    for index, (scores, winner, discarder) in enumerate(games):
        tally.add(game_line(settings, index, scores, winner, discarder))
    s = tally.summary()
    a, b = s["players"]
    # A's scores: 10, 4, 5, 8, 9, 2 -> per deal 7, 6.5, 5.5; B's: 2, 6, 5, 3, 1, 2 -> per deal 4, 4, 1.5
    assert (a["name"], a["games"], a["wins"], b["wins"]) == ("A", 6, 3, 1)
    assert a["win_rate"] == 0.5 and b["win_rate"] == round(1 / 6, 4)
    assert a["deal_ins"] == 1 and b["deal_ins"] == 1
    mean, interval = mean_interval([7, 6.5, 5.5])
    assert a["mean_score"] == round(mean, 2) == 6.33 and a["mean_score_ci"] == [round(v, 2) for v in interval]
    assert b["mean_score"] == 3.17
    low, high = mean_interval([4, 4, 1.5])[1]  # (B's t interval passes below 0: clipped, no score is negative)
    assert low < 0 and b["mean_score_ci"] == [0.0, round(high, 2)]
    pair = s["pairs"][0]
    assert (pair["a"], pair["b"], pair["deals"]) == ("A", "B", 3)
    diffs = [3, 2.5, 4]
    sd = statistics.stdev(diffs)
    half = t_quantile(0.975, 2) * sd / math.sqrt(3)
    assert pair["score_diff"] == round(statistics.mean(diffs), 2)
    assert pair["score_diff_ci"] == [round(statistics.mean(diffs) - half, 2), round(statistics.mean(diffs) + half, 2)]
    assert pair["score_diff_ci"][0] > 0  # A's lead is not luck of the deal here
    # wins per deal: A 1 of 2 in each; B 1 of 2, 0, 0 -> differences 0, 0.5, 0.5
    assert pair["win_rate_diff"] == round(1 / 3, 4) and pair["win_rate_diff_ci"][0] < 0
    assert a["win_rate_ci"] == [round(v, 4) for v in wilson(3, 6)]
    assert s["ends"] == {"tsumo": 2, "ron": 2, "draw": 2} and s["deals"] == 3 and s["games"] == 6
    # per seat (seat 0 deals): A sat at 0 in games 0, 2, 4 (10, 5, 9; won 0 and 4), at 1 in 1, 3, 5 (4, 8, 2; won 3)
    assert a["by_seat"] == [{"seat": 0, "games": 3, "wins": 2, "win_rate": 0.6667, "mean_score": 8.0},
                            {"seat": 1, "games": 3, "wins": 1, "win_rate": 0.3333, "mean_score": 4.67}]
    assert s["unfinished"] == 0


def test_a_deal_cut_short_is_in_no_statistic():
    """A stop within a deal: its games are counted apart, every statistic stays over the whole deals (QA: a run
    stopped after 16 games of 3 players gave win rates over 16 games and mean scores over 15)."""
    settings = Settings(("A", "B"), deals=3)
    games = [([10, 2], 0, None), ([6, 4], 0, 1), ([5, 5], None, None), ([3, 8], 1, None), ([9, 1], 0, 1)]
    whole, cut = Tally(settings), Tally(settings)
    for index, (scores, winner, discarder) in enumerate(games):
        line = game_line(settings, index, scores, winner, discarder)
        cut.add(line)
        if index < 4:
            whole.add(line)
    got, want = cut.summary(), whole.summary()
    assert got["unfinished"] == 1 and want["unfinished"] == 0
    assert {**got, "unfinished": 0} == want and got["games"] == 4 and got["players"][0]["wins"] == 2


# --- the command -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The 40 games and their summary, in this process (--jobs 1): what every other run must give."""
    out = tmp_path_factory.mktemp("reference") / "ref.jsonl"
    code, stdout, err = run_mj(*RUN, "--jobs", "1", "--json", "--output", str(out))
    assert code == 0, err
    return out.read_bytes(), json.loads(stdout)


def test_summary_counts_what_the_file_holds(reference):
    data, summary = reference
    lines = [json.loads(line) for line in data.decode().splitlines()]
    assert [line["game"] for line in lines] == list(range(40)) and summary["deals"] == 20
    wins, totals = defaultdict(int), defaultdict(int)
    for line in lines:
        for seat, player in enumerate(line["seats"]):
            wins[player] += seat in line["winners"]
            totals[player] += line["scores"][seat]
        assert line["seed"] == deal_seed(5, line["deal"]) and line["rotation"] == line["game"] % 2
    for p, player in enumerate(summary["players"]):
        assert player["games"] == 40 and player["wins"] == wins[p]
        assert player["mean_score"] == round(totals[p] / 40, 2)


def test_same_seed_gives_the_same_file_on_two_workers(reference, tmp_path):
    out = tmp_path / "out.jsonl"
    code, stdout, err = run_mj(*RUN, "--jobs", "2", "--json", "--output", str(out))
    assert code == 0, err
    assert out.read_bytes() == reference[0] and json.loads(stdout) == reference[1]


def test_sigkilled_then_resumed_is_the_uninterrupted_file(reference, tmp_path):
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *RUN, "--jobs", "2", "--output", str(out)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_lines(out, 2, proc, timeout=60)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert out.read_bytes().count(b"\n") < 40, "the run ended before it was killed"
    with open(out, "ab") as handle:
        handle.write(b'{"game":')  # as if the kill had torn the line being written
    code, stdout, err = run_mj(*RUN, "--jobs", "2", "--json", "--output", str(out), "--resume")
    assert code == 0, err
    assert out.read_bytes() == reference[0]  # no game lost, none twice
    assert json.loads(stdout) == reference[1]
    code, stdout, err = run_mj(*RUN, "--json", "--output", str(out), "--resume")  # complete: the summary again
    assert code == 0 and json.loads(stdout) == reference[1] and out.read_bytes() == reference[0]


def test_stopped_by_sigterm_says_what_it_wrote(tmp_path):
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *RUN, "--jobs", "1", "--output", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for_lines(out, 1, proc, timeout=60)
    proc.send_signal(signal.SIGTERM)
    stdout, err = proc.communicate(timeout=60)
    err = err.decode()
    assert proc.returncode == 143, err
    assert err.startswith("interrupted after ") and " of 40 games (in " in err and err.count("\n") == 1, err
    assert err.endswith("); rerun with --resume to continue\n")
    assert b"interrupted: the games played before it" in stdout  # (their summary, QA)
    assert out.read_bytes().count(b"\n") == int(err.split()[2])  # every game it says, and whole


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_stopped_run_leaves_no_bot_running(tmp_path, jobs):
    """Ctrl-C while every worker waits on a hung external bot: the run stops, and so do the bots (a worker killed
    alone would leave them to run for ever)."""
    import os
    import time

    bot = tmp_path / "hung.py"
    bot.write_text("import os, sys, time\n"
                   f"open(os.path.join({str(tmp_path)!r}, f'bot.{{os.getpid()}}'), 'w').close()\n"
                   "time.sleep(300)\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "tournament", "-p", "greedy", "-p",
                             f"cmd:{sys.executable} {bot}", "--games", "4", "--bot-timeout", "30", "--jobs", jobs,
                             "--output", str(tmp_path / "out.jsonl")], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("bot.*"))) < int(jobs) and time.monotonic() < deadline:
        time.sleep(0.1)
    pids = [int(p.suffix[1:]) for p in tmp_path.glob("bot.*")]
    assert len(pids) == int(jobs), "the bots did not start"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.startswith(b"interrupted after 0 of 4 games"), err
    time.sleep(0.5)
    alive = [pid for pid in pids if running(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)  # (not left behind by the test either)
    assert not alive, f"bots still running: {alive}"


def running(pid: int) -> bool:
    """Whether the process runs (a zombie, killed and not yet reaped by whoever inherited it, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_run_grows_to_more_games_as_if_asked_for_them_at_first(reference, tmp_path):
    """QA: a finished 24-game run could not be extended to 48, though its games are the first 24 of those (a game
    depends on its index and the settings alone). --resume with more --games goes on; the file is the longer run's."""
    out = tmp_path / "grown.jsonl"
    half = ["20" if RUN[i - 1] == "--games" else a for i, a in enumerate(RUN)]
    assert run_mj(*half, "--jobs", "1", "--output", str(out))[0] == 0
    code, stdout, err = run_mj(*RUN, "--jobs", "1", "--json", "--output", str(out), "--resume")
    assert code == 0, err
    assert out.read_bytes() == reference[0] and json.loads(stdout) == reference[1]
    assert json.loads(out.with_name("grown.jsonl.meta").read_text())["games"] == 40


def test_resume_refuses_changed_options_and_foreign_files(tmp_path):
    out = tmp_path / "out.jsonl"
    base = ["tournament", "-p", "random", "-p", "greedy", "--games", "4", "--jobs", "1", "--output", str(out)]
    assert run_mj(*base)[0] == 0
    before = out.read_bytes()
    other_player = ["seed000" if a == "greedy" else a for a in base]
    fewer_games = ["2" if base[i - 1] == "--games" else a for i, a in enumerate(base)]  # (an option given once)
    for args, change, said in ((base, ["--seed", "1"], "--seed"), (other_player, [], "--player"),
                               (fewer_games, [], "--games"), (base, ["--rules", "hitori-jong-2.1"], "--rules"),
                               (base, ["--calls", "previous"], "--calls")):
        err = assert_one_error_line(*run_mj(*args, *change, "--resume"))
        assert said in err and "--force" in err, err
    assert out.read_bytes() == before
    assert "already holds" in assert_one_error_line(*run_mj(*base))
    out.write_text('{"game": 7}\n', encoding="utf-8")
    assert "not game 0" in assert_one_error_line(*run_mj(*base, "--resume"))
    out.write_bytes(before.replace(b'"scores":[', b'"scores":["x",', 1))  # game 0's line, but not its data
    assert "line 1 is not game 0" in assert_one_error_line(*run_mj(*base, "--resume"))
    (tmp_path / "out.jsonl.meta").unlink()
    assert "missing" in assert_one_error_line(*run_mj(*base, "--resume"))


@pytest.mark.parametrize("args, said", [
    (["-p", "human", "-p", "greedy"], "no human"), (["-p", "greedy", "-p", "alphago"], "unknown player"),
    (["-p", "greedy", "-p", "random", "--games", "0"], "--games"), (["-p", "greedy"], "2 to 4 players"),
    (["-p", "greedy"] * 5, "2 to 4 players"), (["-p", "greedy", "-p", "random", "--resume"], "--output"),
    (["-p", "greedy", "-p", "random", "--rules", "nope"], "unknown rule set"),
    (["-p", "greedy", "-p", "random", "--calls", "left"], "calls"),
])
def test_bad_input_is_one_error_line(args, said):
    assert said in assert_one_error_line(*run_mj("tournament", *args))


def test_duplicates_an_external_engine_and_rounding_to_whole_deals():
    bot = f"cmd:{sys.executable} {ROOT / 'docs' / 'example_bot.py'}"
    code, stdout, err = run_mj("tournament", "-p", "greedy", "-p", bot, "-p", "greedy", "--games", "2", "--jobs", "1",
                               "--json")
    assert code == 0, err
    assert err == "note: 3 games: 1 deal x 3 seat rotations (--games rounds up to whole deals)\n"
    summary = json.loads(stdout)
    assert [p["name"] for p in summary["players"]] == ["greedy#1", bot, "greedy#2"]
    assert summary["games"] == 3 and all(p["games"] == 3 for p in summary["players"])
    assert (summary["planner_budget"], summary["bot_timeout"]) == (0.5, 5.0)  # (every setting: as FILE.meta has)
    assert summary["players"][1]["bot_errors"] == 0 and summary["players"][0]["mean_score_ci"] is None  # one deal
    engine = summary["players"][1]
    assert engine["decisions"] > 0 and (engine["fallback_decisions"], engine["crashed_games"]) == (0, 0)


def test_logs_keeps_each_games_log_for_review_and_a_tournament_line_is_no_log(tmp_path):
    """QA: a tournament's faults could not be inspected (only counts), and `mj review` on its output said "an event
    is a JSON object with a type". --logs DIR keeps each game's log; the output read as a log says what it is."""
    out, logs = tmp_path / "t.jsonl", tmp_path / "logs"
    args = ("tournament", "-p", "greedy", "-p", "seed000", "--games", "2", "--jobs", "1", "--output", str(out))
    code, _, err = run_mj(*args, "--logs", str(logs))  # (made where missing)
    assert code == 0, err
    said = assert_one_error_line(*run_mj(*args, "--force", "--logs", str(logs / "game-000000.jsonl")))
    assert said.startswith("error: --logs ") and said.endswith(" is not a directory\n")
    other = ["random" if a == "seed000" else a for a in args if a not in ("--output", str(out))]
    assert "already holds 2 game log(s)" in assert_one_error_line(*run_mj(*other, "--logs", str(logs)))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(p.name for p in logs.iterdir()) == ["game-000000.jsonl", "game-000001.jsonl"]
    for line in lines:
        events = [json.loads(e) for e in (logs / f"game-{line['game']:06d}.jsonl").read_text().splitlines()]
        assert events[0]["seed"] == line["seed"] and events[-1]["scores"] == line["scores"]
        assert len(events) == line["events"]
    code, stdout, err = run_mj("review", str(logs / "game-000001.jsonl"), "--seat", "0", "--seconds", "0.05", "--json")
    assert code == 0, err
    said = assert_one_error_line(*run_mj("review", str(out), "--seat", "0"))
    assert "a line of mj tournament's output (game 0), not of a game log: the tournament's --logs DIR" in said


def test_an_engine_that_crashes_is_not_ranked_unremarked(tmp_path):
    """QA: an engine that exited at its start was credited the fallback COM's wins (50 %), and nothing said so. Each
    line now counts the decisions the fallback made per seat, the summary sums them, and the table warns."""
    crash = f"cmd:{sys.executable} -c 'import sys; sys.exit(3)'"
    out = tmp_path / "t.jsonl"
    args = ("tournament", "-p", "greedy", "-p", crash, "--games", "4", "--jobs", "1", "--output", str(out))
    code, stdout, err = run_mj(*args, "--json")
    assert code == 0, err
    greedy, engine = json.loads(stdout)["players"]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert engine["crashed_games"] == 4 and engine["fallback_decisions"] == engine["decisions"] > 0
    assert engine["decisions"] == sum(line["decisions"][line["seats"].index(1)] for line in lines)
    assert (greedy["crashed_games"], greedy["fallback_decisions"]) == (0, 0) and greedy["decisions"] > 0
    code, stdout, err = run_mj(*args, "--resume")
    assert code == 0, err
    warning = stdout[stdout.index("Warning:"):]
    assert " ".join(warning.split()).startswith(
        f"Warning: the fallback COM (greedy) made {engine['decisions']} of the {engine['decisions']} decisions of "
        f"{crash} (it crashed in 4 of 4 games).")


def test_an_engine_whose_answers_are_mostly_faults_is_flagged_too(tmp_path):
    """QA: an engine whose answers were mostly garbled came top with 28 of its 36 decisions the fallback's, and the
    table's warning named only crashed engines."""
    garbage = f"cmd:{sys.executable} {Path(__file__).parent / 'game_bots.py'} garbage"
    code, stdout, err = run_mj("tournament", "-p", "greedy", "-p", f"junk={garbage}", "--games", "2", "--jobs", "1")
    assert code == 0, err
    warning = " ".join(stdout[stdout.index("Warning:"):].split())
    assert "decisions of junk (its answers late, not JSON or illegal)" in warning, warning
    assert "bot errors (dropped lines included), " in " ".join(stdout.split())  # (QA: "the fallback COM decided" them all)


def test_a_dask_cluster_plays_the_same_games(tmp_path):
    distributed = pytest.importorskip("distributed", reason='Dask distributed is not installed: pip install ".[cluster]"')
    from game.tournament_run import TournamentRun

    settings = Settings(("greedy", "random"), deals=4, seed=2)
    files = {}
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="600MB",
                                       dashboard_address=None)
    try:
        with distributed.Client(cluster) as client:
            for name, where in (("local", None), ("dask", client)):
                files[name] = tmp_path / f"{name}.jsonl"
                run = TournamentRun(settings, str(files[name]), jobs=1, cluster=where)
                try:
                    assert sum(len(batch) for batch in run.games()) == 8
                    summary = run.summary()
                finally:
                    run.close()
                assert summary["games"] == 8 and summary["deals"] == 4
    finally:
        cluster.close()
    assert files["dask"].read_bytes() == files["local"].read_bytes()


def test_a_house_rule_set_from_its_catalogue_and_a_resume_under_an_edited_house_refused(tmp_path):
    """QA (a club organiser): tournaments took only the built-in rule sets. --catalogue FILE plays a house's; its
    .meta records the files and the rule set's digest, so a resume under an edited house is refused."""
    from test_catalogue_files import house_text

    house = tmp_path / "house.toml"
    house.write_text(house_text(), encoding="utf-8")
    out, logs = tmp_path / "t.jsonl", tmp_path / "logs"
    logs.mkdir()
    args = ("tournament", "-p", "greedy", "-p", "seed000", "--games", "2", "--jobs", "1", "-r", "my-house",
            "--output", str(out))
    code, stdout, err = run_mj(*args, "--catalogue", str(house), "--logs", str(logs), "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    assert summary["rules"] == "my-house" and summary["catalogue"] == [str(house)] and summary["games"] == 2
    meta = json.loads(out.with_name("t.jsonl.meta").read_text())
    assert meta["catalogue"] == [str(house)] and len(meta["rules_digest"]) == 16
    start = json.loads((logs / "game-000000.jsonl").read_text().splitlines()[0])
    assert start["rules"] == "my-house" and start["rules_digest"] == meta["rules_digest"]
    assert "unknown rule set 'my-house'" in assert_one_error_line(*run_mj(*args, "--resume"))
    house.write_text(house_text().replace("min_points = 1000", "min_points = 500"), encoding="utf-8")
    said = assert_one_error_line(*run_mj(*args, "--catalogue", str(house), "--resume"))
    assert "cannot resume" in said and "the rule set my-house of its catalogue files is not the same as then" in said


def test_a_player_named_in_the_table_and_the_logs(tmp_path):
    """QA: a cmd: spec made every row of the table three lines. NAME=SPEC names the player (only before a COM or a
    cmd:, so a command's own '=' stays its own)."""
    from game.players import split_alias

    assert split_alias("mybot=cmd:python3 bot.py --depth=3") == ("mybot", "cmd:python3 bot.py --depth=3")
    assert split_alias("cmd:python3 bot.py --depth=3") == (None, "cmd:python3 bot.py --depth=3")
    assert split_alias("x=nothing") == (None, "x=nothing") and split_alias("g=greedy") == ("g", "greedy")
    bot = f"example=cmd:{sys.executable} {ROOT / 'docs' / 'example_bot.py'}"
    logs = tmp_path / "logs"
    logs.mkdir()
    code, stdout, err = run_mj("tournament", "-p", bot, "-p", "g=greedy", "-p", "greedy", "--games", "3",
                               "--jobs", "1", "--json", "--logs", str(logs))
    assert code == 0, err
    summary = json.loads(stdout)
    assert [p["name"] for p in summary["players"]] == ["example", "g", "greedy"]
    assert summary["players"][0]["spec"] == bot and summary["players"][0]["decisions"] > 0
    start = json.loads((logs / "game-000001.jsonl").read_text().splitlines()[0])
    assert start["names"] == ["g", "greedy", "example"]  # (rotation 1: seat s plays player (s + 1) % 3)
    said = assert_one_error_line(*run_mj("tournament", "-p", "x=nothing", "-p", "greedy"))
    assert "unknown player x=nothing: one of" in said and "NAME=" in said
