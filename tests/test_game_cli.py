"""`mj play` and `mj replay` from the command line: the log (schema, byte-identical per seed, replayable),
the display, the position at any event, a human seat, and one-line errors for bad input."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from cli import app
from game_checks import check_game
from solver.api import Evaluator

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "game-log.schema.json").read_text(encoding="utf-8"))
FAST = ["-p", "greedy", "-p", "seed000", "-p", "random", "-p", "greedy"]
runner = CliRunner()


def mj(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_play_json_is_the_log_and_matches_the_schema():
    ev = Evaluator()
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for seed, options in ((1, []), (2, ["--calls", "previous", "--multiple-ron", "--dealer", "2"])):
        result = mj("play", *FAST, "--seed", str(seed), "--json", *options)
        assert result.exit_code == 0, result.stdout
        events = [json.loads(line) for line in result.stdout.splitlines()]
        for event in events:
            validator.validate(event)
        check_game(ev, events)
        assert events[0]["calls"] == ("previous" if options else "any") and events[1]["oya"] == (2 if options else 0)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"type": "dahai", "actor": 0})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"type": "chi", "actor": 0, "target": 1, "pai": "春香", "consumed": [], "unit": "x"})
    for event in events[:2]:  # (a start event with a field of its own: refused as the other events are)
        with pytest.raises(jsonschema.ValidationError):
            validator.validate({**event, "extra": 1})


def test_log_file_is_byte_identical_per_seed_and_replays(tmp_path):
    first, again = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, again):
        result = mj("play", *FAST, "--seed", "8", "--log", str(path), "--favourite", "1=可奈")
        assert result.exit_code == 0
    assert first.read_bytes() == again.read_bytes()
    events = [json.loads(line) for line in first.read_text(encoding="utf-8").splitlines()]
    assert events[0]["favourites"][1] == "可奈"
    end = mj("replay", str(first), "--json")
    payload = json.loads(end.stdout)
    assert payload["view"]["scores"] == events[-1]["scores"] and payload["at"] == len(events)
    assert payload["event"] == events[-1]
    early = json.loads(mj("replay", str(first), "--at", "2", "--json").stdout)
    assert [len(h) for h in early["view"]["hands"]] == [12] * 4
    assert early["view"]["hands"] == [sorted(h, key=Evaluator().tile) for h in events[1]["tehais"]]
    # the plain position says who is to act (QA: "claim, seat 2" read as seat 2 claiming its own discard)
    discard = next(i for i, e in enumerate(events) if e["type"] == "dahai")
    said = mj("replay", str(first), "--at", str(discard + 1)).stdout.splitlines()[0]
    assert f"the others may claim seat {events[discard]['actor']}'s discard" in said
    assert "the game is over" in mj("replay", str(first)).stdout.splitlines()[0]
    shown = mj("replay", str(first), "--at", "5", "--analyze")
    assert shown.exit_code == 0 and "h = " in shown.stdout and "Analysis for seat" in shown.stdout
    analysed = mj("replay", str(first), "--at", "4", "--analyze", "--json")
    assert analysed.exit_code == 0 and "h" in json.loads(analysed.stdout)


def test_replay_analyze_counts_the_own_waiting_room_once(tmp_path):
    """QA: with a そら held, `mj replay --analyze` passed the seat's waiting room both as seen and as the room, so
    it refused positions ("2 歩 seen and 2 in the waiting room") or counted live copies short (84 for 86): it is now
    `mj analyze` of the seat's hand with the room given once."""
    from game.log import replay
    from game.observation import elsewhere, observe
    from game.state import Table

    log = tmp_path / "g.jsonl"
    assert mj("play", "-p", "greedy", "-p", "random", "-p", "seed000", "-p", "greedy", "--seed", "11",
              "--log", str(log)).exit_code == 0
    ev = Evaluator()
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    sora = ev.rules.tiles.sora
    states = replay(events, Table(ev.rules))
    for at in (13, 21, 41, 49):  # seat 2 to discard, a そら held
        obs = observe(states[at - 1], 2, Table(ev.rules))
        assert obs.hand.concealed[sora] and obs.room_tiles, f"seat 2 holds no そら at {at}"
        shown = mj("replay", str(log), "--at", str(at), "--seat", "2", "--analyze", "--json")
        assert shown.exit_code == 0, shown.stdout
        seen = [k for k, n in enumerate(elsewhere(obs.seen, obs.room_tiles)) for _ in range(n)]
        direct = ev.analyze(obs.hand, seen, waiting_room=obs.room_tiles)
        rows = {ev.tile(row["tile"]): row["live"] for row in json.loads(shown.stdout)["discards"]}
        assert rows == {row.tile: row.live for row in direct.discards}
    for at in (20, 48):  # another's discard to answer: refused before
        assert mj("replay", str(log), "--at", str(at), "--seat", "2", "--analyze").exit_code == 0


