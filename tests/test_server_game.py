"""Games in the browser's API (/api/game) and the review's (/api/replay, /api/review), in-process.

A whole game is played through HTTP; its downloaded log is then checked by game/log.py's strict replay
(every decision legal there) and against what was sent: the human's decisions in the log are exactly the
answers the test posted, the scores on the page are end_game's, and nothing hidden from the human's seat
(the others' draws and tiles, the wall, the seed) reaches it before the end.
"""

from __future__ import annotations

import json
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from game.log import read, replay
from game.state import Table
from server.app import create_app
from server.game_session import Sessions
from solver.api import Evaluator
from solver.core.errors import MjError

HIDDEN = "?"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, reviewer="fake_review:review_game")) as test_client:
        yield test_client


def wait_for(client, gid: str, since: int = 0, seen: list | None = None) -> dict:
    """The game's state once it waits for the human or is over (the steps since `since` collected)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = client.get(f"/api/game/{gid}", params={"since": since}).json()
        assert state["since"] == since and state["total"] == since + len(state["steps"])
        if seen is not None:
            seen.extend(state["steps"])
        since = state["total"]
        if state["over"] or state["legal"]:
            return state
        time.sleep(0.01)
    raise AssertionError("the game neither asked nor ended")


def play_out(client, gid: str) -> tuple[dict, list[dict], list[dict]]:
    """Plays the human's seat (a win when offered, else the first legal action) to the end."""
    steps, sent = [], []
    state = wait_for(client, gid, 0, steps)
    while not state["over"]:
        action = next((a for a in state["legal"] if a["type"] == "hora"), state["legal"][0])
        response = client.post(f"/api/game/{gid}/act", json=action)
        assert response.status_code == 200, response.text
        sent.append(action)
        state = wait_for(client, gid, state["total"], steps)
    return state, steps, sent


def test_planner_clock_plays_through_http(client):
    """The clocked planner COM (mj plan's default answer at every decision) is a COM the page can pick."""
    gid = client.post("/api/game", params={"seed": 5, "coms": "planner-clock"}).json()["id"]
    state, _, _ = play_out(client, gid)
    events = read(client.get(f"/api/game/{gid}/log").text)
    replay(events, Table(Evaluator().rules), strict=True)
    assert state["error"] is None and events[0]["names"] == ["you", "planner-clock"]


def test_a_whole_game_through_http_replays_from_its_log(client):
    created = client.post("/api/game", params={"seed": 7, "coms": "greedy"})
    assert created.status_code == 200
    gid = created.json()["id"]
    assert client.get(f"/api/game/{gid}/log").status_code == 409  # the log holds the wall: not before the end
    state, steps, sent = play_out(client, gid)
    assert state["error"] is None and sent

    log = client.get(f"/api/game/{gid}/log")
    assert log.status_code == 200 and "attachment" in log.headers["content-disposition"]
    events = read(log.text)
    replay(events, Table(Evaluator().rules), strict=True)  # every decision was legal where it was made
    assert events[0]["seed"] == 7 and events[0]["names"] == ["you", "greedy"]
    human = [e for e in events if e.get("actor") == 0 and e["type"] in ("dahai", "hora", "chi", "sora")]
    assert human == [a for a in sent if a["type"] != "none"]
    assert [row["score"]["total"] if row["score"] else None for row in state["results"]] == events[-1]["scores"]
    assert len(steps) == len(events)

    # what the human's seat saw: the others' draws and tiles hidden, no wall, no seed
    for step, event in zip(steps, events):
        shown = step["event"]
        if event["type"] == "tsumo" and event["actor"] != 0:
            assert shown["pai"] == HIDDEN
        elif event["type"] == "start_kyoku":
            assert "wall" not in shown and set(shown["tehais"][1]) == {HIDDEN}
            assert shown["tehais"][0] == event["tehais"][0]
        elif event["type"] == "start_game":
            assert "seed" not in shown
        else:
            assert shown == event
    first = steps[1]["view"]  # after the deal: the own 12 tiles, nobody's room yet
    assert sorted(first["hand"]) == sorted(events[1]["tehais"][0]) and first["rooms"] == [[], []]


