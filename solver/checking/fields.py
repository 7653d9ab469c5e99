"""The checks of each claim field: each takes a Context and the claimed value, returns a verdict dict."""

from __future__ import annotations

from collections import Counter
from typing import Any

from solver.api import Evaluator
from solver.checking.context import (
    MISSING_LISTED,
    Context,
    InvalidValue,
    as_json,
    claimed_kinds,
    decomposition_text,
    explain_h,
    fourth_copy_text,
    make_reason,
    tile_names,
)
from solver.core.errors import MjError, close_matches, shown
from solver.core.hand import COPIES, Hand
from solver.core.notation import parse_tiles
from solver.core.rules import UnitDef
from solver.core.score import decomposition_total
from solver.core.tiles import normalise
from solver.serialize import tile_ids

# --- the claim fields ------------------------------------------------------------------------------


def _field(verdict_reasons: list[dict[str, str]], **extra: Any) -> dict[str, Any]:
    return {"verdict": "wrong" if verdict_reasons else "correct", **extra,
            **({"reasons": verdict_reasons} if verdict_reasons else {})}


def _int(value: Any, what: str, none_ok: bool = False, least: int | None = None) -> int | None:
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue(f"{what} must be an integer{' or null' if none_ok else ''}, not {as_json(value)}")
    if least is not None and value < least:  # (no hand has such a value: not a wrong answer, not an answer)
        raise InvalidValue(f"{what} must be {least} or more, not {value}")
    return value


def check_complete(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, bool):
        raise InvalidValue("complete must be true or false")
    result = ctx.score(win="tsumo") if ctx.full else None
    exact = bool(result and result.complete)
    reasons = []
    if claimed and not exact:
        why = result.reason if result else f"a complete hand holds {ctx.rules.hand_size} tiles, this one {ctx.size}"
        reasons.append(make_reason("not_complete", f"the hand is not complete: {why}"))
    elif exact and not claimed:
        reasons.append(make_reason("is_complete", f"the hand is complete: {decomposition_text(ctx, result)}"))
    return _field(reasons, claimed=claimed, exact=exact)


def check_h(ctx: Context, claimed: Any) -> dict[str, Any]:
    claimed = _int(claimed, "h", none_ok=True, least=0)
    exact = ctx.h().h
    reasons = [] if claimed == exact else [explain_h(ctx, claimed, exact) if claimed is not None
                                           else make_reason("h_value", f"h is {exact}: a complete hand is reachable")]
    return _field(reasons, claimed=claimed, exact=exact)


def _said(score: Any) -> Any:
    """A claimed score as a reason repeats it: null in the claim means no score (QA: "claimed None")."""
    return "null (no score)" if score is None else score


def check_score(ctx: Context, claimed: Any) -> dict[str, Any]:
    claimed = _int(claimed, "score", none_ok=True)
    result = ctx.score()
    reasons = []
    if claimed != result.total:
        if result.total is None:
            reasons.append(make_reason("not_a_win", f"the hand did not win ({ctx.win}): {result.reason}"))
        else:
            reasons.append(make_reason("score_value", f"claimed {_said(claimed)}, exact {result.total}: "
                                                  f"{decomposition_text(ctx, result)}"))
    return _field(reasons, claimed=claimed, exact=result.total, win=ctx.win)


_UNIT_NAMES: dict[int, tuple[Evaluator, dict[str, UnitDef]]] = {}


def _unit_lookup(ev: Evaluator) -> dict[str, UnitDef]:
    """Units of the rule set by normalised id, name and alias (built once per Evaluator)."""
    entry = _UNIT_NAMES.get(id(ev))
    if entry is None or entry[0] is not ev:
        table: dict[str, UnitDef] = {}
        for unit in ev.rules.units:
            for name in (unit.id, unit.name, *unit.aliases):
                table.setdefault(normalise(name), unit)
        entry = _UNIT_NAMES[id(ev)] = (ev, table)
    return entry[1]


