"""The planner's value recursion (docs/formulation.md section 8): memoised expectimax over the draws left.

Positions: the relevant kinds R first (kinds of some target), then the kinds of the starting hand
outside R (junk it holds, そら included). A state is the hand over those positions, the live wall
counts and (while a fetch-mode そら is held) the waiting room over R, the wall size W and the draws
left t. Draws of kinds outside R are one outcome: the tile is discarded at once (the policy class).

Values are integers scaled by falling(W, t) = W (W-1) ... (W-t+1), the number of ordered draw
sequences, so every sum is exact: U12 = sum_k w_k U13(+k) + (W - sum w) U12(t-1), and the value
is U / falling(W, t) as a Fraction at the root.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from itertools import compress

from solver.core.errors import MjError
from solver.core.wording import count
from solver.planning.closed import ClosedForms, Waits, _planc, falling, native_two_draws
from solver.planning.first_draw import REST, FirstDraw, FirstMove  # noqa: F401 (FirstMove: API)
from solver.planning.reach import Costed, Reach
from solver.planning.targets import NoWinScore, OutOfTime, TooLarge

STATE_LIMIT = 500_000  # memoised states before the search stops (TooLarge), never a silent cut
# costly steps below them (post-draw states, no-win scores) allowed per state of the limit: a そら held makes each
# state cost 6-30 steps, so unclocked the state limit alone let a two-そら hand run past 10 minutes (QA)
STEPS_PER_STATE = 8
# (plan.plan drops it where an answer follows anyway)
ADVICE = "; raise --max-states, lower --turns or --detour, or ask for an estimate past it (--estimate GAMES)"


class Search(Reach, ClosedForms, FirstDraw):
    """One memo for every root of one hand: discards, and every number of draws left."""

    def __init__(self, *, positions: list[int], n_relevant: int, targets: dict[tuple[int, ...], int],
                 nowin: NoWinScore, kinds: int, objective: str, sora_pos: int | None,
                 slack: int | None = None, state_limit: int = STATE_LIMIT,
                 tick: Callable[[int], None] | None = None, nearest: bool = False):
        self.positions, self.nr, self.kinds = positions, n_relevant, kinds
        if len(set(positions)) != len(positions):
            raise ValueError("a kind in two positions")  # (a bug, never input: full() reads one position a kind)
        at = {k: i for i, k in enumerate(positions)}
        self.slot_of = [at.get(k, len(positions)) for k in range(kinds)]  # kind -> its position (past them: none)
        self.win = objective == "win"
        self.scores = targets  # compact target -> best tsumo score
        slots = range(max(map(len, targets), default=0))  # (each target's nonzero slots and counts: compress,
        self.sparse = [tuple(zip(compress(slots, t), compress(t, t))) for t in targets]  # 1.4x a generator)
        self.sparse_of = dict(zip(targets, self.sparse))
        self.dense_by_id = {id(x): t for t, x in zip(targets, self.sparse)}  # (the sparse tuples live as long)
        self._completing: Waits | None = None  # see completing
        self.nowin, self.sora = nowin, sora_pos
        self.nowin_of: dict[tuple[int, ...], int] = {}  # hand -> its score without a win
        self.wait_sets: dict[tuple[int, ...], list] = {}  # 13 relevant tiles -> discard_waits
        self.memo: dict[tuple, int] = {}
        # Raw state -> value, checked before the targets within reach are filtered: a state's value
        # depends on the state alone (the parent's targets only narrow the filter), so a repeat
        # skips the filtering. Not counted as states (the canonical memo is).
        self.seen12: dict[tuple, int] = {}
        self.seen13: dict[tuple, int] = {}
        self.groups: dict[tuple[int, ...], tuple] = {}  # targets within reach (ids) -> canonical() data
        self.state_limit, self.tick = state_limit, tick
        self.deadline: float | None = None  # time.monotonic() past which the search stops (OutOfTime)
        self.visited = 0
        self.steps = 0  # costly steps below the counted states (new no-win scores, new post-draw states)
        self.slack = slack  # None: every discard; else only those within `slack` of the lowest distance
        # The class "nearest": only the targets at the lowest cost stay in play (a drawn tile is kept only
        # when it lowers h), so a ready hand keeps its wait and is valued in closed form.
        self.nearest = nearest
        self.matrix, self.row_of = None, {}  # Reach.target_matrix, made when a long list first needs it
        self.native = native_two_draws()  # the two-draw closed form after a draw in C (_planc), where built
        self.part: tuple[int, int] | None = None  # (t, part): at t draws only that part of the draw (by_part)
        self.roots_reached: dict[tuple, tuple] = {}  # root_reach's, for one by_part

    @property
    def completing(self) -> Waits:
        """The waits of 12 relevant tiles (closed.Waits), made on first use on the search's clock."""
        if self._completing is None:
            self._completing = Waits(self.scores, self.sparse_of, lambda: self.deadline)
        return self._completing

    # --- conversions --------------------------------------------------------------------------------
    def full(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(map((hand[:len(self.positions)] + (0,)).__getitem__, self.slot_of))  # (E[score]'s class searches
        # ask 134,000 times at 2 draws: a loop over the positions took 15 us a call)

    def nowin_score(self, hand: tuple[int, ...]) -> int:
        if self.win:
            return 0
        got = self.nowin_of.get(hand)
        if got is None:
            self.on_clock()
            got = self.nowin_of[hand] = self.nowin.score(self.full(hand))
        return got

    def on_clock(self) -> None:
        """The budget checked below the counted states too: one 12-tile state may hold thousands of costly
        steps (post-draw states, no-win scores), so the clock is read every 64 of them."""
        self.steps += 1
        if self.steps > STEPS_PER_STATE * self.state_limit:
            raise TooLarge(f"the exact plan passed {STEPS_PER_STATE * self.state_limit:,} steps ({STEPS_PER_STATE} for "
                           f"each of the {self.state_limit:,} states it may visit){ADVICE}")
        if self.deadline is not None and not self.steps & 63 and time.monotonic() > self.deadline:
            raise OutOfTime(f"the exact plan passed its time budget at {self.visited:,} states")

    # --- the recursion ------------------------------------------------------------------------------
    def v12(self, hand, wall, room, W, t, alive) -> int:
        """Scaled value of a 12-tile hand with t draws left (best first move)."""
        if t == 0:
            return self.nowin_score(hand)
        if self.sora is None or not hand[self.sora]:
            room = ()  # no そら to fetch with: the waiting room no longer matters
        if t == 1 and self.win and not room and not self.nearest:
            return self.last_draw(hand, wall)  # ("nearest" counts only the waits in play: ready_value)
        if self.part is not None and t == self.part[0]:  # (a root's part of its value: never kept)
            return self.v12_filtered(hand, wall, room, W, t, alive, top=True)
        raw = (hand, wall, room, t, W, self.in_play(alive))
        got = self.seen12.get(raw)
        if got is not None:
            return got
        value = self.ready_value(hand, wall, W, t, alive) if self.nearest and not room else None
        if value is None:
            value = self.v12_filtered(hand, wall, room, W, t, alive)
        self.seen12[raw] = value
        return value

    def v12_filtered(self, hand, wall, room, W, t, alive, top: bool = False) -> int:
        """`top`: a root's part of its value (by_part), neither looked up nor kept; its reach is (root_reach)."""
        if top:
            alive, hand, wall, key = self.root_reach(hand, wall, room, W, t, alive)
        else:
            alive, hand, wall, key = self.filtered(hand, wall, room, W, t, alive)
        got = None if top else self.memo.get(key)
        if got is not None:
            return got
        if not alive:  # no complete hand within reach: P(win) = 0; the score class keeps the hand
            value = self.nowin_score(hand) * falling(W, t)
        elif t == 2 and self.win and not room and not self.nearest and isinstance(alive, Costed):
            value = self.two_draws(hand, wall, W, alive)
        else:
            value = self.draw(hand, wall, room, W, t, alive)
            for pos in self.fetches(hand, room):  # (none at a root's part: its fetches are moves of their own)
                h, r = self.fetched(hand, room, pos)
                value = max(value, self.draw(h, wall, r, W, t, alive))
        if top:
            return value
        self.memo[key] = value
        self.visited += 1
        if self.visited > self.state_limit:
            raise TooLarge(f"the exact plan passed {count(self.state_limit, 'state')}{ADVICE}")
        if self.deadline is not None and not self.visited & 255 and time.monotonic() > self.deadline:
            raise OutOfTime(f"the exact plan passed its time budget at {self.visited:,} states")
        if self.visited % 4096 == 0:
            if len(self.seen12) + len(self.seen13) > 8 * self.state_limit:
                self.seen12.clear()  # only a cache: bound its memory
                self.seen13.clear()
            if self.tick:
                self.tick(self.visited)
        return value

    def filtered(self, hand, wall, room, W, t, alive) -> tuple:
        """(targets within reach, the hand and wall searched on, the memo key) of a 12-tile state."""
        alive = self.reachable(hand, wall, room, t, alive)
        keyed = None
        if self.win and not room:
            (hand, wall), keyed = self.canonical(hand, wall, alive)
        elif self.nearest and not room:  # E[score]: the hand stays whole (its score), the wall loses the unneeded
            wall = tuple(self.needed_wall(hand, wall, self.group_of(alive)[3]))
        return alive, hand, wall, (keyed or (hand, wall), room, t, W, self.in_play(alive))

    def fetches(self, hand, room) -> list[int]:
        if not room or self.sora is None or not hand[self.sora]:
            return []
        return [i for i in range(self.nr) if room[i]]

    def fetched(self, hand, room, pos):
        """そら to the waiting room, the tile at `pos` from it into the hand."""
        h = list(hand)
        h[self.sora] -= 1
        h[pos] += 1
        r = list(room)
        r[pos] -= 1
        return tuple(h), tuple(r)

    def draw(self, hand, wall, room, W, t, alive) -> int:
        part = self.part[1] if self.part is not None and t == self.part[0] else None  # (None: every part)
        total = 0
        live = 0
        # under "nearest" a draw no target in play needs is discarded at once: one outcome with the junk
        most = self.group_of(alive)[3] if self.nearest and not room else None
        if t == 3 and self.native and self.win and not room and not self.nearest and isinstance(alive, Costed):
            native = self.drawn_natively(hand, wall, W, alive)
            if native is not None:
                return native
        for i in range(self.nr):
            n = wall[i]
            if n and (most is None or most[i] > hand[i]):
                live += n
                if part is not None and part != i:
                    continue
                h = list(hand)
                h[i] += 1
                w = list(wall)
                w[i] -= 1
                if most is not None:
                    child = self.needing(alive, i, hand[i])
                elif isinstance(alive, Costed) and not room and (t > 2 or not self.win):
                    h, w = tuple(h), tuple(w)
                    raw = (h, w, (), t - 1, W - 1, ())  # the child's raw key (v13)
                    got = self.seen13.get(raw)
                    if got is not None:
                        total += n * got
                        continue
                    child = self.after_draw(alive, hand, i, t - 1)
                else:
                    child = alive
                total += n * self.v13(tuple(h), tuple(w), room, W - 1, t - 1, child)
        if W > live and part in (None, REST):  # a tile of no relevant kind: discarded at once
            total += (W - live) * self.v12(hand, wall, room, W - 1, t - 1, alive)
        return total

    def drawn_natively(self, hand, wall, W, alive) -> int | None:
        """draw() of a 12-tile hand with three draws left (P(win), no waiting room), with v13 after every relevant
        draw (the best discard with two draws left, two_draws_best) from one C call (_planc.drawn_best); None
        where the C function declines (sizes past its arrays): draw() answers then."""
        kinds = [k for k in range(self.nr) if wall[k]]
        rows = self.target_matrix()[self.rows_for(alive)].tobytes()
        got = _planc.drawn_best(hand, wall, W, kinds, rows, alive.costs, self.nr)
        if got is None:
            return None
        self.steps += len(kinds)
        if self.deadline is not None and time.monotonic() > self.deadline:  # (each call is dozens of states)
            raise OutOfTime(f"the exact plan passed its time budget at {self.visited:,} states")
        total = live = 0
        for k, value in zip(kinds, got):
            total += wall[k] * value
            live += wall[k]
        if W > live:  # a tile of no relevant kind: discarded at once
            total += (W - live) * self.v12(hand, wall, (), W - 1, 2, alive)
        return total

    def needing(self, alive, i, held) -> list:
        """Under "nearest", the targets in play after a draw of i: those that need it (one draw nearer, and
        their other needs as live as before); the rest fall behind them (docs section 8)."""
        dense = self.dense_by_id
        return [x for x in alive if dense[id(x)][i] > held]

    def v13(self, hand, wall, room, W, t, alive) -> int:
        """Scaled value right after a draw: win if complete (and worth it), else the best discard.

        A tile that no target within reach uses (every such target holds fewer of its kind) is
        junk: discarding it is optimal for P(win) (the player keeping another tile instead can
        mimic any play, docs section 8), so only junk is considered while any is held, and no
        waiting room is in play (a fetch could tell the two hands apart).
        """
        raw = (hand, wall, room, t, W, self.in_play(alive))
        got = self.seen13.get(raw)
        if got is None:
            self.on_clock()
            got = self.seen13[raw] = self.v13_filtered(hand, wall, room, W, t, alive)
        return got

    def v13_filtered(self, hand, wall, room, W, t, alive) -> int:
        score = self.scores.get(hand[:self.nr]) if not any(hand[self.nr:]) else None
        if score is not None and self.nearest and self.sparse_of[hand[:self.nr]] not in alive:
            score = None  # "nearest" wins only with a complete hand in play (as its closed form counts)
        scale = falling(W, t)
        if score is not None and (self.win or self.nearest):
            return scale if self.win else score * scale  # "nearest": a complete hand in play wins at once
        if t == 0 and self.win:
            return 0  # no draw left: no discard can win (the waiting room only serves a later draw)
        if t == 1 and self.win and not room and not self.nearest:
            return self.last_discard(hand, wall)
        if t == 2 and self.win and not room and not self.nearest and isinstance(alive, Costed):
            return self.two_draws_best(hand, wall, W, alive)  # (its costs are this hand's: after_draw)
        alive, candidates = self.discard_options(hand, wall, room, t, alive, exact=self.nearest and not room)
        if not alive and not room:  # nothing within reach: the hand is kept (P(win) 0)
            best = 0 if self.win else \
                scale * max(self.nowin_score(self.discarded(hand, room, i)[0]) for i in candidates)
        else:
            best = max(self.discard_value(hand, wall, room, W, t, alive, i) for i in candidates)
        return max(best, score * scale) if score is not None else best

    def live_waits(self, hand, wall):
        """(discard x, live copies of the tiles completing the hand after it) for each relevant tile held."""
        nr, completing = self.nr, self.completing
        for x in range(nr):
            if hand[x]:
                yield x, sum(wall[i] for i, _, _ in completing.get(hand[:x] + (hand[x] - 1,) + hand[x + 1:nr], ()))

    def discard_value(self, hand, wall, room, W, t, alive, i) -> int:
        h, r = self.discarded(hand, room, i)
        if isinstance(alive, Costed) and not room and (t > 1 or not self.win):  # (one draw left: no list needed)
            got = self.seen12.get((h, wall, (), t, W, ()))  # the child's raw key (v12), before its list is made
            if got is not None:
                return got
            alive = self.after_discard(alive, hand, wall, i, t)
            if not alive and self.win:
                return 0  # no target within reach (reduction 1), without keying the state
        return self.v12(h, wall, r, W, t, alive)

    def discard_options(self, hand, wall, room, t, alive, exact=False):
        """(targets within reach, the discards the class considers): junk first, then those near the lowest h.
        `exact`: `alive` is the state's own targets in play already (draw() narrowed them), not its parent's."""
        alive = (alive if exact else self.reachable(hand, wall, room, t, alive)) if t else []
        candidates = [i for i, n in enumerate(hand) if n]
        if not alive or room:
            return alive, candidates
        group = self.group_of(alive)
        most = group[3]
        junk = [i for i in candidates if i >= len(most) or hand[i] > most[i]]
        if junk:
            return alive, junk[:1] if self.win else junk
        if self.nearest:  # every target in play is at the lowest cost: keep it if any discard can
            least = group[4]
            keeping = [i for i in candidates if least[i] < hand[i]]
            return alive, keeping or candidates
        if self.slack is not None:
            candidates = self.near(hand, candidates, alive)
        elif self.win and group[1]:
            candidates = self.one_per_swap(hand, wall, candidates, group[1])
        return alive, candidates

    @staticmethod
    def one_per_swap(hand, wall, candidates, classes) -> list[int]:
        """P(win): of two interchangeable kinds held alike with equal live counts, one discard stands for both
        (swapping them maps one child to the other and fixes every target within reach, docs section 8)."""
        of = {i: c for c, members in enumerate(classes) for i in members}
        kept, seen = [], set()
        for i in candidates:
            c = of.get(i)
            if c is not None:
                key = (c, hand[i], wall[i] if i < len(wall) else 0)
                if key in seen:
                    continue
                seen.add(key)
            kept.append(i)
        return kept

    def choose(self, hand, wall, room, W, t) -> int:
        """The class's best discard (a position) of a 13-tile hand with t draws left: the policy played."""
        alive, candidates = self.discard_options(hand, wall, room, t, self.sparse)
        if not alive and not room:
            return max(candidates, key=lambda i: self.nowin_score(self.discarded(hand, room, i)[0]))
        return max(candidates, key=lambda i: self.discard_value(hand, wall, room, W, t, alive, i))

    def near(self, hand, candidates, alive) -> list[int]:
        """The discards whose distance to the nearest live target is within `slack` of the lowest."""
        # Discarding i costs a target one more draw iff it holds at least hand[i] of i, so the
        # distance after it is the lowest cost m now, or m + 1 when every target at m holds that many.
        costs = [sum(c - hand[k] for k, c in target if c > hand[k]) for target in alive]
        m = min(costs)
        closest = [dict(target) for target, cost in zip(alive, costs) if cost == m]
        dist = {i: m if any(t.get(i, 0) < hand[i] for t in closest) else m + 1 for i in candidates}
        low = min(dist.values())
        return [i for i in candidates if dist[i] <= low + self.slack]

    def discarded(self, hand, room, pos):
        h = list(hand)
        h[pos] -= 1
        if room and pos < self.nr:
            r = list(room)
            r[pos] += 1
            room = tuple(r)
        return tuple(h), room

def check_probability(value: Fraction) -> Fraction:
    if not 0 <= value <= 1:
        raise MjError(f"internal error: probability {value} outside [0, 1]")  # a bug, never input
    return value
