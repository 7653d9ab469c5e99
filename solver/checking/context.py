"""A claim's vocabulary (fields, verdicts, reason codes) and its hand and situation, resolved.

Also the explanations the field checks share: h as an engine with a shortcut would compute it, and
what a fourth copy would score. The field checks are in fields.py; one whole claim in check.py.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from solver.api import Evaluator, shared_evaluator as evaluator  # (evaluator: one per rule set and process)
from solver.core.search.fast import exchange_distance, search_for
from solver.core.errors import HAND_SIZE, MjError, shown
from solver.core.hand import COPIES, Hand, Situation, check_hand, check_situation
from solver.core.notation import hand_from_list, parse_hand, parse_tiles
from solver.core.results import ScoreResult
from solver.core.rules import RuleSet
from solver.core.score import best_score
from solver.core.search.shortcut import shortcut_distance

CLAIM_FIELDS = ("complete", "h", "score", "units", "exchanges", "waits", "discard")
CONTEXT_FIELDS = ("id", "engine", "rules", "hand", "favorite", "favourite", "win", "winning_tile", "seen", "note")
# Written by `mj generate` beside the claims (docs/generation.md); read by nobody here, never judged.
INFO_FIELDS = ("kind", "difficulty", "shortcut")
KNOWN_FIELDS = CONTEXT_FIELDS + INFO_FIELDS + CLAIM_FIELDS
VERDICTS = ("correct", "wrong", "invalid", "error")  # error: the checker failed on the claim
MISSING_LISTED = 20  # exchanges: how many missing optimal exchanges are listed at most

# Reason codes (stable, for the summary and for scripts) and their labels in the summary table.
LABELS = {
    # claim-level problems (field "claim"): the verdict is invalid
    "bad_json": "not valid JSON",
    "not_an_object": "not a JSON object",
    "bad_encoding": "not UTF-8",
    "too_long": "line, number or hand over the size limit",
    "too_deep": "nested too deeply",
    "unknown_field": "unknown field",
    "bad_context": "bad hand, rules or situation",
    "no_claim": "nothing claimed",
    "internal_error": "internal error",
    "worker_lost": "worker died on it twice",
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


class InvalidValue(Exception):
    """A claim value that cannot be read: the field's verdict is invalid."""


# --- the rule set ---------------------------------------------------------------------------------


def validate_rules(rules: str, catalogue: tuple[str, ...] = ()) -> RuleSet:
    """The rule set (built in, or of the `catalogue` files), or MjError (unknown rule set) or CatalogueError before
    a run starts, without building any model."""
    from solver.api import open_catalogue
    from solver.core.rules import build_rules

    return build_rules(open_catalogue(catalogue), rules)


# --- reading a claim -------------------------------------------------------------------------------


def make_reason(code: str, text: str, error: MjError | None = None) -> dict[str, str]:
    """A reason: a stable code, a short text, and for bad input the solver's own error code."""
    return {"code": code, "text": text, **({"error_code": error.code} if error is not None else {})}


def as_json(value: Any) -> str:
    """A claimed value repeated in a message: JSON, escaped and shortened."""
    return shown(json.dumps(value, ensure_ascii=False))  # claims are bounded in size by intake.py


def tile_names(ev: Evaluator, kinds: Iterable[int]) -> str:
    return " ".join(ev.tiles.name(k) for k in kinds)


def claimed_kinds(ev: Evaluator, value: Any, what: str) -> list[int]:
    """Tiles given as notation text ("春香 千早") or as a list of names or ids."""
    if isinstance(value, str):
        return parse_tiles(value, ev.rules)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [ev.tiles.resolve(v) for v in value]
    raise InvalidValue(f"{what} must be tile names as text or a list of strings, not {as_json(value)}")


def _hand(ev: Evaluator, value: Any) -> Hand:
    """The hand as CLI notation, or a list of tiles where a nested list is a called unit."""
    if isinstance(value, str):
        return parse_hand(value, ev.rules)
    if not isinstance(value, list):
        raise MjError("hand must be text in the CLI notation or a list of tiles")
    return hand_from_list(value, ev.rules)


class Context:
    """A claim's hand and situation, resolved."""

    def __init__(self, obj: dict[str, Any], default_rules: str, catalogue: tuple[str, ...] = ()):
        rules = obj.get("rules", default_rules)
        if not isinstance(rules, str):
            raise MjError("rules must be the name of a rule set")
        self.ev = ev = evaluator(rules, catalogue)
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
            raise MjError(f"win must be tsumo, ron or none, not {shown(self.win)}")
        if self.win != "none" and not self.full:
            raise MjError(f"a {self.win} win needs a {ev.rules.hand_size}-tile hand, this one has {self.size}",
                          HAND_SIZE)
        wt = obj.get("winning_tile")
        self.winning_tile = self._tile(wt, "winning_tile") if wt is not None else None
        check_situation(self.hand, ev.rules, Situation(self.win, self.winning_tile, self.favourite))
        self._h: Any = None
        self.shortcuts: dict[tuple[int, bool], Any] = {}  # (copy limit, two-missing only) -> DistanceResult

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
            self._h = exchange_distance(self.rules, self.hand, self.seen)  # the search: no solver
        return self._h

    def score(self, hand: Hand | None = None, win: str | None = None) -> ScoreResult:
        return self.ev.score(hand or self.hand, win or self.win, self.winning_tile, self.favourite, self.seen)

    def held(self, hand: Hand | None = None) -> list[int]:
        return (hand or self.hand).totals(self.rules)

    def seen_of(self, kind: int) -> int:
        return self.seen[kind] if self.seen else 0


