"""Screenshots of the pages for the README: desktop and phone width (docs/screenshots/).

    python tools/screenshots.py        # needs Debian's chromium and `pip install -e '.[test]'`

Starts `mj serve` on a free port and saves one PNG per view and width:
- analysis, score: seed 000's position (as a shared link would open it) and its example-1 score;
- play: a game against three COMs, a few of your discards in (COMs at once: pace 0);
- review: a finished game's log (greedy, random, seed000; written by the game engine here) loaded,
  the random seat's decisions graded and its worst one selected (on a phone: the position it
  opens).
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.browser import browser, missing, running_server  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
ANALYSIS = {"hand": "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"}
SCORE = {"hand": "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也", "favourite": "kana",
         "win": "ron", "ron": "miya"}
VIEWS = {"analysis": ANALYSIS, "score": SCORE}
WIDTHS = {"desktop": (1280, 900), "phone": (360, 740)}
GAME_WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
PLAY = {"seed": "7", "coms": "greedy,seed000,random", "pace": "0"}
MY_DISCARDS = 3
REVIEW_SEED, REVIEW_PLAYERS, REVIEWED_SEAT = 7, ("greedy", "random", "seed000"), 1
WAIT_MS = 120_000
PLANNED = "() => [...document.querySelectorAll('#discard-table td.win')].every(td => td.textContent !== '…')"


def main() -> int:
    reason = missing()
    if reason:
        print(f"cannot take screenshots: {reason}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    log = game_log()
    with running_server() as url, browser() as chromium:
        for width_name, (width, height) in WIDTHS.items():
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(WAIT_MS)
            for view, params in VIEWS.items():
                page.goto(f"{url}?{urlencode(params)}")
                page.wait_for_selector("#analysis:not([hidden]) #h-line")
                if view == "analysis":
                    page.wait_for_function(PLANNED)  # the P(win) columns filled in
                path = OUT / f"{view}-{width_name}.png"
                if view == "score":  # the score of the hand, line by line
                    page.wait_for_selector("#score-total")
                    page.locator("#score-box").screenshot(path=str(path))
                else:
                    page.screenshot(path=str(path), full_page=width_name == "desktop")
                print(path)
            page.close()
        for width_name, (width, height) in GAME_WIDTHS.items():
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(WAIT_MS)
            play(page, url, OUT / f"play-{width_name}.png")
            review(page, url, log, OUT / f"review-{width_name}.png")
            page.close()
    return 0


def play(page, url: str, path: Path) -> None:
    page.goto(f"{url}play?{urlencode(PLAY)}")
    for mine in range(1, MY_DISCARDS + 1):
        page.wait_for_selector("#my-hand button[data-action=dahai]:not([disabled]), #game-over:not([hidden])")
        if page.is_visible("#game-over"):
            break
        page.locator("#my-hand button[data-action=dahai]:not([disabled])").first.click()
        page.wait_for_function(f"() => document.querySelectorAll('#moves li.mine').length >= {mine}")
    page.wait_for_selector("#my-hand button[data-action]:not([disabled]), #actions button[data-action], "
                           "#game-over:not([hidden])")  # your turn again (or the end): the tiles are live
    page.screenshot(path=str(path), full_page=True)
    print(path)


def review(page, url: str, log: str, path: Path) -> None:
    page.goto(f"{url}review")
    page.set_input_files("#log-file", files=[{"name": "game.jsonl", "mimeType": "application/x-ndjson",
                                              "buffer": log.encode()}])
    page.wait_for_selector("#position .seat")
    page.select_option("#seat", str(REVIEWED_SEAT))
    page.fill("#seconds", "0.5")
    page.click("#review")
    page.wait_for_selector("#decisions tbody tr")
    worst = page.locator("#decisions tbody tr.worst")
    (worst if worst.count() else page.locator("#decisions tbody tr")).first.click()
    page.wait_for_selector("#decisions tbody tr.current")
    if page.viewport_size["width"] < 900:  # a phone: the position the selected decision was made in
        page.locator("#replay").screenshot(path=str(path))
    else:
        page.screenshot(path=str(path), full_page=True)
    print(path)


def game_log() -> str:
    """A finished game as `mj play --log` writes it (the engine plays every seat)."""
    from game.engine import Game, Setup
    from game.log import dumps
    from game.players import fallback_player, make_player
    from solver.api import Evaluator

    record = Game(Evaluator(), Setup(seed=REVIEW_SEED, seats=len(REVIEW_PLAYERS)),
                  [make_player(name) for name in REVIEW_PLAYERS], fallback_player).play()
    return "".join(dumps(event) + "\n" for event in record.events)


if __name__ == "__main__":
    sys.exit(main())
