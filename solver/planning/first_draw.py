"""The no-fetch search's roots (recursion.Search, a mixin): each 12-tile root's first move, and from SPLIT_TURNS
draws P(win)'s first draw valued in parts, each relevant kind and the rest apart, on two cores where a child can be
forked (side.split_sums; docs/formulation.md section 8, "The first draw in parts"). Reads the search's v12, draw,
reachable, fetches, fetched, nowin_score, filtered and its attributes."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from solver.planning.clock import behind
from solver.planning.closed import best_moves, falling
from solver.planning.targets import OutOfTime, TooLarge

REST = -1  # the first draw's part besides the relevant kinds: a tile discarded at once (by_part)
SPLIT_TURNS = 4  # draws from which P(win)'s first draw is valued in parts, on two cores (3 draws: 0.01-0.2 s)


@dataclass(frozen=True)
class FirstMove:
    """The best first action of a 12-tile state: draw at once, or first fetch `take` with a そら."""

    value: Fraction
    wait_value: Fraction  # value of drawing without using そら first
    take: int | None  # position taken from the waiting room, None: do not use そら now


class FirstDraw:
    """The roots of recursion.Search: `part` (t, part) set while by_part values one part of the first draw."""

    def first_move(self, hand, wall, room, W, t) -> FirstMove:
        """The value of a 12-tile root and whether its first move uses そら (ties: keep it)."""
        return self.first_moves([(hand, room)], wall, W, t, split=False)[0]

    def first_moves(self, roots: list[tuple], wall, W, t, split: bool = True,
                    pace: float | None = None) -> list[FirstMove]:
        """first_move of each 12-tile root (hand, room). P(win) over all play from SPLIT_TURNS draws: the first
        draw's parts are valued apart (by_part), on two cores where `split` (side.split_sums). `pace`: a deadline
        the parts are paced against (clock.behind)."""
        if t == 0:
            return [FirstMove(Fraction(self.nowin_score(hand)), Fraction(self.nowin_score(hand)), None)
                    for hand, _ in roots]
        moves = [(n, take) for n, (hand, room) in enumerate(roots) for take in self.takes(hand, room)]
        if self.splits(t):
            parts = [i for i in range(self.nr) if wall[i]] + [REST]
            if split:
                from solver.planning.side import split_sums
                values = split_sums(parts, lambda kinds, left: self.by_part(roots, moves, wall, W, t, kinds, left,
                                                                             pace), self)
            else:
                values = self.by_part(roots, moves, wall, W, t, parts, None, pace)
        else:
            values = [self.move_value(*roots[n], wall, W, t, take) for n, take in moves]
        return [FirstMove(*move) for move in best_moves(moves, values, falling(W, t))]

    def splits(self, t: int) -> bool:
        """Whether first_moves values the first draw in parts: P(win) over all play, SPLIT_TURNS draws or more."""
        return t >= SPLIT_TURNS and self.win and not self.nearest and self.slack is None

    def takes(self, hand, room) -> list[int | None]:
        """A root's first moves: drawing at once (None), then each fetch from the waiting room with a そら held."""
        return [None] + self.fetches(hand, room)

    def move_value(self, hand, room, wall, W, t, take) -> int:
        """A root's scaled value after its first move (`take`: the fetch first, None: draw at once)."""
        targets, scale = self.sparse, falling(W, t)
        if self.sora is None or not hand[self.sora]:
            room = ()
        if take is None and not self.fetches(hand, room):
            return self.v12(hand, wall, room, W, t, targets)
        if take is not None:
            hand, room = self.fetched(hand, room, take)
        alive = self.reachable(hand, wall, room, t, targets) if self.part is None else \
            self.root_reach(hand, wall, room, None, t, targets)
        return self.draw(hand, wall, room, W, t, alive) if alive else self.nowin_score(hand) * scale

    def by_part(self, roots, moves, wall, W, t, parts, left: Callable[[], int] | None = None,
                pace: float | None = None) -> list[int]:
        """Per move its scaled value's part from each part of the first draw `parts` yields (a relevant kind, or
        REST): summed over every part, the move's value. Paced on the parts where `pace` (a deadline) is given."""
        sums, start, done = [0] * len(moves), time.monotonic(), 0
        try:
            for part in parts:
                self.part = (t, part)
                for i, (n, take) in enumerate(moves):
                    sums[i] += self.move_value(*roots[n], wall, W, t, take)
                done += 1
                if done == 1:  # (the first part warms the memo below for every other: paced on the rest)
                    start = time.monotonic()
                elif behind(start, done - 1, left() if left else len(parts) - done, pace):
                    raise OutOfTime(f"the exact plan would pass its time budget ({done} parts of the first draw "
                                    f"valued, {self.visited:,} states)")
        finally:
            self.part = None
            self.roots_reached.clear()
        return sums

    def split_states(self) -> int:  # (side.Splittable)
        return self.visited

    def add_split_states(self, states: int) -> None:
        """The child's states (side.split_sums): the cap holds for both processes together."""
        self.visited += states
        if self.visited > self.state_limit:
            raise TooLarge(f"the exact plan passed {self.state_limit} states")

    def root_reach(self, hand, wall, room, W, t, alive) -> tuple:
        """filtered() of a root's state, or the targets within reach of a root's move (W None), kept for the other
        parts of its first draw (by_part): the whole list's filter costs 10-20 ms a root."""
        key = (hand, wall, room, W, t)
        got = self.roots_reached.get(key)
        if got is None:
            got = self.roots_reached[key] = self.reachable(hand, wall, room, t, alive) if W is None else \
                self.filtered(hand, wall, room, W, t, alive)
        return got
