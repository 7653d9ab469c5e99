"""The web API in-process (Starlette's TestClient): every route gives exactly the CLI's `--json`,
bad input gives the CLI's one-line error with a 4xx status, concurrent requests give the sequential
answers, and cancelled or runaway work is stopped (its worker killed and replaced).

Expected values for seed 000 come from docs/rules.md (h = 1 with 11 optimal exchanges; example 1 scores
16000), not from the server's own output.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from urllib.parse import quote

import pytest

with warnings.catch_warnings():  # newer Starlette suggests httpx2 for its test client; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from typer.testing import CliRunner

import cli
from server import jobs
from server.app import CLIENT_GONE, create_app
from server.pool import JobError, JobTimeout, WorkerDied, WorkerPool

SEED_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
EXAMPLE_1 = "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也"
runner = CliRunner()


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2)) as test_client:
        yield test_client


def cli_json(*args: str):
    result = runner.invoke(cli.app, [*args, "--json"])
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def cli_error(*args: str) -> str:
    result = runner.invoke(cli.app, list(args))
    assert result.exit_code == 2
    return result.stderr.strip()


# --- every route: the same JSON as the CLI ---------------------------------------------------------


@pytest.mark.parametrize("route, params, command", [
    ("units", {"hand": SEED_HAND}, ["units", SEED_HAND]),
    ("h", {"hand": SEED_HAND, "seen": "志保 志保"}, ["h", SEED_HAND, "--seen", "志保 志保"]),
    ("analyze", {"hand": SEED_HAND, "favourite": "可奈"}, ["analyze", SEED_HAND, "--favorite", "可奈"]),
    ("analyze", {"hand": SEED_HAND, "discard": "志保", "waiting_room": "やよい", "rules": "2019-10"},
     ["analyze", SEED_HAND, "--discard", "志保", "--waiting-room", "やよい", "--rules", "2019-10"]),
    ("score", {"hand": EXAMPLE_1, "win": "ron", "ron": "美也", "favorite": "可奈"},
     ["score", EXAMPLE_1, "--ron", "美也", "--favorite", "可奈"]),
    ("score", {"hand": EXAMPLE_1, "win": "none", "as_of": "2019-11-01"},
     ["score", EXAMPLE_1, "--no-win", "--as-of", "2019-11-01"]),
    ("analyze", {"hand": SEED_HAND.replace(" 紗代子", "")}, ["analyze", SEED_HAND.replace(" 紗代子", "")]),
    ("idols", {}, ["catalogue", "idols"]),
    ("rules", {}, ["catalogue", "rules"]),
])
def test_route_matches_cli_json(client, route, params, command):
    response = client.get(f"/api/{route}", params=params)
    assert response.status_code == 200, response.text
    assert response.json() == cli_json(*command)


def test_seed_000_step_1(client):
    analysis = client.get("/api/analyze", params={"hand": SEED_HAND}).json()
    assert analysis["h"] == 1
    assert len(analysis["exchanges"]) == 11 and analysis["exchanges_complete"]


def test_example_1_scores_16000_with_reasons(client):
    score = client.get("/api/score", params={"hand": EXAMPLE_1, "win": "ron", "ron": "美也", "favourite": "可奈"}).json()
    assert score["total"] == 16000 and score["won"] and score["bonus"] == 2000
    assert sum(u["points"] for u in score["units"]) + score["bonus"] == 16000
    called = next(u for u in score["units"] if u["called"])
    assert called["why"].endswith("= 2000") and "called" in called["why"]


def test_hand_route_parses_for_the_page(client):
    parsed = client.get("/api/hand", params={"hand": "[静香 百合子 昴] haruka ハルカ"}).json()
    assert parsed["tiles"] == ["haruka", "haruka"]
    assert [u["members"] for u in parsed["called"]] == [["shizuka", "yuriko", "subaru"]]
    assert (parsed["size"], parsed["hand_size"]) == (5, 13)


def test_hand_route_keeps_the_typed_order_and_tiles_route_parses_a_field(client):
    parsed = client.get("/api/hand", params={"hand": "真 [静香 百合子 昴] 春香 miki 真"}).json()
    assert parsed["order"] == ["makoto", "haruka", "miki", "makoto"]
    for text in ("真 harka", "真 [静香 百合子", "[春香 千早] 真"):  # bad input: the CLI's one line, no traceback
        bad = client.get("/api/hand", params={"hand": text})
        assert bad.status_code == 400 and bad.json()["error"] == cli_error("units", text), text
    assert client.get("/api/tiles", params={"tiles": "美也、kana"}).json() == {"tiles": ["miya", "kana"]}
    bad = client.get("/api/tiles", params={"tiles": "harka"})
    assert bad.status_code == 400 and bad.json()["error"] == cli_error("units", "harka")
    four = client.get("/api/tiles", params={"tiles": "真 真 真 真"})  # (QA: the error then showed under the hand)
    assert four.status_code == 400 and four.json()["error"] == "error: more than 3 真 seen"


def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and 'src="/static/app.js"' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_the_pages_heads_stay_alike(client):
    # the three pages repeat their shared <head> lines (plain files, no include step): what / shares with one
    # game page, the other has too, and the lines of all three come in the same order; each has its own title;
    # theme.css (dark mode) is the last stylesheet
    heads = {}
    for path in ("/", "/play", "/review"):
        text = client.get(path).text
        inside = text[text.index("<head>") + len("<head>"):text.index("</head>")]
        heads[path] = [line.strip() for line in inside.splitlines() if line.strip()]
    for path, head in heads.items():
        assert head[0] == '<meta charset="utf-8">' and sum(line.startswith("<title>") for line in head) == 1, path
        assert [line for line in head if 'rel="stylesheet"' in line][-1] == \
            '<link rel="stylesheet" href="/static/theme.css">', path
    assert len({line for head in heads.values() for line in head if line.startswith("<title>")}) == 3
    play, review = heads["/play"], heads["/review"]
    assert [line for line in heads["/"] if (line in play) != (line in review)] == []
    shared = [line for line in heads["/"] if line in play]
    for head in heads.values():
        assert [line for line in head if line in shared] == shared


def test_plan_route_matches_cli_json(client):
    response = client.get("/api/plan", params={"hand": SEED_HAND, "turns": "1", "objective": "score"})
    assert response.status_code == 200
    assert response.json() == cli_json("plan", SEED_HAND, "--turns", "1", "--objective", "score")
    assert response.json()["recommended"]["tile"] in ("sayoko", "nao")  # tied at 11/149


def test_plan_route_estimate_matches_cli_json(client):
    """Past a small state limit the route gives the CLI's labelled estimate (same seed, same bytes)."""
    params = {"hand": SEED_HAND, "turns": "6", "max_states": "50", "estimate": "100", "nearest": "1"}
    response = client.get("/api/plan", params=params)
    assert response.status_code == 200
    assert response.json()["method"] == "estimate"
    assert response.json() == cli_json("plan", SEED_HAND, "--turns", "6", "--max-states", "50", "--estimate", "100",
                                       "--nearest")
    for value in ("x", "999999999999"):  # (QA: taken as false, silently)
        bad = client.get("/api/plan", params={**params, "nearest": value})
        assert bad.status_code == 400 and "nearest must be 1 or 0" in bad.json()["error"], value


