"""The web app: one static page and a small JSON API over the same calls as the CLI.

Routes (all GET, parameters in the query string, named like the CLI's options):
    /                      the page (server/static/)
    /api/idols, /api/rules the catalogue, as `mj catalogue idols|rules --json`
    /api/hand              the hand as parsed: tiles, called units, size, typed order (for drawing it)
    /api/tiles             a list of tiles as parsed (the page checks seen, waiting room, discard each alone)
    /api/units, /api/score, /api/h, /api/analyze
                           exactly what `mj units|score|h|analyze --json` prints
    /api/plan              mj plan --json: P(win) and E[score] per discard over the draws left
    /play, /api/game/...   a game against COMs in the browser (server/game_routes.py)
    /review, /api/replay, /api/review
                           a game log stepped through and its decisions graded (server/review_routes.py)
    /sw.js, /favicon.ico, /manifest.webmanifest
                           the service worker, icon and manifest: offline after a first visit (server/shell.py)
Bad input: status 400 and {"error": <the CLI's one line>, "code": <MjError code>}; a parameter given twice is
bad input on every /api/ route (once_each).
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from server import jobs
from server.game_routes import game_routes
from server.game_session import PER_CLIENT, Sessions
from server.guard import Guard
from server.pool import WorkerPool
from server.respond import CLIENT_GONE, error, in_worker  # noqa: F401 (CLIENT_GONE: tests read it here)
from server.review_routes import review_routes
from server.shell import shell_routes
from solver.core.errors import MjError, error_line

STATIC = Path(__file__).parent / "static"

# Each solving route: its job and the parameters it takes besides rules and as_of.
SOLVING: dict[str, tuple[Callable[..., Any], tuple[str, ...]]] = {
    "units": (jobs.units, ("hand",)),
    "score": (jobs.score, ("hand", "win", "ron", "favourite")),
    "h": (jobs.h, ("hand", "seen", "seconds")),
    "analyze": (jobs.analyze, ("hand", "seen", "favourite", "discard", "waiting_room", "max_exchanges", "seconds")),
    "plan": (jobs.plan, ("hand", "seen", "favourite", "waiting_room", "turns", "objective", "detour",
                         "nearest", "estimate", "max_states", "seconds")),
}


def repeated(request: Request) -> str | None:
    """The first query parameter given more than once ('favorite' is 'favourite', as in the CLI), or None."""
    seen: set[str] = set()
    for key, _ in request.query_params.multi_items():
        key = "favourite" if key == "favorite" else key
        if key in seen:  # (a set, not a count per key: ten thousand parameters stay linear)
            return key
        seen.add(key)
    return None


class OnceEach:
    """Refuses a repeated query parameter on every /api/ route, before a route can read only its last value
    (the analysis, game and review routes alike: one place, not one check a route)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            twice = repeated(Request(scope))
            if twice is not None:
                response = error(400, error_line(f"parameter '{twice[:40]}' given more than once"))
                return await response(scope, receive, send)
        await self.app(scope, receive, send)


def create_app(workers: int = 2, catalogue_files: tuple[str, ...] = (), timeout: float | None = 300.0,
               on_ready: Callable[[], None] | None = None, reviewer: str = "game.review:review_game",
               guarded: bool = False, check_host: bool | None = None) -> Starlette:
    """`reviewer` names the function that grades a log's decisions (module:function, imported in a worker);
    `guarded`, as mj serve runs it: one address holds at most PER_CLIENT games, and unless `check_host` is False a
    Host that is not this machine's is refused (server/guard.py; the tests' client is one address, testserver)."""
    pool = WorkerPool(workers, catalogue_files)
    sessions = Sessions(catalogue_files=catalogue_files, per_client=PER_CLIENT if guarded else None)
    jobs.configure(catalogue_files)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        pool.start()
        if on_ready:
            on_ready()
        try:
            yield
        finally:
            sessions.close()
            pool.close()

    def params(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
        return jobs.check_params(dict(request.query_params), allowed)  # none twice: OnceEach

    async def quick(request: Request, func: Callable[..., Any], allowed: tuple[str, ...] | None) -> Response:
        """No solving: answered on the event loop's thread (catalogue look-ups, parsing)."""
        try:
            if allowed is None:
                params(request, ())
                return JSONResponse(func())
            return JSONResponse(func(params(request, allowed)))
        except MjError as exc:
            return error(400, error_line(str(exc)), exc.code)

    async def solve(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in SOLVING:
            return error(404, f"error: no API route /api/{name[:40]}", "ERR_NOT_FOUND")
        func, allowed = SOLVING[name]
        try:
            args = params(request, allowed)
        except MjError as exc:
            return error(400, error_line(str(exc)), exc.code)
        return await in_worker(request, pool, func, args, timeout=timeout)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    def page(file: str) -> Callable:
        async def serve_page(request: Request) -> Response:
            return FileResponse(STATIC / file, headers={"Cache-Control": "no-cache"})
        return serve_page

    routes = [
        Route("/", index),
        Route("/play", page("play.html")),
        Route("/review", page("review.html")),
        *game_routes(sessions),
        *review_routes(pool, reviewer, timeout),
        *shell_routes(),
        Route("/api/idols", partial(quick, func=jobs.idols, allowed=None)),
        Route("/api/rules", partial(quick, func=jobs.rules, allowed=None)),
        Route("/api/hand", partial(quick, func=jobs.hand, allowed=("hand",))),
        Route("/api/tiles", partial(quick, func=jobs.tiles, allowed=("tiles",))),
        Route("/api/{name:path}", solve),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(Guard, check_host=guarded if check_host is None else check_host),
                                 Middleware(OnceEach)])
