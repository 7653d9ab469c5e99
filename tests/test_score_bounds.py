"""The proved upper bound of the optimal E[score] (solver/planning/score_bounds.py): against the independent brute
force over explicit tile copies with the waiting room and every fetch (tests/oracle_fetch.py), the bound is at
least the exact optimum on every row of random small positions (both rule sets with a no-win score, seen tiles, a
waiting room, favourites, a called unit), equal to it where E[score] is over all play; its caps S and N against a
brute force over every hand the draws can make; bounds that are too small are caught; the JSON field and the
plain output."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import best_score
from oracle_fetch import fetch_value
from synthetic import BASE_SETTINGS, Deal, Game, room_positions

from cli import app
from solver import Evaluator, MjError
from solver.planning import plan as plan_module
from solver.planning import bounds, sampled_lower, score_bounds
from solver.planning.targets import TooLarge

RULES = ("2019-12", "hitori-jong-2.1")


positions = room_positions


def random_positions(n: int, seed: int):
    """The same kind of positions from a seeded loop (no hypothesis): for the checks that a wrong bound is caught."""
    rng = random.Random(seed)
    while n:
        K = rng.randint(4, 5)
        sora = rng.choice([None, rng.randrange(K)])
        kinds = [k for k in range(K) if k != sora]
        units = sorted({tuple(sorted(rng.sample(kinds, rng.randint(1, 3)))) for _ in range(rng.randint(4, 6))})
        game = Game(K, tuple(units), sora, None, rng.randint(3, 4))
        size = game.hand_size - rng.randint(0, 1)
        concealed = [0] * K
        for j in rng.sample(range(len(units)), len(units)):  # whole units while they fit, then random tiles
            if sum(concealed) + len(units[j]) <= size:
                for m in units[j]:
                    concealed[m] += 1
        while sum(concealed) < size:
            k = rng.randrange(K)
            if concealed[k] < 3:
                concealed[k] += 1
        if rng.random() < 0.5:  # one tile swapped
            out = rng.choice([k for k in range(K) if concealed[k]])
            into = rng.choice([k for k in range(K) if concealed[k] < 3])
            concealed[out] -= 1
            concealed[into] += 1
        seen, room = [0] * K, [0] * K
        for extra in (seen, room):
            for _ in range(rng.randint(0, 2)):
                k = rng.randrange(K)
                if concealed[k] + seen[k] + room[k] < 3:
                    extra[k] += 1
        favourite = rng.choice([None, rng.choice(kinds)])
        yield game, Deal(tuple(concealed), ()), seen, room, favourite, rng.randint(1, 3)
        n -= 1


def names(counts) -> list[str]:
    return [f"k{k}" for k, n in enumerate(counts) for _ in range(n)]


def forced(patch, objective: str = "both", plays=("optimal",)) -> None:
    """The optimum's exact searches (and those of `plays`) stop at once for `objective` ("win", "score" or both),
    as past their budget; the lower side stays exact (no sampled rows) unless nearest stops too (its estimate)."""
    exact, searched = plan_module.exact_plan, plan_module.score_plan
    stops = ("win", "score") if objective == "both" else (objective,)

    def exact_plan(rules, request, progress, deadline, prep=None, pace=False):
        if request.play in plays and request.objective in stops:
            raise TooLarge("forced past the budget (test)")
        return exact(rules, request, progress, deadline, prep, pace)
    patch.setattr(plan_module, "exact_plan", exact_plan)
    patch.setattr(plan_module, "score_plan", lambda rules, request, prep, progress, deadline, deep=None, why=None: (
        None if request.objective in stops else searched(rules, request, prep, progress, deadline, deep)))
    patch.setattr(sampled_lower, "raise_rows", lambda rules, request, rows, clock=None: (rows, 0, 0))


def planned(case, param, objective="score", stop="both", plays=("optimal",), relaxed=True):
    """(plan with the searches stopped as `stop` and `plays` say (None: none stopped), the brute force's optimal
    E[score] per row), or None where the planner refuses the position. `relaxed` False: the relaxation is not
    counted (as past its limits), so only N + (S - N) * 1 bounds E[score]."""
    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator(param)
    with pytest.MonkeyPatch.context() as patch:
        if stop is not None:
            forced(patch, stop, plays)
        if not relaxed:
            def too_large(*args, **kwargs):
                raise TooLarge("forced: the relaxation is not counted (test)")
            patch.setattr(bounds, "win_upper", too_large)
        try:
            p = ev.plan(deal.hand, turns=turns, objective=objective, seen=names(seen), waiting_room=names(room),
                        favourite=None if favourite is None else f"k{favourite}", seconds=None)
        except MjError:
            return None
    want = fetch_value(list(game.units), list(deal.concealed), seen=seen, room=room, turns=turns,
                       objective="score", rules=game.oracle_rules(param), sora=game.sora, favourite=favourite,
                       called=deal.called)
    return p, want


COLUMN = {"win": "win_probability", "score": "expected_score"}


def violations(p, want) -> list:
    """Rows whose E[score] bracket misses the optimum (lower above it, or the upper bound below it)."""
    return [(r.tile, r.expected_score, want[r.tile], r.score_upper) for r in p.discards
            if r.score_upper is None or not r.expected_score <= want[r.tile] <= r.score_upper]


@settings(BASE_SETTINGS, max_examples=200)
@given(positions(), st.sampled_from(RULES), st.sampled_from(["score", "win"]), st.booleans())
def test_past_the_budget_the_upper_bound_holds_the_optimum(case, param, objective, relaxed):
    """Every search of the optimum stopped: the bracket's E[score] lower <= the brute force's optimum (every fetch
    included) <= score_upper on every row, whichever objective the plan sorts by, with the relaxation counted or
    not (then the caps alone: max(S, N)); labelled with what it is."""
    got = planned(case, param, objective, relaxed=relaxed)
    if got is None:
        return
    p, want = got  # (estimate: a row's lower side sampled; a bracket closed on every row still says "bounds")
    assert p.method in ("bounds", "estimate") and p.methods[COLUMN[objective]] in ("bounds", "optimal", "estimate")
    if not relaxed and p.policy_class["win_probability"] != "all play":
        assert all(r.upper == 1 for r in p.discards)
    assert violations(p, want) == []
    assert "upper = N + (S - N) * U" in p.policy_class["expected_score"]


@settings(BASE_SETTINGS, max_examples=15)
@given(positions(), st.sampled_from(RULES))
def test_past_every_exact_search_the_estimate_stays_below_the_upper_bound(case, param):
    """The class nearest stopped too: E[score] is the estimate's sample mean (labelled), at most its row's upper
    bound (a sample above it is brought down), and the bound is at least the brute force's optimum."""
    got = planned(case, param, "score", plays=("optimal", "nearest"))
    if got is None:
        return
    p, want = got
    assert p.method == "estimate"
    for r in p.discards:
        assert r.expected_score <= r.score_upper and want[r.tile] <= r.score_upper
        assert r.score_interval[1] <= float(r.score_upper)


