"""/play and /review in headless Chromium against the real `mj serve` (fixtures in conftest.py).

A whole game is played by clicking the legal actions the page shows (2 seats against greedy, the COM pace
set to 0 through the URL); the log the page links is then replayed by game/log.py (every decision legal)
and its scores are the ones the page printed. axe-core (the copy bundled in axe-playwright-python, no
CDN) finds no serious or critical violation on /play and /review, and no request leaves the own server.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from game.log import read, replay
from game.state import Table
from solver.api import Evaluator
from tests.test_browser import EXAMPLE_1

WAIT_MS = 60_000
NEXT = "#game-over:not([hidden]), #actions button[data-action], #my-hand button[data-action]:not([disabled])"
PREFERRED = ("hora", "dahai", "none", "chi", "sora")  # what the test clicks when several are offered


def axe_serious(page) -> list[str]:
    """axe-core's serious and critical violations, and a skipped heading level (moderate, but a screen reader's map)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}: {v['nodes'][0]['target']})"
            for v in found if v["impact"] in ("serious", "critical") or v["id"] == "heading-order"]


@pytest.fixture
def page(chromium, url):
    page = chromium.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(WAIT_MS)
    page.requested = []
    page.on("request", lambda request: page.requested.append(request.url))
    yield page
    page.close()


def play_to_the_end(page) -> int:
    clicks = 0
    while True:
        page.wait_for_selector(NEXT)
        if page.is_visible("#game-over"):
            return clicks
        for action in PREFERRED:
            button = page.locator(f"#actions button[data-action={action}], "
                                  f"#my-hand button[data-action={action}]:not([disabled])")
            if button.count():
                button.first.click()
                clicks += 1
                break
        assert clicks < 400, "the game does not end"


def test_a_whole_game_in_the_browser(page, url):
    page.goto(f"{url}play?seed=7&coms=greedy&pace=0")
    page.wait_for_selector("#my-hand .tile")
    assert page.locator("#seats .seat").count() == 2
    assert axe_serious(page) == []
    clicks = play_to_the_end(page)
    assert clicks > 0
    assert page.locator("#moves li").count() > 10 and "greedy discards" in page.inner_text("#moves")

    href = page.get_attribute("a#game-log", "href")
    log = page.request.get(url.rstrip("/") + href)
    assert log.ok
    events = read(log.text())
    replay(events, Table(Evaluator().rules))  # strict: every decision the page sent was legal there
    totals = page.locator("#results .score-total").all_inner_texts()
    assert [int(t) for t in totals] == [s for s in events[-1]["scores"] if s is not None]
    assert page.locator("#results .result").count() == 2
    assert axe_serious(page) == []
    assert all(u.startswith(url) for u in page.requested), [u for u in page.requested if not u.startswith(url)]
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1]

    page.click("#game-review")  # the review opens this game's log
    page.wait_for_selector("#position .seat")
    assert page.locator("#step").get_attribute("max") == str(len(events) - 1)


def test_each_legal_action_is_a_button_with_its_hooks(page, url):
    page.goto(f"{url}play?seed=7&coms=greedy&pace=0")
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    state = page.evaluate("() => fetch(`/api/game/${game.id}?since=0`).then(r => r.json())")
    legal = sorted(a["pai"] for a in state["legal"] if a["type"] == "dahai")
    shown = sorted(page.locator("#my-hand button[data-action=dahai]").evaluate_all(
        "nodes => [...new Set(nodes.map(n => n.dataset.tile))]"))
    assert shown == sorted(set(legal))
    assert page.locator("#my-hand .tile").count() == 13  # 12 dealt and the first draw


