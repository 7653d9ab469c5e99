"""Drive the page in Debian's headless Chromium (for the browser tests and tools/screenshots.py).

Starts `mj serve --port 0` in a subprocess (the real command, real uvicorn) and reads its URL; the
browser is /usr/bin/chromium launched by Playwright, never a downloaded one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
START_TIMEOUT = 60  # seconds for the server to print its URL (worker start-up included)


def missing() -> str | None:
    """Why the browser cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[test]')"
    return None


@contextmanager
def running_server(workers: int = 2) -> Iterator[str]:
    """`mj serve` on a free loopback port; yields its URL and stops it (by its own pid) afterwards."""
    mj = shutil.which("mj", path=str(Path(sys.executable).parent)) or shutil.which("mj")
    command = [mj, "serve", "--port", "0", "--workers", str(workers)] if mj else \
        [sys.executable, "-c", "import cli; cli.main()", "serve", "--port", "0", "--workers", str(workers)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = _first_line(process)
        if not line.startswith("mj serve: http"):
            raise RuntimeError(f"mj serve did not start: {line!r} {process.stderr.read() if process.poll() else ''}")
        yield line.split()[2]
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _first_line(process: subprocess.Popen) -> str:
    import selectors

    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(START_TIMEOUT):
            return "(no output)"
    return process.stdout.readline().strip()


@contextmanager
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
