"""Dark mode, favicon, manifest and offline use, in headless Chromium against the real `mj serve` (conftest.py).

Dark mode is the system's choice, emulated here (color_scheme="dark"): the body is dark, no panel stays
light, and axe-core finds no serious or critical violation (contrast among them) on /, /play and /review.
The service worker is checked by what a player sees: after one visit the pages open with the network cut
(context.set_offline), and a cache of an older version is gone once the worker takes over.
"""

from __future__ import annotations

import json
import re
import struct

import pytest

from server import shell
from server.shell import build, service_worker_source, static_files
from tests.test_browser import ANSWERED, PLANNED

WAIT_MS = 60_000
SEED_STEP_1 = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
PAGES = ("", "play", "review")
PALETTE = "#palette button.tile"
LIGHT = 0.4  # relative luminance above which a background is light (the light theme's panels are > 0.8)

# every visible element's own background colour, except the tiles (they keep their attribute colours in both
# modes) and a pressed toggle (drawn in the ink colour on purpose)
BACKGROUNDS = """() => [...document.querySelectorAll('body, body *')]
  .filter(e => e.getClientRects().length && !e.closest('.tile, [aria-pressed=true]'))
  .map(e => [e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined
             ? '.' + e.className.split(' ').join('.') : ''), getComputedStyle(e).backgroundColor])"""


def luminance(css: str) -> float | None:
    """WCAG relative luminance of an rgb()/rgba() colour; None when it is fully transparent."""
    values = [float(v) for v in re.findall(r"[\d.]+", css)]
    if len(values) == 4 and values[3] == 0:
        return None

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in values[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def axe_serious(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}: {v['nodes'][0]['target']})"
            for v in found if v["impact"] in ("serious", "critical")]


def light_panels(page) -> list[tuple[str, str]]:
    return [(name, colour) for name, colour in page.evaluate(BACKGROUNDS)
            if (luminance(colour) or 0) > LIGHT]


def short_log() -> str:
    """A finished game (2 greedy seats, seed 18) as `mj play --log` writes it."""
    from game.engine import Game, Setup
    from game.log import dumps
    from game.players import fallback_player, make_player
    from solver.api import Evaluator

    record = Game(Evaluator(), Setup(seed=18, seats=2), [make_player("greedy"), make_player("greedy")],
                  fallback_player).play()
    return "".join(dumps(e) + "\n" for e in record.events)


@pytest.fixture
def dark(chromium):
    page = chromium.new_page(color_scheme="dark", viewport={"width": 390, "height": 844})
    page.set_default_timeout(WAIT_MS)
    yield page
    page.close()


def check_dark(page) -> None:
    body = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert luminance(body) < 0.05, body
    assert light_panels(page) == []
    assert axe_serious(page) == []


def test_dark_mode_on_the_hand_page(dark, url):
    dark.goto(f"{url}?hand={SEED_STEP_1}")
    dark.wait_for_function(ANSWERED)
    dark.wait_for_function(PLANNED)  # the discard table whole: P(win) columns, the best rows marked
    check_dark(dark)
    dark.emulate_media(color_scheme="light")  # and the light theme is left as style.css draws it
    assert luminance(dark.evaluate("getComputedStyle(document.body).backgroundColor")) > 0.8
    assert dark.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor") == "rgb(29, 35, 48)"


def test_dark_mode_on_play_and_review(dark, url):
    dark.goto(f"{url}play?seed=7&coms=greedy&pace=0")
    dark.wait_for_selector("#my-hand button[data-action=dahai]")
    dark.locator("#my-hand button[data-action=dahai]").first.click()
    dark.wait_for_function("() => document.querySelectorAll('#moves li.mine').length >= 1")
    check_dark(dark)

    dark.goto(f"{url}review")
    check_dark(dark)
    dark.set_input_files("#log-file", files=[{"name": "game.jsonl", "mimeType": "application/x-ndjson",
                                              "buffer": short_log().encode()}])
    dark.wait_for_selector("#position .seat")
    dark.fill("#seconds", "0.1")  # the real grading, briefly: its table has the marked rows
    dark.click("#review")
    dark.wait_for_selector("#decisions tbody tr")
    dark.locator("#decisions tbody tr").nth(1).click()
    check_dark(dark)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_favicon_and_manifest_on_every_page(chromium, url):
    page = chromium.new_page()
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    for path in PAGES:
        page.goto(url + path)
        page.wait_for_load_state("load")
        assert page.locator("link[rel=icon]").count() == 1 and page.locator("link[rel=manifest]").count() == 1
        icon = page.get_attribute("link[rel=icon]", "href")
        assert page.request.get(url.rstrip("/") + icon).headers["content-type"] == "image/svg+xml"
        assert page.get_attribute("link[rel=manifest]", "href") == "/manifest.webmanifest"
        assert page.get_attribute("meta[name=color-scheme]", "content") == "light dark"
    assert failed == []

    ico = page.request.get(url + "favicon.ico")  # asked for by habit when a page names no icon
    assert ico.ok and ico.headers["content-type"] == "image/svg+xml" and b"<svg" in ico.body()

    served = page.request.get(url + "manifest.webmanifest")
    assert served.ok and served.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(served.text())
    assert (manifest["short_name"], manifest["start_url"], manifest["display"]) == ("mj", "/", "standalone")
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = set()
    for icon in manifest["icons"]:
        got = page.request.get(url.rstrip("/") + icon["src"])
        assert got.ok and got.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(got.body())
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
    assert {192, 512} <= sizes

    cdp = page.context.new_cdp_session(page)  # Chromium's own reading of the manifest, and its verdict
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["url"] == url + "manifest.webmanifest" and parsed["errors"] == []
    assert parsed["manifest"]["display"] == "kStandalone" and parsed["manifest"]["startUrl"] == url
    errors = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}  # installable, but for the test browser's private profile
    page.close()