def test_a_refused_action_shows_the_servers_error_and_the_game_goes_on(page, url):
    page.goto(f"{url}play?seed=3&coms=greedy&pace=0")
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    page.evaluate("() => send({type: 'dahai', actor: 0, pai: 'not a tile'})")
    error = page.wait_for_selector("#game-error:not([hidden])")  # (the page sends only what was offered: a refusal
    # means the game moved on, said in words, not the move's JSON; QA)
    assert error.inner_text().startswith("That move is not possible any more")
    page.wait_for_selector("#my-hand button[data-action=dahai]")  # offered again
    page.locator("#my-hand button[data-action=dahai]").first.click()
    page.wait_for_function("() => document.querySelectorAll('#moves li.mine').length >= 2")


def start_seed_5_against_greedy(page) -> None:
    """The setup form filled and sent: seed 5, one greedy COM; back once the first discard is offered."""
    page.fill("#seed", "5")
    page.select_option("#com1", "greedy")
    page.select_option("#com2", "")
    page.select_option("#com3", "")
    page.click("#start")
    page.wait_for_selector("#my-hand button[data-action=dahai]")


def test_the_setup_form_offers_every_rule_set_a_game_deals(page, url):
    """QA: a house rule set reached /play only through ?rules= in the URL; the form now lists the rule sets."""
    page.goto(f"{url}play?coms=cmd:ls&pace=0")  # (a refused game: the form shows)
    page.wait_for_selector("#rules-choice option[value='hitori-jong-2.1']", state="attached")
    page.select_option("#rules-choice", "hitori-jong-2.1")
    start_seed_5_against_greedy(page)
    assert page.evaluate("new URLSearchParams(location.search).get('rules')") == "hitori-jong-2.1"


def test_bad_coms_in_the_url_show_the_error_and_the_form(page, url):
    page.goto(f"{url}play?coms=cmd:ls&pace=0")
    error = page.wait_for_selector("#game-error:not([hidden])")
    assert "unknown COM" in error.inner_text()
    assert page.is_visible("#setup-form")
    assert axe_serious(page) == []


def short_log() -> str:
    """A short game (2 greedy seats, seed 18: 33 events) written as `mj play --log` writes it."""
    from game.engine import Game, Setup
    from game.log import dumps
    from game.players import fallback_player, make_player

    record = Game(Evaluator(), Setup(seed=18, seats=2), [make_player("greedy"), make_player("greedy")],
                  fallback_player).play()
    return "".join(dumps(e) + "\n" for e in record.events)


