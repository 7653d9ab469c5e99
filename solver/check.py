"""Check other engines' answers ("claims") against the exact solver. Pure functions, no printing.

One claim is one JSON object (docs/checker.md): a hand, its situation (rules, favourite, win, seen)
and any of the claim fields below. ``check_claim`` returns a JSON-ready dict:

    {"line": 3, "id": "pub-w-pres-0000", "rules": "hitori-jong-2.1", "verdict": "wrong",
     "fields": {"waits": {"verdict": "wrong", "exact": [...],
                          "reasons": [{"code": "fourth_copy", "text": "needs a 4th 春香 ..."}]}}}

Running many claims over worker processes, and their summary, is solver/batch.py.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from solver import cpsat
from solver.analysis import acceptance, seen_plus, waits
from solver.api import Evaluator
from solver.distance import exchange_distance, exchange_for
from solver.enumerate import distinct_exchanges
from solver.errors import HAND_SIZE, MjError
from solver.hand import COPIES, Hand, Situation, check_hand, check_situation
from solver.notation import hand_from_list, parse_hand, parse_tiles
from solver.results import ScoreResult
from solver.rules import DEFAULT_RULES, UnitDef
from solver.score import best_score, decomposition_total
from solver.serialize import tile_ids
from solver.tiles import normalise

CLAIM_FIELDS = ("complete", "h", "score", "units", "exchanges", "waits", "discard")
CONTEXT_FIELDS = ("id", "engine", "rules", "hand", "favorite", "favourite", "win", "winning_tile", "seen", "note")
KNOWN_FIELDS = CONTEXT_FIELDS + CLAIM_FIELDS
VERDICTS = ("correct", "wrong", "invalid")
MISSING_LISTED = 20  # exchanges: how many missing optimal exchanges are listed at most

# Reason codes (stable, for the summary and for scripts) and their labels in the summary table.
LABELS = {
    # claim-level problems (field "claim"): the verdict is invalid
    "bad_json": "not valid JSON",
    "not_an_object": "not a JSON object",
    "bad_encoding": "not UTF-8",
    "unknown_field": "unknown field",
    "bad_context": "bad hand, rules or situation",
    "no_claim": "nothing claimed",
    "internal_error": "internal error",
    # a field whose value cannot be read (verdict invalid)
    "bad_value": "unreadable claim value",
    # complete / h / score
    "not_complete": "hand is not complete",
    "is_complete": "hand is complete",
    "h_copy_limit": "ignores the 3-copy limit",
    "h_two_missing": "only units missing at most two members",
    "h_value": "wrong h",
    "score_value": "wrong score",
    "not_a_win": "the hand did not win",
    # units
    "not_a_unit": "not a unit under the rule set",
    "tiles_mismatch": "tiles not used exactly once",
    "called_left_out": "leaves out a called unit",
    "not_highest": "decomposition valid but not the highest",
    # exchanges
    "exchange_not_held": "exchange takes out tiles not in hand",
    "exchange_sizes": "exchange out/in sizes differ",
    "exchange_copies": "exchange needs a tile that is not left",
    "exchange_incomplete": "exchange does not reach a complete hand",
    "exchange_not_optimal": "exchange longer than h",
    "misses_exchange": "misses optimal exchanges",
    "duplicate": "lists a tile or exchange twice",
    # waits
    "fourth_copy": "needs a 4th copy",
    "not_tenpai": "hand is not one tile from winning",
    "not_a_wait": "does not complete the hand",
    "misses_wait": "misses a wait",
    "wait_score": "wrong tsumo score of a wait",
    "wait_ron": "wrong ron score of a wait",
    "wait_live": "wrong live count",
    # discard
    "discard_not_best": "discard does not keep the lowest h",
    "discard_h": "wrong h after the discard",
    "accept_not_lowering": "accepted tile does not lower h",
    "accept_none_left": "accepted tile has no copy left",
    "misses_accept": "misses an accepted tile",
    "accept_live": "wrong live count",
}


class _Invalid(Exception):
    """A claim value that cannot be read: the field's verdict is invalid."""


# --- evaluators, one per rule set and process ----------------------------------------------------

_EVALUATORS: dict[str, Evaluator] = {}


