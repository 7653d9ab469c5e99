"""HTTP for /review: a game log (the request's body, JSON lines) stepped through and its decisions graded.

    POST /api/replay                 the position after each event, every seat's tiles (game/log.py replay;
                                     each step is game/serialize.py replay_step, as mj replay --json); no
                                     parameters: the rule set is the log's
    POST /api/review?seat=I[&seconds=S]
                                     game/review.py's review of seat I's decisions (Review.to_dict()), S seconds
                                     a decision (default 1)
Both run in a worker process (the event loop never replays or grades); a client that leaves stops its job.
"""

from __future__ import annotations

import importlib
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from server.pool import WorkerPool
from server.respond import bounded_body, busy, error, in_worker, only
from solver.core.errors import MjError, error_line
from solver.core.numbers import decimal, whole

MAX_LOG = 4 << 20  # bytes: a game log is tens of KB
DEFAULT_SECONDS = 1.0  # the review's time budget per decision (game/review.py's default)
MAX_SECONDS = 10.0


# --- in a worker process -------------------------------------------------------------------------------

def _replayed(text: str):
    """(events, Evaluator, table, states) of a log, checked event by event (a bad line is named)."""
    from game.log import header, read, replay
    from game.state import Table
    from server import jobs

    events = read(text)
    game, _ = header(events)
    rules, as_of = game.get("rules"), game.get("as_of")
    ev = jobs.evaluator({"rules": rules if isinstance(rules, str) else "",
                         "as_of": as_of if isinstance(as_of, str) else ""})
    table = Table(ev.rules)
    return events, ev, table, replay(events, table)


def replay_log(text: str) -> dict[str, Any]:
    from game.serialize import replay_steps

    events, ev, table, states = _replayed(text)
    return {"rules": ev.rules.name, "names": events[0].get("names"), "seats": len(states[1].seats),
            "steps": replay_steps(events, states, table)}


def review_log(text: str, seat: int, seconds: float, reviewer: str) -> dict[str, Any]:
    events, ev, _, states = _replayed(text)
    if not 0 <= seat < len(states[1].seats):
        raise MjError(f"seat must be 0 to {len(states[1].seats) - 1} in this game")
    module, _, name = reviewer.partition(":")
    review_game = getattr(importlib.import_module(module), name)
    return review_game(ev, events, seat, seconds=seconds).to_dict()


# --- the routes (the event loop's thread) --------------------------------------------------------------

async def _log_text(request: Request) -> str:
    body = await bounded_body(request, MAX_LOG, f"a game log is at most {MAX_LOG >> 20} MB")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise MjError("a game log is UTF-8 text (JSON lines, as mj play --log writes)") from None
    if not text.strip():
        raise MjError("no log given: pick or drop a file written by mj play --log")
    return text


def review_routes(pool: WorkerPool, reviewer: str, timeout: float | None) -> list[Route]:
    def refused() -> Response | None:
        """503 before a log is read where the queue is full, the uploads under way counted."""
        full = pool.full(before_body=True)
        return None if full is None else busy(full)

    async def log_text(request: Request) -> str:
        with pool.reading():
            return await _log_text(request)

    async def replay(request: Request) -> Response:
        if (no := refused()) is not None:
            return no
        try:
            only(request, ())  # (the rules are the log's own)
            text = await log_text(request)
        except MjError as exc:
            return error(400, error_line(str(exc)), exc.code)
        return await in_worker(request, pool, replay_log, text, timeout=timeout)

    async def review(request: Request) -> Response:
        if (no := refused()) is not None:
            return no
        query = request.query_params
        try:
            only(request, ("seat", "seconds"))
            seat = whole(query.get("seat") or "0", "seat", 0, 3)
            seconds = decimal(query.get("seconds") or str(DEFAULT_SECONDS), "seconds", 0.1, MAX_SECONDS)
            text = await log_text(request)
        except MjError as exc:
            return error(400, error_line(str(exc)), exc.code)
        return await in_worker(request, pool, review_log, text, seat, seconds, reviewer, timeout=timeout)

    return [Route("/api/replay", replay, methods=["POST"]), Route("/api/review", review, methods=["POST"])]