def test_plan_route_bounds_match_cli_json(client):
    """Past a small state limit the default (the optimum) answers the CLI's bracket: lower <= upper per discard, the
    same upper bounds. (A long clock: the steps past the optimum stop at their share of it. The lower side's
    lookahead also has a 2 s clock of its own, lookahead.SECONDS, so on a loaded machine one run may look ahead at
    fewer discards than the other: its values are compared only as bounds.)"""
    params = {"hand": SEED_HAND, "turns": "3", "max_states": "20", "seconds": "60"}  # the optimum: 26 states
    got = client.get("/api/plan", params=params).json()
    assert got["method"] == "bounds" and all(d["win_probability"] <= d["upper"] for d in got["discards"])
    cli = cli_json("plan", SEED_HAND, "--turns", "3", "--max-states", "20", "--seconds", "60")
    route, line = ({d["tile"]: d for d in answer["discards"]} for answer in (got, cli))
    assert cli["method"] == "bounds" and route.keys() == line.keys()
    for t in route:
        assert route[t]["upper"] == line[t]["upper"] and line[t]["win_probability"] <= line[t]["upper"]
        assert route[t]["expected_score_upper"] == line[t]["expected_score_upper"]


@pytest.mark.parametrize("params", [{"turns": "0"}, {"turns": "x"}, {"turns": "99"}, {"objective": "fast"},
                                    {"detour": "-1"}, {"estimate": "1"}, {"max_states": "0"}, {"seconds": "0"},
                                    {"max_states": "10000000"}])
