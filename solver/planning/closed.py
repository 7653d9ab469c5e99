"""The planner's values that need no recursion (docs/formulation.md section 8): one draw left, two draws left
(P(win), from the targets within reach), and a ready hand under "nearest". A mixin of recursion.Search, whose
attributes (nr, completing, win, nowin_score, wait_sets) it reads."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from solver.planning.clock import check
from solver.planning.targets import planc_built

try:
    from solver.planning import _planc  # the two-draw closed form in C (setup.py), where it was built
except ImportError:
    _planc = None


@lru_cache(maxsize=4096)  # a few hundred (W, t) pairs a plan, asked for at every state
def falling(n: int, t: int) -> int:
    out = 1
    for i in range(t):
        out *= n - i
    return out


def add(counts: tuple[int, ...], k: int, n: int) -> tuple[int, ...]:
    """counts with n more of position k (a draw, a discard, a fetch)."""
    return counts[:k] + (counts[k] + n,) + counts[k + 1:]


def best_moves(moves: list[tuple], values: list[int], scale: int) -> list[tuple[Fraction, Fraction, int | None]]:
    """Per root, from its first moves (root index, what a そら fetches first or None) in order, drawing at once
    first, and their scaled values: (the best value, the value of drawing at once, the best move's fetch or None; a
    fetch only where strictly better)."""
    out: list[list] = []
    for (n, take), value in zip(moves, values):
        if take is None:
            out.append([value, value, None])
        elif value > out[n][0]:
            out[n][0], out[n][2] = value, take
    return [(Fraction(best, scale), Fraction(wait, scale), take) for best, wait, take in out]


class Waits:
    """12 relevant tiles -> [(kind whose draw completes them, the target it completes, its score)]: the waits, read
    without recursion with one draw left and for ready hands under "nearest". Found per hand as asked (hand + k in
    the targets, for each k), until the hands asked outnumber a quarter of the targets; then the whole map is built
    at once, over every target less each tile it holds (a second at 33,000 targets, where the search of a one-そら
    hand at 3 draws asked for 1,400 hands; a long search over few targets asks for far more hands than it holds)."""

    def __init__(self, scores: dict[tuple[int, ...], int], sparse_of: dict, deadline: Callable[[], float | None]):
        """`deadline`: the search's deadline as it stands when the whole table is built (a search outlives one)."""
        self.scores, self.sparse_of, self.deadline = scores, sparse_of, deadline
        self.found: dict[tuple[int, ...], list[tuple]] = {}
        self.whole = not scores
        self.asked = 0

    def get(self, hand: tuple[int, ...], default=()) -> list[tuple]:
        got = self.found.get(hand)
        if got is not None or self.whole:
            return got or default
        self.asked += 1
        if 4 * self.asked > len(self.scores):
            self.found = self.built()
            self.whole = True
            return self.found.get(hand, default)
        scores, sparse_of, got = self.scores, self.sparse_of, []
        for i, c in enumerate(hand):
            target = hand[:i] + (c + 1,) + hand[i + 1:]
            score = scores.get(target)
            if score is not None:
                got.append((i, sparse_of[target], score))
        self.found[hand] = got
        return got or default

    def built(self) -> dict[tuple[int, ...], list[tuple]]:
        built: dict[tuple[int, ...], list[tuple]] = {}
        for n, (t, score) in enumerate(self.scores.items()):
            if not n & 4095:  # (a long list takes seconds: the clock read on the way; kept only whole)
                check(self.deadline(), "the exact plan")
            for i, c in enumerate(t):
                if c:
                    built.setdefault(t[:i] + (c - 1,) + t[i + 1:], []).append((i, self.sparse_of[t], score))
        return built


