"""Screenshots of the page for the README: desktop and phone width (docs/screenshots/).

    python tools/screenshots.py        # needs Debian's chromium and `pip install -e '.[test]'`

Starts `mj serve` on a free port, opens seed 000's position (as a shared link would) and its
example-1 score, and saves one PNG per view and width.
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


def main() -> int:
    reason = missing()
    if reason:
        print(f"cannot take screenshots: {reason}", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    with running_server() as url, browser() as chromium:
        for width_name, (width, height) in WIDTHS.items():
            page = chromium.new_page(viewport={"width": width, "height": height})
            for view, params in VIEWS.items():
                page.goto(f"{url}?{urlencode(params)}")
                page.wait_for_selector("#analysis:not([hidden]) #h-line")
                path = OUT / f"{view}-{width_name}.png"
                if view == "score":  # the score of the hand, line by line
                    page.wait_for_selector("#score-total")
                    page.locator("#score-box").screenshot(path=str(path))
                else:
                    page.screenshot(path=str(path), full_page=width_name == "desktop")
                print(path)
            page.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
