"""The optimum's speed-ups (issue 22, docs/formulation.md section 8) against the plain search they replace, state by
state on real hands of both rule sets with seen tiles (where last live copies occur): the best discard with two
draws left in one pass, and the upper-bound pruning of discards."""

from __future__ import annotations

import random

import pytest

from solver import Evaluator
from solver.core.hand import Hand
from solver.planning import closed
from solver.planning.prepare import prepare
from solver.planning.request import Position


@pytest.fixture(scope="module", params=["2019-12", "hitori-jong-2.1"])
def ev(request) -> Evaluator:
    return Evaluator(request.param)


def near_hand(ev: Evaluator, rng: random.Random, size: int) -> tuple[Hand, tuple[int, ...]]:
    """`size` tiles made of random units (then one tile swapped out), and up to 12 random seen tiles."""
    units = [u for u in ev.rules.units if ev.tiles.sora not in u.members]
    while True:
        counts = [0] * len(ev.tiles)
        total = 0
        for _ in range(60):
            u = rng.choice(units)
            if total + u.size <= size and all(counts[k] < 3 for k in u.members):
                for k in u.members:
                    counts[k] += 1
                total += u.size
        if total != size:
            continue
        out = rng.choice([k for k, n in enumerate(counts) if n])
        into = rng.choice([k for k, n in enumerate(counts) if n < 3 and k != out])
        counts[out] -= 1
        counts[into] += 1
        seen = [0] * len(counts)
        for _ in range(rng.randint(0, 12)):
            k = rng.randrange(len(counts))
            if counts[k] + seen[k] < 3:
                seen[k] += 1
        return Hand(tuple(counts)), tuple(seen)


def thirteen_tile_states(ev: Evaluator, rng: random.Random, turns: int):
    """(search, hand, wall, W, targets within reach) of every 13-tile state one draw after a random 12-tile root."""
    hand, seen = near_hand(ev, rng, ev.rules.hand_size - 1)
    prep = prepare(ev.rules, Position(hand, seen), turns=turns, objectives=("win",))
    search = prep.searches["win"]
    start, wall, W = prep.start, prep.wall_r, prep.W0
    alive = search.reachable(start, wall, (), turns, search.sparse)
    for k in range(prep.nr):
        if wall[k]:
            h = start[:k] + (start[k] + 1,) + start[k + 1:]
            w = wall[:k] + (wall[k] - 1,) + wall[k + 1:]
            yield search, h, w, W - 1, search.after_draw(alive, start, k, turns - 1)


def test_two_draws_each_equals_every_discard(ev):
    """With two draws left, each discard's value from the one-pass tables equals that discard's own search (its
    targets listed after the discard, with their liveness, valued by the two-draw closed form), and the best is
    their maximum."""
    rng = random.Random(f"two-draws-{ev.rules.name}")
    checked = nonzero = 0
    for _ in range(6):
        for search, hand, wall, W, alive in thirteen_tile_states(ev, rng, 3):
            if search.scores.get(hand[:search.nr]) is not None and not any(hand[search.nr:]):
                continue  # complete: wins at once, no discard
            held = [i for i, n in enumerate(hand) if n]
            each = list(search.two_draws_each(wall, W, held, *search.two_draw_tables(hand, held, alive)))
            plain = [search.discard_value(hand, wall, (), W, 2, alive, i) for i in held]
            assert each == plain
            assert search.two_draws_best(hand, wall, W, alive) == max(plain)
            checked += 1
            nonzero += max(plain) > 0
    assert checked > 50 and nonzero > 10  # the comparison saw real, winnable states


def test_two_draw_bounds_hold(ev):
    """Each discard's upper bound (two_draw_bounds, which orders and prunes the discards) is at least its value."""
    rng = random.Random(f"two-draw-bounds-{ev.rules.name}")
    pruned = 0
    for _ in range(6):
        for search, hand, wall, W, alive in thirteen_tile_states(ev, rng, 3):
            if search.scores.get(hand[:search.nr]) is not None and not any(hand[search.nr:]):
                continue
            held = [i for i, n in enumerate(hand) if n]
            tables = search.two_draw_tables(hand, held, alive)
            values = list(search.two_draws_each(wall, W, held, *tables))
            bounds = search.two_draw_bounds(wall, W, held, *tables)
            assert all(b >= v for b, v in zip(bounds, values))
            pruned += sum(b <= max(values) for b in bounds) - 1
    assert pruned > 0  # the bound does prune here