def test_review_steps_through_a_picked_log_and_grades_a_seat(page, url):
    text = short_log()
    events = read(text)
    page.goto(f"{url}review")
    assert axe_serious(page) == []
    page.set_input_files("#log-file", files=[{"name": "game.jsonl", "mimeType": "application/x-ndjson",
                                              "buffer": text.encode()}])
    page.wait_for_selector("#position .seat")
    assert page.inner_text("#step-count") == f"event 1 of {len(events) - 1}:"  # the deal
    hands = page.locator("#position .seat").evaluate_all(
        "seats => seats.map(s => [...s.querySelector('.row').querySelectorAll('.tile')].map(t => t.textContent))")
    assert [sorted(h) for h in hands] == [sorted(h) for h in events[1]["tehais"]]
    discard = next(i for i, e in enumerate(events) if e["type"] == "dahai")
    page.click("#next")
    page.keyboard.press("ArrowRight")  # the keyboard steps too (focus is on the page, not a field)
    assert page.input_value("#step") == "3"
    for _ in range(discard - 3):
        page.click("#next")
    actor, pai = events[discard]["actor"], events[discard]["pai"]
    room = page.locator(f"#position .seat[data-seat='{actor}'] .room .tile").all_inner_texts()
    assert room == [pai] and "discards" in page.inner_text("#step-event")
    page.click("#prev")
    assert page.input_value("#step") == str(discard - 1)

    page.fill("#seconds", "0.1")  # game/review.py, the real grading, briefly
    with page.expect_response(lambda r: "/api/review" in r.url) as answer:
        page.click("#review")
    page.wait_for_selector("#decisions tbody tr")
    rows = page.locator("#decisions tbody tr")
    tallest = max(rows.evaluate_all("rs => rs.map(r => r.getBoundingClientRect().height)"))
    # (390 px wide: the method's note folded, QA: rows of 2,000 px; each row a card, not six narrow cells: 298 px)
    assert tallest < 270, tallest
    labels = rows.first.locator("td[data-label]").evaluate_all("cs => cs.map(c => getComputedStyle(c, '::before').content)")
    assert labels == ['"chosen: "', '"best: "']  # (the hidden header's names said in the card)
    assert axe_serious(page) == []  # (the cards keep the table's roles)
    # an E[score] bracket is shown "E lower – upper" beside P(win)'s, from the JSON the page got
    review = answer.value.json()

    def shown(x):
        return str(int(x)) if float(x).is_integer() else fixed(x)
    bracketed = [(d["index"], d["chosen"]) for d in review["decisions"] if d["chosen"]["score_upper"] is not None
                 and d["chosen"]["expected_score"] is not None
                 and d["chosen"]["score_upper"] > d["chosen"]["expected_score"]]
    assert bracketed
    for index, chosen in bracketed[:3]:
        text = page.locator(f"#decisions tbody tr[data-index='{index}'] td").nth(2).inner_text().replace("\xa0", " ")
        sampled = chosen["score_interval"]  # a sampled lower value: "≈ x (lo–hi)" before the upper bound
        value = (f"≈ {shown(chosen['expected_score'])} ({fixed(sampled[0], '1')}–{fixed(sampled[1], '1')})" if sampled
                 else shown(chosen["expected_score"]))
        assert f"E {value} – {shown(chosen['score_upper'])}" in text, text
    indexes = [int(i) for i in rows.evaluate_all("rows => rows.map(r => r.dataset.index)")]
    assert str(len(indexes)) == page.inner_text("#review-summary").split()[0]
    assert all(events[i]["actor"] == 0 for i in indexes if events[i]["type"] == "dahai")
    assert sum(events[i]["type"] == "dahai" for i in indexes) == sum(
        1 for e in events if e["type"] == "dahai" and e["actor"] == 0)  # every discard of seat 0 graded
    rows.nth(1).click()  # a decision opens the position it was made in
    assert page.input_value("#step") == str(indexes[1] - 1)
    assert f"next (#{indexes[1]}): " in page.inner_text("#position")  # (the table's #, QA)
    assert axe_serious(page) == []
    assert all(u.startswith(url) for u in page.requested)


def fixed(x: float, places: str = "0.1") -> str:
    """As the page's toFixed / Math.round write a (non-negative) number: an exact tie (86.25) rounds up, where
    Python's format and round() round it to even."""
    from decimal import ROUND_HALF_UP, Decimal

    return str(Decimal(x).quantize(Decimal(places), rounding=ROUND_HALF_UP))


def percent(x: float) -> str:
    return f"{fixed(100 * x)} %"


def review_seat_0(page, url, lang: str = "en") -> dict:
    """The short log picked on /review and seat 0 graded for real (0.1 s a decision); the review's JSON."""
    page.goto(f"{url}review?lang={lang}")
    page.set_input_files("#log-file", files=[{"name": "game.jsonl", "mimeType": "application/x-ndjson",
                                              "buffer": short_log().encode()}])
    page.wait_for_selector("#position .seat")
    page.fill("#seconds", "0.1")
    with page.expect_response(lambda r: "/api/review" in r.url) as answer:
        page.click("#review")
    page.wait_for_selector("#decisions tbody tr")
    return answer.value.json()


