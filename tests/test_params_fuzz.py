"""Issue 20, item 5: every number parameter reads the same on the command line and on the server
(solver/core/numbers.py: ASCII digits only), and no value of any parameter gets a traceback or a 500: an answer
or one clear line. The issue's ten Unicode digits are named tests; hypothesis tries the rest (bounded examples,
a deadline each; cheap hands and small budgets so an accepted value answers quickly)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hardening import run_mj

from solver.core.errors import MjError
from solver.core.numbers import decimal, whole

SEED = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
TWELVE = "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美"
ODD = ["²", "①", "٣", "３", "1_0", " 1", "1 ", "+1", "-1", "1e3", "nan", "inf", "0x1", "", "9" * 30, "9" * 5000,
       "1.5", ".5", "5.", "0", "00", "\x00", "1\n", "⁹", "１２"]
NUMBER = st.one_of(st.sampled_from(ODD), st.integers(0, 3).map(str), st.text(max_size=6))
FUZZ = settings(max_examples=25, deadline=20_000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("text", ODD)
def test_one_reader_refuses_or_reads_plain_digits(text):
    """The shared reader takes exactly the plain ASCII numbers (an independent check: a regular language)."""
    plain = text.isascii() and text.isdigit() and len(text.lstrip("0")) <= 18
    try:
        assert whole(text, "n") == int(text) and plain
    except MjError:
        assert not plain
    point = text.isascii() and text.count(".") <= 1 and text.replace(".", "").isdigit() and not text.endswith(".") \
        and len(text) <= 36
    try:
        assert decimal(text, "s") == float(text) and point
    except MjError:
        assert not point


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from server.app import create_app

    with TestClient(create_app(workers=1, timeout=60)) as test_client:
        yield test_client


ISSUE = [("/api/plan", {"turns": "²"}), ("/api/plan", {"detour": "①"}), ("/api/plan", {"estimate": "²"}),
         ("/api/plan", {"max_states": "²"}), ("/api/plan", {"seconds": "²"}), ("/api/plan", {"turns": "٣"}),
         ("/api/plan", {"estimate": "①"}), ("/api/plan", {"max_states": "３"}),
         ("/api/analyze", {"max_exchanges": "²"}), ("/api/analyze", {"max_exchanges": "①"})]


@pytest.mark.parametrize("route, params", ISSUE)
def test_unicode_digits_are_400_naming_the_parameter(client, route, params):
    response = client.get(route, params={"hand": SEED, **params})
    assert response.status_code == 400, response.text
    body = response.json()
    name = next(iter(params))
    assert body["error"].startswith(f"error: {name} must be") and "\n" not in body["error"]


@pytest.mark.parametrize("method, route, params", [
    ("post", "/api/game", {"seed": "٣"}), ("post", "/api/game", {"seed": "1e3"}),
    ("post", "/api/review", {"seat": "²"}), ("post", "/api/review", {"seat": "1.5"}),
    ("post", "/api/review", {"seconds": "①"}), ("post", "/api/review", {"seconds": "nan"}),
])
def test_the_game_and_review_routes_read_numbers_the_same_way(client, method, route, params):
    """/play's and /review's routes take the shared reader too: a Unicode digit, an exponent or a fraction for
    a seat is a 400 naming the parameter, never a number guessed from it."""
    response = getattr(client, method)(route, params=params, content=b"")
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith(f"error: {next(iter(params))} must be")


def test_the_cli_reads_numbers_as_the_server_does(client):
    """The same value, the same verdict, in the same words (the CLI's turns have no upper bound: budgets stop them)."""
    for value, says in (("²", "(digits 0-9), not '²'"), ("0", "not 0"), ("2", None), ("１", "(digits 0-9), not '１'")):
        code, _, err = run_mj("plan", TWELVE, "--turns", value, "--seconds", "1", "--max-states", "2000")
        response = client.get("/api/plan", params={"hand": TWELVE, "turns": value, "seconds": "1",
                                                   "max_states": "2000"})
        assert (code == 0) == (response.status_code == 200), (value, err, response.text)
        if says is not None:
            assert code == 2 and response.status_code == 400
            for line in (err, response.json()["error"]):
                assert "must be" in line and says in line, line


def served_ok(response) -> None:
    assert response.status_code in (200, 400), (response.status_code, response.text[:500])
    if response.status_code == 400:
        line = response.json()["error"]
        assert line.startswith("error: ") and "\n" not in line and len(line) < 600


@FUZZ
@given(turns=NUMBER, detour=st.one_of(st.none(), NUMBER), estimate=st.one_of(st.none(), NUMBER),
       max_states=NUMBER, seconds=NUMBER, hand=st.sampled_from([TWELVE, SEED, "春香", "", "²"]))
def test_server_plan_parameters(client, turns, detour, estimate, max_states, seconds, hand):
    params = {"hand": hand, "turns": turns, "max_states": max_states, "seconds": seconds}
    params.update({k: v for k, v in (("detour", detour), ("estimate", estimate)) if v is not None})
    if all(v.isascii() and v.isdigit() for v in (turns, max_states, seconds)):
        params["turns"] = str(min(int(turns), 2))  # an accepted plan stays short
        params["seconds"] = "1"
        if estimate is not None:
            params["estimate"] = "20" if estimate.isascii() and estimate.isdigit() else estimate
    served_ok(client.get("/api/plan", params=params))


@FUZZ
@given(route=st.sampled_from(["analyze", "h", "score", "units", "hand"]), limit=NUMBER,
       hand=st.sampled_from([TWELVE, SEED, "春香 ²", "[春香] 千早", "そら そら そら そら"]), seen=st.text(max_size=8),
       extra=st.sampled_from([{}, {"win": "ron", "ron": "真"}, {"favourite": "²"}, {"rules": "²"}, {"as_of": "２０１９"}]))
def test_server_other_parameters(client, route, limit, hand, seen, extra):
    params = {"hand": hand, **extra}
    if route == "analyze":
        params["max_exchanges"] = limit
    if route in ("analyze", "h"):
        params["seen"] = seen
    if route in ("h", "units", "hand"):
        params.pop("win", None), params.pop("ron", None), params.pop("favourite", None)
    served_ok(client.get(f"/api/{route}", params=params))


def cli_ok(args: list[str]) -> None:
    code, out, err = run_mj(*args)
    assert "Traceback" not in err and "Traceback" not in out
    assert code in (0, 1, 2), (code, err[-1000:])
    if code == 2:
        assert err.startswith("error: ") and err.count("\n") == 1, err[-1000:]


@FUZZ
@given(turns=NUMBER, detour=st.one_of(st.none(), NUMBER), estimate=st.one_of(st.none(), NUMBER),
       max_states=NUMBER, seconds=NUMBER)
def test_cli_plan_parameters(turns, detour, estimate, max_states, seconds):
    plain = all(v.isascii() and v.isdigit() for v in (turns, max_states, seconds))
    args = ["plan", TWELVE, "--turns", str(min(int(turns), 2)) if plain else turns,
            "--max-states", max_states, "--seconds", "1" if plain else seconds]
    if detour is not None:
        args += ["--detour", detour]
    if estimate is not None:
        args += ["--estimate", "20" if plain and estimate.isascii() and estimate.isdigit() else estimate]
    cli_ok(args)


@FUZZ
@given(command=st.sampled_from(["analyze", "generate", "research", "replay"]), value=NUMBER, other=NUMBER)
def test_cli_other_number_parameters(command, value, other, tmp_path_factory):
    plain = value.isascii() and value.isdigit()
    if command == "analyze":
        args = ["analyze", SEED, "--max-exchanges", value, "--turns", other if not other.isdigit() else "1",
                "--seconds", "1", "--json"]
    elif command == "generate":
        args = ["generate", "waits", "-n", str(min(int(value), 2)) if plain else value, "--attempts",
                "3" if other.isascii() and other.isdigit() else other, "--workers", "1", "--seed", value]
    elif command == "research":
        args = ["research", "max-h", "--rules", "hitori-jong-2.1", "--time-budget", value if not plain else "0.5",
                "-q", "--json"]
    else:
        log = tmp_path_factory.mktemp("log") / "game.jsonl"
        log.write_text(json.dumps({"type": "start_game"}) + "\n", encoding="utf-8")
        args = ["replay", str(log), "--at", value, "--seat", other]
    cli_ok(args)