def evaluator(rules: str) -> Evaluator:
    """The process's cached Evaluator for a rule set (CP-SAT models are built once per process)."""
    if rules not in _EVALUATORS:
        _EVALUATORS[rules] = Evaluator(rules)
    return _EVALUATORS[rules]


def validate_rules(rules: str) -> None:
    """Raise MjError (unknown rule set) before a run starts, without building any model."""
    from solver.api import open_catalogue
    from solver.rules import build_rules

    build_rules(open_catalogue(), rules)


# --- reading a claim -------------------------------------------------------------------------------


def _reason(code: str, text: str, error: MjError | None = None) -> dict[str, str]:
    """A reason: a stable code, a short text, and for bad input the solver's own error code."""
    return {"code": code, "text": text, **({"error_code": error.code} if error is not None else {})}


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _names(ev: Evaluator, kinds: Iterable[int]) -> str:
    return " ".join(ev.tiles.name(k) for k in kinds)


def _kinds(ev: Evaluator, value: Any, what: str) -> list[int]:
    """Tiles given as notation text ("春香 千早") or as a list of names or ids."""
    if isinstance(value, str):
        return parse_tiles(value, ev.rules)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [ev.tiles.resolve(v) for v in value]
    raise _Invalid(f"{what} must be tile names as text or a list of strings, not {_show(value)}")


def _hand(ev: Evaluator, value: Any) -> Hand:
    """The hand as CLI notation, or a list of tiles where a nested list is a called unit."""
    if isinstance(value, str):
        return parse_hand(value, ev.rules)
    if not isinstance(value, list):
        raise MjError("hand must be text in the CLI notation or a list of tiles")
    return hand_from_list(value, ev.rules)


class Context:
    """A claim's hand and situation, resolved."""

    def __init__(self, obj: dict[str, Any], default_rules: str):
        rules = obj.get("rules", default_rules)
        if not isinstance(rules, str):
            raise MjError("rules must be the name of a rule set")
        self.ev = ev = evaluator(rules)
        if "hand" not in obj:
            raise MjError("the claim has no hand")
        self.hand = _hand(ev, obj["hand"])
        fav = [obj[k] for k in ("favorite", "favourite") if k in obj]
        if len(fav) == 2 and fav[0] != fav[1]:
            raise MjError("favorite and favourite disagree")
        self.favourite = self._tile(fav[0], "favorite") if fav and fav[0] is not None else None
        seen = obj.get("seen", [])
        if not isinstance(seen, (str, list)) or (isinstance(seen, list) and not all(isinstance(t, str) for t in seen)):
            raise MjError("seen must be tile names as text or a list of strings")
        self.seen = ev.seen(seen)
        check_hand(self.hand, ev.rules, seen=self.seen)
        self.size = self.hand.size(ev.rules)
        self.full = self.size == ev.rules.hand_size
        default_win = "tsumo" if self.full else "none"
        self.win = obj.get("win", default_win)
        if self.win not in ("tsumo", "ron", "none"):
            raise MjError(f"win must be tsumo, ron or none, not {self.win!r}")
        if self.win != "none" and not self.full:
            raise MjError(f"a {self.win} win needs a {ev.rules.hand_size}-tile hand, this one has {self.size}",
                          HAND_SIZE)
        wt = obj.get("winning_tile")
        self.winning_tile = self._tile(wt, "winning_tile") if wt is not None else None
        check_situation(self.hand, ev.rules, Situation(self.win, self.winning_tile, self.favourite))
        self._h: Any = None

    def _tile(self, value: Any, what: str) -> int:
        if not isinstance(value, str):
            raise MjError(f"{what} must be a tile name")
        return self.ev.tiles.resolve(value)

    @property
    def rules(self):
        return self.ev.rules

    @property
    def dm(self):
        return self.ev.distance_model

    def h(self):
        if self._h is None:
            self._h = exchange_distance(self.dm, self.hand, self.seen)
        return self._h

    def score(self, hand: Hand | None = None, win: str | None = None) -> ScoreResult:
        return self.ev.score(hand or self.hand, win or self.win, self.winning_tile, self.favourite, self.seen)

    def held(self, hand: Hand | None = None) -> list[int]:
        return (hand or self.hand).totals(self.rules)

    def seen_of(self, kind: int) -> int:
        return self.seen[kind] if self.seen else 0


# --- explanations ------------------------------------------------------------------------------


