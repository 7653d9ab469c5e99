"""Who may drive the API (server/guard.py; QA, security): another site's page is refused, a program and the server's
own pages are not, and under mj serve a Host that is not this machine's (DNS rebinding) is refused."""

from __future__ import annotations

import warnings

import pytest

from server.app import create_app
from server.guard import host_ok, own_names

with warnings.catch_warnings():  # (as test_server.py: newer Starlette suggests httpx2; httpx still works)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SEED_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1)) as test_client:
        yield test_client


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://localhost:3000"},  # (another program's page on this machine)
    {"Sec-Fetch-Site": "cross-site"},  # (an <img> on another site: no Origin on a GET)
    {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver"},
    {"Origin": "null"},  # (a sandboxed frame: over HTTP to a LAN address, with no Sec-Fetch-Site, QA)
    {"Referer": "http://evil.test:8933/page.html"},  # (an <img> there: no Origin, no Sec-Fetch-Site)
])
def test_another_sites_page_is_refused(client, headers):
    for method, path in (("POST", "/api/game?coms=random"), ("GET", "/api/h?hand=" + SEED_HAND)):
        answer = client.request(method, path, headers=headers)
        assert answer.status_code == 403 and answer.json()["code"] == "ERR_FORBIDDEN", (headers, answer.text)
    assert client.get("/", headers=headers).status_code == 200  # (the pages themselves are public)


@pytest.mark.parametrize("headers", [
    {},  # a program: curl, a script
    {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},  # the server's own page
    {"Sec-Fetch-Site": "none"},  # typed into the address bar
    {"Referer": "http://testserver/play?seed=3"},  # the own page, over HTTP to a LAN address
])
def test_the_own_pages_and_programs_are_answered(client, headers):
    answer = client.get("/api/h", params={"hand": SEED_HAND}, headers=headers)
    assert answer.status_code == 200 and answer.json()["h"] == 1, answer.text


def test_mj_serve_answers_to_its_addresses_not_to_other_names():
    names = own_names()
    for host in ("127.0.0.1:8000", "192.168.1.20:8765", "[::1]:8000", "localhost:8000", "LOCALHOST", "app.localhost",
                 sorted(names)[0]):
        assert host_ok(host, names), host
    assert host_ok("localhost.:8000", names)
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""):
        assert not host_ok(host, names), host
    with TestClient(create_app(workers=1, guarded=True)) as checked:  # (the test client calls itself testserver)
        refused = checked.get("/api/rules")
        assert refused.status_code == 403 and "not to 'testserver'" in refused.json()["error"]
        assert checked.get("/api/rules", headers={"Host": "127.0.0.1:8000"}).status_code == 200
