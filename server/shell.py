"""The app shell around the pages: favicon, web app manifest and the service worker (docs/web.md, "Theme,
icon, offline").

    /favicon.ico            the SVG favicon (browsers that ask by habit get an icon, never a 404)
    /manifest.webmanifest   server/static/manifest.webmanifest as application/manifest+json
    /sw.js                  server/static/sw.js (scope /) after one line naming what to cache and under which name

The cache name carries a hash of every file in server/static/, taken when /sw.js is asked for: any change
to the page makes /sw.js differ by a byte, so browsers install the new worker, and it deletes the old
caches when it takes over. SHELL_VERSION is the manual bump for a change the hash cannot see.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

STATIC = Path(__file__).parent / "static"
SHELL_VERSION = 1
PAGES = ("/", "/play", "/review")
CATALOGUE = ("/api/idols", "/api/rules")  # the palette and the rule sets: what a page needs to open


def static_files(static: Path = STATIC) -> list[Path]:
    """Every file the pages may load, in a fixed order (not the worker itself, nor hidden files)."""
    return sorted(p for p in static.rglob("*")
                  if p.is_file() and p.name != "sw.js"
                  and not any(part.startswith(".") for part in p.relative_to(static).parts))


def build(static: Path = STATIC) -> dict[str, object]:
    """The cache name and the URLs cached on install."""
    digest = hashlib.sha256()
    for path in [*static_files(static), static / "sw.js"]:
        digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    files = ["/static/" + p.relative_to(static).as_posix() for p in static_files(static)]
    return {"cache": f"mj-shell-{SHELL_VERSION}-{digest.hexdigest()[:12]}", "shell": [*PAGES, *CATALOGUE, *files]}


def service_worker_source(static: Path = STATIC) -> str:
    return f"const BUILD = {json.dumps(build(static))};\n" + (static / "sw.js").read_text(encoding="utf-8")


async def service_worker(request: Request) -> Response:
    return Response(service_worker_source(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


async def favicon(request: Request) -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def manifest(request: Request) -> Response:
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json",
                        headers={"Cache-Control": "no-cache"})


def shell_routes() -> list[Route]:
    return [Route("/sw.js", service_worker), Route("/favicon.ico", favicon),
            Route("/manifest.webmanifest", manifest)]