class ClosedForms:
    def last_draw(self, hand, wall) -> int:
        """P(win) with one draw left, scaled by W: the live draws that complete the hand (no recursion)."""
        if any(hand[self.nr:]):
            return 0  # junk held: no draw completes the hand
        return sum(wall[i] for i, _, _ in self.completing.get(hand[:self.nr], ()))

    def ready_value(self, hand, wall, W, t, alive) -> int | None:
        """Scaled value of a ready hand (a live draw completes a target in play) under "nearest": every
        other draw is discarded at once, so the first winning tile decides; won with one of the w live
        winning tiles in falling(W, t) - falling(W - w, t) ordered draw sequences (None: not ready)."""
        if any(hand[self.nr:]):
            return None
        waits = [(i, score) for i, target, score in self.completing.get(hand[:self.nr], ()) if target in alive]
        live = sum(wall[i] for i, _ in waits)
        if not live:
            return None
        lose = falling(W - live, t)
        wins = falling(W, t) - lose
        if self.win:
            return wins
        # E[score]: by the position of the first winning tile, the winning sequences are a multiple of w,
        # shared by the winning kinds as their live copies w_k
        scored = sum(wall[i] * score for i, score in waits)
        return wins // live * scored + lose * self.nowin_score(hand)

    def two_draws(self, hand, wall, W, alive) -> int:
        """P(win) of a 12-tile hand with two draws left, scaled by W (W-1), from its targets within reach alone
        (docs section 8, "Two draws in closed form"). After a draw of k the best discard x leaves the waits
        {i: hand + k - x + i is a target}: a target one tile away (missing b) gives x = k, wait b (or wins when
        k = b); one two tiles away (missing a and b, holding all the hand but s) gives, after a draw of a,
        x = s and wait b. Any other discard leaves no wait (worth 0 with one draw left)."""
        nr = self.nr
        held = [i for i, n in enumerate(hand) if n]
        wins: set[int] = set()  # kinds whose draw completes the hand
        by_draw: dict[int, dict[int, set[int]]] = {}  # k -> x -> waits after drawing k and discarding x
        for target, cost, dense in zip(alive, alive.costs, alive.denses):
            if cost == 1:
                wins.update(i for i, c in target if c > hand[i])
                continue
            missing = [i for i, c in target for _ in range(c - hand[i]) if c > hand[i]]
            spare = next(i for i in held if (dense[i] if i < nr else 0) < hand[i])
            a, b = missing
            by_draw.setdefault(a, {}).setdefault(spare, set()).add(b)
            by_draw.setdefault(b, {}).setdefault(spare, set()).add(a)
        return two_draw_value(wall, W, wins, by_draw)

    def two_draws_best(self, hand, wall, W, alive) -> int:
        """P(win) of a 13-tile hand with two draws left, scaled by W (W-1): the best discard's two_draws, for every
        discard from one pass over the hand's targets within reach (costs from the 13 tiles, at most 2), with no
        12-tile state built, listed or keyed (docs section 8, "The best discard with two draws left").

        A target one tile away (all the hand but s, missing b; `waits[s]` holds b) is a wait on b after
        discarding s, and after discarding another x it is two away: missing b and x, spare s. A target two tiles
        away (all the hand but s1, s2; missing a, b) is after discarding s1 two away with spare s2 (and the
        reverse), and out of reach after any other discard. A target that needs one more live copy of x than the
        wall has counts no live wait, so liveness needs no check here. Every discard is tried."""
        held = [i for i, n in enumerate(hand) if n]
        waits, pairs = self.two_draw_tables(hand, held, alive)
        best = 0
        for bound, x in sorted(zip(self.two_draw_bounds(wall, W, held, waits, pairs), held), reverse=True):
            if bound <= best:
                break  # this discard and every later one (lower bounds first) cannot beat the best found
            value = next(self.two_draws_each(wall, W, [x], waits, pairs))
            if value > best:
                best = value
        return best

    @staticmethod
    def two_draw_bounds(wall, W, held, waits, pairs) -> list[int]:
        """Per held x, an upper bound of two_draws_each's value of discarding x (docs section 8, "Pruning the
        discards with two draws left"): with `ready` the live waits of hand - x, every draw outside them keeps at
        least `ready` and at most `ready` or A live waits, A the live copies of x, of every kind some target one
        away waits on, and of every kind of x's targets two away; and those draws number at most A of them too."""
        union: set[int] = set()
        for kinds in waits.values():
            union |= kinds
        one = sum(wall[i] for i in union)
        out = []
        for x in held:
            ready = sum(wall[i] for i in waits.get(x, ()))
            kinds = set()
            for a, b, _ in pairs.get(x, ()):
                kinds.add(a)
                kinds.add(b)
            most = (wall[x] if x < len(wall) else 0) + one + sum(wall[i] for i in kinds)
            some = min(most, W - ready)
            out.append(ready * (W - 1) + (W - ready - some) * ready + some * max(ready, most))
        return out

    def two_draw_tables(self, hand, held, alive):
        """(s -> the kinds completing hand - s; x -> (a, b, spare) of each target two away whose extra tiles
        hold x), from the 13-tile hand's targets within reach."""
        nr = self.nr
        waits: dict[int, set[int]] = {}
        pairs: dict[int, list[tuple[int, int, int]]] = {}
        for target, cost, dense in zip(alive, alive.costs, alive.denses):
            missing = [i for i, c in target if c > hand[i]]
            extra = [i for i in held if (dense[i] if i < nr else 0) < hand[i]]
            if cost == 1:
                waits.setdefault(extra[0], set()).add(missing[0])
            elif cost == 2:
                a, b = missing if len(missing) == 2 else missing * 2
                if len(extra) == 2:
                    s1, s2 = extra
                    pairs.setdefault(s1, []).append((a, b, s2))
                    pairs.setdefault(s2, []).append((a, b, s1))
                else:
                    pairs.setdefault(extra[0], []).append((a, b, extra[0]))
        return waits, pairs

    @staticmethod
    def two_draws_each(wall, W, held, waits, pairs):
        """two_draws of hand - x for each held x in turn, from two_draws_best's tables."""
        for x in held:
            wins = waits.get(x, set())
            by_draw: dict[int, dict[int, set[int]]] = {}
            for s, kinds in waits.items():
                if s == x:
                    continue
                by_draw.setdefault(x, {})[s] = set(kinds)  # a draw of x: discard s, back to waiting on kinds
                for b in kinds:  # a draw of b: discard s, wait on x
                    by_draw.setdefault(b, {}).setdefault(s, set()).add(x)
            for a, b, spare in pairs.get(x, ()):
                by_draw.setdefault(a, {}).setdefault(spare, set()).add(b)
                by_draw.setdefault(b, {}).setdefault(spare, set()).add(a)
            yield two_draw_value(wall, W, wins, by_draw)

    def last_discard(self, hand, wall) -> int:
        """P(win) of the best discard with one draw left, scaled by W, from the wait table alone.

        Every discard is tried: one that leaves no wait is worth 0 and one that leaves a wait has the
        lowest h there is (1), so this is the class's value as well as the all-play value.
        """
        nr = self.nr
        extra = sum(hand[nr:])
        if extra > 1:
            return 0  # two tiles no target holds: no single discard leaves a wait
        if extra:
            return self.last_draw(hand[:nr] + (0,) * (len(hand) - nr), wall)
        key = hand[:nr]
        waits = self.wait_sets.get(key)
        if waits is None:
            waits = self.wait_sets[key] = self.discard_waits(key)
        return max((sum(wall[i] for i in kinds) for kinds in waits), default=0)

    def discard_waits(self, hand) -> list[tuple[int, ...]]:
        """The kinds completing the hand after each discard that leaves a wait, one tuple per distinct set, none
        inside another (a set inside another never counts more live copies)."""
        completing, found = self.completing, set()
        for x, n in enumerate(hand):
            if n:
                kinds = frozenset(i for i, _, _ in completing.get(hand[:x] + (n - 1,) + hand[x + 1:], ()))
                if kinds:
                    found.add(kinds)
        return [tuple(k) for k in found if not any(k < other for other in found)]


def two_draw_value(wall, W, wins, by_draw) -> int:
    """ClosedForms.two_draws from its tables: the kinds whose draw completes the 12-tile hand, and per other
    needed draw k, per discard x after it, the waits left. A draw of a kind in neither keeps the waits `wins`
    (discarded at once: k is no wait, and its one fewer live copy changes nothing)."""
    ready = sum(wall[i] for i in wins)
    total, covered = 0, 0
    for k in wins:
        n = wall[k]
        total += n * (W - 1)
        covered += n
    for k, options in by_draw.items():
        n = wall[k]
        if not n or k in wins:
            continue
        covered += n
        best = ready
        for x, waits in options.items():
            got = sum(wall[i] for i in waits) - (k in waits)
            if x == k:
                got = sum(wall[i] for i in waits | wins) - (k in waits)
            if got > best:
                best = got
        total += n * best
    return total + (W - covered) * ready


def native_two_draws() -> bool:
    """Whether the recursion uses _planc.drawn_best (built, and MJ_PURE=1 not set: tests compare the two)."""
    return planc_built(None)