def _claimed_unit(ctx: Context, item: Any) -> tuple[UnitDef | None, str]:
    """A unit given by id, name or alias, or by its members (a list, or tiles as text). (None, why) if no unit."""
    ev = ctx.ev
    if isinstance(item, str):
        unit = _unit_lookup(ev).get(normalise(item))
        if unit is not None:
            return unit, unit.name
        try:
            kinds = parse_tiles(item, ev.rules)
        except MjError:
            known = {normalise(n): u.name for u in ev.catalogue.units for n in (u.id, u.name, *u.aliases)}
            if normalise(item) in known:
                return None, f"{known[normalise(item)]} is not a unit under {ev.rules.name}"
            close = close_matches(normalise(item), list(_unit_lookup(ev)))
            hint = f"; did you mean {_unit_lookup(ev)[close[0]].name}?" if close else ""
            raise InvalidValue(f"unknown unit '{shown(item)}'{hint}") from None
    elif isinstance(item, list):
        kinds = claimed_kinds(ev, item, "a unit's members")
    else:
        raise InvalidValue(f"a unit is a name or a list of members, not {as_json(item)}")
    unit = ev.rules.by_members.get(frozenset(kinds))
    if unit is None or len(set(kinds)) != len(kinds):
        return None, f"[{tile_names(ev, kinds)}] is not a unit under {ev.rules.name}"
    return unit, unit.name


def check_units(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, list):
        raise InvalidValue("units must be a list of units")
    rules, ev = ctx.rules, ctx.ev
    won = ctx.win != "none"
    reasons, defs = [], []
    for item in claimed:
        unit, why = _claimed_unit(ctx, item)
        if unit is None:
            reasons.append(make_reason("not_a_unit", why))
        else:
            defs.append(unit)
    concealed = list(defs)
    for u in ctx.hand.called:  # called units are part of every decomposition, as they are
        match = next((d for d in concealed if d.index == u), None)
        if match is None:
            reasons.append(make_reason("called_left_out", f"leaves out the called unit {rules.units[u].name}"))
        else:
            concealed.remove(match)
    need = Counter(k for d in concealed for k in d.members)
    have = Counter({k: n for k, n in enumerate(ctx.hand.concealed) if n})
    sora = rules.tiles.sora
    soras = have.pop(sora, 0) if (sora is not None and rules.sora_mode == "wildcard") else 0
    short = need - have
    if sum(short.values()) > soras:
        text = ", ".join(f"{n + have[k]} {ev.tiles.name(k)}" for k, n in sorted(short.items()))
        reasons.append(make_reason("tiles_mismatch", f"the units use {text} but the hand holds fewer"))
    left = have - need
    if soras:
        left[sora] = soras - sum(short.values())
    left = +left
    if won and left and not reasons:
        reasons.append(make_reason("tiles_mismatch", f"{tile_names(ev, sorted(left.elements()))} left out of every unit "
                                                 f"(a {ctx.win} win uses every tile)"))
    detail: dict[str, Any] = {}
    try:
        result = ctx.score()
    except MjError as exc:  # e.g. 2019-10 defines no score for a hand that did not win
        detail["note"] = f"only validity checked: {exc}"
        return _field(reasons, **detail)
    if result.total is None:
        if not reasons:
            reasons.append(make_reason("not_a_win", f"the hand did not win ({ctx.win}): {result.reason}"))
        return _field(reasons, exact=None, **detail)
    detail["exact"] = {"total": result.total, "units": [
        {"id": rules.units[su.unit].id, "name": rules.units[su.unit].name,
         "members": tile_ids(rules.units[su.unit].members, rules), "points": su.points, "called": su.called}
        for su in result.units]}
    if reasons:
        return _field(reasons, **detail)
    total = decomposition_total(rules, ctx.hand.called, [d.index for d in concealed], won=won,
                                ron_tile=ctx.winning_tile if ctx.win == "ron" else None, favourite=ctx.favourite)
    detail["claimed_total"] = total
    if total < result.total:
        reasons.append(make_reason("not_highest", f"decomposition valid but not the highest: it scores {total}, the best "
                                              f"{result.total} ({decomposition_text(ctx, result)})"))
    return _field(reasons, **detail)


