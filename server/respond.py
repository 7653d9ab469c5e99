"""What every route answers with: the JSON error shape, and a job run in a worker that stops when the
client goes away."""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.pool import JobError, JobTimeout, PoolBusy, WorkerDied, WorkerPool
from solver.core.errors import MjError, error_line

CLIENT_GONE = 499  # nobody reads it: the client closed the connection and its work was stopped


def error(status: int, line: str, code: str = "ERR_INPUT") -> JSONResponse:
    return JSONResponse({"error": line, "code": code}, status_code=status)


def busy(exc: PoolBusy) -> JSONResponse:
    return error(503, error_line(str(exc)), "ERR_BUSY")


def only(request: Request, allowed: tuple[str, ...]) -> None:
    """MjError naming the first query parameter the route does not take (none is ignored silently)."""
    unknown = next((k for k in request.query_params if k not in allowed), None)
    if unknown is not None:
        takes = f"takes: {', '.join(allowed)}" if allowed else "takes none"
        raise MjError(f"unknown parameter '{unknown[:40]}' (this route {takes})")


async def bounded_body(request: Request, limit: int, too_long: str) -> bytes:
    """The request's body, read no further than `limit` bytes (a chunked body has no length to check first):
    MjError(too_long) past it."""
    if int(request.headers.get("content-length") or 0) > limit:
        raise MjError(too_long)
    parts, size = [], 0
    async for part in request.stream():
        size += len(part)
        if size > limit:
            raise MjError(too_long)
        parts.append(part)
    return b"".join(parts)


async def _disconnected(request: Request) -> None:
    """Returns when the client goes away (e.g. the page aborted its fetch)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def in_worker(request: Request, pool: WorkerPool, func: Callable[..., Any], *args: Any,
                    timeout: float | None) -> Response:
    """func(*args) in a worker process, as JSON; the work is killed if the client leaves first."""
    job = asyncio.ensure_future(pool.run(func, *args, timeout=timeout))
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # the server is stopping (Ctrl-C past its graceful wait): an answer, no traceback
        for task in (job, gone):
            task.cancel()
        with suppress(asyncio.CancelledError):
            await job
        return error(503, "error: the server is stopping", "ERR_STOPPING")
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
    except PoolBusy as exc:
        return busy(exc)
    except WorkerDied as exc:
        return error(500, error_line(str(exc)), "ERR_INTERNAL")
