"""The relaxation's value sampled where it cannot be counted (docs/formulation.md section 8, "Bounds past the
budget"): an estimate, with its 95 % interval, of a proved upper bound of the optimal P(win), and of E[score].

The perfect-information relaxation (bounds.py) is at least the optimum, but counting it needs every complete hand
within reach listed, past a few draws too many. Its value is also a plain mean over the walls. In a wall, every tile
a play can hold is kept, drawn or (while a fetch can happen: a そら kept, or drawn before the last draw) fetched from
the waiting room, so a play wins only if that pool holds a complete hand, and scores at most
g = max(min(N, the best no-win score of 12 tiles within the pool), the best tsumo score of a complete hand within the
pool), N the proved cap of a hand that did not win (score_bounds.py). One look per wall (PoolWin) samples both. The
sample means estimate numbers at least the optimum, so they are reported beside the proved bounds as estimates,
never in their place: `upper` and `score_upper` stay what is proved, and `separated` never rests on them. Fixed
seeds keep answers reproducible; the clock stops it at a batch's end (the first walls of the same sequence).
"""

from __future__ import annotations

import random
from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning.estimate import Sampled
from solver.planning.prepare import position_counts
from solver.planning.request import PlanRequest
from solver.planning.score_bounds import caps
from solver.planning.targets import NoWinScore, PoolWin, past

GAMES = 1000  # sampled walls (P(win)'s 95 % half-width at most 3.1 points)
MOST_TURNS = 20  # past it not sampled: pools of 34+ tiles take seconds a few hundred walls, and the relaxation is ~1
BATCH = 100  # walls between two looks at the clock
LABEL = ("; for {n} of {of} discards whose upper bound is 1, the relaxation's own value (at least the optimum) "
         "sampled over {games} walls with a 95 % interval: an estimate of a bound, not a proof")
SCORE_LABEL = ("; beside an upper bound from P(win)'s 1, the relaxation's mean of the best end within the tiles a "
               "play can hold (a win, or at most N without one) sampled over the same walls with a 95 % interval: an "
               "estimate of a bound")


def sampled_relaxation(rules: RuleSet, request: PlanRequest, tiles: list[int | None], seed: int,
                       games: int = GAMES, deadline: float | None = None) -> dict[int | None, Sampled] | None:
    """Per discard in `tiles` (None: a 12-tile hand as it stands) over `games` walls: the walls where the pool of
    tiles a play can hold (pools_in_wall) holds a complete hand (`wins`), and the sum and sum of squares of
    g = max(min(N, its best no-win score of 12 tiles), its best tsumo score) (`total`, `squares`). Past the deadline
    it stops at a batch's end with the walls played so far (the first ones of the same sequence); None where it had
    played none."""
    position, turns = request.position, request.turns
    hand, best_win, nowin, slots, room, wall, sora = pool_tools(rules, request)
    floors = {tile: caps(rules, position, turns, tile)[1] for tile in tiles}
    live = [k for k, n in enumerate(wall) for _ in range(n)]
    rng = random.Random(f"relaxation-{seed}")
    sums = {tile: [0, 0, 0] for tile in tiles}  # wins, total, squares
    for played in range(games):
        if played % BATCH == 0 and past(deadline):
            if not played:
                return None
            games = played
            break
        draws = rng.sample(live, turns)
        whole = best_win.score(pool_of(hand.concealed, room, draws, None, True), slots)  # every pool lies within it
        for tile, pool in pools_in_wall(hand.concealed, room, sora, draws, tiles):
            won, value = best_end(best_win if whole is not None else None, nowin, pool, slots, floors[tile])
            got = sums[tile]
            got[0] += won
            got[1] += value
            got[2] += value * value
    return {tile: Sampled(games, *sums[tile]) for tile in tiles}


def pool_tools(rules: RuleSet, request: PlanRequest) -> tuple:
    """What a look at a wall's pools needs: (hand, PoolWin, NoWinScore, concealed slots, waiting room counts, live
    wall counts, fetch mode's そら or None)."""
    position = request.position
    hand = position.hand
    _, room, wall, _ = position_counts(rules, position, request.turns)
    return (hand, PoolWin(rules, hand.called, position.favourite), NoWinScore(rules, hand.called, position.favourite),
            rules.concealed_slots(hand.called), room, wall,
            rules.tiles.sora if rules.sora_mode == "fetch" else None)