def _decomposition_text(ctx: Context, result: ScoreResult) -> str:
    rules = ctx.rules
    parts = [f"{'[called] ' if su.called else ''}{rules.units[su.unit].name} {su.points}" for su in result.units]
    if result.bonus:
        parts.append(f"favourite {result.bonus}")
    return " + ".join(parts) if parts else "no complete unit"


def _h_with(ctx: Context, copies: int, two_missing_only: bool) -> tuple[int | None, Any]:
    """h as an engine would compute it with a copy limit of `copies` and/or only units missing at most two
    members of the hand in its targets (RULES.md section 7). Returns (h, a witness Exchange) or (None, None).

    Solved on a clone of the distance model re-targeted with that copy limit (unit copies included).
    """
    dm, hand, rules = ctx.dm, ctx.hand, ctx.rules
    dm.configure(hand, ctx.seen, copies)
    model = dm.model.clone()
    dm.configure(hand, ctx.seen)  # back to the physical limit for everything after
    if two_missing_only:
        for unit in rules.units:
            if sum(1 for k in unit.members if hand.concealed[k] == 0) > 2:
                model.add(dm.x[unit.index] == 0)
    outcome = cpsat.solve(model)
    if not outcome.feasible:
        return None, None
    kept_called = sum(rules.units[u].size for u in hand.called)
    return rules.hand_size - kept_called - outcome.objective, exchange_for(dm, hand, outcome.value)


def _over_limit(ctx: Context, target) -> list[int]:
    """Kinds a target (plus the called units) holds more than 3 times."""
    counts = Counter(k for u in target for k in ctx.rules.units[u].members)
    counts.update(k for u in ctx.hand.called for k in ctx.rules.units[u].members)
    return sorted(k for k, n in counts.items() if n > COPIES)


def _explain_h(ctx: Context, claimed: int, exact: int | None) -> dict[str, str]:
    if exact is None:
        return _reason("h_value", "no complete hand can be reached (too many tiles seen)")
    tries = [(COPIES + 1, False), (COPIES, True), (COPIES + 1, True)] if claimed != exact else []
    for copies, two in tries:
        h, witness = _h_with(ctx, copies, two)
        if h != claimed:
            continue
        fourth = _over_limit(ctx, witness.target) if copies > COPIES else []
        if two and not fourth:
            return _reason("h_two_missing", f"considers only units missing at most two members: with that "
                                            f"restriction h is {claimed}, but it is {exact}")
        extra = " (and only units missing at most two members)" if two else ""
        names = ", ".join(ctx.ev.tiles.name(k) for k in fourth)
        move = f" ({_names(ctx.ev, witness.out)} → {_names(ctx.ev, witness.into)})" if witness.out else ""
        return _reason("h_copy_limit", f"ignores the 3-copy limit{extra}: h would be {claimed} with a 4th "
                                       f"{names}{move}, but it is {exact}")
    ex = ctx.h().exchange
    witness = f" (e.g. {_names(ctx.ev, ex.out)} → {_names(ctx.ev, ex.into)})" if ex and ex.out else ""
    return _reason("h_value", f"h is {exact}, not {claimed}{witness}")


def _score_past_limit(ctx: Context, hand: Hand) -> int | None:
    """Tsumo score of a hand holding a 4th copy if the 3-copy limit is ignored (None: it does not split)."""
    result = best_score(hand, ctx.rules, Situation("tsumo", favourite=ctx.favourite), copies=COPIES + 1)
    return result.total if result.won else None


def _fourth_copy_text(ctx: Context, kind: int, claimed_score: int | None) -> str:
    name = ctx.ev.tiles.name(kind)
    text = f"needs a 4th {name}"
    past = _score_past_limit(ctx, ctx.hand.add(kind))
    if past is not None:
        match = " = the claimed score" if claimed_score == past else ""
        text += f" (only 3 exist; with a 4th the hand would split, scoring {past} by tsumo{match})"
    return text


# --- the claim fields ------------------------------------------------------------------------------


def _field(verdict_reasons: list[dict[str, str]], **extra: Any) -> dict[str, Any]:
    return {"verdict": "wrong" if verdict_reasons else "correct", **extra,
            **({"reasons": verdict_reasons} if verdict_reasons else {})}


def _int(value: Any, what: str, none_ok: bool = False) -> int | None:
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(f"{what} must be an integer{' or null' if none_ok else ''}, not {_show(value)}")
    return value