@pytest.mark.skipif(not closed.native_two_draws(), reason="the planner's C extension (_planc) is not built")
def test_native_drawn_best_equals_python(ev):
    """_planc.drawn_best (every draw of a 12-tile hand with three draws left, then the best discard) equals the
    Python path: after_draw's list of the 13-tile hand, then two_draws_best (or a win at once when complete)."""
    rng = random.Random(f"native-{ev.rules.name}")
    checked = 0
    for _ in range(8):
        hand, seen = near_hand(ev, rng, ev.rules.hand_size - 1)
        prep = prepare(ev.rules, Position(hand, seen), turns=3, objectives=("win",))
        search = prep.searches["win"]
        start, wall, W = prep.start, prep.wall_r, prep.W0
        alive = search.reachable(start, wall, (), 3, search.sparse)
        kinds = [k for k in range(prep.nr) if wall[k]]
        rows = search.target_matrix()[search.rows_of(alive)].tobytes()
        native = closed._planc.drawn_best(start, wall, W, kinds, rows, alive.costs, prep.nr)
        for k, got in zip(kinds, native):
            h = start[:k] + (start[k] + 1,) + start[k + 1:]
            w = wall[:k] + (wall[k] - 1,) + wall[k + 1:]
            if search.scores.get(h[:prep.nr]) is not None and not any(h[prep.nr:]):
                assert got == (W - 1) * (W - 2)
            else:
                assert got == search.two_draws_best(h, w, W - 1, search.after_draw(alive, start, k, 2))
            checked += 1
    assert checked > 100


@pytest.mark.skipif(not closed.native_two_draws(), reason="the planner's C extension (_planc) is not built")
def test_native_and_pure_plans_agree(ev, monkeypatch):
    """A whole plan at turns 3 (roots with three draws left: every draw goes through C) is the same with MJ_PURE=1."""
    rng = random.Random(f"native-plan-{ev.rules.name}")
    hand, seen = near_hand(ev, rng, ev.rules.hand_size)
    names = [ev.tiles.name(k) for k, n in enumerate(seen) for _ in range(n)]
    fast = {r.tile: r.win_probability for r in ev.plan(hand, turns=3, seen=names, both=False, seconds=None).discards}
    monkeypatch.setenv("MJ_PURE", "1")
    pure = {r.tile: r.win_probability for r in ev.plan(hand, turns=3, seen=names, both=False, seconds=None).discards}
    assert fast == pure


def test_acceptances_equal_acceptance(ev):
    """The rows' h and live acceptance by one matrix equal the per-hand count (prepare.acceptance)."""
    from solver.planning.prepare import acceptance, acceptances

    rng = random.Random(f"acceptances-{ev.rules.name}")
    for _ in range(4):
        hand, seen = near_hand(ev, rng, ev.rules.hand_size)
        prep = prepare(ev.rules, Position(hand, seen), turns=2, objectives=("win",))
        kept = [hand.remove(k) for k, n in enumerate(hand.concealed) if n]
        for budget in (prep.budget, 1, 0):
            assert acceptances(prep.targets, kept, prep.wall, budget) == \
                [acceptance(prep.targets, h, prep.wall, budget) for h in kept]


def test_matrix_narrowing_equals_the_loops(ev, monkeypatch):
    """Long lists by numpy columns (reach.MATRIX_FROM) against the plain loops on the same lists: the targets after
    draws and every discard after them (with their costs), and the interchangeable kinds."""
    from solver.planning import reach

    rng = random.Random(f"matrix-{ev.rules.name}")
    for _ in range(2):
        hand, seen = near_hand(ev, rng, ev.rules.hand_size - 1)
        prep = prepare(ev.rules, Position(hand, seen), turns=3, objectives=("win",))
        search = prep.searches["win"]
        start, wall = prep.start, prep.wall_r
        alive = search.reachable(start, wall, (), 3, search.sparse)
        outcomes = {}
        for limit in (0, 10 ** 9):
            monkeypatch.setattr(reach, "MATRIX_FROM", limit)
            got = [search.interchangeable(alive, len(prep.positions))]
            for k in [k for k in range(prep.nr) if wall[k]][::4]:
                if wall[k]:
                    drawn = search.after_draw(alive, start, k, 2)
                    got.append((list(drawn), drawn.costs, drawn.denses))
                    h = start[:k] + (start[k] + 1,) + start[k + 1:]
                    for x in (i for i, n in enumerate(h[:prep.nr]) if n):
                        left = search.after_discard(drawn, h, wall, x, 2)
                        got.append((list(left), left.costs, left.denses))
            outcomes[limit] = got
        assert outcomes[0] == outcomes[10 ** 9]


def test_matrix_narrowing_keeps_both_objectives(monkeypatch):
    """A whole plan of both objectives with every list of targets by numpy columns equals the plan with none
    (hitori-jong-2.1, whose hands that did not win score nothing, so E[score] is quick here too)."""
    from solver.planning import reach

    ev = Evaluator("hitori-jong-2.1")
    rng = random.Random("matrix-plans")
    for _ in range(2):
        hand, seen = near_hand(ev, rng, ev.rules.hand_size)
        names = [ev.tiles.name(k) for k, n in enumerate(seen) for _ in range(n)]
        plans = {}
        for limit in (0, 10 ** 9):
            monkeypatch.setattr(reach, "MATRIX_FROM", limit)
            p = ev.plan(hand, turns=2, seen=names, seconds=None)
            plans[limit] = [(r.tile, r.win_probability, r.expected_score) for r in p.discards]
        assert plans[0] == plans[10 ** 9]