@settings(BASE_SETTINGS, max_examples=10)
@given(positions(), st.sampled_from(RULES))
def test_past_every_exact_search_p_win_first_keeps_the_sampled_e_score(case, param):
    """P(win) first, both objectives, every exact search stopped (nearest for E[score] too): E[score] is the
    same games' sample mean, with its interval and the estimate's label, not dropped as "not computed"."""
    got = planned(case, param, "win", plays=("optimal", "nearest"))
    if got is None:
        return
    p, want = got  # (P(win)'s column may be exact: with a そら held the deepening replaces a sample that does not
    assert p.methods["expected_score"] == "estimate"  # prove more, answer.proves_more)
    assert "Monte Carlo" in p.policy_class["expected_score"] and "not computed" not in p.policy_class["expected_score"]
    for r in p.discards:
        low, high = r.score_interval
        assert low - 1e-9 <= float(r.expected_score) <= high + 1e-9 and want[r.tile] <= r.score_upper


@settings(BASE_SETTINGS, max_examples=40)
@given(positions(), st.sampled_from(RULES))
def test_beside_p_win_over_all_play_the_upper_bound_holds_the_optimum(case, param):
    """P(win) over all play, E[score] stopped (the class answers it): the bound from P(win)'s optimum holds."""
    got = planned(case, param, "win", stop="score")
    if got is None:
        return
    p, want = got
    if p.policy_class["win_probability"] != "all play":
        return
    assert all(r.upper == r.win_probability for r in p.discards)
    assert p.policy_class["expected_score"] != "all play"
    assert violations(p, want) == []


