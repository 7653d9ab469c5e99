"""The generation loop: one kind, a count, a seed; positions come out as they are proven."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Callable

from solver.api import Evaluator
from solver.core.errors import MjError
from solver.generation.difficulty import Difficulty, parse_difficulty
from solver.generation.kinds import build_discard, build_exchanges, build_waits
from solver.generation.traps import TRAPS, labels

BAD_KIND = "ERR_BAD_KIND"
TOO_FEW = "ERR_TOO_FEW"
ATTEMPTS_PER_POSITION = 300  # attempts are cheap; a level that is this rare is reported, not looped on

Builder = Callable[[random.Random, Evaluator, Difficulty], "dict[str, Any] | None"]
KINDS: dict[str, Builder | None] = {"discard": build_discard, "exchanges": build_exchanges, "traps": None,
                                    "waits": build_waits}


def generate(kind: str, count: int, seed: int = 0, rules: str = "2019-12", difficulty: str | None = None,
             evaluator: Evaluator | None = None, attempts: int | None = None) -> Iterator[dict[str, Any]]:
    """Yield `count` proven positions of `kind` (JSON-ready dicts, see shapes.py), the same ones for the
    same arguments. Traps cycle through the labels that exist under the rule set.

    Raises MjError (TOO_FEW) after yielding what it found if the attempts ran out first.
    """
    if kind not in KINDS:
        raise MjError(f"unknown kind '{kind}' (known: {', '.join(KINDS)})", BAD_KIND)
    if count < 0:
        raise MjError("count must be 0 or more")
    level = parse_difficulty(kind, difficulty)
    ev = evaluator or Evaluator(rules)
    rng = random.Random(seed)
    trap_labels = labels(ev) if kind == "traps" else []
    budget = attempts if attempts is not None else ATTEMPTS_PER_POSITION * max(count, 1)
    made = tried = 0
    while made < count and tried < budget:
        tried += 1
        build = KINDS[kind] or TRAPS[trap_labels[made % len(trap_labels)]]
        found = build(rng, ev, level)
        if found is not None:
            yield {"id": f"{kind}-{seed}-{made:04d}", **found}
            made += 1
    if made < count:
        raise MjError(f"found only {made} of {count} {kind} positions at difficulty '{level.label}' in {tried} "
                      "attempts; try another difficulty or seed", TOO_FEW)
