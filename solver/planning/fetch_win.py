"""P(win) over all play where a fetch of a fetch-mode そら could follow (issue 22; docs/formulation.md section 8,
"P(win) with every fetch").

The planner's own search (recursion.py) discards a drawn そら at once, so where a そら is held or live with two
draws left its value is a named class. This search adds every fetch and stays compact:
- the waiting room is not carried: over the relevant kinds it is base - hand - wall (every copy not seen
  elsewhere is in the hand, the wall or the room), so a state is (hand, wall, live そら, W, t);
- targets within reach count the room's copies as available while a fetch can still happen (a そら held, or
  one live with two draws left), within the draws plus the そら held;
- where no fetch can follow any more (no そら held, and one draw left or none live) the no-fetch search answers,
  with its closed forms and C code: it is all play there;
- the last fetch in closed form (fetch_closed.py): a 12-tile hand holding one そら with one draw left is worth
  the best room tile taken (`fetch_last`); a 13-tile one is worth the best swap of one tile for a room tile
  (`swap_last`); a 12-tile hand holding none with two draws left is the no-fetch value plus, per live そら, what
  a drawn one adds (`swap_last` less the hand's own waits);
- junk first (a tile of no kind some target within reach holds more of than the hand): the swap argument holds
  with the room, a fetch of the other tile being mimicked by a fetch of the junk one;
- kinds no target within reach holds leave the key (their wall copies join the junk mass).
Values are exact integers scaled by falling(W, t), as in recursion.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from operator import itemgetter

import numpy as np

from solver.core.rules import RuleSet
from solver.planning import clock as share
from solver.planning.closed import _planc, add, best_moves, falling, native_two_draws
from solver.planning.fetch_closed import FetchClosed
from solver.planning.prepare import about, check_turns, position_counts, reach_with_room, rough_states
from solver.planning.recursion import Search
from solver.planning.targets import NoWinScore, OutOfTime, Targets, TooLarge


SHORT = 48  # targets within reach below which a list is kept as tuples, not numpy rows (FetchWin.reach)
SORA_DRAW, REST = -1, -2  # the first draw's parts besides the relevant kinds: a そら, and the rest (a tile of a kind
# no target holds; and a root no fetch can follow, valued whole by the no-fetch search)
SPLIT_TURNS = 4  # draws from which the first draw's parts are valued apart, on two cores (3 draws: 0.1-0.2 s)


class FetchWin(FetchClosed):
    """One memo for every root of one position: hands over `positions` (relevant kinds first, そら last) plus a
    junk slot, walls over the relevant kinds."""

    def __init__(self, search: Search, base: tuple[int, ...], sora_pos: int, *, state_limit: int,
                 deadline: float | None, tick: Callable[[int], None] | None):
        self.search, self.nr, self.sp = search, search.nr, sora_pos
        self.base = base  # per relevant kind: copies in hand + wall + waiting room (constant)
        self.memo: dict[tuple, int] = {}
        self.state_limit, self.deadline, self.tick = state_limit, deadline, tick
        self.states = 0
        self.part: tuple[int, int] | None = None  # (t, part): at t draws, only that part of the first draw (by_part)
        search.deadline = deadline
        self.matrix = search.target_matrix().astype(np.int16)  # one row per target, over the relevant kinds
        self.native = native_two_draws()  # the two draws after a draw in C, with the swap of a drawn そら
        self.cost_rows = self.cost_hand = self.cost_value = None  # costs_of's last list
        self.all_rows = np.arange(len(self.matrix), dtype=np.intp)
        # the row filters in C (planc_rows.c) where built, over the search's own matrix's nonzero entries
        self.rows_c = _planc.sparse_rows(search.target_matrix(), self.nr) if self.native and 0 < self.nr <= 64 \
            else None

    # --- bookkeeping --------------------------------------------------------------------------------
    def counted(self) -> None:
        self.states += 1
        if self.states + self.search.visited > self.state_limit:
            raise TooLarge(f"the exact search with every fetch passed {self.state_limit} states")
        if not self.states & 255:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise OutOfTime(f"the exact search with every fetch passed its time budget at {self.states:,} states")
            if self.tick and not self.states & 4095:
                self.tick(self.states + self.search.visited)

    def room(self, hand, wall) -> list[int]:
        return [b - h - w for b, h, w in zip(self.base, hand, wall)]

    def reach(self, hand, wall, live_sora, t, alive, cap: int | None = None):
        """Targets within reach: cost <= t + そら held (or `cap`), every missing copy in the wall (or the room while a
        fetch can still happen). Children only lose targets, so filtering the parent's list is exact. A long list is rows of
        the targets' matrix (numpy), a short one (SHORT or fewer) Search's sparse tuples (plain loops are faster)."""
        held = hand[self.sp]
        cap = t + held if cap is None else cap
        roomed = held or (live_sora and t >= 2)  # (then wall + room: base - hand over the relevant kinds)
        if self.rows_c is not None and not isinstance(alive, list):
            return self.kept(_planc.reach_rows(self.rows_c, alive, hand, self.base if roomed else wall, cap, roomed))
        available = [b - h for b, h in zip(self.base, hand)] if roomed else wall
        if isinstance(alive, list):
            return [target for _, target in self.search.costs(hand, available, alive, cap)]
        need = self.matrix[alive] - np.array(hand[:self.nr], dtype=np.int16)
        np.maximum(need, 0, out=need)
        return self.kept(alive[(need.sum(1) <= cap) & (need <= np.array(available, dtype=np.int16)).all(1)])

    def kept(self, rows):
        """A list within reach as kept: rows of the matrix (numpy; C's bytes of intp read as such), or Search's
        sparse tuples where SHORT or fewer."""
        if isinstance(rows, bytes):
            rows = np.frombuffer(rows, np.intp)
        return rows if self.rows_c is not None or len(rows) > SHORT else self.targets(rows)

    def as_rows(self, alive):
        """A list's rows of the matrix (numpy), whether it is kept as rows or as sparse tuples."""
        return np.array(self.search.rows_of(alive), dtype=np.intp) if isinstance(alive, list) else alive

    def targets(self, alive) -> list:
        """The sparse targets (recursion.Search's) of a list within reach."""
        if isinstance(alive, list):
            return alive
        sparse = self.search.sparse
        return [sparse[j] for j in alive.tolist()]

    def within_two(self, hand, alive) -> list:
        """The sparse targets of a list, only those 2 tiles or fewer from the hand where C filters a long one first
        (the closed forms at the last fetch read no others; they check liveness themselves)."""
        if self.rows_c is not None and not isinstance(alive, list):
            alive = np.frombuffer(_planc.reach_rows(self.rows_c, alive, hand, [2] * self.nr, 2), np.intp)
        return self.targets(alive)

    def plain(self, hand, wall, t, alive) -> list:
        """For the no-fetch search (one draw left needs no list): its targets within reach, as its sparse tuples."""
        return self.targets(self.reach(hand, wall, 0, t, alive)) if t > 1 else []

    def most(self, alive) -> list[int]:
        if not isinstance(alive, list):
            if self.rows_c is not None:
                return _planc.most_rows(self.rows_c, alive)
            return self.matrix[alive].max(0).tolist() if len(alive) else [0] * self.nr
        out = [0] * self.nr
        for target in alive:
            for i, c in target:
                if c > out[i]:
                    out[i] = c
        return out

    def merged(self, hand, wall, most):
        """Kinds no target within reach holds: held copies to the junk slot, wall copies to the junk mass (they
        never matter again, since targets within reach only get fewer)."""
        gone = [i for i in range(self.nr) if not most[i] and (hand[i] or wall[i])]
        if not gone:
            return hand, wall
        h, w = list(hand), list(wall)
        for i in gone:
            h[-1] += h[i]
            h[i] = w[i] = 0
        return tuple(h), tuple(w)

    # --- the recursion ------------------------------------------------------------------------------
    def v12(self, hand, wall, live_sora, W, t, alive, exact: bool = False) -> int:
        """Scaled value of a 12-tile hand with t draws left, over its best first move (a fetch, or none). `exact`:
        `alive` is this state's own list within reach already (discarded, below), not its parent's."""
        if t == 0:
            return 0
        held = hand[self.sp]
        top = self.part is not None and t == self.part[0]  # (a root's partial value: not kept in the memo)
        if not held and (t == 1 or not live_sora):  # no fetch can follow: the no-fetch search is all play
            if top and self.part[1] != REST:
                return 0
            return self.search.v12(hand, wall, (), W, t, self.plain(hand, wall, t, alive))
        if t == 1 and held > 1:
            return 0  # one fetch a turn: a そら is still held at the last draw, so no hand is complete
        key = (hand, wall, live_sora, W, t, 12)
        got = None if top else self.memo.get(key)
        if got is not None:
            return got
        if not exact:
            alive = self.reach(hand, wall, live_sora, t, alive)
        most = self.most(alive)
        hand, wall = self.merged(hand, wall, most)
        key2 = (hand, wall, live_sora, W, t, 12)
        got = None if top else self.memo.get(key2)
        if got is None:
            room = self.room(hand, wall)
            if not len(alive):
                got = 0
            elif t == 1:  # (one そら held: the list is within t + 1 = 2 tiles, all the closed form reads)
                got = self.fetch_last(hand, wall, room, self.targets(alive))
            elif not held and t == 2:  # two draws left, a そら live: what a drawn one adds to the no-fetch value
                near = self.targets(alive)  # (within t = 2 tiles: what the swap reads)
                swap = self.swap_last(hand, wall, room, near)
                extra = swap - self.search.last_draw(hand, wall)
                got = self.search.v12(hand, wall, (), W, 2, near) + live_sora * extra
            else:  # (at a part's own t, only roots holding no そら come here: no max over fetches of parts)
                got = self.waiting(hand, wall, live_sora, W, t, alive, exact=True)
                for r in range(self.nr if held else 0):
                    if room[r] and most[r] > hand[r]:
                        got = max(got, self.fetched(add(add(hand, self.sp, -1), r, 1), wall, live_sora, W, t,
                                                    alive))
            if top:
                return got
            self.memo[key2] = got
            self.counted()
        self.memo[key] = got
        return got

    def fetched(self, hand, wall, live_sora, W, t, alive) -> int:
        """Drawing after a fetch: no other fetch this turn (where no そら is left, that is the hand's own value)."""
        if hand[self.sp]:
            return self.waiting(hand, wall, live_sora, W, t, alive)
        return self.v12(hand, wall, live_sora, W, t, alive)

    def waiting(self, hand, wall, live_sora, W, t, alive, exact: bool = False) -> int:
        """Drawing at once with a そら held (no fetch first); with one held and two draws left, every draw's best
        swap in one pass (drawn_swaps). `exact`: `alive` is this state's own list (v12's); else the parent's, narrowed
        here once rather than by each draw (a root's is every listed hand)."""
        near = alive if exact else self.reach(hand, wall, live_sora, t, alive)
        if hand[self.sp] != 1 or t != 2:
            return self.draw(hand, wall, live_sora, W, t, near)
        room = self.room(hand, wall)
        got, live = self.swaps(hand, wall, room, near)
        return got + (W - live) * self.fetch_last(hand, wall, room, self.within_two(hand, near))

    def draw(self, hand, wall, live_sora, W, t, alive) -> int:
        part = self.part[1] if self.part is not None and t == self.part[0] else None  # (None: every part)
        native = None
        if t == 3 and live_sora and not hand[self.sp] and self.native and part is None:
            native = self.drawn_natively(hand, wall, live_sora, W, alive)
        if native is not None:
            total, live = native
        else:
            total = live = 0
            for i in range(self.nr):
                n = wall[i]
                if n:
                    live += n
                    if part is None or part == i:
                        total += n * self.v13(add(hand, i, 1), add(wall, i, -1), live_sora, W - 1, t - 1, alive)
        if live_sora:
            live += live_sora
            if part is None or part == SORA_DRAW:
                total += live_sora * self.v13(add(hand, self.sp, 1), wall, live_sora - 1, W - 1, t - 1, alive)
        if W > live and (part is None or part == REST):  # a tile of a kind no target holds: discarded at once
            total += (W - live) * self.v12(hand, wall, live_sora, W - 1, t - 1, alive)  # (junk first)
        return total

    def drawn_natively(self, hand, wall, live_sora, W, alive) -> tuple[int, int] | None:
        """The relevant draws of a 12-tile hand holding no そら with three draws left and a そら live, each valued
        with its best discard (two draws left: the no-fetch closed form plus what a drawn そら's swap adds) in one C
        call (_planc.drawn_best with the room): (their sum, their live copies), or None where C declines."""
        kinds = [k for k in range(self.nr) if wall[k]]
        block = self.search.target_matrix()[self.as_rows(alive)]
        costs = np.maximum(block - np.array(hand[:self.nr], dtype=np.int8), 0).sum(1, dtype=np.int32)
        got = _planc.drawn_best(hand, wall, W, kinds, block.tobytes(), costs.tolist(), self.nr,
                                tuple(self.room(hand, wall)), live_sora)
        if got is None:
            return None
        for _ in kinds:
            self.counted()
        return sum(wall[k] * v for k, v in zip(kinds, got)), sum(wall[k] for k in kinds)

    def v13(self, hand, wall, live_sora, W, t, alive) -> int:
        """Scaled value right after a draw: a win if complete, else the best discard."""
        nr, sp = self.nr, self.sp
        if not any(hand[nr:]) and hand[:nr] in self.search.scores:
            return falling(W, t)
        if t == 0:
            return 0
        held = hand[sp]
        if not held and (t == 1 or not live_sora):
            return self.search.v13(hand, wall, (), W, t, self.plain(hand, wall, t, alive))
        key = (hand, wall, live_sora, W, t, 13)
        got = self.memo.get(key)
        if got is None:
            # (one draw left: only the targets within 2 tiles matter to the closed forms, one pass finds them)
            alive = self.reach(hand, wall, live_sora, t, alive, 2 if t == 1 else None)
            if not len(alive) or (t == 1 and held > 2):
                got = 0
            elif t == 1:  # one そら: swap a tile for a room tile; two: discard one, fetch with the other
                one = add(hand, sp, -1)
                near = self.targets(alive)
                room = self.room(hand, wall)
                got = self.swap_last(one, wall, room, near) if held == 1 else self.fetch_last(one, wall, room, near)
            else:
                most = self.most(alive)
                hand, wall = self.merged(hand, wall, most)  # (so that children differing there share a key)
                candidates = [p for p, n in enumerate(hand) if n]
                junk = [p for p in candidates if p != sp and (p >= nr or hand[p] > most[p])]
                got = max(self.discarded(hand, wall, live_sora, W, t, alive, p) for p in (junk[:1] or candidates))
            self.memo[key] = got
            self.counted()
        return got

    def discarded(self, hand, wall, live_sora, W, t, alive, p) -> int:
        """v12 after discarding position p from a 13-tile state whose own targets within reach are `alive`. A long
        list is narrowed by one column: a discard raises the cost of the targets holding as many p as the hand, and
        while the room counts the discard stays available (one more needed, one more in the room)."""
        child = add(hand, p, -1)
        held = child[self.sp]
        if isinstance(alive, list) or not (held or (live_sora and t >= 2)):
            return self.v12(child, wall, live_sora, W, t, alive)
        got = self.memo.get((child, wall, live_sora, W, t, 12))
        if got is not None:
            return got
        if self.rows_c is not None:
            rows = _planc.narrowed_rows(self.rows_c, alive, hand, p, t + held)
        else:
            cost = self.costs_of(hand, alive)
            if p < self.nr:
                cost = cost + (self.matrix[alive, p] >= hand[p])
            rows = alive[cost <= t + held]
        return self.v12(child, wall, live_sora, W, t, self.kept(rows), exact=True)

    def costs_of(self, hand, rows):
        """Per row its cost from the hand (kept for the state's discards: one list for all of them)."""
        if self.cost_rows is not rows or self.cost_hand != hand:  # (the rows held here: no id is reused meanwhile)
            need = self.matrix[rows] - np.array(hand[:self.nr], dtype=np.int16)
            np.maximum(need, 0, out=need)
            self.cost_rows, self.cost_hand, self.cost_value = rows, hand, need.sum(1)
        return self.cost_value

    def first_moves(self, roots: list, wall, live_sora, W, t, last: list | None = None
                    ) -> list[tuple[Fraction, Fraction, int | None]]:
        """Per 12-tile root (value, value of drawing at once, the position a そら fetches first or None). From
        SPLIT_TURNS draws the first draw's parts are valued apart, on two cores (by_part, side.split_sums). `last`:
        per root the position its fetches try last (its own discard: taken back it is the hand of discarding そら,
        so among fetches of equal value another is advised; QA)."""
        from solver.planning.side import split_sums

        moves = [(n, take) for n, hand in enumerate(roots)
                 for take in self.takes(hand, wall, None if last is None else last[n])]
        if t >= SPLIT_TURNS:
            # (a drawn そら first: its part is the heaviest, 10-15 % of the whole; taken last it would leave a core idle)
            parts = ([SORA_DRAW] if live_sora else []) + [i for i in range(self.nr) if wall[i]] + [REST]
            values = split_sums(parts, lambda kinds, left: self.by_part(roots, moves, wall, live_sora, W, t, kinds),
                                self)
        else:
            values = [self.move_value(roots[n], wall, live_sora, W, t, take) for n, take in moves]
        return best_moves(moves, values, falling(W, t))

    def takes(self, hand, wall, last: int | None = None) -> list[int | None]:
        """A 12-tile root's first moves: drawing at once (None), and with a そら held each room tile fetched first
        (`last` after the others)."""
        if not hand[self.sp]:
            return [None]
        room = self.room(hand, wall)
        return [None] + sorted((r for r in range(self.nr) if room[r]), key=lambda r: r == last)

    def move_value(self, hand, wall, live_sora, W, t, take) -> int:
        if take is not None:
            return self.fetched(add(add(hand, self.sp, -1), take, 1), wall, live_sora, W, t, self.all_rows)
        if hand[self.sp]:
            return self.waiting(hand, wall, live_sora, W, t, self.all_rows)
        return self.v12(hand, wall, live_sora, W, t, self.all_rows)

    def by_part(self, roots, moves, wall, live_sora, W, t, parts) -> list[int]:
        """Per move its scaled value's part from each part of the first draw `parts` yields: a relevant kind, a
        そら, or REST. Summed over every part, the move's value (a root the no-fetch search values is REST's)."""
        assert t >= 3, "below 3 draws a part's v12 is a closed form of the whole"
        sums = [0] * len(moves)
        try:
            for part in parts:
                self.part = (t, part)
                for i, (n, take) in enumerate(moves):
                    sums[i] += self.move_value(roots[n], wall, live_sora, W, t, take)
        finally:
            self.part = None
        return sums

    def split_states(self) -> int:  # (side.Splittable)
        return self.states + self.search.visited

    def add_split_states(self, states: int) -> None:
        """The child's states (side.split_sums): the cap holds for both processes together."""
        self.states += states - 1
        self.counted()


def fetch_win(rules: RuleSet, position, turns: int, discards: list[int | None], *, state_limit: int,
              deadline: float | None = None, tick: Callable[[int], None] | None = None,
              listed: Targets | None = None, guess: bool = True) -> tuple[list[tuple], int]:
    """Per root (a discard kind, None: the 12-tile hand as it stands) its first move as
    (P(win), P(win) drawing at once, the kind a そら fetches first or None), and the states visited.
    TooLarge (OutOfTime) past the limits. `listed`: the complete hands of prepare.reach_with_room, where the
    caller has them (prepare's own list is the same where no waiting room is given). `guess`: refuse up front a
    search the position's rough size puts past the state limit (False for fetch_within.py's shorter lists)."""
    hand = position.hand
    _, room, wall, _ = position_counts(rules, position, turns)
    check_turns(turns, sum(wall))
    rough = rough_states(rules, position, turns, turns - 1) if guess else 0  # (turns 4 of a real hand passes it)
    if rough > state_limit:
        raise TooLarge(f"the exact search with every fetch would visit about {about(rough)} states, past {state_limit:,}")
    targets = listed or reach_with_room(rules, position, turns, deadline)
    sora = rules.tiles.sora
    relevant = list(targets.relevant)
    if sora in relevant:
        raise ValueError("a fetch-mode そら is in no unit")  # a bug, never input
    positions = relevant + [k for k, n in enumerate(hand.concealed) if n and k not in relevant and k != sora] + [sora]
    nr = len(relevant)
    share.affordable(deadline, len(targets.counts), "the exact search with every fetch")
    compact = dict.fromkeys(map(itemgetter(*relevant), targets.counts), 1) if len(relevant) > 1 else \
        {tuple(t[k] for k in relevant): 1 for t in targets.counts}  # (itemgetter: 5x faster on a long list)
    share.check(deadline, "the exact search with every fetch")  # (each build below takes seconds on a long list)
    search = Search(positions=positions, n_relevant=nr, targets=compact,
                    nowin=NoWinScore(rules, hand.called, position.favourite), kinds=len(wall), objective="win",
                    sora_pos=None, state_limit=state_limit)
    share.check(deadline, "the exact search with every fetch")
    start = tuple(hand.concealed[k] for k in positions) + (0,)
    wall_r = tuple(wall[k] for k in relevant)
    base = tuple(start[i] + wall_r[i] + room[k] for i, k in enumerate(relevant))
    engine = FetchWin(search, base, len(positions) - 1, state_limit=state_limit, deadline=deadline, tick=tick)
    roots = [start if d is None else add(start, positions.index(d), -1) for d in discards]
    last = [None if d is None else positions.index(d) for d in discards]
    out = [(value, wait, None if take is None else positions[take])
           for value, wait, take in engine.first_moves(roots, wall_r, wall[sora], sum(wall), turns, last)]
    return out, engine.split_states()