def check_complete(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, bool):
        raise _Invalid("complete must be true or false")
    result = ctx.score(win="tsumo") if ctx.full else None
    exact = bool(result and result.complete)
    reasons = []
    if claimed and not exact:
        why = result.reason if result else f"a complete hand holds {ctx.rules.hand_size} tiles, this one {ctx.size}"
        reasons.append(_reason("not_complete", f"the hand is not complete: {why}"))
    elif exact and not claimed:
        reasons.append(_reason("is_complete", f"the hand is complete: {_decomposition_text(ctx, result)}"))
    return _field(reasons, claimed=claimed, exact=exact)


def check_h(ctx: Context, claimed: Any) -> dict[str, Any]:
    claimed = _int(claimed, "h", none_ok=True)
    exact = ctx.h().h
    reasons = [] if claimed == exact else [_explain_h(ctx, claimed, exact) if claimed is not None
                                           else _reason("h_value", f"h is {exact}: a complete hand is reachable")]
    return _field(reasons, claimed=claimed, exact=exact)


def check_score(ctx: Context, claimed: Any) -> dict[str, Any]:
    claimed = _int(claimed, "score", none_ok=True)
    result = ctx.score()
    reasons = []
    if claimed != result.total:
        if result.total is None:
            reasons.append(_reason("not_a_win", f"the hand did not win ({ctx.win}): {result.reason}"))
        else:
            reasons.append(_reason("score_value", f"claimed {claimed}, exact {result.total}: "
                                                  f"{_decomposition_text(ctx, result)}"))
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
            close = difflib.get_close_matches(normalise(item), list(_unit_lookup(ev)), n=1, cutoff=0.6)
            hint = f"; did you mean {_unit_lookup(ev)[close[0]].name}?" if close else ""
            raise _Invalid(f"unknown unit '{item}'{hint}") from None
    elif isinstance(item, list):
        kinds = _kinds(ev, item, "a unit's members")
    else:
        raise _Invalid(f"a unit is a name or a list of members, not {_show(item)}")
    unit = ev.rules.by_members.get(frozenset(kinds))
    if unit is None or len(set(kinds)) != len(kinds):
        return None, f"[{_names(ev, kinds)}] is not a unit under {ev.rules.name}"
    return unit, unit.name


def check_units(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, list):
        raise _Invalid("units must be a list of units")
    rules, ev = ctx.rules, ctx.ev
    won = ctx.win != "none"
    reasons, defs = [], []
    for item in claimed:
        unit, why = _claimed_unit(ctx, item)
        if unit is None:
            reasons.append(_reason("not_a_unit", why))
        else:
            defs.append(unit)
    concealed = list(defs)
    for u in ctx.hand.called:  # called units are part of every decomposition, as they are
        match = next((d for d in concealed if d.index == u), None)
        if match is None:
            reasons.append(_reason("called_left_out", f"leaves out the called unit {rules.units[u].name}"))
        else:
            concealed.remove(match)
    need = Counter(k for d in concealed for k in d.members)
    have = Counter({k: n for k, n in enumerate(ctx.hand.concealed) if n})
    sora = rules.tiles.sora
    soras = have.pop(sora, 0) if (sora is not None and rules.sora_mode == "wildcard") else 0
    short = need - have
    if sum(short.values()) > soras:
        text = ", ".join(f"{n + have[k]} {ev.tiles.name(k)}" for k, n in sorted(short.items()))
        reasons.append(_reason("tiles_mismatch", f"the units use {text} but the hand holds fewer"))
    left = have - need
    if soras:
        left[sora] = soras - sum(short.values())
    left = +left
    if won and left and not reasons:
        reasons.append(_reason("tiles_mismatch", f"{_names(ev, sorted(left.elements()))} left out of every unit "
                                                 f"(a {ctx.win} win uses every tile)"))
    detail: dict[str, Any] = {}
    try:
        result = ctx.score()
    except MjError as exc:  # e.g. 2019-10 defines no score for a hand that did not win
        detail["note"] = f"only validity checked: {exc}"
        return _field(reasons, **detail)
    if result.total is None:
        if not reasons:
            reasons.append(_reason("not_a_win", f"the hand did not win ({ctx.win}): {result.reason}"))
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
        reasons.append(_reason("not_highest", f"decomposition valid but not the highest: it scores {total}, the best "
                                              f"{result.total} ({_decomposition_text(ctx, result)})"))
    return _field(reasons, **detail)


