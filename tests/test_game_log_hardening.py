"""Corrupt, cut and odd game logs, and misbehaving bots and paths, as QA found them: each is one clear line
naming what is wrong (and where), never a traceback and never a silent guess; a bot's fault never stops the
game; a cut log is reviewed with a word that the game never ended."""

from __future__ import annotations

import json
import sys
import time

import pytest
from typer.testing import CliRunner

from cli import app
from game_checks import check_game
from game.engine import Game, Setup
from game.log import dumps, read, replay
from game.players import fallback_player, make_player
from game.players.base import BotFault
from game.players.external import MAX_ANSWER, ExternalPlayer
from game.state import Table
from solver.api import Evaluator
from solver.core.errors import MjError

runner = CliRunner()
BIG = 50 << 20  # characters: a 50 MB line with no newline


def mj(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def ev():
    return Evaluator()


@pytest.fixture(scope="module")
def won(ev):
    """A game that ends in a tsumo: its events (hora at -2, end_game at -1)."""
    players = [make_player(s) for s in ("greedy", "seed000", "random")]
    events = Game(ev, Setup(3, 3), players, fallback_player).play().events
    assert events[-2]["type"] == "hora" and events[-1]["type"] == "end_game"
    return events


def text(events) -> str:
    return "".join(dumps(e) + "\n" for e in events)


def refused(ev, events) -> str:
    with pytest.raises(MjError) as caught:
        replay(read(text(events)), Table(ev.rules))
    return str(caught.value)


# --- 1: a bot's answer is read no further than its limit ----------------------------------------------------

def write_bot(tmp_path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text("import json, sys, time\n" + body, encoding="utf-8")
    return f"{sys.executable} {path}"


def test_an_endless_line_is_too_long_at_once_not_a_timeout(tmp_path):
    command = write_bot(tmp_path, f"""
for line in sys.stdin:
    if '"request"' in line:
        sys.stdout.write("x" * {BIG})  # and never a newline
        sys.stdout.flush()
""")
    player = ExternalPlayer(command, timeout=20.0)
    player.start(0, 0)
    try:
        began = time.monotonic()
        with pytest.raises(BotFault) as caught:
            player.act(type("Seen", (), {"seat": 0})(), [{"type": "none"}])
        assert caught.value.reason == f"an answer of more than {MAX_ANSWER} characters"
        assert time.monotonic() - began < 20.0
    finally:
        player.close()


def test_after_a_too_long_answer_the_game_goes_on(ev, tmp_path):
    """The first answer is 50 MB with no newline (ended only by the second answer): one fault, the fallback
    decides, and every later answer is the bot's own."""
    command = write_bot(tmp_path, f"""
asked = 0
for line in sys.stdin:
    event = json.loads(line)
    if event["type"] == "request":
        asked += 1
        if asked == 1:
            sys.stdout.write("x" * {BIG})
        else:
            sys.stdout.write(("\\n" if asked == 2 else "") + json.dumps(event["possible_actions"][0]) + "\\n")
        sys.stdout.flush()
""")
    players = [make_player(f"cmd:{command}", bot_timeout=3.0), make_player("greedy")]
    record = Game(ev, Setup(1, 2), players, fallback_player).play()
    check_game(ev, record.events, record.state)
    faults = [e["reason"] for e in record.events if e["type"] == "error"]
    assert faults == [f"an answer of more than {MAX_ANSWER} characters"]
    assert record.events[-1]["type"] == "end_game"


# --- 2: replay checks what it can recompute ----------------------------------------------------------------

def edited(events, line: int, **fields):
    """The log with line `line` (1-based) changed."""
    return [{**e, **fields} if n == line else e for n, e in enumerate(events, 1)]


def inserted(events, line: int, event: dict):
    return events[:line - 1] + [event] + events[line - 1:]


@pytest.mark.parametrize("corrupt, said", [
    (lambda es: edited(es, len(es), scores=["a", {}, None]), "end_game: scores must be"),
    (lambda es: edited(es, len(es), scores=[s + 1 for s in es[-1]["scores"]]), "but the hands score"),
    (lambda es: edited(es, len(es), scores=[True] + es[-1]["scores"][1:]), "end_game: scores must be"),
    (lambda es: edited(es, len(es) - 1, score=99999), "hora: score 99999, but the hand scores"),
    (lambda es: edited(es, len(es) - 1, score=None), "hora: score null, but the hand scores"),
    (lambda es: inserted(es, 21, {"type": "start_kyoku"}), "line 21: start_kyoku only as line 2"),
    (lambda es: inserted(es, 21, {"type": "start_game"}), "line 21: start_game only as line 1"),
    (lambda es: inserted(es, 21, {"type": "error", "actor": "x"}), "line 21: error: actor must be a seat"),
    (lambda es: inserted(es, 21, {"type": "error", "actor": 9, "reason": "r"}),
     "line 21: error: actor must be a seat from 0 to 2, not 9"),  # (a game of three)
    (lambda es: inserted(es, 21, {"type": "error", "actor": 0}), "line 21: error: reason must be"),
    (lambda es: edited(es, 3, actor=True), "line 3: tsumo: actor must be a seat"),
    (lambda es: es + [{"type": "ryukyoku"}], "ryukyoku after end_game"),
    (lambda es: edited(es, 1, favourites=["そら"] + es[0]["favourites"][1:]), "line 1: start_game: one favourite"),
    (lambda es: edited(es, 1, names="abc"), "line 1: start_game: names"),
    (lambda es: edited(es, 1, names=es[0]["names"][:2]), "line 1: start_game: 2 names and 3 favourites"),
    (lambda es: edited(es, 1, rules=7), "line 1: start_game needs rules"),
])
def test_a_corrupt_log_is_refused_naming_its_line(ev, won, corrupt, said):
    message = refused(ev, corrupt(won))
    assert said in message and message.startswith("line "), message


def test_an_edited_score_is_one_line_from_the_cli(won, tmp_path):
    path = tmp_path / "edited.jsonl"
    path.write_text(text(edited(won, len(won) - 1, score=99999)), encoding="utf-8")
    for command in ("replay", "review"):
        result = mj(command, str(path))
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert f"line {len(won) - 1}: hora: score 99999" in result.stderr


def test_a_log_without_its_rule_set_is_not_replayed_under_the_default(won, tmp_path):
    path = tmp_path / "norules.jsonl"
    path.write_text(text(edited(won, 1, rules="")), encoding="utf-8")
    result = mj("replay", str(path))
    assert result.exit_code == 2 and "unknown rule set ''" in result.stderr, result.stderr


def test_a_win_after_an_exhaustive_draw_is_refused(ev):
    players = [make_player("random"), make_player("random")]
    events = Game(ev, Setup(0, 2), players, fallback_player).play().events
    assert events[-2]["type"] == "ryukyoku"
    discard = next(e for e in reversed(events) if e["type"] == "dahai")
    ron = {"type": "hora", "actor": 1 - discard["actor"], "target": discard["actor"], "pai": discard["pai"], "score": 0}
    assert "hora is not a legal action there" in refused(ev, events[:-1] + [ron])


# --- 3: a cut log says so -----------------------------------------------------------------------------------

def test_a_cut_log_replays_and_reviews_with_a_note(won, tmp_path):
    path = tmp_path / "cut.jsonl"
    path.write_text(text(won[:30]), encoding="utf-8")
    note = "the log ends before the game did (no end_game)"
    result = mj("replay", str(path), "--json")
    assert result.exit_code == 0 and note in result.stderr
    assert json.loads(result.stdout)["unfinished"] is True
    first = next(i for i, e in enumerate(won) if e["type"] == "dahai" and e["actor"] == 0)
    result = mj("review", str(path), "--seat", "0", "--seconds", "0.1", "--at", str(first), "--json")
    assert result.exit_code == 0 and note in result.stderr
    review = json.loads(result.stdout)
    assert review["unfinished"] is True and [d["index"] for d in review["decisions"]] == [first]
    whole = tmp_path / "whole.jsonl"
    whole.write_text(text(won), encoding="utf-8")
    result = mj("replay", str(whole), "--json")
    assert result.exit_code == 0 and note not in result.stderr and "unfinished" not in json.loads(result.stdout)


# --- 4: mj play --log checks its path before the deal -------------------------------------------------------

@pytest.mark.parametrize("where", ["missing/game.jsonl", "."])
def test_a_log_that_cannot_be_written_is_refused_before_the_deal(tmp_path, where):
    result = mj("play", "-p", "greedy", "-p", "greedy", "--json", "--log", str(tmp_path / where))
    assert result.exit_code == 2 and result.stdout == "", result.stdout[:200]  # no event: nothing was dealt
    assert "cannot write the log" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.rglob("*.partial"))


# --- 5: --at names a decision of the seat -------------------------------------------------------------------

@pytest.mark.parametrize("args", [["--at", "999"], ["--at", "3", "--seat", "1"]])
def test_an_at_that_is_no_decision_is_one_line(won, tmp_path, args):
    path = tmp_path / "game.jsonl"
    path.write_text(text(won), encoding="utf-8")
    result = mj("review", str(path), "--seconds", "0.1", *args)
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "is no decision of seat" in result.stderr and "its decisions are at" in result.stderr


# --- 6: an unknown tile names its line ----------------------------------------------------------------------

@pytest.mark.parametrize("line, fields", [(3, {"pai": "XXX"}), (1, {"favourites": ["XXX"] * 3}),
                                          (2, {"wall": ["XXX"]})])
def test_an_unknown_tile_names_its_line(ev, won, line, fields):
    message = refused(ev, edited(won, line, **fields))
    assert message.startswith(f"line {line}: ") and "unknown tile XXX" in message, message


# --- 7: a byte order mark -----------------------------------------------------------------------------------

def test_a_log_with_a_byte_order_mark_replays(ev, won, tmp_path):
    assert read("\ufeff" + text(won)) == won
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + text(won).encode("utf-8"))
    result = mj("replay", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["view"]["scores"] == won[-1]["scores"]


def test_read_and_dumps_say_what_they_take(tmp_path):
    """QA: read(open(f)) raised AttributeError and dumps(record.events) wrote a JSON array that read refused."""
    from solver.core.errors import MjError

    path = tmp_path / "log.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    with open(path, encoding="utf-8") as stream, pytest.raises(MjError, match="^read takes the log's text"):
        read(stream)
    with pytest.raises(MjError, match=r"^dumps takes one event \(a dict\), not list"):
        dumps([{"type": "end_game"}])
