"""A generated position as one JSON line: the claims format of `mj check` (docs/checker.md) plus the
informational fields `kind`, `difficulty` and `shortcut`. Tiles by id, as in all the project's JSON."""

from __future__ import annotations

from typing import Any

from solver.analysis.turn import DiscardRow, Wait
from solver.core.hand import Hand
from solver.core.results import Exchange
from solver.core.rules import RuleSet
from solver.serialize import tile_ids


def hand_json(hand: Hand, rules: RuleSet) -> list:
    """Called units as nested lists first, then the concealed tiles in catalogue order."""
    return [tile_ids(rules.units[u].members, rules) for u in hand.called] + tile_ids(hand.tiles(), rules)


def seen_json(seen: tuple[int, ...], rules: RuleSet) -> list[str]:
    return tile_ids([k for k, n in enumerate(seen) for _ in range(n)], rules)


def waits_json(found: tuple[Wait, ...], rules: RuleSet) -> list[dict[str, Any]]:
    return [{"tile": rules.tiles.ids[w.tile], "tsumo": w.tsumo, "ron": w.ron, "live": w.live}
            for w in sorted(found, key=lambda w: w.tile)]


def exchanges_json(found: list[Exchange], rules: RuleSet) -> list[dict[str, list[str]]]:
    return [{"out": tile_ids(e.out, rules), "in": tile_ids(e.into, rules)} for e in found]


def discard_json(row: DiscardRow, rules: RuleSet) -> dict[str, Any]:
    accept = sorted(row.accept, key=lambda a: a.tile)
    return {"tile": rules.tiles.ids[row.tile], "h": row.h,
            "accept": [{"tile": rules.tiles.ids[a.tile], "live": a.live} for a in accept]}


def position(kind: str, rules: RuleSet, hand: Hand, claims: dict[str, Any], features: dict[str, Any], *,
             favourite: int | None = None, seen: tuple[int, ...] = (), shortcut: str | None = None,
             note: str | None = None) -> dict[str, Any]:
    """One position (without its id, which the generator assigns), keys in a fixed order."""
    out: dict[str, Any] = {"kind": kind}
    if shortcut is not None:
        out["shortcut"] = shortcut
    out["rules"] = rules.name
    out["hand"] = hand_json(hand, rules)
    if favourite is not None:
        out["favorite"] = rules.tiles.ids[favourite]
    if any(seen):
        out["seen"] = seen_json(seen, rules)
    out.update(claims)
    out["difficulty"] = features
    if note is not None:
        out["note"] = note
    return out
