"""The generation loop: one kind, a count, a seed; positions come out in order as they are proven.

Position ``i`` of a run depends only on (kind, rules, difficulty, seed, i): it draws from its own
``random.Random(f"{seed}/{i}")`` and has its own attempt budget. So positions can be built anywhere
(this process, local workers, a Dask cluster: ``generate_chunk`` is the job) and in any grouping, and
the file is the same bytes; a resumed run starts at the first position missing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Callable

from solver.api import Evaluator
from solver.core.errors import MjError
from solver.generation.difficulty import Difficulty, check_possible, parse_difficulty
from solver.generation.puzzles import build_discard, build_exchanges, build_waits
from solver.generation.traps import TRAPS, labels

BAD_KIND = "ERR_BAD_KIND"
TOO_FEW = "ERR_TOO_FEW"
ATTEMPTS_PER_POSITION = 1000  # attempts are cheap; the rarest trap is kept about once in 60 attempts
MAX_COUNT = 1_000_000  # positions in one run (a bigger file is many runs with other seeds)

Builder = Callable[[random.Random, Evaluator, Difficulty], "dict[str, Any] | None"]
KINDS: dict[str, Builder | None] = {"discard": build_discard, "exchanges": build_exchanges, "traps": None,
                                    "waits": build_waits}


def check_kind(kind: str, count: int = 0) -> None:
    if kind not in KINDS:
        raise MjError(f"unknown kind '{kind}' (known: {', '.join(KINDS)})", BAD_KIND)
    if not 0 <= count <= MAX_COUNT:
        raise MjError(f"count must be a whole number from 0 to {MAX_COUNT}, not {count}")


def position_id(kind: str, seed: int, index: int) -> str:
    return f"{kind}-{seed}-{index:04d}"


def build_position(kind: str, index: int, seed: int, level: Difficulty, ev: Evaluator,
                   attempts: int = ATTEMPTS_PER_POSITION) -> dict[str, Any] | None:
    """Position ``index`` of the run, or None if its attempts ran out. Traps cycle through the labels
    that exist under the rule set."""
    rng = random.Random(f"{seed}/{index}")  # a str seed is hashed by SHA-512: the same on every machine
    if KINDS[kind] is None:
        trap_labels = labels(ev)
        build = TRAPS[trap_labels[index % len(trap_labels)]]
    else:
        build = KINDS[kind]
    for _ in range(attempts):
        found = build(rng, ev, level)
        if found is not None:
            return {"id": position_id(kind, seed, index), **found}
    return None


def too_few(kind: str, index: int, count: int, level: Difficulty, attempts: int) -> MjError:
    return MjError(f"found only {index} of {count} {kind} positions at difficulty '{level.label}': position "
                   f"{index} not found in {attempts} attempts; try another difficulty or seed", TOO_FEW)


def generate(kind: str, count: int, seed: int = 0, rules: str = "2019-12", difficulty: str | None = None,
             evaluator: Evaluator | None = None, attempts: int | None = None, start: int = 0
             ) -> Iterator[dict[str, Any]]:
    """Yield positions ``start`` to ``count - 1`` of `kind` (JSON-ready dicts, see position_line.py), in this
    process, the same ones for the same arguments.

    Raises MjError (TOO_FEW) after yielding what it found if a position's attempts ran out.
    """
    check_kind(kind, count)
    level = parse_difficulty(kind, difficulty)
    ev = evaluator or Evaluator(rules)
    check_possible(kind, level, ev.rules)
    attempts = ATTEMPTS_PER_POSITION if attempts is None else attempts
    for index in range(start, count):
        found = build_position(kind, index, seed, level, ev, attempts)
        if found is None:
            raise too_few(kind, index, count, level, attempts)
        yield found


def generate_chunk(indices: list[int], kind: str, seed: int, rules: str, difficulty: str | None,
                   attempts: int = ATTEMPTS_PER_POSITION, catalogue: tuple[str, ...] = ()) -> list[dict[str, Any] | None]:
    """The job of a batch executor: the positions at ``indices`` (None where attempts ran out), built
    with the process's cached Evaluator for the rule set (of the `catalogue` files, for a house's)."""
    from solver.checking.context import evaluator

    ev = evaluator(rules, catalogue)
    level = parse_difficulty(kind, difficulty)
    return [build_position(kind, index, seed, level, ev, attempts) for index in indices]