@settings(BASE_SETTINGS, max_examples=40)
@given(positions(), st.sampled_from(RULES))
def test_where_optimal_the_upper_bound_is_the_value(case, param):
    """E[score] over all play: score_upper is expected_score, the brute force's Fraction."""
    got = planned(case, param, "score", stop=None)
    if got is None:
        return
    p, want = got
    assert p.policy_class["expected_score"] == "all play"
    assert all(r.score_upper == r.expected_score == want[r.tile] for r in p.discards)


def reachable_ends(game, param, deal, seen, room, turns, discard):
    """Every (best tsumo score of a complete hand, best no-win score of a 12-tile hand) over the hands made of
    the kept tiles and at most turns (+ そら kept, in fetch mode) tiles of the wall and the waiting room."""
    rules = game.oracle_rules(param)
    kept = list(deal.concealed)
    if discard is not None:
        kept[discard] -= 1
    called = list(deal.called)
    wall = [3 - deal.concealed[k] - seen[k] - room[k] - sum(k in game.units[j] for j in called) for k in range(game.K)]
    after = [room[k] + (k == discard) for k in range(game.K)]  # the discard lies in the waiting room
    sora, fetch_mode = game.sora, rules["sora_mode"] == "fetch" and game.sora is not None
    fetches = min(kept[sora], turns) if fetch_mode else 0
    fetch = fetch_mode and (fetches > 0 or (wall[sora] > 0 and turns >= 2))  # a fetch can still happen
    extra = [wall[k] + (after[k] if fetch else 0) for k in range(game.K)]
    slots = game.hand_size - sum(len(game.units[j]) for j in called)
    wins, nowins = [None], [0]
    for n in range(turns + fetches + 1):
        for tiles in itertools.combinations_with_replacement(range(game.K), n):
            pool = list(kept)
            for k in tiles:
                pool[k] += 1
            if any(pool[k] - kept[k] > extra[k] for k in range(game.K)):
                continue
            for sub in itertools.product(*[range(c + 1) for c in pool]):
                size = sum(sub)
                if size in (slots, slots - 1):
                    s = best_score(list(game.units), list(sub), called, won=size == slots, ron_tile=None,
                                   favourite=None, rules=rules, sora=game.sora)
                    if s is not None:
                        (wins if size == slots else nowins).append(s)
    return max((w for w in wins if w is not None), default=None), max(nowins)


@settings(BASE_SETTINGS, max_examples=40)
@given(positions(), st.sampled_from(RULES))
def test_caps_are_at_least_every_reachable_score(case, param):
    """S >= the tsumo score of every complete hand, N >= the no-win score of every 12-tile hand made of the kept
    tiles and at most turns (+ fetches) tiles of the wall and the waiting room (a brute force over them all)."""
    game, deal, seen, room, _, turns = case
    ev = game.evaluator(param)
    position = ev.plan_request_of(deal.hand, turns, "score", names(seen), names(room), None).position
    discards = [k for k, n in enumerate(deal.concealed) if n] if deal.hand.size(ev.rules) == game.hand_size \
        else [None]
    for discard in discards:
        S, N = score_bounds.caps(ev.rules, position, turns, discard)
        best_win, best_nowin = reachable_ends(game, param, deal, seen, room, turns, discard)
        assert best_nowin <= N
        assert best_win is None or (S is not None and best_win <= S)


