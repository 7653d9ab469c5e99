"""The planner's targets within reach and its memo keys (docs/formulation.md section 8, "State, memo,
pruning" and "The class nearest"): which listed targets a state can still reach, and the key under
which states of equal value meet. A mixin of recursion.Search, whose attributes it reads.
"""

from __future__ import annotations

import time

from solver.planning.targets import OutOfTime

CLOCKED_FROM = 1024  # targets past which each scan of them reads the clock (a scan then costs milliseconds)
MATRIX_FROM = 96  # targets within reach past which their columns are compared as numpy rows (Reach.interchangeable)


class Costed(list):
    """Targets within reach of one state, with each one's cost from that state's hand (`costs`) and its dense
    counts (`denses`), so that a child's list follows from the parent's without recounting (Reach.after_draw,
    Reach.after_discard). Only where no waiting room is in play: a fetch or a discard into the room changes
    what is available."""

    __slots__ = ("costs", "denses", "rows")

    def __init__(self, targets, costs, denses, rows=None):
        super().__init__(targets)
        self.costs, self.denses = costs, denses
        self.rows = rows  # the targets' rows in Reach.target_matrix() (numpy), made when first asked for


class Reach:
    def reachable(self, hand, wall, room, t, alive):
        """Targets still within reach: cost <= draws (+ fetches) left, each missing tile still available;
        under "nearest", only those of them at the lowest cost."""
        if self.nearest and not (self.sora is not None and room and hand[self.sora]):
            return self.nearest_within_reach(hand, wall, t, alive)
        if isinstance(alive, Costed) and not room:  # costs and liveness known: only the cap is new
            if all(c <= t for c in alive.costs):
                return alive
            keep = [j for j, c in enumerate(alive.costs) if c <= t]
            return Costed([alive[j] for j in keep], [alive.costs[j] for j in keep], [alive.denses[j] for j in keep])
        if room or self.nearest:
            return self.within_reach(hand, wall, room, t, alive)
        found = self.costs(hand, wall, alive, t)
        dense = self.dense_by_id
        return Costed([x for _, x in found], [c for c, _ in found], [dense[id(x)] for _, x in found])

    def after_draw(self, alive, hand, i, t):
        """The parent's Costed list after a draw of relevant kind i, capped at t draws left: a target needing i
        is one nearer; its liveness is unchanged (one copy fewer live, one fewer needed)."""
        held, targets, costs, denses = hand[i], [], [], []
        if len(alive) > MATRIX_FROM:  # the same, by columns
            costs = self.cost_array(alive) - (self.target_matrix()[self.rows_for(alive), i] > held)
            return self.narrowed(alive, (costs <= t).nonzero()[0], costs)
        for x, c, d in zip(alive, alive.costs, alive.denses):
            if d[i] > held:
                c -= 1
            if c <= t:
                targets.append(x)
                costs.append(c)
                denses.append(d)
        return Costed(targets, costs, denses)

    def after_discard(self, alive, hand, wall, x, t):
        """The Costed list of a 13-tile state after discarding position x (t draws left): a target holding at
        least as many x as the hand is one further, and needs one more live copy of x."""
        if x >= self.nr:  # no target holds it
            return self.reachable(hand, wall, (), t, alive)
        held, live, targets, costs, denses = hand[x], wall[x], [], [], []
        if len(alive) > MATRIX_FROM:  # the same, by columns
            column = self.target_matrix()[self.rows_for(alive), x].astype(int)
            holds = column >= held
            costs = self.cost_array(alive) + holds
            return self.narrowed(alive, ((costs <= t) & ~(holds & (column - held + 1 > live))).nonzero()[0], costs)
        for y, c, d in zip(alive, alive.costs, alive.denses):
            if d[x] >= held:
                if d[x] - held + 1 > live:
                    continue  # the discard was the last live copy it needed (issue 22's case)
                c += 1
            if c <= t:
                targets.append(y)
                costs.append(c)
                denses.append(d)
        return Costed(targets, costs, denses)

    def nearest_within_reach(self, hand, wall, t, alive):
        """within_reach without a waiting room, then only the targets at the lowest cost."""
        costed = self.costs(hand, wall, alive, t)
        low = min((cost for cost, _ in costed), default=None)
        return [target for cost, target in costed if cost == low]

    def within_reach(self, hand, wall, room, t, alive):
        if len(alive) > CLOCKED_FROM and self.deadline is not None and time.monotonic() > self.deadline:
            # (QA: with a full waiting room each call scans tens of thousands of targets, 0.1 s a state)
            raise OutOfTime(f"the exact plan passed its time budget at {self.visited:,} states")
        soras = hand[self.sora] if self.sora is not None and room else 0
        if soras:  # each そら fetches one tile of the waiting room in place of a draw
            wall = [w + r for w, r in zip(wall, room)]
        return [target for _, target in self.costs(hand, wall, alive, t + min(soras, t))]

    @staticmethod
    def costs(hand, available, alive, cap):
        """(cost, target) for each target whose missing copies are all available and cost <= cap.
        The planner's hottest loop: plain ints, early exits."""
        out = []
        for target in alive:
            cost = 0
            for i, c in target:
                need = c - hand[i]
                if need > 0:
                    if need > available[i]:
                        break
                    cost += need
                    if cost > cap:
                        break
            else:
                out.append((cost, target))
        return out

    def in_play(self, alive) -> tuple:
        """Part of every memo key under "nearest", where the targets in play depend on the path: which
        they are. Elsewhere they are every listed target within reach of the state, so nothing."""
        return tuple(map(id, alive)) if self.nearest else ()

    def canonical(self, hand, wall, alive):
        """P(win) only: (hand, wall) with the kinds that cannot matter merged, and the memo key.

        Kinds no live target holds are one junk slot (the last position) and leave the wall:
        targets within reach only get fewer, so such a kind never matters again; its held copies
        are interchangeable junk and its wall copies are part of the mass of junk draws. The
        returned state is searched on (its targets within reach are the same as the state's).
        When discards never raise h (slack 0), a kind every such target holds exactly as often as
        the hand is frozen: its draws are junk, and discarding one would raise every target's cost,
        so the hand keeps it for ever; its wall copies join the junk mass too.
        Kinds that every target within reach holds alike (the same count in each) and the hand
        holds alike are interchangeable: swapping two of them fixes the hand and every target within
        reach, so two states whose walls differ by such a swap and whose targets within reach are the
        same list have the same value. Only the key sorts their wall counts, and it then holds the
        targets within reach: a swapped wall can revive a target out of reach (one needing a kind whose
        copies are gone), so the sorted wall is never searched on (docs section 8; issue 22).
        """
        flags, classes, constant, most, _ = self.group_of(alive)
        kept = [n if f else 0 for n, f in zip(hand, flags)]
        kept.append(sum(hand) - sum(kept))
        if self.nearest:  # (a kind no target holds has most 0: flags need not be applied first)
            live = self.needed_wall(hand, wall, most)
        else:
            live = [n if f else 0 for n, f in zip(wall, flags)]
            if self.slack == 0:
                for i, c in constant:
                    if hand[i] == c:
                        live[i] = 0
        keyed = live
        for members in classes:
            by_count: dict[int, list[int]] = {}
            for i in members:
                by_count.setdefault(hand[i], []).append(i)
            for same in by_count.values():
                if len(same) > 1:
                    if keyed is live:
                        keyed = list(live)
                    for i, n in zip(same, sorted((live[i] for i in same), reverse=True)):
                        keyed[i] = n
        state = tuple(kept), tuple(live)
        if keyed is live:
            return state, state
        return state, (state[0], tuple(keyed), tuple(map(id, alive)))

    @staticmethod
    def needed_wall(hand, wall, most) -> list[int]:
        """Under "nearest", the live counts of the kinds some target in play needs more of (``most``: the
        most any target in play holds, group_of), else 0: a kind none needs is never needed again (docs
        section 8), so its draws are junk for good."""
        return [n if m > k else 0 for n, m, k in zip(wall, most, hand)]

    def group_of(self, alive):
        """interchangeable(alive), once per list of targets within reach."""
        groups = self.groups.get(alive_key := tuple(map(id, alive)))
        if groups is None:
            groups = self.groups[alive_key] = self.interchangeable(alive, len(self.positions))
        return groups

    def interchangeable(self, alive, positions: int):
        """interchangeable_sparse's tuple, by numpy columns for a long list."""
        if len(alive) > MATRIX_FROM:
            return self.interchangeable_matrix(alive, positions)
        return self.interchangeable_sparse(alive, positions)

    def rows_of(self, alive) -> list[int]:
        """The rows of `alive`'s targets in target_matrix()."""
        self.target_matrix()
        row = self.row_of
        return [row[id(x)] for x in alive]

    def rows_for(self, alive):
        """rows_of, kept on a Costed list (as a numpy array) so that it is made once."""
        if not isinstance(alive, Costed):
            return self.rows_of(alive)
        if alive.rows is None:
            import numpy as np

            alive.rows = np.array(self.rows_of(alive), dtype=np.intp)
        return alive.rows

    @staticmethod
    def cost_array(alive):
        import numpy as np

        return np.array(alive.costs, dtype=int)

    @staticmethod
    def narrowed(alive, keep, costs) -> Costed:
        """The Costed list of `alive`'s entries at the positions `keep` (numpy), with new `costs` (numpy, per entry
        of `alive`)."""
        idx = keep.tolist()
        targets, denses = [alive[j] for j in idx], [alive.denses[j] for j in idx]
        return Costed(targets, costs[keep].tolist(), denses, alive.rows[keep])

    def target_matrix(self):
        """Every listed target's counts over the relevant kinds, one row each (numpy, int8; made once)."""
        if self.matrix is None:
            import numpy as np  # (lazily: only plans with long lists of targets get here)

            self.matrix = np.array(list(self.scores), dtype=np.int8).reshape(len(self.scores), self.nr)
            self.row_of = {id(x): j for j, x in enumerate(self.sparse)}
        return self.matrix

    def interchangeable_matrix(self, alive, positions: int):
        """interchangeable_sparse for a long list, by columns of the targets' matrix: the same tuple."""
        import numpy as np

        rows = self.target_matrix()[self.rows_for(alive)]
        most, least = rows.max(0).tolist(), rows.min(0).tolist()
        columns = np.ascontiguousarray(rows.T)
        classes: dict[bytes, list[int]] = {}
        constant = []
        for i, m in enumerate(most):
            if m:
                classes.setdefault(columns[i].tobytes(), []).append(i)  # equal bytes: equal columns, exactly
                if least[i] == m:
                    constant.append((i, m))
        pad = [0] * (positions - self.nr)
        return tuple(m > 0 for m in most + pad), [members for members in classes.values() if len(members) > 1], \
            constant, tuple(most + pad), tuple(least + pad)

    def interchangeable_sparse(self, alive, positions: int):
        """(per-position flag: some target within reach holds it; classes of positions with equal columns;
        (position, count) for the positions every target holds the same number of; per position the
        most and the least any target holds), from the targets' sparse counts: a column is the list of
        (target index, count) over the targets holding the position, so equal columns are equal lists and
        the work is the targets' sizes, not positions x targets (most lists hold a few targets)."""
        columns: dict[int, list] = {}
        for j, target in enumerate(alive):
            for i, c in target:
                column = columns.get(i)
                if column is None:
                    columns[i] = [j, c]
                else:
                    column += (j, c)
        n = len(alive)
        most, least = [0] * positions, [0] * positions
        classes: dict[tuple, list[int]] = {}
        constant = []
        for i in sorted(columns):
            column = columns[i]
            counts = column[1::2]
            high = most[i] = max(counts)
            if len(counts) == n:
                low = least[i] = min(counts)
                if low == high:
                    constant.append((i, high))
            classes.setdefault(tuple(column), []).append(i)
        flags = tuple(m > 0 for m in most)
        return flags, [members for members in classes.values() if len(members) > 1], constant, tuple(most), \
            tuple(least)
