"""What the web API asks of the solver: query parameters in, the `--json` payload out.

Each function takes the request's query parameters (plain strings, validated here) and returns
exactly what the matching CLI command prints with `--json` (solver/serialize.py). The solving
ones run inside a worker process (server/pool.py), which owns its Evaluators; the quick ones
(catalogue, parsing a hand) run on the event loop's thread, which never solves.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from typing import Any, Mapping

from solver.api import ANALYSIS_SECONDS, H_SECONDS, Evaluator, open_catalogue, plan_limits
from solver.core.errors import MjError
from solver.core.hand import check_hand
from solver.core.notation import parse_hand_in_order, parse_tiles
from solver.core.numbers import decimal, whole
from solver.core.rules import DEFAULT_RULES, parse_date
from solver.serialize import (
    analysis_payload,
    distance_payload,
    hand_dict,
    idols_payload,
    rules_payload,
    score_payload,
    units_payload,
)

MAX_PARAM = 1000  # characters: a hand in any notation is far shorter
MAX_EXCHANGES = 500
MAX_GAMES = 100_000  # sampled walls per discard for an estimate past the exact frontier
MAX_SECONDS = 60  # the time budget an h, analysis or plan request may ask for (a plan's: the whole answer's, clock.py)
MAX_TURNS = 30  # draws left in one game at most (the planner stops earlier at its state limit)
_CACHED = 4  # Evaluators kept per process (one per rule set and date asked for)

# The extra catalogue files given to `mj serve --catalogue` (set once per process, never by a client).
catalogue_files: tuple[str, ...] = ()
_evaluators: OrderedDict[tuple[str, dt.date | None], Evaluator] = OrderedDict()


def configure(files: tuple[str, ...]) -> None:
    global catalogue_files
    catalogue_files = tuple(files)
    _evaluators.clear()


def evaluator(params: Mapping[str, str]) -> Evaluator:
    """This process's Evaluator for the request's rule set; built once, kept for the next requests."""
    as_of = params.get("as_of") or None
    key = (params.get("rules") or DEFAULT_RULES, parse_date(as_of) if as_of else None)
    if key not in _evaluators:
        _evaluators[key] = Evaluator(key[0], catalogue_files=catalogue_files, as_of=key[1])
        while len(_evaluators) > _CACHED:
            _evaluators.popitem(last=False)
    _evaluators.move_to_end(key)
    return _evaluators[key]


def check_params(params: Mapping[str, str], allowed: tuple[str, ...]) -> dict[str, str]:
    """Only the route's own parameters, each a short string; 'favorite' is 'favourite' as in the CLI."""
    out: dict[str, str] = {}
    for key, value in params.items():
        key = "favourite" if key == "favorite" else key
        if key not in allowed + ("rules", "as_of"):
            raise MjError(f"unknown parameter '{key[:40]}' (this route takes: {', '.join(allowed + ('rules', 'as_of'))})")
        if len(value) > MAX_PARAM:
            raise MjError(f"parameter '{key}' is too long ({len(value)} characters; at most {MAX_PARAM})")
        out[key] = value
    return out


def switch(value: str | None, name: str) -> bool:
    """A yes/no parameter: 1, true or on; 0, false, off or empty (absent): anything else is refused."""
    text = (value or "").strip().lower()
    if text not in ("1", "true", "on", "0", "false", "off", ""):
        raise MjError(f"{name} must be 1 or 0 (true/false, on/off), not {value[:40]!r}")
    return text in ("1", "true", "on")


def _hand_text(params: Mapping[str, str]) -> str:
    text = params.get("hand", "")
    if not text.strip():
        raise MjError("no hand given: add tiles or type them (e.g. 春香 千早 ...)")
    return text


def _tile(ev: Evaluator, name: str | None) -> int | None:
    return ev.tile(name) if name and name.strip() else None


# --- on the event loop's thread: no solving --------------------------------------------------------


def idols() -> list[dict[str, Any]]:
    return idols_payload(open_catalogue(catalogue_files))


def rules() -> list[dict[str, Any]]:
    return rules_payload(open_catalogue(catalogue_files))