def test_an_illegal_action_is_refused_and_the_game_goes_on(client):
    gid = client.post("/api/game", params={"seed": 3, "coms": "greedy"}).json()["id"]
    state = wait_for(client, gid)
    legal = state["legal"]
    for bad in ({"type": "dahai", "actor": 0, "pai": "not a tile"}, {"type": "hora", "actor": 1}, "dahai", [1]):
        response = client.post(f"/api/game/{gid}/act", json=bad)
        assert response.status_code == 400 and response.json()["error"].startswith("error: not one of your legal")
    response = client.post(f"/api/game/{gid}/act", content=b"{not json")
    assert response.status_code == 400
    for odd in (b'{"type":NaN}', b'{"type":"dahai","pai":Infinity}', b'{"type":"dahai","actor":1e999,"pai":"x"}'):
        response = client.post(f"/api/game/{gid}/act", content=odd)  # (had been 500s)
        assert response.status_code == 400 and response.json()["error"].startswith("error: "), odd

    def chunked(size):  # no Content-Length to check first: the body is read up to the limit, no further
        for _ in range(size // 65536):
            yield b"x" * 65536
    for route in (f"/api/game/{gid}/act", "/api/replay"):
        response = client.post(route, content=chunked(40 << 20))
        assert response.status_code == 400 and "at most" in response.json()["error"], route
    again = client.get(f"/api/game/{gid}", params={"since": state["total"]}).json()
    assert again["legal"] == legal and not again["over"]  # still waiting for the same decision
    assert client.post(f"/api/game/{gid}/act", json=legal[-1]).status_code == 200


@pytest.mark.parametrize("params, message", [
    ({"coms": "cmd:rm -rf /"}, "unknown COM"),
    ({"coms": "human"}, "unknown COM"),
    ({"coms": "greedy,greedy,greedy,greedy"}, "one to three COMs"),
    ({"seed": "-1"}, "seed must be"),
    ({"seed": "7x"}, "seed must be"),
    ({"rules": "no-such-rules"}, "error: "),
    ({"colour": "red"}, "unknown parameter"),
])
def test_bad_new_games_are_refused(client, params, message):
    response = client.post("/api/game", params=params)
    assert response.status_code == 400 and message in response.json()["error"]


def test_a_body_is_refused_and_a_tournaments_48_bit_seed_taken(client):
    """QA: a JSON body's seed was ignored (a random deal), and a tournament's deal seed (48 bits) was refused."""
    response = client.post("/api/game", json={"seed": 7})
    assert response.status_code == 400 and "query string" in response.json()["error"]
    seed = 166366188554045  # (a tournament deal's seed)
    created = client.post("/api/game", params={"seed": seed, "coms": "greedy"})
    assert created.status_code == 200 and created.json()["seed"] == seed


def test_unknown_game_and_bad_since(client):
    assert client.get("/api/game/nope").status_code == 404
    assert client.post("/api/game/nope/act", json={"type": "none"}).status_code == 404
    gid = client.post("/api/game", params={"seed": 1, "coms": "random"}).json()["id"]
    assert client.get(f"/api/game/{gid}", params={"since": "x"}).status_code == 400
    for route in (f"/api/game/{gid}", f"/api/game/{gid}/log"):  # (QA: an unknown parameter had been ignored)
        bad = client.get(route, params={"x": "1"})
        assert bad.status_code == 400 and "unknown parameter 'x'" in bad.json()["error"], route
    bad = client.post(f"/api/game/{gid}/act", params={"x": "1"}, json={"type": "none"})
    assert bad.status_code == 400 and bad.json()["error"] == "error: unknown parameter 'x' (this route takes none)"


def test_sessions_are_capped_and_idle_ones_dropped():
    sessions = Sessions(limit=2, idle=3600)
    try:
        first, second = sessions.new(1, ["greedy"]), sessions.new(2, ["greedy"])
        with pytest.raises(MjError) as full:
            sessions.new(3, ["greedy"])  # both wait for their human: none can be dropped
        assert full.value.code == "ERR_BUSY"
        assert str(full.value) == "2 games are in progress here: finish one, or wait until one is left alone 30 s (a closed page)"
        first.touched -= 7200  # idle past the limit: dropped for the next game, its thread ends
        third = sessions.new(3, ["greedy"])
        assert sessions.get(first.id) is None and sessions.get(third.id) is third
        first.thread.join(10)
        assert not first.thread.is_alive() and second.thread.is_alive()
    finally:
        sessions.close()


def test_a_full_table_drops_a_game_whose_page_is_gone():
    """QA: every reload of /play left a game waiting for its human for 30 minutes, so 16 reloads refused every new
    game. Where room is needed, a game untouched for `left` seconds (an open page touches it) is dropped, the
    longest untouched first; games touched since are kept."""
    sessions = Sessions(limit=2, idle=3600, left=30)
    try:
        first, second = sessions.new(1, ["greedy"]), sessions.new(2, ["greedy"])
        first.touched -= 20  # (thinking for 20 s: its page is still there)
        with pytest.raises(MjError):
            sessions.new(3, ["greedy"])
        first.touched -= 40
        second.touched -= 35
        third = sessions.new(3, ["greedy"])  # (one slot: the longest untouched goes)
        assert sessions.get(first.id) is None and sessions.get(second.id) is second and sessions.get(third.id)
    finally:
        sessions.close()


def test_one_address_holds_a_few_games_only():
    """QA (security): one client took all 16 games in a burst and kept them by polling, so no other phone could
    play. Under mj serve an address holds PER_CLIENT games in progress: a new one replaces its own game longest
    untouched (a player who starts again is never refused), finished games do not count, and other addresses'
    games are never dropped for it."""
    sessions = Sessions(limit=16, idle=3600, left=30, per_client=2)
    try:
        mine = [sessions.new(1, ["greedy"], client="10.0.0.5"), sessions.new(2, ["greedy"], client="10.0.0.5")]
        theirs = sessions.new(3, ["greedy"], client="10.0.0.6")
        mine[1].touched -= 5  # (the one left alone longest)
        newest = sessions.new(4, ["greedy"], client="10.0.0.5")
        assert sessions.get(mine[1].id) is None and sessions.get(mine[0].id) is mine[0] and sessions.get(newest.id)
        mine[1].thread.join(10)
        assert not mine[1].thread.is_alive()
        for _ in range(5):  # (a burst from one address keeps at most two)
            sessions.new(5, ["greedy"], client="10.0.0.5")
        assert sum(1 for s in sessions.items.values() if s.owner == "10.0.0.5") == 2
        assert sessions.get(theirs.id) is theirs
    finally:
        sessions.close()
    with TestClient(create_app(workers=1, guarded=True, check_host=False)) as client:  # (its page is told why)
        first = client.post("/api/game", params={"coms": "greedy"}).json()["id"]
        for _ in range(4):
            client.post("/api/game", params={"coms": "greedy"})
        gone = client.get(f"/api/game/{first}")
        assert gone.status_code == 404 and gone.json()["code"] == "ERR_REPLACED", gone.text
        assert "a newer one started from the same address (4 games" in gone.json()["error"]


def _game_log(client, seed: int = 5) -> str:
    gid = client.post("/api/game", params={"seed": seed, "coms": "greedy"}).json()["id"]
    play_out(client, gid)
    return client.get(f"/api/game/{gid}/log").text


def test_replay_gives_every_position(client):
    text = _game_log(client)
    events = read(text)
    answer = client.post("/api/replay", content=text.encode()).json()
    assert answer["seats"] == 2 and len(answer["steps"]) == len(events)
    assert answer["steps"][0]["view"] is None
    dealt = answer["steps"][1]["view"]
    assert [sorted(h) for h in dealt["hands"]] == [sorted(h) for h in events[1]["tehais"]]
    # each discard moves one tile from the discarder's hand to its room
    for before, after, event in zip(answer["steps"][1:], answer["steps"][2:], events[2:]):
        if event["type"] == "dahai":
            seat = event["actor"]
            assert after["view"]["rooms"][seat] == before["view"]["rooms"][seat] + [event["pai"]]


def test_replay_json_is_the_same_in_the_cli_and_the_server(client, tmp_path):
    # one shape (game/serialize.py replay_step): `mj replay --at N --json` is /api/replay's step N - 1
    from typer.testing import CliRunner

    from cli import app

    text = _game_log(client, seed=9)
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    steps = client.post("/api/replay", content=text.encode()).json()["steps"]
    assert [step["at"] for step in steps] == list(range(1, len(steps) + 1))
    for at in (2, 3, len(steps) // 2, len(steps)):
        result = CliRunner().invoke(app, ["replay", str(path), "--at", str(at), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == steps[at - 1]
    assert steps[-1]["view"]["scores"] == read(text)[-1]["scores"]


def test_review_route_runs_the_reviewer_in_a_worker(client):
    text = _game_log(client, seed=11)
    answer = client.post("/api/review", params={"seat": 0, "seconds": 5}, content=text.encode())
    assert answer.status_code == 200, answer.text
    review = answer.json()
    discards = [i for i, e in enumerate(read(text)) if e["type"] == "dahai" and e["actor"] == 0]
    assert review["seat"] == 0 and [d["index"] for d in review["decisions"]] == discards
    assert client.post("/api/review", params={"seat": 3}, content=text.encode()).status_code == 400


@pytest.mark.parametrize("body, message", [
    (b"", "no log given"),
    (b"\xff\xfe", "UTF-8"),
    (b'{"type":"start_game"}\n', "start_game and start_kyoku"),
    (b"not json\n", "line 1: not JSON"),
])
def test_bad_logs_are_refused_with_one_line(client, body, message):
    for route in ("/api/replay", "/api/review"):
        response = client.post(route, content=body)
        assert response.status_code == 400 and message in response.json()["error"], response.text


def test_the_coms_of_every_game_decide_one_at_a_time():
    """QA (security): the COMs of 16 games computed at once in the server's threads, and every page's answer waited
    for the interpreter (/api/rules 0.03 s -> 3 s). They now take turns: never two decisions at once."""
    import threading

    from game.players.base import Player
    from server.game_session import one_at_a_time

    running, most = [0], [0]

    class Slow(Player):
        def act(self, observation, possible_actions):
            running[0] += 1
            most[0] = max(most[0], running[0])
            time.sleep(0.02)
            running[0] -= 1
            return possible_actions[0]
    players = [one_at_a_time(Slow()) for _ in range(4)]
    threads = [threading.Thread(target=lambda p=p: [p.act(None, [{"type": "none"}]) for _ in range(5)])
               for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1
