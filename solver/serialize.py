"""Results as JSON-ready dicts, tiles by id: one shape shared by the CLI and the checker."""

from __future__ import annotations

import json
from typing import Any

from catalogue import Catalogue
from solver.core.explain import points_steps, points_why
from solver.core.present import PresentUnit, UnitsPresent
from solver.core.results import DistanceResult, Exchange, ScoreResult
from solver.core.rules import RuleSet


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


def score_dict(result: ScoreResult, rules: RuleSet, favourite: int | None = None) -> dict[str, Any]:
    """Each unit's `why` is its points worked out (the favourite matters where it doubles), and `why_steps` the same
    as data, for a page in another language."""
    def why(su) -> dict[str, Any]:
        d = rules.units[su.unit]
        how = dict(won=result.won, called=su.called, holds_ron=su.holds_ron, has_favourite=favourite in d.members)
        return {"why": points_why(rules, d.size, **how), "why_steps": points_steps(rules, d.size, **how)}

    return {"won": result.won, "complete": result.complete, "total": result.total,
            "units": [{**unit_dict(su.unit, rules), "points": su.points, "called": su.called,
                       "holds_ron": su.holds_ron, "sora_for": tile_ids(su.sora_for, rules), **why(su)}
                      for su in result.units],
            "bonus": result.bonus, "leftover": tile_ids(result.leftover, rules), "reason": result.reason,
            "proof": result.proof}


def exchange_dict(exchange: Exchange, rules: RuleSet) -> dict[str, Any]:
    return {"out": tile_ids(exchange.out, rules), "in": tile_ids(exchange.into, rules),
            "target": [unit_dict(u, rules) for u in exchange.target],
            "sora_for": tile_ids(exchange.sora_for, rules)}


def distance_dict(result: DistanceResult, rules: RuleSet) -> dict[str, Any]:
    exchange = exchange_dict(result.exchange, rules) if result.exchange else None
    return {"h": result.h, "exchange": exchange, "sora_exchanges": result.sora_exchanges, "proof": result.proof}


def wait_dict(wait, rules: RuleSet) -> dict[str, Any]:
    return {"tile": rules.tiles.ids[wait.tile], "live": wait.live, "tsumo": wait.tsumo, "ron": wait.ron}


def hand_dict(hand, rules: RuleSet) -> dict[str, Any]:
    return {"tiles": tile_ids(hand.tiles(), rules), "called": [unit_dict(u, rules) for u in hand.called]}


def analysis_dict(analysis, hand, rules: RuleSet, favourite: int | None = None) -> dict[str, Any]:
    """The `mj analyze --json` shape (documented in the README)."""
    ids = rules.tiles.ids
    rows = [{"tile": ids[r.tile] if r.tile >= 0 else None, "h": r.h, "live": r.live,
             "accept": [{"tile": ids[a.tile], "live": a.live} for a in r.accept],
             "waits": [wait_dict(w, rules) for w in r.waits]} for r in analysis.discards]
    sora = None
    if analysis.sora is not None:
        sora = {"h_now": analysis.sora.h_now, "use_now": analysis.sora.use_now,
                "options": [{"take": ids[o.take], "h": o.h} for o in analysis.sora.options]}
    return {
        **hand_dict(hand, rules),
        **present_dict(analysis.present, rules),
        "hand_complete": analysis.complete,
        "h": analysis.h,
        "score": score_dict(analysis.score, rules, favourite) if analysis.score is not None else None,
        "exchanges": [exchange_dict(e, rules) for e in analysis.exchanges],
        "exchanges_complete": analysis.exchanges_complete,
        "discards": rows,
        "waits": [wait_dict(w, rules) for w in analysis.waits],
        "call_tile": ids[analysis.call_tile] if analysis.call_tile is not None else None,
        "calls": [{**unit_dict(c.unit, rules), "discard": ids[c.discard], "h": c.h, "lowers": c.lowers}
                  for c in analysis.calls],
        "ron": wait_dict(analysis.ron_on_call_tile, rules) if analysis.ron_on_call_tile else None,
        "sora": sora,
        "callable": [{"tile": ids[r.tile], "live": r.live, "ron": wait_dict(r.ron, rules) if r.ron else None,
                      "units": [{**unit_dict(c.unit, rules), "h": c.h, "lowers": c.lowers,
                                 "discards": [ids[k] for k in c.discards]} for c in r.units]}
                     for r in analysis.callable],
        "notes": list(analysis.notes),
    }


# --- whole payloads: what each `--json` command prints, and what the web API returns ------------


def units_payload(present: UnitsPresent, rules: RuleSet) -> dict[str, Any]:
    return {"rules": rules.name, **present_dict(present, rules)}


def score_payload(result: ScoreResult, rules: RuleSet, win: str, favourite: int | None = None) -> dict[str, Any]:
    return {"rules": rules.name, "win": win, **score_dict(result, rules, favourite)}


def distance_payload(result: DistanceResult, rules: RuleSet) -> dict[str, Any]:
    return {"rules": rules.name, **distance_dict(result, rules)}


def analysis_payload(analysis, hand, rules: RuleSet, favourite: int | None = None) -> dict[str, Any]:
    return {"rules": rules.name, **analysis_dict(analysis, hand, rules, favourite)}


def idols_payload(catalogue: Catalogue) -> list[dict[str, Any]]:
    return [vars(i) | {"romaji": list(i.romaji), "other_names": list(i.other_names)} for i in catalogue.idols]


def rules_payload(catalogue: Catalogue) -> list[dict[str, Any]]:
    return [{k: (str(v) if k == "as_of" and v else list(v) if isinstance(v, tuple) else v)
             for k, v in vars(spec).items()} for spec in catalogue.rules.values()]


def catalogue_units_payload(rules: RuleSet) -> dict[str, Any]:
    rows = [unit_dict(u.index, rules) | {"aliases": list(u.aliases), "since": str(u.since or "") or None}
            for u in rules.units]
    return {"rules": rules.name, "as_of": str(rules.as_of or "") or None, "units": rows}


def dumps(value: Any) -> str:
    """JSON text that is always valid and always encodable: no NaN or Infinity (ValueError), and a lone
    surrogate from the input written as a \\u escape instead of an unencodable character."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, allow_nan=False)
    return text