def test_review_shows_sampled_values_as_estimates_and_bounds_as_brackets(page, url):
    """A sampled value (its option carries win_interval: method "estimate", or a bracket's sampled lower side) reads
    as on the hand page, "P(win) ≈ x (lo–hi)" with its 95 % interval (then " – upper" where a proved upper bound is
    above it); an exact lower bound stays "P(win) lower – upper", with no ≈. Checked against the review's JSON."""
    review = review_seat_0(page, url)
    # (at the page's 0.1 s most early decisions are sampled; which ones depends on the machine, so each row is
    # checked for what its JSON says it is)
    for d in review["decisions"]:
        chosen, p, upper = d["chosen"], d["chosen"]["win_probability"], d["chosen"]["win_upper"]
        if p is None:
            continue
        text = page.locator(f"#decisions tbody tr[data-index='{d['index']}'] td").nth(2).inner_text().replace("\xa0",
                                                                                                              " ")
        interval = chosen["win_interval"]
        value = f"≈ {percent(p)} ({percent(interval[0])}–{percent(interval[1])})" if interval else percent(p)
        expected = f"P(win) {value}" + (f" – {percent(upper)}" if upper is not None and upper > p else "")
        assert expected in text, (expected, text)
        assert ("≈" in text.split(" · ")[0]) == bool(interval), text


def test_review_says_the_proved_loss_and_the_players_own_choice(page, url):
    """QA: a card said "10.9 %" where only 0-100 % was proved against the optimum, hid an h lost behind "=", and a
    pass's "next" line named another seat's move. Each loss cell is checked against the review's JSON."""
    review = review_seat_0(page, url)

    def loss(d):
        bounds = d["loss_bounds"]
        proved = bounds and f"{percent(bounds[0])}–{percent(bounds[1])}"
        if d["match"]:
            text = "=" + (f" (proved {proved})" if bounds and bounds[1] > 0 else "")
        elif d["loss"] is None:
            text = proved or "≠"
        elif bounds and bounds != [d["loss"], d["loss"]]:
            text = f"{percent(d['loss'])} (proved {percent(bounds[0])}–{percent(bounds[1])})"
        else:
            text = percent(d["loss"])
        return text + (f" (h +{d['h_lost']})" if d["h_lost"] else "")
    for d in review["decisions"]:
        cell = page.locator(f"#decisions tbody tr[data-index='{d['index']}'] td").nth(4).inner_text()
        assert cell.replace("\xa0", " ") == loss(d), (cell, d)
    d = review["decisions"][-1]
    page.click(f"#decisions tbody tr[data-index='{d['index']}']")
    line = page.locator("#position p.hint").first.inner_text()
    assert line.startswith(f"next (#{d['index']}): chosen: ") and " · best: " in line, line


def test_review_says_the_decisions_not_the_players_and_a_crash(page, url):
    """QA (an engine author): the page never said the decisions the fallback COM took after a fault, which the CLI
    counts as not the player's, and it called a crash's error "the fallback COM decided" (it plays the seat to the
    end)."""
    import sys
    from pathlib import Path

    from game.engine import Game, Setup
    from game.log import dumps
    from game.players import fallback_player, make_player

    crash = f"cmd:{sys.executable} {Path(__file__).parent / 'game_bots.py'} crash"
    record = Game(Evaluator(), Setup(seed=18, seats=2), [make_player(crash), make_player("greedy")],
                  fallback_player).play()
    events = record.events
    crashed = next(i for i, e in enumerate(events) if e["type"] == "error" and e.get("crashed"))
    page.goto(f"{url}review")
    page.set_input_files("#log-file", files=[{"name": "game.jsonl", "mimeType": "application/x-ndjson",
                                              "buffer": "".join(dumps(e) + "\n" for e in events).encode()}])
    page.wait_for_selector("#position .seat")
    page.eval_on_selector("#step", "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", crashed)
    assert "(the fallback COM plays the seat to the end)" in page.inner_text("#step-event")
    page.fill("#seconds", "0.1")
    with page.expect_response(lambda r: "/api/review" in r.url) as answer:
        page.click("#review")
    page.wait_for_selector("#review-summary")
    skipped = answer.value.json()["summary"]["skipped"]
    assert skipped > 0 and f"{skipped} decision(s) not the player's" in page.inner_text("#review-summary")


def test_review_names_a_bad_log(page, url):
    page.goto(f"{url}review")
    page.set_input_files("#log-file", files=[{"name": "x.jsonl", "mimeType": "text/plain", "buffer": b"{oops\n"}])
    error = page.wait_for_selector("#log-error:not([hidden])")
    assert error.inner_text().startswith("error: line 1: not JSON")


