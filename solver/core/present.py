"""Units present in a hand (seed 000's step 1): complete, one member short, two short."""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.hand import Hand
from solver.core.rules import RuleSet


@dataclass(frozen=True)
class PresentUnit:
    unit: int
    missing: tuple[int, ...]  # kinds of the unit not among the concealed tiles


@dataclass(frozen=True)
class UnitsPresent:
    complete: tuple[PresentUnit, ...]
    one_short: tuple[PresentUnit, ...]
    two_short: tuple[PresentUnit, ...]


def units_present(hand: Hand, rules: RuleSet, max_missing: int = 2) -> UnitsPresent:
    """Sorted by missing count, then size (largest first), then catalogue order, as seed 000 does."""
    found = []
    for unit in rules.units:
        missing = tuple(k for k in unit.members if hand.concealed[k] == 0)
        if len(missing) <= max_missing and len(missing) < unit.size:
            found.append(PresentUnit(unit.index, missing))
        elif unit.size == 1 and len(missing) <= max_missing:  # 詩花: one short when not held
            found.append(PresentUnit(unit.index, missing))
    found.sort(key=lambda p: (len(p.missing), -rules.units[p.unit].size, p.unit))
    by = [tuple(p for p in found if len(p.missing) == n) for n in range(3)]
    return UnitsPresent(*by)