def _exchange_item(ctx: Context, item: Any) -> tuple[list[int], list[int]]:
    if not isinstance(item, dict) or set(item) - {"out", "in"} or not {"out", "in"} <= set(item):
        raise InvalidValue(f"an exchange is {{\"out\": tiles, \"in\": tiles}}, not {as_json(item)}")
    return sorted(claimed_kinds(ctx.ev, item["out"], "out")), sorted(claimed_kinds(ctx.ev, item["in"], "in"))


def check_exchanges(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, list):
        raise InvalidValue("exchanges must be a list of {\"out\": tiles, \"in\": tiles}")
    ev, hand, rules = ctx.ev, ctx.hand, ctx.rules
    items = [_exchange_item(ctx, item) for item in claimed]
    h = ctx.h().h
    reasons, optimal, listed = [], [], set()
    for out, into in items:
        label = f"{tile_names(ev, out)} → {tile_names(ev, into)}"
        key = (tuple(out), tuple(into))
        if key in listed:
            reasons.append(make_reason("duplicate", f"lists {label} twice"))
            continue
        listed.add(key)
        lacking = Counter(out) - Counter({k: n for k, n in enumerate(hand.concealed) if n})
        if lacking:
            reasons.append(make_reason("exchange_not_held", f"{label}: takes out {tile_names(ev, sorted(lacking.elements()))}"
                                                        " that the hand does not hold"))
            continue
        if len(out) != len(into):
            reasons.append(make_reason("exchange_sizes", f"{label}: takes out {len(out)} tile(s) and brings in "
                                                     f"{len(into)}"))
            continue
        after = hand
        for k in out:
            after = after.remove(k)
        for k in into:
            after = after.add(k)
        held = ctx.held(after)
        over = [k for k in sorted(set(into)) if held[k] + ctx.seen_of(k) > COPIES]
        if over:
            k = over[0]
            why = (f"needs a 4th {ev.tiles.name(k)}" if held[k] > COPIES else
                   f"needs {held[k]} {ev.tiles.name(k)} but {ctx.seen_of(k)} are seen")
            reasons.append(make_reason("exchange_copies", f"{label}: {why}"))
            continue
        result = ctx.score(after, "tsumo")
        if not result.complete:
            reasons.append(make_reason("exchange_incomplete", f"{label}: does not reach a complete hand ({result.reason})"))
            continue
        if h is not None and len(out) > h:
            reasons.append(make_reason("exchange_not_optimal", f"{label}: exchanges {len(out)} tiles, h is {h}"))
            continue
        optimal.append((out, into))
    from solver.core.enumerate import distinct_exchanges  # imported here (and turn below): h claims never need them

    _, others, all_listed = distinct_exchanges(ctx.dm, hand, ctx.seen, MISSING_LISTED, exclude=optimal)
    missing = [(list(e.out), list(e.into)) for e in others]
    if missing:
        shown = "; ".join(f"{tile_names(ev, o)} → {tile_names(ev, i)}" for o, i in missing[:5])
        more = "" if len(missing) <= 5 else f"; … ({len(missing) - 5} more listed in exact)"
        count = f"{len(missing)}" if all_listed else f"more than {len(missing)}"
        reasons.append(make_reason("misses_exchange", f"misses {count} optimal exchange(s): {shown}{more}"))
    exact = {"h": h, "missing": [{"out": tile_ids(o, rules), "in": tile_ids(i, rules)} for o, i in missing],
             "all_missing_listed": all_listed}
    return _field(reasons, exact=exact)