def test_plan_route_bad_parameters(client, params):
    response = client.get("/api/plan", params={"hand": SEED_HAND, **params})
    assert response.status_code == 400
    assert response.json()["error"].startswith("error: ")


# --- bad input: the CLI's line, a 4xx, and the server goes on ------------------------------------


@pytest.mark.parametrize("route, params, command", [
    ("units", {"hand": "harka 千早"}, ["units", "harka 千早"]),
    ("h", {"hand": "春香 春香 春香 春香"}, ["h", "春香 春香 春香 春香"]),
    ("analyze", {"hand": "春香 千早"}, ["analyze", "春香 千早"]),
    ("analyze", {"hand": "[春香 千早 美希] 雪歩"}, ["analyze", "[春香 千早 美希] 雪歩"]),
    ("analyze", {"hand": SEED_HAND, "rules": "2019-13"}, ["analyze", SEED_HAND, "--rules", "2019-13"]),
    ("analyze", {"hand": SEED_HAND, "as_of": "yesterday"}, ["analyze", SEED_HAND, "--as-of", "yesterday"]),
    ("score", {"hand": EXAMPLE_1, "win": "ron", "ron": "春香"}, ["score", EXAMPLE_1, "--ron", "春香"]),
    ("hand", {"hand": "[春香 千早"}, ["units", "[春香 千早"]),
])
def test_bad_input_gives_the_cli_error(client, route, params, command):
    response = client.get(f"/api/{route}", params=params)
    assert response.status_code == 400
    assert response.json()["error"] == cli_error(*command)


@pytest.mark.parametrize("query", [
    "hand=", "hand=%E6%98%A5%E9%A6%99&bogus=1", "hand=a&hand=b", "hand=" + "a" * 5000,
    "hand=%ED%A0%80", "hand=%00%0D%1B[2J", "hand=" + quote("[[[]]]"), "hand=" + quote(SEED_HAND) + "&max_exchanges=0",
    "hand=" + quote(SEED_HAND) + "&max_exchanges=99999999999999999999", "hand=" + quote(SEED_HAND) + "&win=sideways",
    "hand=" + quote(SEED_HAND) + "&favourite=" + quote("そら"), "hand=" + quote(SEED_HAND) + "&seen=" + quote("真 真 真"),
])
def test_hostile_queries_are_4xx_and_the_server_lives(client, query):
    for route in ("analyze", "score"):
        response = client.get(f"/api/{route}?{query}")
        assert 400 <= response.status_code < 500, (route, query, response.text)
        assert response.json()["error"].startswith("error: ")
    assert client.get(f"/api/hand?{query}").status_code < 500  # a partial hand is fine while it is entered
    assert client.get("/api/h", params={"hand": SEED_HAND}).json()["h"] == 1


def test_unknown_route_is_404(client):
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/idols?x=1").status_code == 400


# --- concurrency --------------------------------------------------------------------------------------

