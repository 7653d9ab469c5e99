"""Answers as plain data: the solver returns these and never prints."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ScoredUnit:
    unit: int  # index into rules.units
    points: int
    called: bool = False
    holds_ron: bool = False
    sora_for: tuple[int, ...] = ()  # wildcard mode: the members そら stands in for


@dataclass(frozen=True)
class ScoreResult:
    won: bool  # a win that counts (complete, and the win kind allowed)
    complete: bool  # the tiles split exactly into units
    total: int | None  # None when there is no score (no win under tsumo/ron, or undefined)
    units: tuple[ScoredUnit, ...] = ()
    bonus: int = 0
    leftover: tuple[int, ...] = ()  # tiles in no scoring unit (a hand that did not win)
    reason: str = ""  # why the hand did not win, where it did not
    proof: str = "OPTIMAL"


@dataclass(frozen=True)
class Exchange:
    """Tiles out of the hand and in from the wall (sorted multisets of kinds) and the target reached."""

    out: tuple[int, ...]
    into: tuple[int, ...]
    target: tuple[int, ...]  # unit indices of the target's concealed part (a sorted multiset)
    sora_for: tuple[int, ...] = ()  # wildcard mode: kinds that そら tiles stand in for in the target


@dataclass(frozen=True)
class DistanceResult:
    h: int | None  # None when no complete hand is reachable at all
    exchange: Exchange | None
    sora_exchanges: int = 0  # fetch mode: how many of the exchanges are そら tiles (taken from the waiting room)
    proof: str = "OPTIMAL"
    extra: dict = field(default_factory=dict)
