"""E[score] over all play for short horizons (issue 22; docs/formulation.md section 8, "E[score] over all play").

The planner's search (recursion.py) merges the kinds no target holds into one junk count and discards junk
first, which is exact for P(win) but not for E[score] (a junk tile can count in the score of a hand that did
not win). This module is the plain memoised expectimax over FULL tile counts instead: every discard, every win
taken or declined, every fetch of a fetch-mode そら (held from the start or drawn) from the waiting room (the
given tiles plus the player's own discards). Values are exact integers scaled by falling(W, t) (recursion.py).

Exact reductions (proved in docs/formulation.md):
- after the last draw a 13-tile hand is worth its own no-win score (the best packing leaves a tile out unless
  the hand is complete; then the best of its tsumo and each 12-tile sub-hand's no-win score);
- one draw left: a drawn kind that no unit can use with the hand's other tiles leaves the no-win score as it
  is, so only the kinds that "touch" a unit are scored one by one;
- the waiting room enters the memo key only while a fetch can still happen (a そら held, or one live with two
  draws left), and values depend on the wall only through the live counts;
- with one or two draws left, each move's upper bound first (a drawn tile adds at most the best unit it
  completes), then exact values in the order of the bounds while a bound passes the best (a branch and bound
  over the discards; the C tail, planc_tail.c, where built);
- from three draws, the kinds of the first draw are valued apart (no state below one serves another), shared
  with a forked child on a second core (split_by_kind).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction

from solver.core.rules import RuleSet
from solver.planning.clock import SCORE_PACE, behind
from solver.planning.closed import add, best_moves, falling
from solver.planning.prepare import about, position_counts, reach_with_room
from solver.planning.targets import NoWinScore, OutOfTime, Targets, TooLarge, _planc, packer_built


class ScoreOptimum:
    """One memo for every root of one position. `tsumo`: every complete concealed hand reachable within the
    turns (full counts) -> its best tsumo score (targets.enumerate_targets with budget = turns + fetches)."""

    def __init__(self, rules: RuleSet, called: tuple[int, ...], favourite: int | None, tsumo: dict, *,
                 state_limit: int, deadline: float | None = None, tick: Callable[[int], None] | None = None,
                 native: bool | None = None):
        self.nowin = NoWinScore(rules, called, favourite, native)
        self.tsumo = tsumo
        # the last two draws in C where built (planc_tail.c, the same values): the hot loop, 20-27x faster at 3 draws
        self.sora = rules.tiles.sora if rules.sora_mode == "fetch" else None
        self.tail = None if self.nowin._c is None else _planc.Tail(
            self.nowin._c, {bytes(h): v for h, v in tsumo.items()}, len(rules.tiles),
            -1 if self.sora is None else self.sora)
        self.masks = self.nowin.masks  # the units without そら, as bitmasks
        self.memo: dict[tuple, int] = {}
        self.leaves: dict[tuple[int, ...], int] = {}
        self.vectors: dict[tuple[int, ...], tuple[int, list]] = {}
        # (12-tile hand, wall, room) with two draws left, no fetch before the first -> (upper bound, exact): the
        # same hand follows discarding d then x as x then d (another root), so bounds and values are shared
        self.twos: dict[tuple, tuple[int, bool]] = {}
        self.state_limit, self.deadline, self.tick = state_limit, deadline, tick
        self.states = 0

    # --- limits -------------------------------------------------------------------------------------
    def counted(self, states: int = 1) -> None:
        before = self.states
        self.states += states
        if self.states > self.state_limit:
            raise TooLarge(f"the exact search with every fetch passed {self.state_limit} states")
        if self.states >> 8 != before >> 8:  # (the clock read every 256 states)
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise OutOfTime(f"the exact search with every fetch passed its time budget at {self.states:,} states")
            if self.tick and self.states >> 12 != before >> 12:
                self.tick(self.states)

    # --- the leaf: a 13-tile hand after the last draw -----------------------------------------------
    def leaf(self, hand: tuple[int, ...], support: int | None = None) -> int:
        got = self.leaves.get(hand)
        if got is None:
            won = self.tsumo.get(hand)
            if won is None:  # not complete: every packing leaves a tile out, so a discard keeps the best one
                got = self.nowin.score(hand) if support is None else self.nowin.score_held(hand, support)
            else:
                got = max(won, max(self.nowin.score(add(hand, x, -1)) for x, n in enumerate(hand) if n))
            self.leaves[hand] = got
        return got

    def touching(self, hand: tuple[int, ...], support: int) -> list[int]:
        """Kinds k such that some unit holding k has its other members in the hand (`support`: the kinds held,
        as a bitmask): only these can change the best packing (or complete the hand) when drawn."""
        touch = 0
        for mask in self.masks:
            miss = mask & ~support
            if not miss:
                touch |= mask
            elif not miss & (miss - 1):
                touch |= miss
        out = []
        while touch:
            low = touch & -touch
            out.append(low.bit_length() - 1)
            touch ^= low
        return out

    def last_draw(self, hand: tuple[int, ...], wall: tuple[int, ...]) -> int:
        """sum_k w_k leaf(hand + k): the kinds that touch no unit keep the 12 tiles' no-win score."""
        if self.tail is not None:
            self.counted()
            return self.tail.last_draw(bytes(hand), bytes(wall))
        got = self.vectors.get(hand)
        if got is None:
            self.counted()
            support = sum(1 << k for k, n in enumerate(hand) if n)
            base = self.nowin.score_held(hand, support)
            got = self.vectors[hand] = (base, [(k, self.leaf(add(hand, k, 1), support | 1 << k))
                                               for k in self.touching(hand, support)])
        base, special = got
        rest = sum(wall)
        total = 0
        for k, value in special:
            n = wall[k]
            if n:
                total += n * value
                rest -= n
        return total + rest * base

    # --- the recursion ------------------------------------------------------------------------------
    def room_matters(self, hand, wall, t) -> bool:
        s = self.sora
        return s is not None and t >= 1 and (hand[s] > 0 or (t >= 2 and wall[s] > 0))

    def fetches(self, hand, room):
        """(hand, room) after each distinct fetch: そら to the waiting room, a tile of another kind from it."""
        s = self.sora
        if room is None or not hand[s]:
            return []
        return [(x, add(add(hand, s, -1), x, 1), add(add(room, x, -1), s, 1))
                for x, n in enumerate(room) if n and x != s]

    def v12(self, hand, wall, room, t) -> int:
        """Scaled value of a 12-tile hand with t draws left, over its best first move."""
        if t == 0:
            return self.nowin.score(hand)
        if room is not None and not self.room_matters(hand, wall, t):
            room = None
        if t == 1 and room is None:
            return self.last_draw(hand, wall)  # (its table is memoised by the hand alone; the sum is cheap)
        key = (hand, wall, room, t)
        got = self.memo.get(key)
        if got is None:
            got = self.draw(hand, wall, room, t)
            for _, h, r in self.fetches(hand, room):
                got = max(got, self.draw(h, wall, r, t))
            self.memo[key] = got
            self.counted()
        return got

    def draw(self, hand, wall, room, t) -> int:
        if t == 1:
            return self.last_draw(hand, wall)
        if t == 2 and self.tail is not None:
            self.counted(sum(1 for n in wall if n))  # (a state for each draw, as below)
            return self.tail.draw(bytes(hand), bytes(wall), None if room is None else bytes(room))
        total = 0
        for k, n in enumerate(wall):
            if n:
                total += n * self.v13(add(hand, k, 1), add(wall, k, -1), room, t - 1)
        return total

    def v13(self, hand, wall, room, t) -> int:
        """Scaled value right after a draw: the tsumo (if complete) or the best discard."""
        if t == 0:
            return self.leaf(hand)
        if t == 1 and self.tail is not None:
            self.counted()
            return self.tail.after_draw(bytes(hand), bytes(wall), None if room is None else bytes(room))
        if t == 2 and self.tail is not None:
            return self.best_of_two(hand, wall, room)
        key = (hand, wall, room, t, 13)
        got = self.memo.get(key)
        if got is None:
            won = self.tsumo.get(hand)
            got = -1 if won is None else won * falling(sum(wall), t)
            for x, n in enumerate(hand):
                if n:
                    got = max(got, self.v12(add(hand, x, -1), wall, None if room is None else add(room, x, 1), t))
            self.memo[key] = got
            self.counted()
        return got

    def best_of_two(self, hand, wall, room) -> int:
        """v13 with two draws left, by branch and bound over its moves (each discard, and with a そら held after it
        each fetch before the next draw): each one's upper bound from the C tail (its tables' bound rows), then
        exact values in the order of the bounds while a bound passes the best value so far."""
        key = (hand, wall, room, 2, 13)
        got = self.memo.get(key)
        if got is None:
            won = self.tsumo.get(hand)
            got = -1 if won is None else won * falling(sum(wall), 2)
            walled, moves = bytes(wall), []
            if room is None or not hand[self.sora]:  # (no fetch before the draw: every discard's bound at once)
                kept = room is not None and self.room_matters(hand, wall, 2)
                self.discards_bounded(hand, wall, room if kept else None, walled, moves)
            else:
                moves = self.sora_moves(hand, wall, room, walled)
            for bound, _, move, exact in sorted(moves, reverse=True):
                if bound <= got:
                    break
                if not exact:
                    bound = self.draw(*move, 2)
                    self.twos[move] = (bound, True)
                got = max(got, bound)
            self.memo[key] = got
            self.counted()
        return got

    def discards_bounded(self, hand, wall, room, walled, moves: list) -> None:
        """Appends to `moves` (bound, order, (12 tiles, wall, room with the discard), exact) of each discard of a
        13-tile hand holding no そら with two draws left (`room` None: no fetch can follow): the ones known from
        `twos`, the others from one Tail.bounds call."""
        pending = {}
        for x, n in enumerate(hand):
            if n:
                move = (add(hand, x, -1), wall, None if room is None else add(room, x, 1))
                known = self.twos.get(move)
                if known is None:
                    pending[x] = move
                else:
                    moves.append((known[0], len(moves), move, known[1]))
        if pending:
            asked = sum(1 << x for x in pending)
            found = self.tail.bounds(bytes(hand), walled, None if room is None else bytes(room), asked)
            for x, bound in found.items():
                self.twos[pending[x]] = (bound, False)
                moves.append((bound, len(moves), pending[x], False))

    def sora_moves(self, hand, wall, room, walled) -> list[tuple]:
        """(bound, order, (12 tiles, wall, room), exact) of each move of a 13-tile hand holding a そら with two draws
        left and a room: each discard, and each discard then a fetch (そら to the room, a tile from it). With one そら,
        the fetches of a kind y from the room leave hand - そら + y less a discard, so one Tail.bounds call bounds
        them all (the discard joins the room); fetching the discard back leaves hand - そら, one state for all."""
        s, moves = self.sora, []

        def bounded(move):
            known = self.twos.get(move)
            if known is None:
                h, _, rr = move
                known = self.twos[move] = (self.tail.draw(bytes(h), walled, None if rr is None else bytes(rr), False),
                                           False)
            moves.append((known[0], len(moves), move, known[1]))

        for x, n in enumerate(hand):
            if n:
                held, r = add(hand, x, -1), add(room, x, 1)
                r = r if self.room_matters(held, wall, 2) else None
                bounded((held, wall, r))
                if hand[s] > 1:  # (two そら: each fetch after each discard, one by one)
                    for _, h, rr in self.fetches(held, r):
                        bounded((h, wall, rr))
        if hand[s] > 1:
            return moves
        lost, given = add(hand, s, -1), add(room, s, 1)
        bounded((lost, wall, given))  # (a discard fetched back)
        for y, n in enumerate(room):
            if n and y != s:
                self.discards_bounded(add(lost, y, 1), wall, add(given, y, -1), walled, moves)
        return moves

    def root_moves(self, hand, wall, room, t, last: int | None = None) -> list[tuple]:
        """(kind fetched or None, 12 tiles, room) of a 12-tile root's first moves: drawing at once, then each
        fetch before the first draw, `last` (the root's own discard: taken back, the hand of discarding そら) after
        the others, so that among fetches of equal value another is advised."""
        if room is not None and not self.room_matters(hand, wall, t):
            room = None
        return [(None, hand, room)] + sorted(self.fetches(hand, room), key=lambda move: move[0] == last)

    def first_moves(self, roots: list[tuple], wall, t, split: bool = True, last: list | None = None) -> list[tuple]:
        """Per 12-tile root (hand, room): (value, value of drawing at once, the kind a そら fetches first or None) as
        Fractions. From three draws the first draw's kinds are valued apart, on two cores where `split`
        (split_by_kind). `last`: per root its discard, fetched last (root_moves)."""
        moves = [(n, m) for n, (hand, room) in enumerate(roots)
                 for m in self.root_moves(hand, wall, room, t, None if last is None else last[n])]
        flat = [m for _, m in moves]
        if t >= 3:
            values = split_by_kind(self, flat, wall, t) if split else self.by_kind(flat, wall, t, kinds_of(wall))
        else:
            values = [self.draw(h, wall, r, t) for _, h, r in flat]
        return best_moves([(n, take) for n, (take, _, _) in moves], values, falling(sum(wall), t))

    def split_states(self) -> int:  # (side.Splittable)
        return self.states

    def add_split_states(self, states: int) -> None:
        self.counted(states)

    def first_move(self, hand, wall, room, t) -> tuple[Fraction, Fraction, int | None]:
        """first_moves of one root, in this process."""
        return self.first_moves([(hand, room)], wall, t, split=False)[0]

    def by_kind(self, moves: list[tuple], wall, t, kinds, left: Callable[[], int] | None = None) -> list[int]:
        """Per move its scaled value's part from the first draw of each kind `kinds` yields (all kinds: the
        value). Every state below a first draw of k has k's copy out of its wall, so no memo entry is shared
        between kinds at 3 draws: kinds can be valued apart (in two processes), each one's memo freed after it.
        OutOfTime as soon as the kinds done show that the others (a list's rest, or `left()`) would pass the
        deadline."""
        sums, start, done = [0] * len(moves), time.monotonic(), 0
        for k in kinds:
            n, less = wall[k], add(wall, k, -1)
            for i, (_, h, r) in enumerate(moves):
                sums[i] += n * self.v13(add(h, k, 1), less, r, t - 1)
            if t == 3:
                self.memo.clear()
                self.twos.clear()
            done += 1
            if done == 1:  # (the first kind builds the C tables most others use: paced on the rest)
                start = time.monotonic()
            elif behind(start, done - 1, left() if left else len(kinds) - done, self.deadline, SCORE_PACE):
                raise OutOfTime(f"the exact search with every fetch would pass its time budget ({done} first draws "
                                f"valued, {self.states:,} states)")
        return sums