def test_a_house_games_log_without_its_catalogue_says_to_give_it(tmp_path):
    """QA: `mj replay` of a house rule set's game said only "unknown rule set 'club'"."""
    house = tmp_path / "house.toml"
    house.write_text('[rules."club"]\ndescription = "a club"\nunit_lists = ["seed-000"]\nmin_points = 1000\n'
                     'member_points = 2000\ncalled = "minus_member"\nron_minus_member = true\n'
                     'no_win = "minus_member"\nfavourite = "bonus"\nfavourite_bonus = 2000\nsora = "fetch"\n'
                     'ron_on_shika = false\nhand_size = 13\n', encoding="utf-8")
    log = tmp_path / "g.jsonl"
    played = mj("play", *FAST, "--seed", "2", "--rules", "club", "--catalogue", str(house), "--log", str(log))
    assert played.exit_code == 0, played.output
    for command in ("replay", "review"):
        refused = mj(command, str(log))
        assert refused.exit_code == 2 and "add --catalogue FILE (it was played with house.toml)" in refused.stderr, \
            refused.output
    assert json.loads(log.read_text().splitlines()[0])["catalogue"] == ["house.toml"]  # (its name, not its path)
    same = mj("replay", str(log), "--catalogue", str(house))
    assert same.exit_code == 0 and "note:" not in same.stderr
    # the catalogue changed since (QA: read as a corrupt log): start_game's digest says so
    house.write_text(house.read_text(encoding="utf-8").replace("member_points = 2000", "member_points = 2500"),
                     encoding="utf-8")
    changed = mj("replay", str(log), "--catalogue", str(house))
    assert "rule set club is not the one this game was played under" in changed.stderr, changed.output


def test_play_shows_hands_h_waits_and_every_score():
    result = mj("play", *FAST, "--seed", "3")
    out = result.stdout
    assert result.exit_code == 0
    assert "h " in out and "waits:" in out and "Scores:" in out
    assert out.count("♥") >= 8  # the favourites at the start and in the score table
    assert "ミリオンライブ!" in out or "Exhaustive draw" in out


def test_play_ends_with_each_seats_faults():
    """QA (an engine author): faults were only said mid-game, between the moves; the end now sums them per seat."""
    import sys
    chatty = f"cmd:{sys.executable} {Path(__file__).parent / 'game_bots.py'} chatty"
    crash = f"cmd:{sys.executable} {Path(__file__).parent / 'game_bots.py'} crash"
    result = mj("play", "--seed", "2", "-p", f"talk={chatty}", "-p", f"down={crash}")
    assert result.exit_code == 0, result.output
    tail = result.output[result.output.index("Scores:"):]
    assert "Faults of 0 talk: " in tail and "lines answering no request dropped before 1 request" in tail
    assert "Faults of 1 down: crashed (the fallback COM played on)" in tail


def test_a_human_seat_plays_from_numbered_choices():
    # the human asks for h once, then always picks choice 1 (a win when offered: wins come first)
    # "²" and "٣" are digits to str.isdigit() but not choices: asked again, never a traceback
    result = mj("play", "-p", "human", "-p", "greedy", "--seed", "4", input="h\n²\n٣\n99\n\n" + "1\n" * 400)
    assert result.exit_code == 0, result.stdout
    assert result.stderr.count("is not a choice here: a number from 1 to") == 4  # (QA: said nothing before)
    assert "Scores:" in result.stdout
    assert "1 greedy: 12 concealed tiles" in result.stdout  # the COM's tiles stay hidden from the human
    assert "Your hand" in result.stderr and "send " in result.stderr


@pytest.mark.parametrize("args, message", [
    (["play", "-p", "nobody", "-p", "greedy"], "unknown player"),
    (["play", "-p", "greedy"], "2 to 4 players"),
    (["play", "--favourite", "0=そら"], "any kind but そら"),
    (["play", "--favourite", "zero"], "SEAT=NAME"),
    (["play", "--favourite", "²=春香"], "SEAT=NAME"),  # a Unicode digit is not a seat (int() would fail)
    (["play", "--calls", "left"], "calls must be"),
    (["play", "--bot-timeout", "0"], "--bot-timeout must be positive, not 0"),
    (["play", "--favourite", "0"], "the NAME is missing"),
    (["play", "--favourite", "1="], "the NAME is missing"),
    (["play", "-p", "cmd:/nonexistent/bot", "-p", "greedy"], "cannot start bot"),
    (["play", "-p", "cmd:", "-p", "greedy"], "cmd: needs a command after the colon"),
    (["tournament", "-p", "cmd: ", "-p", "greedy"], "cmd: needs a command after the colon"),
    (["replay", "/nonexistent.jsonl"], "cannot read the log"),
    (["play", "--favourite", "0=春香", "--favourite", "0=千早"], "seat 0 twice"),  # (the last had won)
    (["replay", "/nonexistent.jsonl", "--seat", "1"], "add --analyze"),  # (it had been ignored)
])
def test_bad_input_is_one_line(args, message):
    result = mj(*args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_log_to_a_device_is_written_in_place():
    """--log /dev/full: one line, and the device stays a device (never renamed over by a temporary file)."""
    result = mj("play", *FAST, "--seed", "3", "--log", "/dev/full")
    assert result.exit_code == 2 and "cannot write the log" in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and not os.path.exists("/dev/full.partial")


def test_a_corrupt_log_is_one_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type":"start_game"}\nnot json\n', encoding="utf-8")
    result = mj("replay", str(path))
    assert result.exit_code == 2 and "line 2: not JSON" in result.stderr
    path.write_text('{"type":"dahai"}\n', encoding="utf-8")
    assert "starts with start_game" in mj("replay", str(path)).stderr


def test_help_has_examples():
    for command in ("play", "replay"):
        assert "Example: mj " + command in mj(command, "--help").stdout


def test_a_review_under_2019_10_says_why_it_grades_by_h(tmp_path):
    """QA: the summary read "P(win) lost 0.0 points over none graded by P(win)", the reason only in the JSON."""
    log = tmp_path / "g.jsonl"
    assert mj("play", "-p", "greedy", "-p", "random", "--rules", "2019-10", "--seed", "3", "--log", str(log)).exit_code == 0
    result = mj("review", str(log), "--seat", "0", "--seconds", "0.1")
    assert result.exit_code == 0, result.stdout
    line = next(x for x in result.stdout.splitlines() if x.startswith("match "))
    assert "graded by h alone (the planner refused the position" in line and "over none" not in line