def test_review_takes_a_dropped_log(page, url):
    text = short_log()
    page.goto(f"{url}review")
    page.wait_for_selector("#drop")
    # a real drop: a DataTransfer holding the log as a file, dispatched on the drop zone
    page.evaluate("""(text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], "game.jsonl", { type: "application/x-ndjson" }));
        const zone = document.getElementById("drop");
        zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }""", text)
    page.wait_for_selector("#position .seat")
    assert page.inner_text("#step-count") == f"event 1 of {len(read(text)) - 1}:"


def test_play_and_review_speak_japanese_after_the_toggle(page, url):
    page.goto(f"{url}play?seed=7&coms=greedy&pace=0")
    page.wait_for_selector("#my-hand .tile")
    english = page.inner_text("#moves li >> nth=0")
    page.click("#lang-toggle")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert page.inner_text("#table-title") == "卓" and page.inner_text("#wall").startswith("山の残り")
    assert page.inner_text("#moves li >> nth=0") != english  # (the moves so far said again: QA, they had stayed)
    assert axe_serious(page) == []
    page.goto(f"{url}review")  # the choice is kept
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    page.set_input_files("#log-file", files=[{"name": "g.jsonl", "mimeType": "text/plain", "buffer": short_log().encode()}])
    page.wait_for_selector("#position .seat")
    assert page.inner_text("#step-count").endswith("手目:") and page.inner_text("#load-title") == "牌譜"


def test_reload_back_and_forward_resume_this_tabs_game_instead_of_dealing_a_new_one(page, url):
    """A reload (or Back/Forward, or the same link again) in the tab finds its game in sessionStorage and shows it
    again from its first step: no new POST /api/game, so no game is left waiting on the server. The setup form
    asking for a game with the same settings gets a new one."""
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/api/game?" in r.url else None)
    link = f"{url}play?seed=5&coms=greedy&pace=0"
    page.goto(link)
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    page.locator("#my-hand button[data-action=dahai]").first.click()
    page.wait_for_function("() => document.querySelectorAll('#moves li.mine').length >= 2")
    page.wait_for_selector(NEXT)
    first, moves = page.evaluate("game.id"), page.inner_text("#moves")
    assert len(posts) == 1

    page.reload()
    page.wait_for_selector(NEXT)
    assert page.evaluate("game.id") == first and page.inner_text("#moves") == moves  # from its first step
    page.goto(f"{url}review")
    page.go_back()
    page.wait_for_selector(NEXT)
    page.goto(link)  # the same link in the same tab: still its game
    page.wait_for_selector(NEXT)
    assert page.evaluate("game.id") == first and page.inner_text("#moves") == moves
    assert len(posts) == 1, posts

    page.goto(f"{url}play?pace=0")  # a new game asked for with the same settings: a new one
    start_seed_5_against_greedy(page)
    second = page.evaluate("game.id")
    assert second != first and len(posts) == 2
    page.reload()
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    assert page.evaluate("game.id") == second and len(posts) == 2


def test_the_keyboard_moves_on_to_the_next_action(page, url):
    """QA: after every action pressed from the keyboard focus fell to the page's start; it goes to the next one."""
    page.goto(f"{url}play?seed=5&coms=greedy&pace=0")
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    page.focus("#my-hand button[data-action=dahai]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#moves li.mine').length >= 2")
    page.wait_for_selector(NEXT)
    page.wait_for_function("() => document.activeElement.closest('#actions, #my-hand') !== null")


def test_a_reload_at_the_end_shows_the_finished_game_again(page, url):
    """QA: a reload (or Back) on the final screen dealt the same seed again and lost the scores; the finished game
    is the tab's game like any other: shown again with its end, no new game asked for."""
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/api/game?" in r.url else None)
    page.goto(f"{url}play?seed=3&coms=greedy&pace=0")
    play_to_the_end(page)
    first, end = page.evaluate("game.id"), page.inner_text("#game-over")
    page.reload()
    page.wait_for_selector("#game-over:not([hidden])")
    assert page.evaluate("game.id") == first and page.inner_text("#game-over") == end and len(posts) == 1


