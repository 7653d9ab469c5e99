"""Every tile another player could discard to a 12-tile hand: the units it can be called into, the best
discard after each call and whether that lowers h, and whether a ron on it wins (docs/rules.md section 6).

The page shows it without a discard being typed (as Hitori-Jong 2nd's call list does). Built on the
exact call options of turn.py, one kind at a time; only kinds with a live copy can be discarded.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.analysis.turn import Wait, call_options, live_count
from solver.core.hand import Hand
from solver.core.model import DistanceModel


@dataclass(frozen=True)
class UnitCall:
    unit: int
    h: int | None  # the lowest h after calling into this unit and discarding
    discards: tuple[int, ...]  # every discard that reaches that h
    lowers: bool  # the call lowers h (False: calling it is a mistake)


@dataclass(frozen=True)
class CallRow:
    tile: int
    live: int  # copies another player could still discard
    ron: Wait | None  # the tile completes the hand: its scores (ron None: completes, but no ron win)
    units: tuple[UnitCall, ...]  # best first


def call_table(dm: DistanceModel, hand: Hand, seen: tuple[int, ...], waits: tuple[Wait, ...]) -> tuple[CallRow, ...]:
    """Rows for every live kind that can be called or won on, best (ron, then the lowest h) first."""
    rows = []
    for kind in range(len(dm.rules.tiles)):
        live = live_count(hand, dm.rules, seen, kind)
        if live == 0:
            continue
        by_unit: dict[int, list] = {}
        for option in call_options(dm, hand, kind, seen):
            by_unit.setdefault(option.unit, []).append(option)
        units = []
        for unit, options in by_unit.items():
            best = min(options, key=lambda o: (o.h is None, o.h or 0))
            discards = tuple(sorted(o.discard for o in options if o.h == best.h))
            units.append(UnitCall(unit, best.h, discards, best.lowers))
        units.sort(key=lambda u: (u.h is None, u.h or 0, u.unit))
        ron = next((w for w in waits if w.tile == kind), None)
        if units or ron:
            rows.append(CallRow(kind, live, ron, tuple(units)))
    rank = lambda r: (r.ron is None, min((u.h for u in r.units if u.h is not None), default=99), r.tile)  # noqa: E731
    return tuple(sorted(rows, key=rank))