def best_end(best_win: PoolWin | None, nowin: NoWinScore, pool: tuple[int, ...], slots: int,
             floor: int) -> tuple[bool, int]:
    """(whether a complete hand lies within the pool, g): g the most a play holding only pool tiles can score, the
    best tsumo score within it or, without a win, its 12 tiles' best no-win score within it and at most `floor` (N).
    `best_win` None: no complete hand is within it (known already)."""
    won = None if best_win is None else best_win.score(pool, slots)
    if won is not None and won >= floor:
        return True, won  # (no end without a win passes the floor: its packing search is not needed)
    end = min(floor, nowin.within(pool, slots - 1))
    return won is not None, end if won is None else max(end, won)


def pool_of(hand, room, draws, tile, fetch: bool) -> tuple[int, ...]:
    """The tiles a play can hold in a wall: the hand less the discard `tile`, the draws, and with a fetch the room
    with the discard in it."""
    pool = list(hand)
    for k in draws:
        pool[k] += 1
    if fetch:
        return tuple(p + r for p, r in zip(pool, room))
    if tile is not None:
        pool[tile] -= 1
    return tuple(pool)


def pools_in_wall(hand: tuple[int, ...], room: tuple[int, ...], sora: int | None, draws: list[int],
                  tiles: list[int | None]) -> list[tuple[int | None, tuple[int, ...]]]:
    """(discard, the pool of tiles a play after it can hold) in the wall whose next draws are `draws` (in order):
    with a fetch possible in it (`sora`: fetch mode's そら, kept or drawn before the last draw) every pool is the
    hand, the draws and the room with the discard; else the kept tiles and the draws."""
    early = 0 if sora is None else draws[:-1].count(sora)  # drawn in time to fetch before a later draw
    return [(tile, pool_of(hand, room, draws, tile, sora is not None and hand[sora] - (tile == sora) + early > 0))
            for tile in tiles]


SAMPLED_FIELDS = ("upper_estimate", "upper_interval", "score_upper_estimate", "score_upper_interval")  # (its rows')


def with_sampled_uppers(rules: RuleSet, request: PlanRequest, rows: tuple,
                        deadline: float | None) -> tuple[tuple, int, int]:
    """The rows whose proved P(win) bound is 1 with the relaxation's sampled values beside it: P(win)'s
    (`upper_estimate`, `upper_interval`) and E[score]'s (`score_upper_estimate`, `score_upper_interval`; kept by
    settled() only where E[score] ends up a bracket); also how many rows got them and over how many walls (none
    where the clock stopped it before any)."""
    open_rows = [r.tile for r in rows if r.upper is not None and r.upper >= 1] if request.turns <= MOST_TURNS else []
    sampled = sampled_relaxation(rules, request, open_rows, request.limits.seed, deadline=deadline) \
        if open_rows else None
    if not sampled:
        return rows, 0, 0
    return tuple(r if r.tile not in sampled else replace(
        r, upper_estimate=sampled[r.tile].win_probability, upper_interval=sampled[r.tile].win_interval(),
        score_upper_estimate=sampled[r.tile].expected_score, score_upper_interval=sampled[r.tile].score_interval())
        for r in rows), len(sampled), next(iter(sampled.values())).games


def settled(plan):
    """The plan's sampled upper estimates once both objectives' values are in: E[score]'s kept only where E[score]
    is a bracket (a lower bound below a proved upper bound), and labelled; each brought up to its row's lower bound
    where a sample fell below it (the relaxation is at least every real policy's value)."""
    rows = []
    for r in plan.discards:
        if r.score_upper_estimate is not None and (r.expected_score is None or r.score_upper is None
                                                   or r.score_upper == r.expected_score):
            r = replace(r, score_upper_estimate=None, score_upper_interval=None)
        rows.append(above_lower(r))
    labels = dict(plan.policy_class)
    if any(r.score_upper_estimate is not None for r in rows):
        labels["expected_score"] += SCORE_LABEL
    return replace(plan, discards=tuple(rows), policy_class=labels)


def above_lower(row):
    """An estimate of an upper bound below its row's lower bound, brought up to it: the relaxation is at least
    every real policy's value, so a sample below one is plainly off."""
    for value, estimate, interval in (("win_probability", "upper_estimate", "upper_interval"),
                                      ("expected_score", "score_upper_estimate", "score_upper_interval")):
        low, guess = getattr(row, value), getattr(row, estimate)
        if guess is not None and low is not None and guess < low:
            floor = float(low)
            row = replace(row, **{estimate: low, interval: (floor, max(floor, getattr(row, interval)[1]))})
    return row