def hand(params: Mapping[str, str]) -> dict[str, Any]:
    """The hand as parsed (tiles, called units, size): the page draws it while it is being entered."""
    ev = evaluator(params)
    parsed, typed = parse_hand_in_order(params.get("hand", ""), ev.rules)  # typed: the concealed tiles in order
    size = parsed.size(ev.rules)
    check_hand(parsed, ev.rules, sizes=(size,))  # copies only: the size is checked when solving
    return {"rules": ev.rules.name, **hand_dict(parsed, ev.rules), "size": size, "hand_size": ev.rules.hand_size,
            "order": [ev.rules.tiles.ids[k] for k in typed]}


def tiles(params: Mapping[str, str]) -> dict[str, Any]:
    """A list of tiles (seen, a waiting room, a discard) as parsed: the page checks each field on its own."""
    ev = evaluator(params)
    kinds = parse_tiles(params.get("tiles", ""), ev.rules)
    ev.seen(kinds)  # (no field lists a kind more often than it exists: the API's own check)
    return {"tiles": [ev.rules.tiles.ids[k] for k in kinds]}


# --- in a worker process ---------------------------------------------------------------------------


def units(params: Mapping[str, str]) -> dict[str, Any]:
    ev = evaluator(params)
    return units_payload(ev.units_present(ev.hand(_hand_text(params))), ev.rules)


def score(params: Mapping[str, str]) -> dict[str, Any]:
    ev = evaluator(params)
    win = params.get("win") or "tsumo"
    if params.get("ron") and win != "ron":
        raise MjError("a winning tile (ron) is given only with win=ron")
    favourite = _tile(ev, params.get("favourite"))
    result = ev.score(_hand_text(params), win, _tile(ev, params.get("ron")), favourite)
    return score_payload(result, ev.rules, win, favourite)


def budget(params: Mapping[str, str], default: float) -> float:
    """The request's `seconds` (QA: h and the analysis had only the server's own; a house of thousands of units may
    need more, a client in a hurry less), at most MAX_SECONDS."""
    return decimal(params.get("seconds") or str(default), "seconds", 0.01, MAX_SECONDS)


def h(params: Mapping[str, str]) -> dict[str, Any]:
    ev = evaluator(params)
    return distance_payload(ev.h(ev.hand(_hand_text(params)), params.get("seen", ""), budget(params, H_SECONDS)),
                            ev.rules)


def analyze(params: Mapping[str, str]) -> dict[str, Any]:
    ev = evaluator(params)
    limit = whole(params.get("max_exchanges") or "20", "max_exchanges", 1, MAX_EXCHANGES)
    parsed = ev.hand(_hand_text(params))
    favourite = _tile(ev, params.get("favourite"))
    room = params.get("waiting_room")
    result = ev.analyze(parsed, params.get("seen", ""), favourite, _tile(ev, params.get("discard")),
                        room if room is not None and room.strip() else None, limit, budget(params, ANALYSIS_SECONDS))
    return analysis_payload(result, parsed, ev.rules, favourite)


def plan(params: Mapping[str, str]) -> dict[str, Any]:
    """`mj plan --json`: P(win) and E[score] per discard over the draws left (solver/planning): the optimum, bounds
    past the budget; `detour` or `nearest` for a named class."""
    from solver.serialize_plan import plan_dict

    ev = evaluator(params)
    turns = whole(params.get("turns") or "3", "turns", 1, MAX_TURNS)
    detour = params.get("detour")
    detour = whole(detour, "detour", 0, MAX_TURNS) if detour else None  # none: the optimum (or nearest)
    nearest = switch(params.get("nearest"), "nearest")
    objective = params.get("objective") or "win"
    if objective not in ("win", "score"):
        raise MjError(f"objective must be win or score, not '{objective[:20]}'")
    games = params.get("estimate")
    games = whole(games, "estimate", 2, MAX_GAMES) if games else None
    state_limit, seconds = plan_limits()  # (the defaults; a request may lower the cap, not raise it)
    max_states = whole(params.get("max_states") or str(state_limit), "max_states", 1, state_limit)
    seconds = budget(params, seconds)
    request = ev.plan_request_of(_hand_text(params), turns, objective, params.get("seen", ""),
                                 params.get("waiting_room", ""), _tile(ev, params.get("favourite")), detour,
                                 estimate=games, max_states=max_states, nearest=nearest, seconds=seconds)
    return plan_dict(ev.plan_request(request), ev.rules)