def _exchange_item(ctx: Context, item: Any) -> tuple[list[int], list[int]]:
    if not isinstance(item, dict) or set(item) - {"out", "in"} or not {"out", "in"} <= set(item):
        raise _Invalid(f"an exchange is {{\"out\": tiles, \"in\": tiles}}, not {_show(item)}")
    return sorted(_kinds(ctx.ev, item["out"], "out")), sorted(_kinds(ctx.ev, item["in"], "in"))


def check_exchanges(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, list):
        raise _Invalid("exchanges must be a list of {\"out\": tiles, \"in\": tiles}")
    ev, hand, rules = ctx.ev, ctx.hand, ctx.rules
    items = [_exchange_item(ctx, item) for item in claimed]
    h = ctx.h().h
    reasons, optimal, listed = [], [], set()
    for out, into in items:
        label = f"{_names(ev, out)} → {_names(ev, into)}"
        key = (tuple(out), tuple(into))
        if key in listed:
            reasons.append(_reason("duplicate", f"lists {label} twice"))
            continue
        listed.add(key)
        lacking = Counter(out) - Counter({k: n for k, n in enumerate(hand.concealed) if n})
        if lacking:
            reasons.append(_reason("exchange_not_held", f"{label}: takes out {_names(ev, sorted(lacking.elements()))}"
                                                        " that the hand does not hold"))
            continue
        if len(out) != len(into):
            reasons.append(_reason("exchange_sizes", f"{label}: takes out {len(out)} tile(s) and brings in "
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
            reasons.append(_reason("exchange_copies", f"{label}: {why}"))
            continue
        result = ctx.score(after, "tsumo")
        if not result.complete:
            reasons.append(_reason("exchange_incomplete", f"{label}: does not reach a complete hand ({result.reason})"))
            continue
        if h is not None and len(out) > h:
            reasons.append(_reason("exchange_not_optimal", f"{label}: exchanges {len(out)} tiles, h is {h}"))
            continue
        optimal.append((out, into))
    _, others, all_listed = distinct_exchanges(ctx.dm, hand, ctx.seen, MISSING_LISTED, exclude=optimal)
    missing = [(list(e.out), list(e.into)) for e in others]
    if missing:
        shown = "; ".join(f"{_names(ev, o)} → {_names(ev, i)}" for o, i in missing[:5])
        more = "" if len(missing) <= 5 else f"; … ({len(missing) - 5} more listed in exact)"
        count = f"{len(missing)}" if all_listed else f"more than {len(missing)}"
        reasons.append(_reason("misses_exchange", f"misses {count} optimal exchange(s): {shown}{more}"))
    exact = {"h": h, "missing": [{"out": tile_ids(o, rules), "in": tile_ids(i, rules)} for o, i in missing],
             "all_missing_listed": all_listed}
    return _field(reasons, exact=exact)


def _wait_items(ctx: Context, claimed: Any) -> list[dict[str, Any]]:
    if not isinstance(claimed, list):
        raise _Invalid("waits must be a list of tiles or of {\"tile\", \"score\"} objects")
    items = []
    for item in claimed:
        if isinstance(item, str):
            item = {"tile": item}
        if not isinstance(item, dict) or "tile" not in item:
            raise _Invalid(f"a wait is a tile name or an object with \"tile\", not {_show(item)}")
        extra = set(item) - {"tile", "score", "tsumo", "ron", "live"}
        if extra:
            raise _Invalid(f"unknown key(s) {', '.join(sorted(extra))} in wait {_show(item)}")
        if "score" in item and "tsumo" in item:
            raise _Invalid("a wait gives score or tsumo (the same thing), not both")
        if not isinstance(item["tile"], str):
            raise _Invalid("a wait's tile must be a tile name")
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
        raise _Invalid(f"waits are claimed for a {rules.hand_size - 1}-tile hand, this one has {ctx.size}")
    exact = {w.tile: w for w in waits(ctx.dm, ctx.hand, ctx.seen, ctx.favourite)}
    held = ctx.held()
    reasons, named = [], set()
    for item in items:
        kind, name = item["kind"], ev.tiles.name(item["kind"])
        if kind in named:
            reasons.append(_reason("duplicate", f"lists wait {name} twice"))
            continue
        named.add(kind)
        wait = exact.get(kind)
        if wait is None:
            if held[kind] >= COPIES:
                reasons.append(_reason("fourth_copy", _fourth_copy_text(ctx, kind, item["tsumo"])))
            elif not exact and ctx.h().h != 1:
                reasons.append(_reason("not_tenpai", f"{name} does not complete the hand: it is not one tile from "
                                                     f"winning (h = {ctx.h().h})"))
            else:
                reasons.append(_reason("not_a_wait", f"{name} does not complete the hand"))
            continue
        if item["has_tsumo"] and item["tsumo"] != wait.tsumo:
            reasons.append(_reason("wait_score", f"score of wait {name}: claimed {item['tsumo']}, exact {wait.tsumo}"))
        if item["has_ron"] and item["ron"] != wait.ron:
            exact_ron = wait.ron if wait.ron is not None else f"none (a ron on {name} is not a win)"
            reasons.append(_reason("wait_ron", f"ron score of wait {name}: claimed {item['ron']}, exact {exact_ron}"))
        if item["has_live"] and item["live"] != wait.live:
            reasons.append(_reason("wait_live", f"live copies of wait {name}: claimed {item['live']}, "
                                                f"exact {wait.live}"))
    for kind, wait in exact.items():
        if kind not in named:
            reasons.append(_reason("misses_wait", f"misses wait {ev.tiles.name(kind)}"))
    listed = [{"tile": rules.tiles.ids[w.tile], "tsumo": w.tsumo, "ron": w.ron, "live": w.live}
              for w in exact.values()]
    return _field(reasons, exact=listed)


def check_discard(ctx: Context, claimed: Any) -> dict[str, Any]:
    if not isinstance(claimed, dict) or "tile" not in claimed:
        raise _Invalid("discard must be an object {\"tile\": X, \"accept\": [...]} (h optional)")
    extra = set(claimed) - {"tile", "accept", "h"}
    if extra:
        raise _Invalid(f"unknown key(s) {', '.join(sorted(extra))} in discard")
    ev, rules, hand = ctx.ev, ctx.rules, ctx.hand
    if not ctx.full:
        raise _Invalid(f"a discard is claimed for a {rules.hand_size}-tile hand, this one has {ctx.size}")
    if not isinstance(claimed["tile"], str):
        raise _Invalid("the discard's tile must be a tile name")
    tile = ev.tiles.resolve(claimed["tile"])
    if hand.concealed[tile] == 0:
        raise _Invalid(f"the discard {ev.tiles.name(tile)} is not among the concealed tiles")
    if not isinstance(claimed.get("accept", []), list):
        raise _Invalid("the discard's accept must be a list of tiles or of {\"tile\", \"live\"} objects")
    accept_items = []
    for item in claimed.get("accept", []):
        if isinstance(item, str):
            item = {"tile": item}
        if not isinstance(item, dict) or "tile" not in item or set(item) - {"tile", "live"} \
                or not isinstance(item["tile"], str):
            raise _Invalid(f"an accepted tile is a name or {{\"tile\", \"live\"}}, not "
                           f"{_show(item)}")
        accept_items.append((ev.tiles.resolve(item["tile"]), _int(item.get("live"), "live", none_ok=True),
                             "live" in item))
    claimed_h = _int(claimed.get("h"), "the discard's h", none_ok=True) if "h" in claimed else None

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
        reasons.append(_reason("discard_not_best", f"discarding {name} leaves h = {h_after}; discarding "
                                                   f"{ev.tiles.name(best_tile)} leaves h = {best_h}"))
    if "h" in claimed and claimed_h != h_after:
        reasons.append(_reason("discard_h", f"h after discarding {name}: claimed {claimed_h}, exact {h_after}"))
    exact_live = {a.tile: a.live for a in accept}
    if "accept" in claimed:
        held, named = ctx.held(rest), set()
        for kind, live, has_live in accept_items:
            t = ev.tiles.name(kind)
            if kind in named:
                reasons.append(_reason("duplicate", f"lists accepted tile {t} twice"))
                continue
            named.add(kind)
            if kind not in exact_live:
                if held[kind] >= COPIES:
                    reasons.append(_reason("fourth_copy", f"accepting {t} needs a 4th {t}"))
                elif held[kind] + seen_after[kind] >= COPIES:
                    reasons.append(_reason("accept_none_left", f"no {t} is left to draw ({held[kind]} held, "
                                                               f"{seen_after[kind]} seen)"))
                else:
                    reasons.append(_reason("accept_not_lowering", f"drawing {t} does not lower h after discarding "
                                                                  f"{name}"))
            elif has_live and live != exact_live[kind]:
                reasons.append(_reason("accept_live", f"live copies of {t}: claimed {live}, exact {exact_live[kind]}"))
        missed = [kind for kind in exact_live if kind not in named]
        if missed:
            reasons.append(_reason("misses_accept", f"misses {len(missed)} accepted tile(s): {_names(ev, missed)}"))
    exact = {"tile": rules.tiles.ids[tile], "h": h_after, "best_h": best_h,
             "accept": [{"tile": rules.tiles.ids[a.tile], "live": a.live} for a in accept]}
    return _field(reasons, exact=exact)


CHECKS = {"complete": check_complete, "h": check_h, "score": check_score, "units": check_units,
          "exchanges": check_exchanges, "waits": check_waits, "discard": check_discard}


# --- one claim ---------------------------------------------------------------------------------


def _invalid(line_no: int, claim_id: Any, code: str, text: str) -> dict[str, Any]:
    return {"line": line_no, "id": claim_id if claim_id is not None else line_no, "verdict": "invalid",
            "error": _reason(code, text)}


def check_claim(claim: dict[str, Any] | str | bytes, line_no: int = 0,
                default_rules: str = DEFAULT_RULES) -> dict[str, Any]:
    """Check one claim (a dict, or its JSON line). Never raises for bad input: the verdict says invalid."""
    if isinstance(claim, bytes):
        try:
            claim = claim.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _invalid(line_no, None, "bad_encoding",
                            f"line {line_no}: not UTF-8 ({exc.reason} at byte {exc.start})")
    if isinstance(claim, str):
        try:
            claim = json.loads(claim.lstrip("\ufeff"))
        except json.JSONDecodeError as exc:
            return _invalid(line_no, None, "bad_json", f"line {line_no}: bad JSON: {exc}")
    if not isinstance(claim, dict):
        return _invalid(line_no, None, "not_an_object", f"line {line_no}: a claim is a JSON object, "
                                                        f"not {type(claim).__name__}")
    claim_id = claim.get("id")
    result: dict[str, Any] = {"line": line_no, "id": claim_id if claim_id is not None else line_no,
                              "rules": claim.get("rules", default_rules), "verdict": None}
    try:
        return _check(claim, result, default_rules)
    except Exception as exc:  # a bug or an unproven solve must not stop a batch; it is reported
        code = "bad_context" if isinstance(exc, MjError) else "internal_error"
        return {**result, "verdict": "invalid", "error": _reason(code, f"{type(exc).__name__}: {exc}")}


def _check(claim: dict[str, Any], result: dict[str, Any], default_rules: str) -> dict[str, Any]:
    unknown = [k for k in claim if k not in KNOWN_FIELDS]
    asked = [k for k in CLAIM_FIELDS if k in claim]
    try:
        ctx = Context(claim, default_rules)
    except MjError as exc:
        return {**result, "verdict": "invalid", "error": _reason("bad_context", str(exc), exc)}
    fields: dict[str, Any] = {}
    for name in asked:
        try:
            fields[name] = CHECKS[name](ctx, claim[name])
        except _Invalid as exc:
            fields[name] = {"verdict": "invalid", "reasons": [_reason("bad_value", str(exc))]}
        except MjError as exc:
            fields[name] = {"verdict": "invalid", "reasons": [_reason("bad_value", str(exc), exc)]}
    result["fields"] = fields
    problems = []
    for key in unknown:
        close = difflib.get_close_matches(key, KNOWN_FIELDS, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        problems.append(_reason("unknown_field", f"unknown field '{key}'{hint}"))
    if not asked:
        problems.append(_reason("no_claim", f"nothing to check: give one of {', '.join(CLAIM_FIELDS)}"))
    if problems:
        result["problems"] = problems
    verdicts = {f["verdict"] for f in fields.values()}
    result["verdict"] = "invalid" if problems or "invalid" in verdicts else "wrong" if "wrong" in verdicts \
        else "correct"
    return result