def test_while_the_player_thinks_the_page_touches_its_game_every_10_s(page, url):
    """Polling stops at the human's decision; a light GET ?since=<total> every 10 s then tells the server the page
    is still open (it drops a game untouched for 30 s when it needs the room). The page's clock is Playwright's."""
    page.clock.install()
    page.goto(f"{url}play?seed=7&coms=greedy&pace=0")
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    game_id, total = page.evaluate("[game.id, latest.total]")
    beat = f"/api/game/{game_id}?since={total}"
    for _ in range(2):
        with page.expect_request(lambda r: r.url.endswith(beat), timeout=10_000):
            page.clock.run_for(10_500)
    assert page.is_hidden("#game-error")
    page.locator("#my-hand button[data-action=dahai]").first.click()  # acting: polling again, then a new wait
    page.wait_for_function("() => document.querySelectorAll('#moves li.mine').length >= 2")


def test_play_and_review_words_are_japanese_and_you_draw_in_english(page, url):
    """The human's seat ("you" on the server) is あなた in Japanese narration and takes "you draw" in English; the
    review's status, Cancelled, decision types, P(win) and methods, and a score's flags come from i18n."""
    page.goto(f"{url}play?seed=7&coms=greedy&pace=0&lang=en")
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    moves = page.inner_text("#moves")
    assert "you vs greedy: the game begins" in moves and "the deal: you draw first" in moves, moves
    assert "you draws" not in moves and "you draw " in moves
    page.goto(f"{url}play?seed=7&coms=greedy&pace=0&lang=ja")  # the same game, now narrated in Japanese
    page.wait_for_selector("#my-hand button[data-action=dahai]")
    moves = page.inner_text("#moves")
    assert "配牌: あなた が最初にツモ" in moves and "you" not in moves, moves

    held = []
    page.route("**/api/review?*", lambda route: held.append(route))
    page.goto(f"{url}review?lang=ja")
    page.set_input_files("#log-file", files=[{"name": "g.jsonl", "mimeType": "text/plain", "buffer": short_log().encode()}])
    page.wait_for_selector("#position .seat")
    page.click("#review")
    page.wait_for_function("() => /^\\d+ 秒$/.test(document.querySelector('#review-clock').textContent)")
    assert page.inner_text("#review-status") == "検討中…"  # (the clock beside the live status, not in it)
    page.click("#review-cancel")
    page.wait_for_selector("#review-status:text-is('中止しました。')")
    page.unroute("**/api/review?*")

    review = review_seat_0(page, url, lang="ja")
    kinds = {"discard": "打牌", "claim": "鳴き・ロン", "sora": "そら"}
    types = page.locator("#decisions tbody tr td:nth-child(2)").all_inner_texts()
    assert types == [kinds[d["type"]] for d in review["decisions"]]
    rows = page.inner_text("#decisions tbody")
    assert "和了率" in rows and "P(win)" not in rows
    methods = {"optimal": "最適", "bounds": "上下限", "estimate": "推定", "h": "h"}
    hows = page.locator("#decisions tbody tr td.why").all_inner_texts()
    assert [h.removeprefix("和了を逃した: ").split(":")[0] for h in hows] == [methods[d["method"]] for d in review["decisions"]]

    page.goto(f"{url}?lang=ja&" + urlencode({"hand": EXAMPLE_1, "favourite": "可奈", "win": "ron", "ron": "美也"}))
    page.wait_for_selector("#score-total:text-is('16000')")
    why = page.inner_text("#score")
    # a unit's flags after its reason (the reason itself is the server's arithmetic, in English)
    assert "; ロン牌" in why and "; 鳴き" in why and "; ron tile" not in why and "; called" not in why, why
    assert why.startswith("ロンで和了")


