"""Results as JSON-ready dicts, tiles by id: one shape shared by the CLI and the checker."""

from __future__ import annotations

from typing import Any

from solver.present import PresentUnit, UnitsPresent
from solver.results import DistanceResult, Exchange, ScoreResult
from solver.rules import RuleSet


def tile_ids(kinds, rules: RuleSet) -> list[str]:
    return [rules.tiles.ids[k] for k in kinds]


def unit_dict(u: int, rules: RuleSet) -> dict[str, Any]:
    d = rules.units[u]
    return {"id": d.id, "name": d.name, "members": tile_ids(d.members, rules)}


def present_dict(present: UnitsPresent, rules: RuleSet) -> dict[str, Any]:
    def one(p: PresentUnit) -> dict[str, Any]:
        return {**unit_dict(p.unit, rules), "missing": tile_ids(p.missing, rules)}

    return {"complete": [one(p) for p in present.complete], "one_short": [one(p) for p in present.one_short],
            "two_short": [one(p) for p in present.two_short]}


def score_dict(result: ScoreResult, rules: RuleSet) -> dict[str, Any]:
    return {"won": result.won, "complete": result.complete, "total": result.total,
            "units": [{**unit_dict(su.unit, rules), "points": su.points, "called": su.called,
                       "holds_ron": su.holds_ron, "sora_for": tile_ids(su.sora_for, rules)} for su in result.units],
            "bonus": result.bonus, "leftover": tile_ids(result.leftover, rules), "reason": result.reason,
            "proof": result.proof}


def exchange_dict(exchange: Exchange, rules: RuleSet) -> dict[str, Any]:
    return {"out": tile_ids(exchange.out, rules), "in": tile_ids(exchange.into, rules),
            "target": [unit_dict(u, rules) for u in exchange.target],
            "sora_for": tile_ids(exchange.sora_for, rules)}


def distance_dict(result: DistanceResult, rules: RuleSet) -> dict[str, Any]:
    exchange = exchange_dict(result.exchange, rules) if result.exchange else None
    return {"h": result.h, "exchange": exchange, "sora_exchanges": result.sora_exchanges, "proof": result.proof}
