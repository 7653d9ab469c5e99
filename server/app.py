"""The web app: one static page and a small JSON API over the same calls as the CLI.

Routes (all GET, parameters in the query string, named like the CLI's options):
    /                      the page (server/static/)
    /api/idols, /api/rules the catalogue, as `mj catalogue idols|rules --json`
    /api/hand              the hand as parsed: tiles, called units, size (for drawing it)
    /api/units, /api/score, /api/h, /api/analyze
                           exactly what `mj units|score|h|analyze --json` prints
    /api/plan              mj plan --json: P(win) and E[score] per discard over the draws left
Bad input: status 400 and {"error": <the CLI's one line>, "code": <MjError code>}.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from server import jobs
from server.pool import JobError, JobTimeout, WorkerDied, WorkerPool
from solver.core.errors import MjError, error_line

STATIC = Path(__file__).parent / "static"
CLIENT_GONE = 499  # nobody reads it: the client closed the connection and its work was stopped

# Each solving route: its job and the parameters it takes besides rules and as_of.
SOLVING: dict[str, tuple[Callable[..., Any], tuple[str, ...]]] = {
    "units": (jobs.units, ("hand",)),
    "score": (jobs.score, ("hand", "win", "ron", "favourite")),
    "h": (jobs.h, ("hand", "seen")),
    "analyze": (jobs.analyze, ("hand", "seen", "favourite", "discard", "waiting_room", "max_exchanges")),
    "plan": (jobs.plan, ("hand", "seen", "favourite", "waiting_room", "turns", "objective", "detour",
                         "nearest", "estimate", "max_states", "seconds")),
}


def error(status: int, line: str, code: str = "ERR_INPUT") -> JSONResponse:
    return JSONResponse({"error": line, "code": code}, status_code=status)


async def _disconnected(request: Request) -> None:
    """Returns when the client goes away (e.g. the page aborted its fetch)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def create_app(workers: int = 2, catalogue_files: tuple[str, ...] = (), timeout: float | None = 300.0,
               on_ready: Callable[[], None] | None = None) -> Starlette:
    pool = WorkerPool(workers, catalogue_files)
    jobs.configure(catalogue_files)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        pool.start()
        if on_ready:
            on_ready()
        try:
            yield
        finally:
            pool.close()

    def params(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
        pairs = request.query_params.multi_items()
        keys = [k for k, _ in pairs]
        twice = next((k for k in keys if keys.count(k) > 1), None)
        if twice is not None:
            raise MjError(f"parameter '{twice[:40]}' given more than once")
        return jobs.check_params(dict(pairs), allowed)

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
        job = asyncio.ensure_future(pool.run(func, args, timeout=timeout))
        gone = asyncio.ensure_future(_disconnected(request))
        await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        gone.cancel()
        if not job.done():  # the client left: stop its work (the pool kills that worker)
            job.cancel()
            with suppress(asyncio.CancelledError):
                await job
            return Response(status_code=CLIENT_GONE)
        try:
            return JSONResponse(job.result())
        except JobError as exc:
            return error(500 if exc.bug else 400, exc.line, exc.code)
        except JobTimeout as exc:
            return error(503, error_line(str(exc)), "ERR_TIMEOUT")
        except WorkerDied as exc:
            return error(500, error_line(str(exc)), "ERR_INTERNAL")

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    routes = [
        Route("/", index),
        Route("/api/idols", partial(quick, func=jobs.idols, allowed=None)),
        Route("/api/rules", partial(quick, func=jobs.rules, allowed=None)),
        Route("/api/hand", partial(quick, func=jobs.hand, allowed=("hand",))),
        Route("/api/{name:path}", solve),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