def _wait_items(ctx: Context, claimed: Any) -> list[dict[str, Any]]:
    if not isinstance(claimed, list):
        raise InvalidValue("waits must be a list of tiles or of {\"tile\", \"score\"} objects")
    items = []
    for item in claimed:
        if isinstance(item, str):
            item = {"tile": item}
        if not isinstance(item, dict) or "tile" not in item:
            raise InvalidValue(f"a wait is a tile name or an object with \"tile\", not {as_json(item)}")
        extra = set(item) - {"tile", "score", "tsumo", "ron", "live"}
        if extra:
            raise InvalidValue(f"unknown key(s) {shown(', '.join(sorted(extra)))} in wait {as_json(item)}")
        if "score" in item and "tsumo" in item:
            raise InvalidValue("a wait gives score or tsumo (the same thing), not both")
        if not isinstance(item["tile"], str):
            raise InvalidValue("a wait's tile must be a tile name")
        kind = ctx.ev.tiles.resolve(item["tile"])
        tsumo = _int(item.get("score", item.get("tsumo")), "a wait's score", none_ok=True)
        items.append({"kind": kind, "tsumo": tsumo, "has_tsumo": "score" in item or "tsumo" in item,
                      "ron": _int(item.get("ron"), "a wait's ron score", none_ok=True), "has_ron": "ron" in item,
                      "live": _int(item.get("live"), "a wait's live count", none_ok=True), "has_live": "live" in item})
    return items


def check_waits(ctx: Context, claimed: Any) -> dict[str, Any]:
    items = _wait_items(ctx, claimed)
    ev, rules = ctx.ev, ctx.rules
    if ctx.size != rules.hand_size - 1:
        raise InvalidValue(f"waits are claimed for a {rules.hand_size - 1}-tile hand, this one has {ctx.size}")
    from solver.analysis.turn import waits

    exact = {w.tile: w for w in waits(ctx.dm, ctx.hand, ctx.seen, ctx.favourite)}
    held = ctx.held()
    reasons, named = [], set()
    for item in items:
        kind, name = item["kind"], ev.tiles.name(item["kind"])
        if kind in named:
            reasons.append(make_reason("duplicate", f"lists wait {name} twice"))
            continue
        named.add(kind)
        wait = exact.get(kind)
        if wait is None:
            if held[kind] >= COPIES:
                reasons.append(make_reason("fourth_copy", fourth_copy_text(ctx, kind, item["tsumo"])))
            elif not exact and ctx.h().h != 1:
                reasons.append(make_reason("not_tenpai", f"{name} does not complete the hand: it is not one tile from "
                                                     f"winning (h = {ctx.h().h})"))
            else:
                reasons.append(make_reason("not_a_wait", f"{name} does not complete the hand"))
            continue
        if item["has_tsumo"] and item["tsumo"] != wait.tsumo:
            reasons.append(make_reason("wait_score", f"score of wait {name}: claimed {_said(item['tsumo'])}, exact {_said(wait.tsumo)}"))
        if item["has_ron"] and item["ron"] != wait.ron:
            exact_ron = wait.ron if wait.ron is not None else f"none (a ron on {name} is not a win)"
            reasons.append(make_reason("wait_ron", f"ron score of wait {name}: claimed {_said(item['ron'])}, exact {exact_ron}"))
        if item["has_live"] and item["live"] != wait.live:
            reasons.append(make_reason("wait_live", f"live copies of wait {name}: claimed {item['live']}, "
                                                f"exact {wait.live}"))
    for kind, wait in exact.items():
        if kind not in named:
            reasons.append(make_reason("misses_wait", f"misses wait {ev.tiles.name(kind)}"))
    listed = [{"tile": rules.tiles.ids[w.tile], "tsumo": w.tsumo, "ron": w.ron, "live": w.live}
              for w in exact.values()]
    return _field(reasons, exact=listed)


