"""The PNG icons of the web app manifest (192 and 512 px), drawn from server/static/favicon.svg.

    python tools/icons.py        # needs Debian's chromium and `pip install -e '.[test]'`

Chromium draws the SVG at each size on a transparent background (no image library needed);
rerun it after changing favicon.svg and commit server/static/icon-*.png.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.browser import browser, missing  # noqa: E402

STATIC = Path(__file__).resolve().parents[1] / "server" / "static"
SIZES = (192, 512)


def main() -> int:
    reason = missing()
    if reason:
        print(f"cannot draw the icons: {reason}", file=sys.stderr)
        return 2
    svg = base64.b64encode((STATIC / "favicon.svg").read_bytes()).decode()
    with browser() as chromium:
        for size in SIZES:
            page = chromium.new_page(viewport={"width": size, "height": size})
            page.set_content(f'<html><body style="margin:0"><img alt="" width="{size}" height="{size}" '
                             f'src="data:image/svg+xml;base64,{svg}"></body></html>')
            page.wait_for_function("document.images[0].complete")
            path = STATIC / f"icon-{size}.png"
            page.screenshot(path=str(path), omit_background=True)
            page.close()
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
