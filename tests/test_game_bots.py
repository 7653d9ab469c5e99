"""External engines over JSON lines: a well-behaved bot, and bots that send garbage, sleep, crash or answer
illegally; whatever they do, the game ends and its log keeps every rule (tests/game_checks.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from game_checks import check_game
from game.engine import Game, Setup
from game.players import fallback_player, make_player
from game.review import decision_tasks
from game.state import Table
from solver.api import Evaluator

ROOT = Path(__file__).resolve().parent.parent
BOTS = Path(__file__).resolve().parent / "game_bots.py"


@pytest.fixture(scope="module")
def ev():
    return Evaluator()


def bot(mode: str, *args: str) -> str:
    return "cmd:" + " ".join([sys.executable, str(BOTS), mode, *args])


def play(ev, specs, seed=1, timeout=5.0):
    players = [make_player(s, bot_timeout=timeout) for s in specs]
    record = Game(ev, Setup(seed, len(specs)), players, fallback_player).play()
    check_game(ev, record.events, record.state)
    return record


def errors(record, seat):
    return [e["reason"] for e in record.events if e["type"] == "error" and e["actor"] == seat]


def test_the_documented_example_bot_plays_cleanly(ev):
    example = ROOT / "docs" / "example_bot.py"
    assert example.read_text(encoding="utf-8").strip() in (ROOT / "docs" / "game.md").read_text(encoding="utf-8")
    record = play(ev, ["greedy", f"cmd:{sys.executable} {example} 3", "random", bot("random", "4")], seed=2)
    assert errors(record, 1) == [] and errors(record, 3) == []
    assert record.events[-1]["type"] == "end_game"


def test_garbage_is_logged_and_the_fallback_decides(ev):
    record = play(ev, [bot("garbage"), "greedy", "random", "greedy"])
    reasons = errors(record, 0)
    assert reasons and all(r.startswith("garbage") for r in reasons)
    asked = sum(1 for e in record.events if e.get("actor") == 0 and e["type"] in ("dahai", "sora", "chi"))
    assert len(reasons) >= asked  # every decision of seat 0 went to the fallback
    tasks, skipped = decision_tasks(record.events, Table(ev.rules), 0)  # a review grades none of them
    assert tasks == [] and skipped >= asked


def test_a_sleeping_bot_times_out(ev):
    record = play(ev, [bot("sleep", "0.2"), "random"], seed=3, timeout=0.05)
    reasons = errors(record, 0)
    assert reasons and all("no answer within 0.05 s" in r for r in reasons)


def test_a_hung_bot_is_given_up_after_three_silent_requests(ev):
    """QA: a bot alive but silent (hung, or its output closed without exiting) cost the timeout at every one of its
    decisions to the end. Three requests in a row with no line at all: the third error says it is given up, marked
    crashed, and the fallback plays the seat to the end."""
    record = play(ev, [bot("sleep", "1000"), "random"], seed=3, timeout=0.05)
    faults = [e for e in record.events if e["type"] == "error" and e["actor"] == 0]
    assert [e.get("crashed", False) for e in faults] == [False, False, True]
    assert "3 requests in a row (given up as crashed)" in faults[-1]["reason"]
    assert record.events[-1]["type"] == "end_game"


def test_a_crash_hands_the_seat_to_the_fallback_for_good(ev):
    record = play(ev, ["random", bot("crash"), "greedy", "random"], seed=4)
    reasons = errors(record, 1)
    assert len(reasons) == 1 and "the bot exited (crashed, status 3)" in reasons[0]
    crash = next(i for i, e in enumerate(record.events) if e["type"] == "error")
    assert record.events[crash].get("crashed") is True  # the log says the fallback plays the seat from here
    assert any(e.get("actor") == 1 and e["type"] == "dahai" for e in record.events[crash:])  # play went on
    tasks, skipped = decision_tasks(record.events, Table(ev.rules), 1)
    assert all(t["index"] < crash for t in tasks) and skipped > 0  # a review grades only the player's own


def test_an_illegal_answer_is_refused(ev):
    record = play(ev, ["greedy", bot("illegal")], seed=5)
    reasons = errors(record, 1)
    assert reasons and all(r.startswith("illegal action") and r.endswith('no offered dahai has pai "not a tile"')
                           for r in reasons)


@pytest.mark.parametrize("answer,why", [
    ([1], "not a JSON object"), ({"type": "pon"}, 'no action of type "pon" is offered now (offered: dahai, hora)'),
    ({"type": "dahai", "pai": "x"}, "its field actor is missing"),
    ({"type": "dahai", "actor": "0", "pai": "x"}, 'no offered dahai has actor "0"'),
    ({"type": "hora", "actor": 0, "target": 0, "pai": "y"}, 'no offered hora has pai "y"')])
def test_an_illegal_answer_says_why(answer, why):
    """QA (an engine author): "illegal action" alone left them guessing which field was wrong."""
    from game.legal import why_not
    offered = [{"type": "dahai", "actor": 0, "pai": "x"}, {"type": "dahai", "actor": 0, "pai": "z"},
               {"type": "hora", "actor": 0, "target": 0, "pai": "x"}]
    assert why_not(answer, offered) == why


def test_a_stray_line_costs_no_decision_and_is_logged(ev):
    """QA: a bot that wrote one line of its own at start-up ("ready") had every later answer taken for the request
    before it: a whole game of shifted moves, graded as its own. Lines waiting before a request are dropped and
    logged (error, dropped: true), and the bot's answers stay its own."""
    record = play(ev, [bot("chatty"), "greedy"], seed=6)
    faults = [e for e in record.events if e["type"] == "error" and e["actor"] == 0]
    # ("ready" may come after the first request was sent: then it answers that one, and the bot's own answer to it
    # is the line dropped before the second; one decision lost, not the game)
    dropped = [e for e in faults if e.get("dropped")]
    assert len(dropped) == 1 and len(faults) <= 2
    assert "dropped: ready" in dropped[0]["reason"] or faults[0]["reason"].startswith("garbage: ready (not JSON")
    tasks, skipped = decision_tasks(record.events, Table(ev.rules), 0)
    assert tasks and skipped == len(faults) - 1  # every other decision its own