# --- explanations ------------------------------------------------------------------------------


def decomposition_text(ctx: Context, result: ScoreResult) -> str:
    rules = ctx.rules
    parts = [f"{'[called] ' if su.called else ''}{rules.units[su.unit].name} {su.points}" for su in result.units]
    if result.bonus:
        parts.append(f"favourite {result.bonus}")
    return " + ".join(parts) if parts else "no complete unit"


def _h_with(ctx: Context, copies: int, two_missing_only: bool) -> tuple[int | None, Any]:
    """h as an engine would compute it with a copy limit of `copies` and/or only units missing at most two
    members of the hand in its targets (docs/rules.md section 7), by the exact search (no solve). Returns (h, a witness
    Exchange) or (None, None)."""
    known = ctx.shortcuts.get((copies, False)) or (ctx.h() if copies == COPIES else None)
    result = shortcut_distance(ctx.rules, ctx.hand, ctx.seen, copies, two_missing_only, unrestricted=known)
    ctx.shortcuts[(copies, two_missing_only)] = result
    return result.h, result.exchange


def _over_limit(ctx: Context, target) -> list[int]:
    """Kinds a target (plus the called units) holds more than 3 times, counting the copies seen elsewhere."""
    counts = Counter(k for u in target for k in ctx.rules.units[u].members)
    counts.update(k for u in ctx.hand.called for k in ctx.rules.units[u].members)
    return sorted(k for k, n in counts.items() if n + ctx.seen_of(k) > COPIES)


def _shortcuts_that_may_give(ctx: Context, claimed: int, exact: int) -> list[tuple[int, bool]]:
    """The shortcuts (copy limit, units missing at most two only) to try, in order, leaving out those that
    provably cannot give `claimed`: a 4th copy only lowers h and the two-missing restriction only raises
    it, so h(4) <= exact <= h(3, two) and h(4) <= h(4, two). h(4) itself comes from the search.

    Along each list h moves away from the claim (h(3, two) >= h(4, two); h(4) <= h(4, two)), so explain_h
    stops at the first shortcut that overshoots it."""
    if claimed == exact:
        return []
    if claimed > exact:  # h(4) <= exact < claimed
        return [(COPIES, True), (COPIES + 1, True)]
    h4 = search_for(ctx.rules).h(ctx.hand, ctx.seen, COPIES + 1)  # claimed < exact <= h(3, two)
    return [] if h4 is None or claimed < h4 else [(COPIES + 1, False), (COPIES + 1, True)]


def explain_h(ctx: Context, claimed: int, exact: int | None) -> dict[str, str]:
    if exact is None:
        return make_reason("h_value", "no complete hand can be reached (too many tiles seen)")
    for copies, two in _shortcuts_that_may_give(ctx, claimed, exact):
        h, witness = _h_with(ctx, copies, two)
        if h is not None and (h < claimed if claimed > exact else h > claimed):
            break  # the shortcuts after this one give h further from the claim still
        if h != claimed:
            continue
        fourth = _over_limit(ctx, witness.target) if copies > COPIES else []
        if two and not fourth:
            return make_reason("h_two_missing", f"considers only units missing at most two members: with that "
                                            f"restriction h is {claimed}, but it is {exact}")
        extra = " (and only units missing at most two members)" if two else ""
        names = ", ".join(ctx.ev.tiles.name(k) for k in fourth)
        move = f" ({tile_names(ctx.ev, witness.out)} → {tile_names(ctx.ev, witness.into)})" if witness.out else ""
        return make_reason("h_copy_limit", f"ignores the 3-copy limit{extra}: h would be {claimed} with a 4th "
                                       f"{names}{move}, but it is {exact}")
    ex = ctx.h().exchange
    witness = f" (e.g. {tile_names(ctx.ev, ex.out)} → {tile_names(ctx.ev, ex.into)})" if ex and ex.out else ""
    return make_reason("h_value", f"h is {exact}, not {claimed}{witness}")


def _score_past_limit(ctx: Context, hand: Hand) -> int | None:
    """Tsumo score of a hand holding a 4th copy if the 3-copy limit is ignored (None: it does not split)."""
    result = best_score(hand, ctx.rules, Situation("tsumo", favourite=ctx.favourite), copies=COPIES + 1)
    return result.total if result.won else None


def fourth_copy_text(ctx: Context, kind: int, claimed_score: int | None) -> str:
    name = ctx.ev.tiles.name(kind)
    text = f"needs a 4th {name}"
    past = _score_past_limit(ctx, ctx.hand.add(kind))
    if past is not None:
        match = " = the claimed score" if claimed_score == past else ""
        text += f" (only 3 exist; with a 4th the hand would split, scoring {past} by tsumo{match})"
    return text
