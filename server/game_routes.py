"""HTTP for games in the browser (/play); the engine and its sessions are server/game_session.py.

    POST /api/game?seed=7&coms=greedy,seed000,random[&rules=2019-12]   a new game (you are seat 0) -> {"id"}
    GET  /api/game/{id}?since=N     the events from N on as your seat sees them, each with your view after
                                    it; your legal actions when the engine waits for you; results at the end
    POST /api/game/{id}/act         one of those legal actions (JSON body); anything else is a 400
    GET  /api/game/{id}/log         the whole log (JSON lines, as `mj play --log` writes), once it is over
"""

from __future__ import annotations

import json
import secrets

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from game.log import no_constant
from server.game_session import MAX_SEED, NotLegal, Sessions
from server.respond import bounded_body, error, only
from solver.core.errors import MjError, error_line
from solver.core.numbers import whole

DEFAULT_COMS = "greedy,seed000,random"
MAX_BODY = 4096  # bytes: an action is one small object


def game_routes(sessions: Sessions) -> list[Route]:
    async def new_game(request: Request) -> Response:
        query = request.query_params
        try:
            only(request, ("seed", "coms", "rules"))
            # (QA: a JSON body's seed was ignored, a random deal given in silence; and a body of 1 GB was read whole
            # before it was refused: none is read past its first byte)
            await bounded_body(request, 0, "a new game takes its parameters in the query string (?seed=7&coms=...), "
                                           "not a body")
            seed = whole(query["seed"], "seed", 0, MAX_SEED) if query.get("seed") else secrets.randbelow(MAX_SEED)
            coms = [c.strip() for c in (query.get("coms") or DEFAULT_COMS).split(",") if c.strip()]
            session = sessions.new(seed, coms, query.get("rules") or None, request.client and request.client.host)
        except MjError as exc:
            return error(503 if exc.code == "ERR_BUSY" else 400, error_line(str(exc)), exc.code)
        return JSONResponse({"id": session.id, "seed": session.seed, "coms": session.coms})

    def found(request: Request):
        session = sessions.get(request.path_params["id"])
        if session is None and sessions.was_replaced(request.path_params["id"]):
            return None, error(404, "error: this game made room for a newer one started from the same address "
                                    f"({sessions.per_client} games in progress at most, the one left alone longest "
                                    "goes)", "ERR_REPLACED")
        if session is None:
            return None, error(404, "error: no such game here: the server restarted since (games live in its memory), or the game finished "
                                   "more than 30 minutes ago", "ERR_NOT_FOUND")
        return session, None

    async def state(request: Request) -> Response:
        session, missing = found(request)
        if missing:
            return missing
        try:
            only(request, ("since",))
            since = whole(request.query_params.get("since") or "0", "since", 0, 1 << 20)
        except MjError as exc:
            return error(400, error_line(str(exc)), exc.code)
        return JSONResponse(session.snapshot(since))

    async def act(request: Request) -> Response:
        session, missing = found(request)
        if missing:
            return missing
        try:
            only(request, ())
            body = await bounded_body(request, MAX_BODY, f"an action is one small JSON object (at most {MAX_BODY} bytes)")
            try:
                answer = json.loads(body or b"null", parse_constant=no_constant)
            except (ValueError, RecursionError):
                raise MjError("the body must be one JSON object: one of the legal actions") from None
            chosen = session.act(answer)
        except NotLegal as exc:
            return error(409 if exc.code == "ERR_STATE" else 400, error_line(str(exc)), exc.code)
        except MjError as exc:
            return error(400, error_line(str(exc)), exc.code)
        return JSONResponse({"accepted": chosen})

    async def log(request: Request) -> Response:
        session, missing = found(request)
        if missing:
            return missing
        try:
            only(request, ())
        except MjError as exc:
            return error(400, error_line(str(exc)), exc.code)
        if not session.over:  # the log holds the wall: not before the end
            return error(409, "error: the log is given once the game is over", "ERR_STATE")
        name = f"mj-game-seed{session.seed}.jsonl"
        return PlainTextResponse(session.log_text(), media_type="application/x-ndjson",
                                 headers={"Content-Disposition": f'attachment; filename="{name}"'})

    return [
        Route("/api/game", new_game, methods=["POST"]),
        Route("/api/game/{id}", state),
        Route("/api/game/{id}/act", act, methods=["POST"]),
        Route("/api/game/{id}/log", log),
    ]