def test_a_bom_before_an_answer_is_taken(ev):
    record = play(ev, [bot("bom"), "greedy"], seed=6)
    assert errors(record, 0) == []


def test_a_bot_that_exits_at_once_is_said_with_its_status(ev):
    """QA: a bot exiting at once with status 5 was said, as often as not, to have stopped reading."""
    for seed in range(3):
        record = play(ev, [bot("exit"), "greedy"], seed=seed)
        assert errors(record, 0) == ["the bot exited (crashed, status 5)"]


def test_a_bot_sees_only_its_own_tiles(ev, tmp_path):
    seen_path = tmp_path / "seen.jsonl"
    record = play(ev, ["greedy", bot("record", str(seen_path)), "random"], seed=6)
    seen = [json.loads(line) for line in seen_path.read_text(encoding="utf-8").splitlines()]
    start = next(e for e in seen if e["type"] == "start_game")
    kyoku = next(e for e in seen if e["type"] == "start_kyoku")
    assert "seed" not in start and "wall" not in kyoku
    assert kyoku["tehais"][1] == record.events[1]["tehais"][1]
    assert all(t == "?" for i in (0, 2) for t in kyoku["tehais"][i])
    draws = [e for e in seen if e["type"] == "tsumo"]
    assert draws and all((e["pai"] == "?") == (e["actor"] != 1) for e in draws)
    requests = [e for e in seen if e["type"] == "request"]
    assert requests and all(e["actor"] == 1 and e["possible_actions"] for e in requests)
    # every public event reached the bot, in order
    public = [e for e in record.events if e["type"] in ("dahai", "chi", "sora", "hora")]
    assert [e for e in seen if e["type"] in ("dahai", "chi", "sora", "hora")] == public


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's state in /proc (Linux)")
def test_what_a_bot_starts_ends_with_the_game_and_its_crash_is_said_at_once(ev, tmp_path):
    """QA: a wrapper's `sleep 300 &` outlived the game; and a bot that crashed under a wrapper whose child kept its
    output open waited out the whole timeout, then was said to have stopped reading. A bot runs in a process group
    of its own, stopped whole at the end, and an exit is seen while an answer is awaited."""
    import time

    marker = tmp_path / "child.pid"
    left = tmp_path / "left.sh"
    left.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {marker}\nexec {sys.executable} {BOTS} random 4\n")
    crashes = tmp_path / "crashes.sh"
    crashes.write_text(f"#!/bin/sh\nsleep 300 &\n{sys.executable} {BOTS} crash\n")  # (no exec: the shell waits)
    # (QA: a child that leaves the bot's process group for one of its own, here a session of its own, escaped)
    escapes = tmp_path / "escapes.sh"
    escapes.write_text(f"#!/bin/sh\nsetsid sleep 300 &\necho $! > {marker}\nexec {sys.executable} {BOTS} random 4\n")
    for script in (left, crashes, escapes):
        script.chmod(0o755)
    for script in (left, escapes):
        record = play(ev, [f"cmd:{script}", "random"], seed=3)
        assert errors(record, 0) == []
        child = int(marker.read_text())
        assert stopped(child), f"the child {script.name} started is still running after the game"
    start = time.monotonic()
    record = play(ev, ["random", f"cmd:{crashes}"], seed=4, timeout=30.0)
    assert errors(record, 1) == ["the bot exited (crashed, status 3)"] and time.monotonic() - start < 15


