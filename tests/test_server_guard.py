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


def test_a_connection_whose_headers_do_not_come_whole_is_closed(monkeypatch):
    """QA (a club's server under attack): uvicorn has no deadline for a request's headers, so a few hundred
    connections that never finished theirs (slowloris) held every file descriptor. Each request must now come whole
    within HEADER_SECONDS of the connection's opening or of the answer before; one that does is answered as ever."""
    import socket
    import threading
    import time

    import uvicorn

    from server import run

    monkeypatch.setattr(run, "HEADER_SECONDS", 0.5)

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    sock = run.bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", http=run.protocol(), timeout_keep_alive=30))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.02)
        port = sock.getsockname()[1]

        def talk(first: bytes, then: bytes = b"") -> tuple[bytes, float]:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
                conn.sendall(first)
                got = b""
                while first.endswith(b"\r\n\r\n") and not got.endswith(b"ok"):  # (the whole answer)
                    got += conn.recv(4096)
                if then:
                    conn.sendall(then)
                start = time.monotonic()
                while conn.recv(4096):  # (until the server closes it)
                    pass
                return got, time.monotonic() - start
        whole = b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
        partial = b"GET / HTTP/1.1\r\nHost: localhost\r\n"
        _, waited = talk(partial)
        assert waited < 2  # closed at the deadline, not at the client's 5 s timeout
        answer, waited = talk(whole, partial)  # a second request begun after the first answer, never finished
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"ok") and waited < 2
    finally:
        server.should_exit = True
        thread.join(5)


def test_the_bound_socket_listens_before_the_server_accepts():
    """CI, under load: the URL is printed at the app's start-up, before uvicorn's own listen(), and a client that
    connected on seeing it was refused. bind() listens at once, so such a client waits in the backlog instead."""
    import socket

    from server import run

    sock = run.bind("127.0.0.1", 0)
    try:
        with socket.create_connection(sock.getsockname(), timeout=5):  # (nobody accepts yet: queued, not refused)
            pass
    finally:
        sock.close()