def test_too_small_bounds_are_caught(monkeypatch):
    """The checks above can fail: with the E[score] bound made too small in four plausible ways (N the no-win score
    of the hand before any draw, S halfway down to N, U halved, the relaxation's floor N forgotten), rows violating
    it are found on the same kind of positions, while the real bound holds on all of them."""
    cases = [case for case in random_positions(40, seed=5)]
    real = [got for case in cases for param in RULES if (got := planned(case, param)) is not None]
    assert len(real) > 40 and all(violations(p, want) == [] for p, want in real)
    caps, bound = score_bounds.caps, score_bounds.bound

    def now_only(rules, position, turns, discard):  # N: no draw improves the packing
        S, _ = caps(rules, position, turns, discard)
        return S, caps(rules, position, 0, discard)[1]

    def lower_u(S, N, U):  # U as if it were the lower side
        return bound(S, N, U / 2)

    def short_s(rules, position, turns, discard):
        S, N = caps(rules, position, turns, discard)
        return (None if S is None else (S + N) // 2), N

    def no_floor(*args, floor=0, floors=(), **kw):  # the relaxation's mean of the best listed hand alone, N forgotten
        p, mean, means = win_upper(*args, floors=(0,), **kw)
        return (p, mean, dict.fromkeys(floors, means[0])) if floors else (p, mean)
    win_upper = bounds.win_upper
    for module, name, fake in ((score_bounds, "caps", now_only), (score_bounds, "bound", lower_u),
                               (score_bounds, "caps", short_s), (bounds, "win_upper", no_floor)):
        with monkeypatch.context() as patch:
            patch.setattr(module, name, fake)
            broken = [violations(*got) for case in cases for param in RULES if (got := planned(case, param))]
        assert any(broken), name


EXAMPLE = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


def test_real_hand_bracket_json_and_plain_output(ev):
    """A real hand past a small state limit: every row's E[score] lower <= score_upper, the JSON carries
    expected_score_upper per row (mj plan --json too), and the plain table shows "lower – upper" in the E[score]
    column."""
    from rich.console import Console
    from typer.testing import CliRunner

    from console.render import plan_cells, plan_view
    from solver.serialize_plan import plan_dict

    p = ev.plan(EXAMPLE, turns=2, objective="score", max_states=300, seconds=None)
    assert p.method in ("bounds", "estimate") and "upper = N + (S - N) * U" in p.policy_class["expected_score"]
    assert all(r.expected_score < r.score_upper for r in p.discards)  # a bracket, not a point
    data = plan_dict(p, ev.rules)
    assert [d["expected_score_upper"] for d in data["discards"]] == [float(r.score_upper) for r in p.discards]
    assert data["recommended"]["expected_score_upper"] == float(p.discards[0].score_upper)
    console = Console(width=200, record=True)
    for part in plan_view(p, ev.rules):
        console.print(part)
    text = console.export_text()
    for r in p.discards:  # "lower – upper", the lower perhaps sampled: "~lower (interval) – upper"
        cell = plan_cells(r)[1]
        assert cell.startswith(("~" if r.score_interval else "") + f"{float(r.expected_score):.0f}")
        assert cell.endswith(f" – {float(r.score_upper):.0f}") and cell in text
    result = CliRunner().invoke(app, ["plan", EXAMPLE, "--turns", "2", "--objective", "score", "--max-states", "300",
                                      "--json"])
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["discards"]
    assert all(d["expected_score"] <= d["expected_score_upper"] for d in rows)


def test_plain_cells_show_the_bracket_only_where_it_is_one():
    from console.render import plan_cells

    row = plan_module.DiscardPlan(3, Fraction(1, 4), Fraction(5000), 1, 4, upper=Fraction(1, 2),
                                  score_upper=Fraction(9000))
    assert plan_cells(row) == ("25.00% – 50.00%", "5000 – 9000")
    exact = plan_module.DiscardPlan(3, Fraction(1, 4), Fraction(5000), 1, 4, upper=Fraction(1, 4),
                                    score_upper=Fraction(5000))
    assert plan_cells(exact) == ("25.00%", "5000")


@settings(BASE_SETTINGS, max_examples=40)
@given(positions(), st.sampled_from(RULES), st.integers(0, 5000))
def test_the_relaxation_of_e_score_counts_every_set_of_draws(case, param, floor):
    """win_upper with scores: (P(some listed hand within the kept tiles, the room and the draws), E[max(floor, the
    best tsumo score of such a hand)]) equals the count over every t-subset of the wall's explicit copies, each
    pool's complete hands found by the oracle's scorer."""
    from solver.planning.bounds import win_upper
    from solver.planning.targets import enumerate_targets

    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator(param)
    rules = game.oracle_rules(param)
    called = list(deal.called)
    slots = game.hand_size - sum(len(game.units[j]) for j in called)
    discard = next((k for k, n in enumerate(deal.concealed) if n), None) if sum(deal.concealed) == slots else None
    kept = list(deal.concealed)
    after = list(room)
    if discard is not None:
        kept[discard] -= 1
        after[discard] += 1
    wall = [3 - deal.concealed[k] - seen[k] - room[k] - sum(k in game.units[j] for j in called) for k in range(game.K)]
    listed = enumerate_targets(ev.rules, deal.hand, tuple(seen), turns + sum(after) + 1, favourite)
    targets = list(listed.counts)
    got = win_upper(targets, tuple(kept), tuple(wall), tuple(after), sum(wall), turns,
                    scores=[listed.counts[t] for t in targets], floor=floor)
    copies = [k for k in range(game.K) for _ in range(wall[k])]
    best_of: dict = {}

    def best(pool):
        key = tuple(pool)
        if key not in best_of:
            found = [best_score(list(game.units), list(sub), called, won=True, ron_tile=None, favourite=favourite,
                                rules=rules, sora=game.sora)
                     for sub in itertools.product(*[range(c + 1) for c in pool]) if sum(sub) == slots]
            best_of[key] = max((s for s in found if s is not None), default=None)
        return best_of[key]
    hits = total = 0
    scored = Fraction(0)
    for draws in itertools.combinations(range(len(copies)), turns):
        pool = [kept[k] + after[k] for k in range(game.K)]
        for i in draws:
            pool[copies[i]] += 1
        total += 1
        s = best(pool)
        hits += s is not None
        scored += max(floor, s if s is not None else floor)
    assert got == (Fraction(hits, total), scored / total)


def test_each_rows_relaxation_is_counted_at_its_own_no_win_cap(ev, monkeypatch):
    """Each row's relaxation of E[score] is the mean at its own no-win cap N (a count of its own), the same as
    counting it alone; and with a fetch that could follow (a そら live, two draws or more) the waiting room's tiles
    count only as far as a drawn そら can fetch them (bounds.fetch_needs), so no row's mean is above the count that
    took them free, and some are below it."""
    from solver.planning import bounds, bracket
    from solver.planning.needs import needed
    from solver.planning.prepare import prepare

    request = ev.plan_request_of(EXAMPLE, 3, "score", seen="", waiting_room="春香 千早", both=False)
    listed = prepare(ev.rules, request.position, turns=3, objectives=("score",))
    lower = plan_module.exact_plan(ev.rules, plan_module.replace(request, play="nearest"), None, None)
    _, _, context, _ = bracket.relaxed_uppers(request, lower, None, listed, ev.rules)
    caps = {r.tile: score_bounds.caps(ev.rules, request.position, 3, r.tile)[1] for r in lower.discards}
    alone = {}
    with monkeypatch.context() as patch:
        for tile in caps:  # (each row counted alone: a request whose rows all share its cap)
            patch.setattr(score_bounds, "caps", lambda *a, n=caps[tile]: (None, n))
            alone[tile] = bracket.relaxed_uppers(request, lower, None, listed, ev.rules)[2][tile]
    assert context == alone

    def free(targets, hand, room, wall, t, held, sora, scores=None):  # (the room's copies free, as before)
        near, need = needed(targets, np.add(hand, room), t)
        return need, np.asarray(scores, dtype=np.int64)[near]
    monkeypatch.setattr(bounds, "fetch_needs", free)
    _, _, loose, _ = bracket.relaxed_uppers(request, lower, None, listed, ev.rules)
    assert all(context[t] <= loose[t] for t in caps) and any(context[t] < loose[t] for t in caps)