HANDS = [SEED_HAND, EXAMPLE_1.replace("[静香 百合子 昴] ", "静香 百合子 昴 "), "春香 千早 美希 雪歩 やよい 真 伊織 亜美 真美 響 貴音 律子 あずさ",
         "[可奈 志保 星梨花 海美] [翼 可憐 茜] 春香 千早 貴音 律子 百合子"]


def test_concurrent_requests_answer_as_sequential(client):
    asks = [("analyze", {"hand": hand, "rules": rules}) for hand in HANDS for rules in ("2019-12", "hitori-jong-2.1")]
    sequential = [client.get(f"/api/{route}", params=params).json() for route, params in asks]
    with ThreadPoolExecutor(len(asks)) as threads:
        together = list(threads.map(lambda ask: client.get(f"/api/{ask[0]}", params=ask[1]).json(), asks))
    assert together == sequential
    assert len({json.dumps(answer, sort_keys=True) for answer in sequential}) == len(asks)


# --- cancellation, time limit, a worker that dies ---------------------------------------------------


def run_alone(main):
    """asyncio.run(main()) in a thread of its own: the browser tests' Playwright (tests/conftest.py, one for
    the session) keeps an event loop running in the main thread, where asyncio.run refuses to start."""
    result, failed = [], []

    def target():
        try:
            result.append(asyncio.run(main()))
        except BaseException as exc:  # re-raised in the test's thread
            failed.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return result[0]


def run_pool(scenario):
    async def main():
        pool = WorkerPool(1)
        pool.start()
        try:
            return await scenario(pool)
        finally:
            pool.close()

    return run_alone(main)


def test_a_cancelled_job_kills_its_worker():
    async def scenario(pool):
        first = await pool.run(os.getpid)
        job = asyncio.ensure_future(pool.run(time.sleep, 120))
        await asyncio.sleep(0)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        second = await pool.run(os.getpid)
        return first, second

    started = time.monotonic()
    first, second = run_pool(scenario)
    assert first != second  # the busy worker was replaced, not left sleeping
    assert time.monotonic() - started < 60


def test_timeout_and_dead_worker_are_errors_and_the_pool_recovers():
    async def scenario(pool):
        with pytest.raises(JobTimeout):
            await pool.run(time.sleep, 120, timeout=0.5)
        with pytest.raises(WorkerDied):
            await pool.run(os._exit, 3)
        with pytest.raises(JobError) as bug:
            await pool.run(int, "not a number")
        assert bug.value.bug and bug.value.line.startswith("error: internal error")
        return await pool.run(jobs.h, {"hand": SEED_HAND})

    assert run_pool(scenario)["h"] == 1


def test_a_client_that_goes_away_stops_its_request():
    """The client disconnects right after its request: the answer is dropped and the work stopped."""
    app = create_app(workers=1)
    sent: list[dict] = []
    messages = iter([{"type": "http.request", "body": b"", "more_body": False}, {"type": "http.disconnect"}])
    scope = {"type": "http", "method": "GET", "path": "/api/analyze", "raw_path": b"/api/analyze",
             "query_string": ("hand=" + quote(SEED_HAND)).encode(), "headers": [], "app": app,
             "http_version": "1.1", "scheme": "http", "server": ("test", 80), "root_path": ""}

    async def receive():
        return next(messages)

    async def send(message):
        sent.append(message)

    async def main():
        async with app.router.lifespan_context(app):
            await app(scope, receive, send)

    run_alone(main)
    assert sent[0]["status"] == CLIENT_GONE


def test_serving_the_network_prints_the_address_phones_open():
    """QA (a club's operator): with --host 0.0.0.0 the only address printed was http://0.0.0.0:PORT/, which no phone
    opens. The machine's own address on its network is printed too, and it answers."""
    import subprocess
    import sys
    from urllib.request import urlopen

    from server.browser import _first_line
    from server.run import lan_address

    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no network address besides loopback")
    process = subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", "serve", "--host", "0.0.0.0", "--port",
                                "0", "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _first_line(process).startswith("mj serve: http://0.0.0.0:")
        second = process.stdout.readline().strip()  # (printed with the first, at once)
        assert second.startswith(f"mj serve: phones on this network open http://{lan}:"), second
        with urlopen(second.split()[-1] + "api/rules", timeout=30) as reply:
            assert reply.status == 200
    finally:
        process.terminate()
        process.wait(10)