def test_pages_open_offline_after_a_first_visit(chromium, url):
    context = chromium.new_context()  # its own service workers and caches
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    try:
        page.goto(url + "manifest.webmanifest")  # same origin, before any worker: a cache of an "older version"
        page.evaluate("caches.open('mj-shell-0-old').then(c => c.put('/x', new Response('old')))")
        page.goto(url)
        page.wait_for_selector(PALETTE)
        kinds = page.locator(PALETTE).count()
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=20_000)
        served = page.request.get(url + "sw.js")
        assert served.headers["content-type"].startswith("text/javascript")
        version = re.search(r'"cache": "([^"]+)"', served.text()).group(1)
        assert page.evaluate("caches.keys()") == [version]  # the old cache went when this worker took over

        context.set_offline(True)
        # the worker's own network is cut too: a file it never kept cannot be fetched
        assert page.evaluate("fetch('/static/not-kept.css').then(() => 'fetched', () => 'offline')") == "offline"
        page.reload()
        page.wait_for_selector(PALETTE)
        assert page.locator(PALETTE).count() == kinds  # the palette, from the kept /api/idols
        page.goto(f"{url}?hand={SEED_STEP_1}")  # a shared link opens the kept page too
        page.wait_for_selector(PALETTE)
        # the answers need the server: one line says so (not the browser's "Failed to fetch")
        error = page.wait_for_selector("#hand-error:not([hidden])").inner_text()
        assert error.startswith("error: the server cannot be reached"), error
        for path, heading in (("play?seed=7", "play"), ("review", "review")):
            page.goto(url + path)
            assert heading in page.inner_text("h1")
            assert page.evaluate("getComputedStyle(document.body).margin") == "0px"  # style.css came along
    finally:
        context.set_offline(False)
        context.close()


@pytest.fixture
def own_server(chromium):
    """`mj serve`'s app in this process (a uvicorn thread), so that a test can change what /sw.js says."""
    import threading

    import uvicorn

    from server.app import create_app
    from server.run import bind

    sock = bind("127.0.0.1", 0)
    ready = threading.Event()
    server = uvicorn.Server(uvicorn.Config(create_app(1, on_ready=ready.set), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    assert ready.wait(WAIT_MS / 1000)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server.should_exit = True
    thread.join(30)
    sock.close()


def test_a_new_version_replaces_the_old_cache_and_reloads_the_opening_page(chromium, own_server, monkeypatch):
    context = chromium.new_context()
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    try:
        page.goto(own_server + "review")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=20_000)
        [old] = page.evaluate("caches.keys()")
        monkeypatch.setattr(shell, "SHELL_VERSION", shell.SHELL_VERSION + 1)  # the server now has a new version
        loads = []
        page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)
        page.reload()  # opened by the old worker, whose files are the old ones; the browser finds /sw.js changed
        page.wait_for_function("caches.keys().then(k => k.length === 1 && k[0] !== %r)" % old)
        for _ in range(WAIT_MS // 100):  # the new worker took over: the page reloads itself once
            if len(loads) >= 2:
                break
            page.wait_for_timeout(100)
        assert loads == [own_server + "review"] * 2
        page.wait_for_selector("#log-file")
        new = page.evaluate("caches.keys()")
        assert new == [old.replace(f"mj-shell-{shell.SHELL_VERSION - 1}-", f"mj-shell-{shell.SHELL_VERSION}-")]
    finally:
        context.close()


def test_the_worker_keeps_every_static_file_under_a_name_that_follows_them(tmp_path):
    (tmp_path / "sw.js").write_text("// worker\n")
    (tmp_path / "a.css").write_text("a {}")
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "b.png").write_bytes(b"png")
    (tmp_path / ".hidden").write_text("x")
    first = build(tmp_path)
    assert first["shell"] == ["/", "/play", "/review", "/api/idols", "/api/rules",
                              "/static/a.css", "/static/img/b.png"]
    assert service_worker_source(tmp_path).startswith(f"const BUILD = {json.dumps(first)};\n")
    assert build(tmp_path) == first  # the same files, the same cache name
    (tmp_path / "a.css").write_text("a { color: red }")
    assert build(tmp_path)["cache"] != first["cache"]  # a changed file, a new cache (the old one is deleted)
    (tmp_path / "sw.js").write_text("// worker 2\n")
    second = build(tmp_path)["cache"]
    assert second != first["cache"] and build(tmp_path)["cache"] == second
    assert all(p.name != "sw.js" for p in static_files())