def check_discard(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, dict) or "tile" not in claimed:
        raise InvalidValue("discard must be an object {\"tile\": X, \"accept\": [...]} (h optional)")
    extra = set(claimed) - {"tile", "accept", "h"}
    if extra:
        raise InvalidValue(f"unknown key(s) {shown(', '.join(sorted(extra)))} in discard")
    from solver.analysis.turn import acceptance, seen_plus
    from solver.core.distance import exchange_distance

    ev, rules, hand = ctx.ev, ctx.rules, ctx.hand
    if not ctx.full:
        raise InvalidValue(f"a discard is claimed for a {rules.hand_size}-tile hand, this one has {ctx.size}")
    if not isinstance(claimed["tile"], str):
        raise InvalidValue("the discard's tile must be a tile name")
    tile = ev.tiles.resolve(claimed["tile"])
    if hand.concealed[tile] == 0:
        raise InvalidValue(f"the discard {ev.tiles.name(tile)} is not among the concealed tiles")
    if not isinstance(claimed.get("accept", []), list):
        raise InvalidValue("the discard's accept must be a list of tiles or of {\"tile\", \"live\"} objects")
    accept_items = []
    for item in claimed.get("accept", []):
        if isinstance(item, str):
            item = {"tile": item}
        if not isinstance(item, dict) or "tile" not in item or set(item) - {"tile", "live"} \
                or not isinstance(item["tile"], str):
            raise InvalidValue(f"an accepted tile is a name or {{\"tile\", \"live\"}}, not "
                           f"{as_json(item)}")
        accept_items.append((ev.tiles.resolve(item["tile"]), _int(item.get("live"), "live", none_ok=True),
                             "live" in item))
    claimed_h = _int(claimed.get("h"), "the discard's h", none_ok=True, least=0) if "h" in claimed else None

    def after(kind: int) -> tuple[Hand, tuple[int, ...]]:
        return hand.remove(kind), seen_plus(ctx.seen, kind, len(ev.tiles))

    rest, seen_after = after(tile)
    h_after, accept = acceptance(ctx.dm, rest, seen_after)
    reasons = []
    h0 = ctx.h().h
    best_h, best_tile = h_after, tile
    if h0 is None or h_after is None or h_after > max(h0, 1):  # max(h0, 1) is a lower bound: look for better
        for kind in sorted({k for k, n in enumerate(hand.concealed) if n} - {tile}):
            other = exchange_distance(ctx.dm, *after(kind)).h
            if other is not None and (best_h is None or other < best_h):
                best_h, best_tile = other, kind
    name = ev.tiles.name(tile)
    if best_tile != tile:
        reasons.append(make_reason("discard_not_best", f"discarding {name} leaves h = {h_after}; discarding "
                                                   f"{ev.tiles.name(best_tile)} leaves h = {best_h}"))
    if "h" in claimed and claimed_h != h_after:
        reasons.append(make_reason("discard_h", f"h after discarding {name}: claimed {claimed_h}, exact {h_after}"))
    exact_live = {a.tile: a.live for a in accept}
    if "accept" in claimed:
        held, named = ctx.held(rest), set()
        for kind, live, has_live in accept_items:
            t = ev.tiles.name(kind)
            if kind in named:
                reasons.append(make_reason("duplicate", f"lists accepted tile {t} twice"))
                continue
            named.add(kind)
            if kind not in exact_live:
                if held[kind] >= COPIES:
                    reasons.append(make_reason("fourth_copy", f"accepting {t} needs a 4th {t}"))
                elif held[kind] + seen_after[kind] >= COPIES:
                    reasons.append(make_reason("accept_none_left", f"no {t} is left to draw ({held[kind]} held, "
                                                               f"{seen_after[kind]} seen)"))
                else:
                    reasons.append(make_reason("accept_not_lowering", f"drawing {t} does not lower h after discarding "
                                                                  f"{name}"))
            elif has_live and live != exact_live[kind]:
                reasons.append(make_reason("accept_live", f"live copies of {t}: claimed {live}, exact {exact_live[kind]}"))
        missed = [kind for kind in exact_live if kind not in named]
        if missed:
            reasons.append(make_reason("misses_accept", f"misses {len(missed)} accepted tile(s): {tile_names(ev, missed)}"))
    exact = {"tile": rules.tiles.ids[tile], "h": h_after, "best_h": best_h,
             "accept": [{"tile": rules.tiles.ids[a.tile], "live": a.live} for a in accept]}
    return _field(reasons, exact=exact)


CHECKS = {"complete": check_complete, "h": check_h, "score": check_score, "units": check_units,
          "exchanges": check_exchanges, "waits": check_waits, "discard": check_discard}