def test_stopping_the_server_is_no_error():
    """QA: SIGTERM (or Ctrl-C), the way a server is stopped, printed "interrupted" and exited 143. It says the
    server stopped, and exits 0."""
    import signal
    import subprocess
    import sys

    from server.browser import _first_line

    for stop in (signal.SIGTERM, signal.SIGINT):
        process = subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", "serve", "--port", "0",
                                    "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert _first_line(process).startswith("mj serve: http://127.0.0.1:")
            process.send_signal(stop)
            out, err = process.communicate(timeout=30)
        finally:
            process.kill()
        assert (process.returncode, out.strip(), err.strip()) == (0, "mj serve: stopped", ""), (stop, err)


def test_a_new_games_body_is_refused_unread():
    """QA (security): POST /api/game read a body of any size into memory before refusing it (1 GB: 2.1 GB of
    memory). It takes none: refused at its first chunk, whether its length is given or not (chunked)."""
    app = create_app(workers=1)
    for headers in ([(b"content-length", str(1 << 30).encode())], []):
        read, sent = [0], []

        async def receive():
            read[0] += 1
            return {"type": "http.request", "body": b"A" * (1 << 20), "more_body": True}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/api/game", "raw_path": b"/api/game", "query_string": b"",
                 "headers": headers, "app": app, "http_version": "1.1", "scheme": "http", "server": ("test", 80),
                 "root_path": "", "client": ("127.0.0.1", 5000)}

        async def main():
            async with app.router.lifespan_context(app):
                await app(scope, receive, send)

        run_alone(main)
        assert sent[0]["status"] == 400 and read[0] <= 1, (headers, read)
        assert b"not a body" in b"".join(m.get("body", b"") for m in sent[1:])


def test_a_full_queue_is_refused_at_once_and_frees_as_it_drains():
    """QA (security): the queue for the workers had no limit: two slow reviews held every analysis, and 200 waiting
    requests held 2 GB of their bodies. Past WAITING_PER_WORKER a worker waiting, a request is refused at once
    (PoolBusy, a 503 ERR_BUSY); as the queue drains it is answered again."""
    from server.pool import WAITING_PER_WORKER, PoolBusy

    async def scenario(pool):
        await pool.run(os.getpid)  # (the worker is up)
        # (logs still being uploaded count too, a free worker or not: QA, 60 slow uploads held 250 MB)
        with contextlib.ExitStack() as reading:
            for _ in range(WAITING_PER_WORKER - 1):
                reading.enter_context(pool.reading())
            assert pool.full(before_body=True) is None
            with pool.reading():
                assert pool.full(before_body=True) is not None and pool.full() is None
        assert pool.uploading == 0
        slow = asyncio.ensure_future(pool.run(time.sleep, 120))
        await asyncio.sleep(0)
        queued = [asyncio.ensure_future(pool.run(os.getpid)) for _ in range(WAITING_PER_WORKER)]
        await asyncio.sleep(0)
        assert pool.waiting == WAITING_PER_WORKER and pool.full() is not None
        with pytest.raises(PoolBusy, match=f"{WAITING_PER_WORKER} questions wait for its 1 solver process"):
            await pool.run(os.getpid)
        queued[0].cancel()  # (one leaves the queue: room for one)
        await asyncio.sleep(0)
        assert pool.waiting == WAITING_PER_WORKER - 1 and pool.full() is None
        slow.cancel()
        for job in [slow, queued[0]]:
            with suppress(asyncio.CancelledError):
                await job
        return await asyncio.gather(*queued[1:])

    assert len(set(run_pool(scenario))) == 1  # (the rest answered, by the worker started after the slow one's)