def test_a_reload_keeps_the_grading_of_a_log(page, url):
    """QA: a reload on /review lost a grading that had taken 20 s; the tab keeps its last grading of each log (with
    its seat and seconds) and shows it again when the same log is loaded, without asking the server."""
    review = review_seat_0(page, url)
    rows = page.locator("#decisions tbody tr").count()
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/review" in r.url else None)
    page.reload()
    page.set_input_files("#log-file", files=[{"name": "game.jsonl", "mimeType": "application/x-ndjson",
                                              "buffer": short_log().encode()}])
    page.wait_for_selector("#decisions tbody tr")
    assert page.locator("#decisions tbody tr").count() == rows == len(review["decisions"])
    assert page.input_value("#seconds") == "0.1" and page.input_value("#seat") == "0" and asked == []


def test_the_review_steppers_are_named_in_japanese(page, url):
    """QA: the step buttons' names for a screen reader stayed English on the Japanese page."""
    page.goto(f"{url}review?lang=ja")
    page.wait_for_selector("#drop")
    assert page.get_attribute("#prev", "aria-label") == "前の手" and page.get_attribute("#step", "aria-label") == "手"


def test_a_game_the_server_no_longer_has_ends_the_table_with_a_way_to_start_again(page, url):
    """QA (a club's operator): after a restart the page kept its buttons, which led nowhere, and said "finished games
    are kept 30 minutes" of a game in progress."""
    page.goto(f"{url}play?pace=0")
    start_seed_5_against_greedy(page)
    gone = {"error": "error: no such game here", "code": "ERR_NOT_FOUND"}
    page.route("**/api/game/*/act", lambda route: route.fulfill(status=404, json=gone))
    page.click("#my-hand button[data-action=dahai]")
    page.wait_for_selector("#game-error:not([hidden])")
    assert page.inner_text("#game-error").startswith("This game is no longer on the server")
    assert page.get_attribute("#actions a", "href") == "/play"
    assert all(button.is_disabled() for button in page.locator("#my-hand button").all())


def test_a_move_made_in_another_tab_brings_this_one_up_to_date(page, url):
    """QA: a second tab of the same game kept the old board live, and a tap there said "not one of your legal
    actions: {...}" in raw JSON."""
    page.goto(f"{url}play?pace=0")
    start_seed_5_against_greedy(page)
    with page.expect_popup() as opened:
        page.evaluate("window.open(location.href)")  # (the tab's session, and so its game, copied)
    other = opened.value
    other.set_default_timeout(WAIT_MS)
    other.wait_for_selector("#my-hand button[data-action=dahai]")
    before = other.locator("#moves li").count()
    page.click("#my-hand button[data-action=dahai]")
    page.wait_for_function(f"() => document.querySelectorAll('#moves li').length > {before}")
    other.click("#my-hand button[data-action=dahai]")
    other.wait_for_selector("#game-error:not([hidden])")
    assert other.inner_text("#game-error").startswith("That move is not possible any more")
    other.wait_for_function(f"() => document.querySelectorAll('#moves li').length > {before}")
    other.close()


def test_a_refused_server_says_so_on_every_page(page, url):
    """QA: where the server refused the pages' first request (a Host it does not answer to), / said "list is not
    iterable", /play was empty and /review silent. Each page says the server's own line."""
    line = "error: this server answers to its address and localhost, not to 'vm.lan:8931'"
    for path, where in (("", "#hand-error"), ("play?seed=7&coms=greedy", "#game-error"), ("review", "#log-error")):
        context = page.context.browser.new_context(service_workers="block")  # (a worker's fetches are not routed)
        try:
            fresh = context.new_page()
            fresh.route("**/api/idols", lambda route: route.fulfill(status=403, json={"error": line}))
            fresh.goto(f"{url}{path}")
            shown = fresh.wait_for_selector(f"{where}:not([hidden])").inner_text()
            assert "not to 'vm.lan:8931'" in shown, (path, shown)
        finally:
            context.close()
