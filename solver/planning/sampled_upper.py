"""The relaxation's value sampled where it cannot be counted (docs/formulation.md section 8, "Bounds past the
budget"): an estimate, with its 95 % interval, of a proved upper bound of the optimal P(win).

The perfect-information relaxation (bounds.py) is at least the optimum, but counting it needs every complete hand
within reach listed, past a few draws too many. Its value is also a plain probability over the walls: the chance
that the kept tiles, the next t draws and (while a fetch could follow) the waiting room's tiles hold some complete
hand; a fetch needs a そら, so only in walls where one is kept or drawn before the last draw. One look per wall at
those counts (TileSearch.fits) samples it. The sample mean estimates a number at least
the optimum, so it is reported beside the proved bound as an estimate, never in its place: `upper` stays what is
proved (1 where nothing better is), and `separated` never rests on it. Fixed seeds keep answers reproducible; the
clock only stops it early (then nothing is reported).
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from solver.core.rules import RuleSet
from solver.core.search.fast import search_for
from solver.planning.estimate import Sampled
from solver.planning.prepare import position_counts
from solver.planning.request import PlanRequest

GAMES = 1000  # sampled walls (95 % half-width at most 3.1 points)
BATCH = 100  # walls between two looks at the clock
LABEL = ("; for {n} of {of} discards whose upper bound is 1, the relaxation's own value (at least the optimum) "
         "sampled over {games} walls with a 95 % interval: an estimate of a bound, not a proof")


def sampled_relaxation(rules: RuleSet, request: PlanRequest, tiles: list[int | None], seed: int,
                       games: int = GAMES, deadline: float | None = None) -> dict[int | None, Sampled] | None:
    """Per discard in `tiles` (None: a 12-tile hand as it stands) the walls out of `games` in which the relaxation
    wins: the kept tiles and the next `request.turns` draws hold a complete hand, or, where a fetch can happen in
    that wall (fetch mode, a そら kept or drawn before the last draw), those and the waiting room's tiles with the
    discard among them. None where the clock stopped it."""
    position, turns = request.position, request.turns
    hand = position.hand
    search = search_for(rules)
    slots = search.slots(hand)
    _, room, wall, _ = position_counts(rules, position, turns)
    sora = rules.tiles.sora if rules.sora_mode == "fetch" else None
    live = [k for k, n in enumerate(wall) for _ in range(n)]
    rng = random.Random(f"relaxation-{seed}")
    wins = dict.fromkeys(tiles, 0)
    for played in range(games):
        if played % BATCH == 0 and deadline is not None and time.monotonic() > deadline:
            return None
        for tile, won in wins_in_wall(search, slots, hand.concealed, room, sora, rng.sample(live, turns), tiles):
            wins[tile] += won
    return {tile: Sampled(games, wins[tile], 0, 0) for tile in tiles}


def wins_in_wall(search, slots: int, hand: tuple[int, ...], room: tuple[int, ...], sora: int | None,
                 draws: list[int], tiles: list[int | None]):
    """(discard, whether the relaxation wins) for each of `tiles` in the wall whose next draws are `draws` (in
    order): the kept tiles and the draws hold a complete hand's `slots` tiles, or, where a fetch can happen (`sora`:
    fetch mode's そら, kept or drawn before the last draw), those and the room's tiles with the discard."""
    counts = list(hand)  # the hand and the draws: each discard's tiles are these less the discard
    for k in draws:
        counts[k] += 1
    if not search.fits(tuple(c + r for c, r in zip(counts, room)), slots):
        return [(tile, False) for tile in tiles]  # (every discard's tiles, and the room's, are within these)
    early = 0 if sora is None else draws[:-1].count(sora)  # drawn in time to fetch before a later draw
    out = []
    for tile in tiles:
        if sora is not None and hand[sora] - (tile == sora) + early > 0:  # a fetch can happen: the room is in play
            out.append((tile, True))
            continue
        if tile is not None:
            counts[tile] -= 1
        out.append((tile, search.fits(tuple(counts), slots)))
        if tile is not None:
            counts[tile] += 1
    return out


def with_sampled_uppers(rules: RuleSet, request: PlanRequest, rows: tuple, deadline: float | None) -> tuple[tuple, int]:
    """The rows whose proved upper bound is 1 with the relaxation's sampled value beside it (`upper_estimate`,
    `upper_interval`); also how many got one (none where the clock stopped the sample)."""
    open_rows = [r.tile for r in rows if r.upper is not None and r.upper >= 1]
    sampled = sampled_relaxation(rules, request, open_rows, request.limits.seed, deadline=deadline) \
        if open_rows else None
    if not sampled:
        return rows, 0
    return tuple(replace(r, upper_estimate=sampled[r.tile].win_probability, upper_interval=sampled[r.tile].win_interval())
                 if r.tile in sampled else r for r in rows), len(sampled)


def above_lower(row):
    """An upper estimate below its row's lower bound, brought up to it: the relaxation is at least every real
    policy's value, so a sample below one is plainly off."""
    if row.upper_estimate is None or row.win_probability is None or row.upper_estimate >= row.win_probability:
        return row
    floor = float(row.win_probability)
    return replace(row, upper_estimate=row.win_probability,
                   upper_interval=(floor, max(floor, row.upper_interval[1])))
