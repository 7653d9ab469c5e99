"""A hand in its one internal form (counts per kind plus locked called units) and its situation."""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.errors import (
    BAD_FAVOURITE,
    BAD_WINNING_TILE,
    FOURTH_COPY,
    HAND_SIZE,
    MjError,
)
from solver.core.rules import RuleSet

COPIES = 3  # physical copies of every kind (D3)


@dataclass(frozen=True)
class Hand:
    """`concealed[k]` tiles of kind k in hand, plus the called units (indices into rules.units)."""

    concealed: tuple[int, ...]
    called: tuple[int, ...] = ()

    def called_counts(self, rules: RuleSet) -> list[int]:
        counts = [0] * len(self.concealed)
        for u in self.called:
            for kind in rules.units[u].members:
                counts[kind] += 1
        return counts

    def caps(self, rules: RuleSet, seen: tuple[int, ...] = (), copies: int = COPIES) -> list[int]:
        """Copies of each kind a target may hold: `copies` minus those in called units and those seen."""
        called = self.called_counts(rules)
        return [max(0, copies - called[k] - (seen[k] if seen else 0)) for k in range(len(self.concealed))]

    def totals(self, rules: RuleSet) -> list[int]:
        """Copies of each kind held, concealed and called."""
        return [a + b for a, b in zip(self.concealed, self.called_counts(rules))]

    def size(self, rules: RuleSet) -> int:
        return sum(self.concealed) + sum(rules.units[u].size for u in self.called)

    def tiles(self) -> list[int]:
        """The concealed tiles as a sorted list of kind indices."""
        return [k for k, n in enumerate(self.concealed) for _ in range(n)]

    def add(self, kind: int, n: int = 1) -> "Hand":
        counts = list(self.concealed)
        counts[kind] += n
        return Hand(tuple(counts), self.called)

    def remove(self, kind: int) -> "Hand":
        return self.add(kind, -1)


@dataclass(frozen=True)
class Situation:
    """The context of one evaluation, apart from the hand and the rules."""

    win: str = "tsumo"  # "tsumo", "ron" or "none" (the hand did not win)
    winning_tile: int | None = None
    favourite: int | None = None
    seen: tuple[int, ...] = field(default=())  # copies visible elsewhere, per kind (empty: none)


def check_hand(hand: Hand, rules: RuleSet, sizes: tuple[int, ...] | None = None,
               seen: tuple[int, ...] = (), copies: int = COPIES) -> None:
    """Physical checks: tile count, and no kind beyond 3 copies counting calls and seen tiles.

    `copies` other than 3 is for explaining other engines' answers (e.g. ones that ignore the limit).
    """
    sizes = sizes or (rules.hand_size - 1, rules.hand_size)
    size = hand.size(rules)
    if size not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise MjError(f"a hand holds {want} tiles, this one {size}", HAND_SIZE)
    names = rules.tiles
    for kind, count in enumerate(hand.totals(rules)):
        if count > copies:
            raise MjError(f"{count} copies of {names.name(kind)}: there are only {copies}", FOURTH_COPY)
        visible = seen[kind] if seen else 0
        if count + visible > copies:
            raise MjError(f"{count} {names.name(kind)} in hand and {visible} seen: there are only {copies}",
                          FOURTH_COPY)


def check_room(hand: Hand, rules: RuleSet, seen: tuple[int, ...], room: tuple[int, ...]) -> None:
    """No kind beyond 3 copies counting the hand, the seen tiles and the waiting room (per-kind counts; the room is
    said apart: a tile listed in both was counted twice, QA)."""
    totals = hand.totals(rules)
    for k, r in enumerate(room):
        s = seen[k] if seen else 0
        if r and totals[k] + s + r > COPIES:
            name, n = rules.tiles.name(k), totals[k]
            where = f"{s} {name} seen" if not n else f"{n} {name} in hand, {s} seen" if s else f"{n} {name} in hand"
            twice = " (a tile in the waiting room is not also listed as seen)" if s else ""
            raise MjError(f"{where} and {r} in the waiting room: there are only {COPIES}{twice}", FOURTH_COPY)


def check_discard(hand: Hand, rules: RuleSet, seen: tuple[int, ...], in_room: int, tile: int) -> None:
    """Another player's discard on offer is a copy beyond the hand's, the seen ones and the waiting room's `in_room`
    (QA: 1 in hand, 2 in the room and the discard, a 4th copy, was analysed)."""
    held, s = hand.totals(rules)[tile], seen[tile] if seen else 0
    if held + s + in_room + 1 > COPIES:
        raise MjError(f"{held} {rules.tiles.name(tile)} in hand, {s} seen, {in_room} in the waiting room and the "
                      f"discard: there are only {COPIES}", FOURTH_COPY)


def check_situation(hand: Hand, rules: RuleSet, situation: Situation) -> None:
    tiles = rules.tiles
    if situation.favourite is not None and situation.favourite == tiles.sora:
        raise MjError("the favourite may be any kind but そら", BAD_FAVOURITE)
    if situation.win == "ron":
        if situation.winning_tile is None:
            raise MjError("a ron win needs the winning tile", BAD_WINNING_TILE)
        if hand.concealed[situation.winning_tile] == 0:
            raise MjError(f"the ron tile {tiles.name(situation.winning_tile)} is not among the concealed tiles",
                          BAD_WINNING_TILE)