def native_tail(rules: RuleSet, native: bool | None) -> bool:
    """Whether the last draw's levels run in C (planc_tail.c): built, asked for, and a rule set it takes."""
    return packer_built(rules, native) and rules.scores_no_win


def score_optimum(rules: RuleSet, position, turns: int, discards: list[int | None], *, state_limit: int,
                  deadline: float | None = None, tick: Callable[[int], None] | None = None,
                  native: bool | None = None, listed: Targets | None = None) -> tuple[list[tuple], int]:
    """Per root (a discard kind, None: the 12-tile hand as it stands) its first move (first_move), and the
    states visited. TooLarge (OutOfTime) past the limits. The complete hands are listed with only the seen
    tiles out (a fetch may bring a waiting-room copy into the hand), within the draws plus the held そら
    (`listed`: that list where the caller has it, reach_with_room)."""
    hand = position.hand
    _, room, wall, _ = position_counts(rules, position, turns)
    # Not started where it would plainly pass the state limit (turns 4 of a real hand: millions of states), so
    # the class answers without first spending the time budget: about (live kinds x kinds held) states a draw,
    # where the C tail counts a hand with one draw left as one state (no states below it).
    held, live = sum(1 for n in hand.concealed if n), sum(1 for n in wall if n)
    guess = len(discards) * (live * (held + 1)) ** (turns - 1)
    if turns >= 2 and native_tail(rules, native):  # (its branch and bound: 0.18-0.33 of this at 3 draws, both rule sets)
        guess = len(discards) * live * (live * held) ** (turns - 2) // 3
    if guess > state_limit:
        raise TooLarge(f"the exact search with every fetch would visit about {about(guess)} states, past {state_limit:,}")
    targets = listed if listed is not None else reach_with_room(rules, position, turns, deadline)
    search = ScoreOptimum(rules, hand.called, position.favourite, targets.counts, state_limit=state_limit,
                          deadline=deadline, tick=tick, native=native)
    roots = [(hand.concealed if d is None else add(hand.concealed, d, -1), room if d is None else add(room, d, 1))
             for d in discards]
    return search.first_moves(roots, wall, turns, last=discards), search.states


def split_by_kind(search: ScoreOptimum, moves: list[tuple], wall, turns: int) -> list[int]:
    """ScoreOptimum.by_kind over every kind, on two cores where a child can be forked (side.split_sums). The values
    are the same either way."""
    from solver.planning.side import split_sums

    def run(kinds, left):
        return search.by_kind(moves, wall, turns, kinds, left)
    kinds = kinds_of(wall)
    if turns != 3 or search.tail is None:
        return split_sums(kinds, run, search)
    # (at 3 draws the first kind builds most of the C tables every other kind reads: built here before the fork,
    # the child inherits them instead of building its own)
    return [a + b for a, b in zip(run(kinds[:1], None), split_sums(kinds[1:], run, search))]


def kinds_of(wall) -> list[int]:
    return [k for k, n in enumerate(wall) if n]
