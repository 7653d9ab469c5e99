"""Past the exact frontier: a Monte Carlo estimate of one named policy, with its 95 % interval
(docs/formulation.md section 8, "Estimates"). Never reported as exact: the plan says `estimate`.

The policy is played in sampled walls of the solo model, the same walls for every discard (common
random numbers, so differences between discards are sharper than each interval). Its value is that
of a real way of playing, so it estimates a lower bound of the all-play value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.core.search.native import forced_pure
from solver.planning.answer import DiscardPlan
from solver.planning.clock import LEAST_GAMES
from solver.planning.targets import past

try:
    from solver.planning import _estimatec  # play() in C (setup.py), where it was built
except ImportError:
    _estimatec = None

POLICY = ("wins at once; discards junk first, then the tile leaving the lowest h over the listed targets, "
          "ties by the most unseen copies (at the start) of the tiles that lower it; with one draw left, "
          "the discard leaving the most live winning tiles; drawn tiles of other kinds discarded at once; "
          "そら never fetched")
Z95 = 1.959963984540054  # the normal quantile of 0.975
BATCH = 100  # walls played for every root between two looks at the clock


@dataclass(frozen=True)
class Sampled:
    """One discard's outcome over the games: wins, and the sum and sum of squares of the scores."""

    games: int
    wins: int
    total: int
    squares: int

    @property
    def win_probability(self) -> Fraction:
        return Fraction(self.wins, self.games)

    @property
    def expected_score(self) -> Fraction:
        return Fraction(self.total, self.games)

    def win_interval(self) -> tuple[float, float]:
        """Wilson's 95 % score interval (sound near 0 and 1, where the normal one is not)."""
        n, p = self.games, self.wins / self.games
        centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
        # (exact ends where the sample does: the float sum leaves ~1e-19 there)
        return (0.0 if self.wins == 0 else max(0.0, centre - half)), \
            (1.0 if self.wins == n else min(1.0, centre + half))

    def score_interval(self) -> tuple[float, float]:
        """The normal 95 % interval of the mean score (sample variance)."""
        n, mean = self.games, self.total / self.games
        variance = max(0.0, (self.squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
        half = Z95 * math.sqrt(variance / n)
        return mean - half, mean + half


class Policy:
    """The named policy's discard for a 13-tile hand over the planner's positions (junk slot last)."""

    def __init__(self, search, start_wall: tuple[int, ...]):
        self.search, self.nr = search, search.nr
        self.matrix = np.array(list(search.scores), dtype=np.int16).reshape(len(search.scores), self.nr)  # a row per target
        self.start_wall = np.array(start_wall, dtype=np.int64)
        self.memo: dict[tuple[int, ...], int] = {}

    def costs(self, hand: tuple[int, ...]) -> np.ndarray:
        """Each target's cost from the hand (kept up to date by play(), one column per move)."""
        return np.maximum(self.matrix - np.array(hand[:self.nr]), 0).sum(axis=1, dtype=np.int32)

    def discard(self, hand: tuple[int, ...], wall: list[int], left: int, costs: np.ndarray | None = None) -> int:
        junk = next((i for i in range(self.nr, len(hand)) if hand[i]), None)
        if junk is not None:
            return junk
        if left == 1:
            best = self.last(hand, wall)
            if best is not None:
                return best
        got = self.memo.get(hand)
        if got is None:
            got = self.memo[hand] = self.lowest_h(hand, costs)
        return got

    def last(self, hand, wall) -> int | None:
        """With one draw left: the discard leaving the most live winning tiles (None: none leaves any)."""
        best, choice = 0, None
        for x, live in self.search.live_waits(hand, wall):
            if live > best:
                best, choice = live, x
        return choice

    def lowest_h(self, hand, costs: np.ndarray | None = None) -> int:
        """Discarding x costs a target one more draw iff it holds at least hand[x] of x, so h after it is
        the least cost m now when some target at m holds fewer x than the hand (then the kinds that
        lower it are those such targets lack), else m + 1 (the kinds the targets at m lack, x itself,
        and those lacked by the targets at m + 1 that hold fewer x). All discards at once, by matrices."""
        held = np.array(hand[:self.nr])
        if not len(self.matrix):
            return int(np.argmax(held > 0))
        if costs is None:
            costs = self.costs(hand)
        m = costs.min()
        closest, next_ = self.matrix[costs == m], self.matrix[costs == m + 1]
        # float32 so the products go to BLAS (integer matmul does not); exact below 2^24 rows
        lack_c, fewer_c = (closest > held).astype(np.float32), (closest < held).astype(np.float32)
        lack_n, fewer_n = (next_ > held).astype(np.float32), (next_ < held).astype(np.float32)
        keeps = fewer_c.any(axis=0)
        lowering_keep = (fewer_c.T @ lack_c) > 0  # row x: kinds lacked by the targets at m that keep h
        lowering_raise = ((fewer_n.T @ lack_n) > 0) | lack_c.any(axis=0) | np.eye(self.nr, dtype=bool)
        lowering = np.where(keeps[:, None], lowering_keep, lowering_raise)
        accept = lowering.astype(np.int64) @ self.start_wall
        key = np.where(held > 0, np.where(keeps, 0, -1) * 10_000 + accept, -10 ** 9)
        return int(np.argmax(key))  # the first best: ties go to the lowest position


def simulate(search, roots: list[tuple[int, ...]], wall_r: tuple[int, ...], W: int, turns: int, games: int,
             seed: int, progress: Callable[[int], None] | None = None, deadline: float | None = None,
             least: int = 0) -> list[Sampled]:
    """Play the policy from each 12-tile root in `games` sampled walls (the same walls for every root), BATCH walls
    at a time for every root. Past `deadline`, once `least` walls are played, it stops at a batch's end: every root
    then has the same first walls of the same sequence, so a stopped sample is a prefix of the full one."""
    tiles = [i for i, n in enumerate(wall_r) for _ in range(n)]
    tiles += [None] * (W - len(tiles))  # a tile of no relevant kind: discarded at once
    rng = random.Random(seed)
    native = _estimatec is not None and not forced_pure() and 0 < search.nr <= 64 and len(roots[0]) <= 128 \
        if roots else False
    if native:  # (the search's own int8 matrix, read in place: its rows are the targets in search.scores' order)
        scores = list(search.scores.values())
    else:
        policy = Policy(search, wall_r)
    out = [Sampled(0, 0, 0, 0) for _ in roots]
    played = 0
    while played < games and not (played >= least and past(deadline)):
        end = min(games, played + BATCH)
        # a batch's walls drawn when it starts (QA: a million walls drawn up front took 25 s past the budget); the
        # same sequence, so a stopped sample is still a prefix of the full one
        walls = [rng.sample(tiles, turns) for _ in range(end - played)]
        if native:
            packed = bytes(0 if p is None else p + 1 for draws in walls for p in draws)
        for i, root in enumerate(roots):
            if native:
                wins, total, squares, lost = _estimatec.play_root(search.target_matrix(), len(scores), search.nr,
                                                                  scores, list(wall_r), root, list(wall_r),
                                                                  packed, turns)
                for hand, n in lost.items():  # each distinct final hand scored once (NoWinScore caches across roots)
                    value = search.nowin.score(search.full(hand))
                    total += n * value
                    squares += n * value * value
            else:
                wins = total = squares = 0
                costs = policy.costs(root)
                for draws in walls:
                    won, value = play(search, policy, root, list(wall_r), draws, costs.copy())
                    wins += won
                    total += value
                    squares += value * value
            a = out[i]
            out[i] = Sampled(a.games + end - played, a.wins + wins, a.total + total, a.squares + squares)
        played = end
        if progress:
            progress(len(roots) * played // games)
    return out


def play(search, policy: Policy, hand: tuple[int, ...], wall: list[int], draws: list[int | None],
         costs: np.ndarray):
    """(won, score) of one game from a 12-tile hand; `costs`: each target's cost from it (updated here)."""
    nr, turns, matrix = search.nr, len(draws), policy.matrix
    for n, pos in enumerate(draws):
        if pos is None:
            continue
        wall[pos] -= 1
        costs -= matrix[:, pos] > hand[pos]  # the targets that lacked this tile
        hand = hand[:pos] + (hand[pos] + 1,) + hand[pos + 1:]
        if not any(hand[nr:]):
            score = search.scores.get(hand[:nr])
            if score is not None:
                return True, score
        x = policy.discard(hand, wall, turns - n - 1, costs)
        hand = hand[:x] + (hand[x] - 1,) + hand[x + 1:]
        if x < nr:
            costs += matrix[:, x] > hand[x]  # the targets that now lack it
    return False, search.nowin.score(search.full(hand))


def estimated_rows(prep, objective: str, choices, roots, turns: int, games: int, seed: int,
                   progress, deadline: float | None = None) -> tuple[list[DiscardPlan], int]:
    """The rows and the walls played (fewer than `games` where the deadline stopped it)."""
    search = prep.searches[objective]
    tick = (lambda done: progress(done, len(roots), games * done // len(roots))) if progress else None
    sampled = simulate(search, [hand12 for hand12, _ in roots], prep.wall_r, prep.W0, turns, games, seed, tick,
                       deadline, min(games, LEAST_GAMES))
    rows = [DiscardPlan(None if c is None else prep.positions[c], s.win_probability, s.expected_score, None, None,
                        win_interval=s.win_interval(), score_interval=s.score_interval())
            for c, s in zip(choices, sampled)]
    return rows, sampled[0].games if sampled else games


def estimate_labels(games: int, asked: int | None = None) -> dict[str, str]:
    stop = "" if asked is None or games >= asked else f" (the time budget stopped it at {games} of {asked})"
    what = f"estimate past the exact frontier: Monte Carlo of the policy ({POLICY}) over {games} sampled walls{stop}"
    return {"win_probability": what + ", 95 % Wilson interval",
            "expected_score": what + ", 95 % normal interval"}
