"""QA's defects at the command line's edges: Ctrl-C (every command says so, `mj research max-h` keeps an
earlier certificate and says how far it got), output paths no file can go to, catalogue files with a BOM or a
negative point value, tournament intervals of zero width, and repeated parameters on the web API."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import warnings

import pytest
from test_catalogue_files import house_text
from test_hardening import ROOT, SEED_HAND, run_mj
from test_tournament import game_line

from catalogue.loader import check_file, load_catalogue
from game.tournament import Settings, Tally
from solver import Evaluator
from solver.research.max_h import max_h

RULE_SET = house_text()
SCORED = "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也"


def start_mj(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def interrupt(proc: subprocess.Popen, signum: int = signal.SIGINT) -> tuple[str, str, float]:
    """SIGINT (or `signum`), then (stdout, stderr, seconds until the process ended)."""
    proc.send_signal(signum)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=60)
    return out, err, time.monotonic() - sent


# --- 1, 2: Ctrl-C ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_on_max_h_keeps_the_old_certificate_and_says_how_far_it_got(tmp_path, signum, code):
    cert = tmp_path / "cert.json"
    cert.write_text('{"old": true}\n', encoding="utf-8")
    proc = start_mj("research", "max-h", "--quiet", "--out", str(cert))  # 2019-12: minutes to a proof
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]:
        time.sleep(0.05)  # the file beside it is made just before the search starts
    time.sleep(1.5)
    assert proc.poll() is None
    out, err, _ = interrupt(proc, signum)
    assert proc.returncode == code and out == "", (out, err)
    assert err.count("\n") == 1 and err.startswith("interrupted after "), err
    assert "largest h found = " in err and "first-level branches finished" in err and "left as it was" in err
    assert cert.read_text(encoding="utf-8") == '{"old": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cert.json"]  # nothing left beside it


def test_ctrl_c_on_max_h_with_json_still_prints_one_document():
    """QA: `mj research max-h --json` stopped by Ctrl-C printed nothing on stdout."""
    proc = start_mj("research", "max-h", "--quiet", "--json")
    time.sleep(3)
    assert proc.poll() is None
    out, err, _ = interrupt(proc)
    assert proc.returncode == 130 and err.startswith("interrupted after "), err
    cert = json.loads(out)
    assert cert["proved"] is False and cert["max_h"] >= 1


def test_max_h_interrupted_carries_what_it_reached():
    from solver.research.max_h import Interrupted

    def stop(progress):
        raise KeyboardInterrupt

    with pytest.raises(Interrupted) as caught:
        max_h(Evaluator("2019-12"), progress=stop)
    result = caught.value.result
    assert not result.proved and result.stopped.startswith("interrupted: goal ") and result.max_h >= 1


def test_max_h_refuses_a_directory_or_an_empty_out(tmp_path):
    for out in (str(tmp_path), ""):
        code, _, err = run_mj("research", "max-h", "--quiet", "--time-budget", "1", "--out", out)
        assert code == 2 and err.count("\n") == 1 and ("is a directory" in err or "is empty" in err), err


def test_ctrl_c_on_plan_says_interrupted_promptly():
    proc = start_mj("plan", SEED_HAND, "--turns", "4", "--seconds", "20")
    time.sleep(3)
    assert proc.poll() is None
    _, err, seconds = interrupt(proc)
    assert proc.returncode == 130 and err == "interrupted\n" and seconds < 5, (err, seconds)


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_game_says_so_and_leaves_no_file(tmp_path, signum, code):
    """SIGTERM had ended `mj play --log` silently (exit 143, no message) and left the hidden file beside the log;
    now it stops as Ctrl-C does: `interrupted`, and nothing in the log's directory."""
    bot = tmp_path / "slow_bot.py"
    bot.write_text("import json, sys, time\n"
                   "for line in sys.stdin:\n"
                   "    m = json.loads(line)\n"
                   "    if m['type'] == 'request':\n"
                   "        time.sleep(0.3)\n"
                   "        print(json.dumps(m['possible_actions'][0]), flush=True)\n", encoding="utf-8")
    logs = tmp_path / "logs"
    logs.mkdir()
    proc = start_mj("play", "-p", f"cmd:{sys.executable} {bot}", "-p", "greedy", "--log", str(logs / "g.jsonl"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(logs.iterdir()):
        time.sleep(0.05)  # (the file beside the log: opened before the deal)
    time.sleep(1)
    assert proc.poll() is None
    _, err, _ = interrupt(proc, signum)
    assert proc.returncode == code and err == "interrupted\n", err
    assert list(logs.iterdir()) == []


def test_every_command_says_interrupted(monkeypatch):
    # typer turned a KeyboardInterrupt inside a command into a silent exit 130
    import console.hand

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(console.hand, "evaluator", interrupted)
    code, out, err = run_mj("h", SEED_HAND)
    assert (code, out, err) == (130, "", "interrupted\n")


# --- 3, 6: catalogue files ---------------------------------------------------------------------------------

def test_a_catalogue_file_with_a_bom_is_read(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + RULE_SET.encode("utf-8"))
    assert check_file(path) == []
    assert "my-house" in load_catalogue([path]).rules


@pytest.mark.parametrize("field", ["favourite_bonus", "min_points", "member_points"])
def test_a_negative_point_value_is_refused_naming_the_field(tmp_path, field):
    path = tmp_path / "neg.toml"
    text = "\n".join(f"{field} = -2000" if line.startswith(f"{field} =") else line for line in RULE_SET.splitlines())
    path.write_text(text, encoding="utf-8")
    assert any(f"{field} must be 0 or more" in p for p in check_file(path))
    code, out, err = run_mj("score", SCORED, "--tsumo", "--favorite", "可奈", "--catalogue", str(path),
                            "--rules", "my-house")
    assert code == 2 and out == "" and err.count("\n") == 1 and field in err and "Traceback" not in err, err


# --- 4: output paths ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("extra", [(), ("--force",), ("--resume",)])
def test_check_refuses_a_directory_as_output_and_creates_nothing(tmp_path, extra):
    claims, adir = tmp_path / "bad.jsonl", tmp_path / "adir"
    claims.write_text('{"hand": "x", "h": 1}\n', encoding="utf-8")
    adir.mkdir()
    code, _, err = run_mj("check", str(claims), "--output", str(adir), "--workers", "1", *extra)
    assert code == 2 and err.count("\n") == 1 and "is a directory" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir", "bad.jsonl"]


def test_an_empty_output_is_refused(tmp_path):
    claims = tmp_path / "bad.jsonl"
    claims.write_text('{"hand": "x", "h": 1}\n', encoding="utf-8")
    for args in (("check", str(claims), "--workers", "1"), ("generate", "waits", "-n", "1"),
                 ("tournament", "-p", "greedy", "-p", "random", "--games", "2")):
        code, out, err = run_mj(*args, "--output", "")
        assert code == 2 and out == "" and err == "error: --output is empty: give a file name\n", (args, err)
        code, out, err = run_mj(*args, "--output", str(tmp_path / "new.jsonl"), "--resume", "--force")
        assert code == 2 and out == "" and "give one of them" in err and err.count("\n") == 1, (args, err)
    code, out, err = run_mj("play", "--seed", "1", "--log", "")  # (no game is played to be lost)
    assert code == 2 and out == "" and err == "error: --log is empty: give a file name\n", err


def test_tournament_refuses_a_directory_as_output(tmp_path):
    (tmp_path / "adir").mkdir()
    code, _, err = run_mj("tournament", "-p", "greedy", "-p", "random", "--games", "2", "-o", str(tmp_path / "adir"),
                          "--force")
    assert code == 2 and "is a directory" in err and os.listdir(tmp_path) == ["adir"], err


# --- 5: intervals ------------------------------------------------------------------------------------------

def test_no_interval_without_spread():
    from game.stats import spread_interval

    assert spread_interval([1.0, 1.0]) == (1.0, None) and spread_interval([0.0] * 50) == (0.0, None)
    assert spread_interval([5.0]) == (5.0, None) and spread_interval([]) == (None, None)
    mean, interval = spread_interval([1.0, 0.5])
    assert mean == 0.75 and interval[0] < 0.5 and interval[1] > 1.0


def test_a_tournament_without_spread_shows_no_interval():
    settings = Settings(("A", "B"), deals=2)
    tally = Tally(settings)
    # A wins every game by 2000 (in odd games seat 0 is B): the per-deal differences are all alike
    for index, winner in enumerate([0, 1, 0, 1]):
        tally.add(game_line(settings, index, [2000, 0] if winner == 0 else [0, 2000], winner))
    pair = tally.summary()["pairs"][0]
    assert pair["win_rate_diff"] == 1.0 and pair["win_rate_diff_ci"] is None
    assert pair["score_diff"] == 2000 and pair["score_diff_ci"] is None
    assert all(p["mean_score_ci"] is None for p in tally.summary()["players"])


# --- 7: the web API ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from server.app import create_app

    with TestClient(create_app(workers=1)) as test_client:
        yield test_client


@pytest.mark.parametrize("method, url", [
    ("post", "/api/game?seed=1&seed=2"),
    ("post", "/api/review?seat=0&seat=1"),
    ("get", f"/api/score?hand={SCORED}&favorite=可奈&favourite=真"),
    ("get", "/api/game/nope?since=1&since=2"),
])
def test_a_repeated_parameter_is_refused_everywhere(client, method, url):
    response = getattr(client, method)(url)
    assert response.status_code == 400 and "more than once" in response.json()["error"], response.text


def test_replay_takes_no_rules(client):
    response = client.post("/api/replay?rules=nope", content=b'{"type": "start_game"}\n')
    assert response.status_code == 400 and "unknown parameter 'rules'" in response.json()["error"]


@pytest.mark.parametrize("args, named", [
    (["score", SCORED, "--tsumo", "--favorite", "可奈", "--favourite", "春香"], "--favorite / --favourite"),
    (["plan", SEED_HAND, "--turns", "2", "--turns=3"], "--turns"),
    (["catalogue", "units", "--rules", "2019-12", "--rules", "2019-10"], "--rules"),
])
def test_an_option_of_one_value_given_twice_is_refused(args, named):
    """click keeps the last value silently (the first favourite had been dropped without a word)."""
    code, out, err = run_mj(*args)
    assert code == 2 and not out and err.strip() == f"error: {named} given more than once: give it once (see mj --help)"


def test_options_of_many_values_may_repeat():
    code, _, err = run_mj("play", "-p", "greedy", "-p", "greedy", "--favourite", "0=春香", "--favourite", "1=千早")
    assert code == 0, err


def test_a_long_analysis_shows_its_time_on_a_terminal(monkeypatch):
    """QA: the analysis (and h) of a house of thousands of units ran for seconds in silence. On a terminal, past a
    second, a line says how long it has run of its budget, and is cleared at the end; off a terminal, nothing."""
    import io
    import time

    from console import progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.setattr(progress, "DELAY", 0.05)
    for stream, quiet in ((Terminal(), False), (io.StringIO(), False), (Terminal(), True)):
        monkeypatch.setattr(sys, "stderr", stream)
        with progress.elapsed("analysing", 30.0, quiet):
            time.sleep(0.3)
        shown = stream.getvalue()
        if isinstance(stream, Terminal) and not quiet:
            assert shown.startswith("\ranalysing… 0 s of 30 s\033[K") and shown.endswith("\r\033[K"), shown
        else:
            assert shown == ""