def test_review_at_a_decision_the_fallback_took_says_so(ev, tmp_path):
    """QA: `mj review --at N` on a decision the fallback COM took after garbage said it was no decision at all."""
    from game.review import review_game
    from solver.core.errors import MjError

    record = play(ev, [bot("garbage"), "greedy"], seed=2)
    fallback = []
    decision_tasks(record.events, Table(ev.rules), 0, fallback)
    assert fallback
    with pytest.raises(MjError, match=f"^--at {fallback[0]}: the fallback COM took this decision of seat 0"):
        review_game(ev, record.events, 0, seconds=0.1, indexes={fallback[0]})


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's state in /proc (Linux)")
def test_a_hang_up_stops_the_game_and_what_its_bot_started(tmp_path):
    """QA: a bot runs in a process group of its own, so a closed terminal's SIGHUP no longer reached it: `mj play`
    died at once and the bot's child ran on. SIGHUP is now a clean stop, as SIGTERM (exit 129)."""
    import signal
    import subprocess
    import time

    marker = tmp_path / "child.pid"
    hang = tmp_path / "hang.sh"
    hang.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {marker}\nexec cat > /dev/null\n")
    hang.chmod(0o755)
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "play", "-p", "greedy", "-p", f"cmd:{hang}",
                             "--bot-timeout", "100"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not marker.exists() or not marker.read_text().strip():
        assert time.monotonic() < deadline, "the bot did not start"
        time.sleep(0.05)
    child = int(marker.read_text())
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 129 and err == b"interrupted\n", (proc.returncode, err)
    if not stopped(child):
        os.kill(child, signal.SIGKILL)
        pytest.fail("the bot's child is still running after the hang-up")


def stopped(pid: int) -> bool:
    """Whether the process is gone within 2.5 s (or a zombie, where nothing has reaped it yet)."""
    import time

    from test_tournament import running

    for _ in range(50):
        if not running(pid):
            return True
        time.sleep(0.05)
    return False


def test_a_bot_killed_by_a_signal_is_said_by_its_name(ev, tmp_path):
    """QA: "the bot exited (crashed, status -11)"."""
    script = tmp_path / "segv.sh"
    script.write_text("#!/bin/sh\nread line\nkill -SEGV $$\n")
    script.chmod(0o755)
    record = play(ev, ["random", f"cmd:{script}"], seed=4)
    assert errors(record, 1) == ["the bot was killed by SIGSEGV (crashed)"]
