"""Difficulty: measurable features of a position, named levels as bounds on them, and their parser.

A `--difficulty` value is a level name (`easy`, `medium`, `hard`, `any`) or bounds on features,
comma-separated: `waits>=3,depth>=1`, `h=2`, `margin<=2`. Levels per kind are in LEVELS and in
docs/generation.md.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from solver.core.errors import MjError
from solver.core.rules import RuleSet

BAD_DIFFICULTY = "ERR_BAD_DIFFICULTY"

# Features each kind records (and may be bounded on).
FEATURES = {
    "waits": ("waits", "hidden", "depth", "dead", "decoys"),
    "exchanges": ("h", "exchanges", "in_kinds", "out_kinds"),
    "discard": ("h", "discards", "accept", "margin"),
    "traps": ("h", "waits", "depth"),
}

# Levels: feature -> (least, most); None leaves that side open.
LEVELS: dict[str, dict[str, dict[str, tuple[int | None, int | None]]]] = {
    "waits": {"easy": {"waits": (None, 2), "depth": (0, 0)},
              "medium": {"waits": (3, None), "depth": (0, 1)},
              "hard": {"waits": (3, None), "depth": (1, None), "hidden": (2, None)}},
    "exchanges": {"easy": {"h": (1, 1), "exchanges": (None, 4)},
                  "medium": {"h": (1, 1), "exchanges": (5, None)},
                  "hard": {"h": (2, 2)}},
    "discard": {"easy": {"h": (1, 1), "margin": (4, None)},
                "medium": {"h": (1, 1), "margin": (1, 3)},
                "hard": {"h": (2, 2), "margin": (1, 3)}},
    "traps": {"easy": {}, "medium": {}, "hard": {"depth": (1, None)}},
}

_BOUND = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|=)\s*([0-9]+)\s*$", re.ASCII)
DIGITS = 9  # a bound of more digits passes every feature's maximum (and int()'s limits stay far)
REPLACED_MOST = 3  # exchanges and discard positions: a complete hand with 1 to 3 tiles replaced (kinds.perturbed)


@dataclass(frozen=True)
class Difficulty:
    """Bounds on features; `label` is what the user asked for."""

    label: str
    bounds: tuple[tuple[str, int | None, int | None], ...] = ()

    def admits(self, features: dict[str, int]) -> bool:
        for name, least, most in self.bounds:
            value = features.get(name)
            if value is None:
                continue  # a feature this position does not have (e.g. waits of an h trap)
            if (least is not None and value < least) or (most is not None and value > most):
                return False
        return True

    def wants(self, name: str, default: tuple[int | None, int | None] = (None, None)) -> tuple[int | None, int | None]:
        """The bounds asked for one feature (to steer construction, e.g. the number of replaced tiles)."""
        for bound, least, most in self.bounds:
            if bound == name:
                return least, most
        return default


def parse_difficulty(kind: str, text: str | None) -> Difficulty:
    if text is not None and not text.strip():  # (an empty --difficulty is a slip, not "any")
        raise MjError(f"--difficulty is empty: give {', '.join(['any', *LEVELS[kind]])} or bounds like 'waits>=3'")
    text = (text or "any").strip()
    levels = LEVELS[kind]
    if text == "any":
        return Difficulty("any")
    if text in levels:
        return Difficulty(text, tuple((f, lo, hi) for f, (lo, hi) in sorted(levels[text].items())))
    bounds: dict[str, list[int | None]] = {}
    for part in text.split(","):
        match = _BOUND.match(part)
        if not match:
            raise MjError(f"bad difficulty '{text}': give {', '.join(['any', *levels])} or bounds like "
                          f"'{FEATURES[kind][0]}>=2' on {', '.join(FEATURES[kind])}", BAD_DIFFICULTY)
        name, op, digits = match.group(1), match.group(2), match.group(3).lstrip("0") or "0"
        if len(digits) > DIGITS:
            shown_digits = digits if len(digits) <= 12 else digits[:12] + "…"
            raise MjError(f"impossible difficulty '{text[:60]}': {name} {op} {shown_digits}: more than any feature "
                          "can count (see docs/generation.md)", BAD_DIFFICULTY)
        value = int(digits)
        if name not in FEATURES[kind]:
            raise MjError(f"bad difficulty '{text}': {kind} has features {', '.join(FEATURES[kind])}, not '{name}'",
                          BAD_DIFFICULTY)
        least, most = bounds.setdefault(name, [None, None])
        if op in (">=", "="):
            bounds[name][0] = value if least is None else max(least, value)
        if op in ("<=", "="):
            bounds[name][1] = value if most is None else min(most, value)
    return Difficulty(text, tuple((f, lo, hi) for f, (lo, hi) in sorted(bounds.items())))


def proved_most(kind: str, rules: RuleSet) -> dict[str, int]:
    """The largest value each feature can take in a position of `kind`, each for a reason that holds for every
    hand (features not here have no such bound). K kinds of tile, N tiles in a hand, units of s members at least:
    waits, hidden, dead, decoys, in_kinds, out_kinds: kinds of tile, at most K; hidden and dead count waits;
    depth: units of the construction broken, at most the units in a hand, N // s;
    discards: kinds held, at most N; accept and margin: live copies, at most 3 K;
    h: replacing the (at most 3) replaced tiles back completes the hand, so h <= 3 for exchanges and discard;
    for traps, h <= N (a target differs from the hand in at most its N slots)."""
    kinds, size = len(rules.tiles), rules.hand_size
    smallest = min((u.size for u in rules.units), default=1)
    most = {"waits": kinds, "hidden": kinds, "dead": kinds, "decoys": kinds, "in_kinds": kinds, "out_kinds": kinds,
            "depth": size // max(1, smallest), "discards": size, "accept": 3 * kinds, "margin": 3 * kinds,
            "h": REPLACED_MOST if kind in ("exchanges", "discard") else size}
    return {name: value for name, value in most.items() if name in FEATURES[kind]}


# The least value a feature takes in every position of a kind, and why (QA: 'margin<=0' tried 1000 hands first).
PROVED_LEAST = {
    "waits": {"waits": (1, "a waits position has a wait")},
    "exchanges": {"h": (1, "a complete hand has nothing to exchange"), "exchanges": (1, "h >= 1 has an exchange")},
    "discard": {"h": (1, "a complete hand has nothing to discard"),
                "margin": (1, "the best discard beats the runner-up by a live tile"),
                "accept": (1, "the best discard's margin is a live tile")},
}


def check_possible(kind: str, level: Difficulty, rules: RuleSet) -> None:
    """Refuse at once a difficulty no position can meet: bounds that contradict each other, pass a proved
    maximum (proved_most) or fall below a proved minimum (PROVED_LEAST), rather than trying forever."""
    most, least_of = proved_most(kind, rules), PROVED_LEAST.get(kind, {})
    for name, least, top in level.bounds:
        if least is not None and top is not None and least > top:
            raise MjError(f"impossible difficulty '{level.label}': {name} >= {least} and {name} <= {top} "
                          "contradict each other", BAD_DIFFICULTY)
        if top is not None and name in least_of and top < least_of[name][0]:
            floor, why = least_of[name]
            raise MjError(f"impossible difficulty '{level.label}': {name} >= {floor} in {kind} positions ({why})",
                          BAD_DIFFICULTY)
        if least is not None and name in most and least > most[name]:
            raise MjError(f"impossible difficulty '{level.label}': {name} is at most {most[name]} in {kind} "
                          f"positions under {rules.name} (docs/generation.md), not {least}", BAD_DIFFICULTY)


# --- how deep a wait hides ------------------------------------------------------------------------


def exact_covers(rules: RuleSet, counts: Counter, limit: int = 5000) -> Iterator[tuple[int, ...]]:
    """Every multiset of units that uses each tile of `counts` exactly once (at most `limit` of them).

    Canonical order: a unit is placed while its lowest member is the lowest kind left, so each
    multiset comes out once.
    """
    left = Counter(+counts)
    fits = [u for u in rules.units if all(left[k] for k in u.members)]
    by_lowest: dict[int, list] = {}
    for unit in fits:
        by_lowest.setdefault(unit.members[0], []).append(unit)
    chosen: list[int] = []
    produced = 0

    def cover() -> Iterator[tuple[int, ...]]:
        nonlocal produced
        kind = min((k for k, n in left.items() if n), default=None)
        if kind is None:
            produced += 1
            yield tuple(sorted(chosen))
            return
        for unit in by_lowest.get(kind, []):
            if (chosen and rules.units[chosen[-1]].members[0] == kind and unit.index < chosen[-1]) \
                    or produced >= limit:
                continue
            if all(left[k] for k in unit.members):
                for k in unit.members:
                    left[k] -= 1
                chosen.append(unit.index)
                yield from cover()
                chosen.pop()
                for k in unit.members:
                    left[k] += 1

    yield from cover()


def wait_depth(rules: RuleSet, counts: Counter, kept: tuple[int, ...]) -> int | None:
    """The fewest units of the construction (`kept`: the units left whole when a tile was removed) that a
    decomposition of the completed tiles `counts` must break up: 0 for the wait the construction shows."""
    best = None
    kept_counts = Counter(kept)
    for cover in exact_covers(rules, counts):
        broken = sum((kept_counts - Counter(cover)).values())
        best = broken if best is None else min(best, broken)
        if best == 0:
            break
    return best
