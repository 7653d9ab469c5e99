"""The search with every fetch's values at the last fetch, in closed form (docs/formulation.md section 8, "P(win)
with every fetch", items 5-7): a mixin of fetch_win.FetchWin, whose attributes (nr, sp, search, native) and list
conversions (targets, as_rows) it reads.
Hands are over the search's positions, walls and rooms over the relevant kinds; values count live tiles (the
last draw's scale)."""

from __future__ import annotations

from solver.planning.closed import _planc, add


class FetchClosed:
    def swap_last(self, hand, wall, room, alive) -> int:
        """Scaled by W: the best of a 12-tile hand's waits and those of the hand with one tile swapped for a room
        tile (a そら just drawn or held in 13 tiles, one draw left). A target two away holds all the hand but one
        tile s and misses a, b: swap s for a room a, wait on b. One away (missing m): swap any y for a room m, wait
        on y."""
        nr, search = self.nr, self.search
        best = search.last_draw(hand, wall)
        gains: dict[tuple[int, int], int] = {}
        held = [p for p, n in enumerate(hand) if n]
        dense = search.dense_by_id
        for target, cost in self.close(hand, alive, 2):
            missing = [i for i, c in target for _ in range(c - hand[i])]
            if cost == 1:
                m = missing[0]
                if room[m]:
                    for y in held:
                        if y != m and y < nr and wall[y]:
                            gains[(y, m)] = gains.get((y, m), 0) + wall[y]
                continue
            d = dense[id(target)]
            s = next(p for p in held if hand[p] > (d[p] if p < nr else 0))
            a, b = missing
            if room[a] and wall[b]:
                gains[(s, a)] = gains.get((s, a), 0) + wall[b]
            if a != b and room[b] and wall[a]:
                gains[(s, b)] = gains.get((s, b), 0) + wall[a]
        return max(best, max(gains.values(), default=0))

    def fetch_last(self, hand, wall, room, alive) -> int:
        """Scaled by W: a 12-tile hand holding one そら, one draw left: the best room tile r taken, then the draws
        completing hand - そら + r (a target holding all the hand but そら, missing a and b)."""
        gains: dict[int, int] = {}
        for target, _ in self.close(hand, alive, 2, exactly=True):
            a, b = [i for i, c in target for _ in range(c - hand[i])]
            if room[a] and wall[b]:
                gains[a] = gains.get(a, 0) + wall[b]
            if a != b and room[b] and wall[a]:
                gains[b] = gains.get(b, 0) + wall[a]
        return max(gains.values(), default=0)

    def drawn_swaps(self, hand, wall, room, near) -> tuple[int, int]:
        """sum over the relevant kinds k of w_k swap_last(G + k), G = hand - そら (a 12-tile hand holding one そら,
        two draws left, drawing at once), in one pass over the targets within three tiles of G instead of a list
        per draw. With G + k: a target two tiles from G (missing m and k) is one away (wait m; or swap any y for a
        room m, wait y); one missing a, b, neither k, has the surplus k (swap k for a room a, wait b: the sums S);
        one three tiles from G (surplus s, missing k, r, b) gives the swap of s for a room r, wait b. Returns the
        sum and the live copies of the relevant kinds (every other draw leaves the hand as it is)."""
        nr = self.nr
        dense = self.search.dense_by_id
        held = [p for p, n in enumerate(hand) if n and p != self.sp]
        spared: dict[int, int] = {}  # a -> sum over targets G + a + b of w_b (room a): swap the drawn k for a
        pairs_with: dict[tuple[int, int], int] = {}  # (a, k) -> w_k of target G + a + k (not a swap of k)
        per_k: dict[int, list] = {}  # k -> [(target, the missing tiles other than k, surplus or None)]
        for target in near:
            missing = [i for i, c in target for _ in range(c - hand[i])]
            if len(missing) == 2:
                a, b = missing
                for x, y in ((a, b), (b, a)) if a != b else ((a, b),):
                    if room[x]:
                        spared[x] = spared.get(x, 0) + wall[y]
                        pairs_with[(x, y)] = wall[y]
                    per_k.setdefault(x, []).append((y, None))
            elif len(missing) == 3:
                d = dense[id(target)]
                s = next(p for p in held if hand[p] > (d[p] if p < nr else 0))
                for j, k in enumerate(missing):
                    if j and k == missing[j - 1]:
                        continue
                    per_k.setdefault(k, []).append((missing[:j] + missing[j + 1:], s))
        total = live = 0
        for k in range(nr):
            n = wall[k]
            if not n:
                continue
            live += n
            w = add(wall, k, -1)
            ready = 0
            gains: dict[tuple[int, int], int] = {}  # (y, r): swap y for a room r -> the waits' live copies
            for rest, s in per_k.get(k, ()):
                if s is None:  # G + k is one away, missing m
                    m = rest
                    ready += w[m]
                    if room[m]:
                        for y in held if k in held else held + [k]:
                            if y != m and y < nr and w[y]:
                                gains[(y, m)] = gains.get((y, m), 0) + w[y]
                else:
                    r, b = rest
                    if room[r] and w[b]:
                        gains[(s, r)] = gains.get((s, r), 0) + w[b]
                    if r != b and room[b] and w[r]:
                        gains[(s, b)] = gains.get((s, b), 0) + w[r]
            for a, value in spared.items():  # the drawn k swapped for a (targets G + a + k counted in gains)
                if a != k:
                    key = (k, a)
                    gains[key] = gains.get(key, 0) + value - pairs_with.get((a, k), 0)
            total += n * max(ready, max(gains.values(), default=0))
        return total, live

    def close(self, hand, alive, cap, exactly=False):
        """(target, cost) of the targets 1 to `cap` tiles from the hand (exactly `cap`), liveness aside (the swaps
        check each missing copy themselves): Search.costs with no copy limit."""
        unlimited = [cap] * self.nr
        return [(target, cost) for cost, target in self.search.costs(hand, unlimited, alive, cap)
                if cost and (cost == cap or not exactly)]

    def swaps(self, hand, wall, room, near) -> tuple[int, int]:
        """drawn_swaps, in C (_planc.swaps_drawn) where built. `near`: sparse targets, or rows of the matrix."""
        if self.native:
            got = _planc.swaps_drawn(hand, wall, tuple(room), self.nr,
                                     self.search.target_matrix()[self.as_rows(near)].tobytes(), self.sp)
            if got is not None:
                return got
        return self.drawn_swaps(hand, wall, room, self.targets(near))
