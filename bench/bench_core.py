"""Time the project's h and best score on seeded random hands, beside baselines from the same run.

    /tmp/venv/bin/python bench/bench_core.py            # full run, about 1-3 minutes on 2 cores
    /tmp/venv/bin/python bench/bench_core.py --quick    # smoke run, well under a minute
    /tmp/venv/bin/python bench/bench_core.py --json out.json   (--json - : JSON on stdout, table on stderr)

What is timed, per hand (time.perf_counter around one call, GC paused during the call as timeit does):
  project   Evaluator("2019-12").h(hand): the distance template built once per rule set and
            re-targeted per hand, presolve off; .score(hand, win): per-component models.
  naive     a fresh CpModel per hand with one x[u] in [0,3] per unit of the whole rule set, one
            worker. h: max sum k, T_i <= 3, k_i <= min(c_i, T_i), sum |u| x[u] = 13. score: exact
            cover (tsumo) or packing (none) of the hand, max points. "default" keeps CP-SAT's
            default parameters (presolve on; for h it takes seconds a hand, so it runs on the first
            10 hands with a 10 s limit a solve, a capped time counting as a lower bound '>=');
            "presolve off" is the same rebuilt model with cp_model_presolve=False, on every hand.
  oracle    the brute-force reference in tests/oracle.py.
Methods take turns in chunks of 20 hands (order rotated per chunk; see timing.run_series), so a slow spell
of this shared machine hits all of them alike. Every ratio is a baseline's median over the project's
median on the SAME hands (slow baselines run on a prefix of the hand list), measured in this run.
Speed targets are only reported (MET/MISSED); the exit status is 1 only when answers disagree.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))  # timing.py, shared with bench_analysis.py

from timing import (  # noqa: E402
    COPIES,
    HEAD,
    cells,
    clocked,
    environment,
    exit_status,
    fmt_ms,
    one_off_line,
    option,
    parse,
    parser,
    printers,
    random_deals,
    row,
    run_series,
    setup,
    spread,
    timed,
    verdict,
    write_json,
)

RULES = "2019-12"
TARGET_MEDIAN_MS = 2.0  # issue: h under 2 ms median per hand
TARGET_RATIO = 4.0  # issue: at least 4 times faster than the naive model

PROJECT = "project"
NAIVE_OFF = "naive_presolve_off"
NAIVE_DEFAULT = "naive_default"
ORACLE = "oracle"
LABELS = {PROJECT: "project (template)", NAIVE_OFF: "naive CP-SAT, presolve off",
          NAIVE_DEFAULT: "naive CP-SAT, default", ORACLE: "oracle (brute force)"}
SCORE_LABELS = {PROJECT: "project (components)", NAIVE_OFF: "naive cover, presolve off",
                NAIVE_DEFAULT: "naive cover, default", ORACLE: "oracle (brute force)"}


class Censored(Exception):
    """A baseline solve hit its time limit: the time is a lower bound and there is no exact answer."""


# --- statistics and formatting -------------------------------------------------------------------

def summary(times: list[float], censored: list[bool]) -> dict:
    """n, median/p90/max in ms; a statistic is only a lower bound when a censored time enters it."""
    s = spread(times)
    if not times:
        return s
    pairs = sorted(zip(times, censored))

    def lower(q: float) -> bool:
        pos = (len(pairs) - 1) * q
        lo, hi = int(pos), min(int(pos) + 1, len(pairs) - 1)
        return pairs[lo][1] or (pos > lo and pairs[hi][1])

    s.update(median_lower_bound=lower(0.5), p90_lower_bound=lower(0.9), max_lower_bound=pairs[-1][1],
             censored=sum(censored))
    return s


def fmt_ratio(r: float | None, lower: bool = False) -> str:
    if r is None:
        return "-"
    return f"{'>=' if lower else ''}{r:.1f}x" if r < 100 else f"{'>=' if lower else ''}{r:.0f}x"


# --- hands -----------------------------------------------------------------------------------------
# (the random deals are timing.random_deals, the same as bench_analysis.py's)

def complete_hands(seed: object, n: int, units: list[tuple[int, ...]], kinds: int,
                   hand_size: int) -> list[list[int]]:
    """n complete hands: add random units that still fit (<= 3 copies a kind) until hand_size tiles."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < n:
        counts, left = [0] * kinds, hand_size
        while left:
            fit = [u for u in units if len(u) <= left and all(counts[k] < COPIES for k in u)]
            if not fit:
                break  # stuck: deal this hand again
            unit = rng.choice(fit)
            for k in unit:
                counts[k] += 1
            left -= len(unit)
        if left == 0:
            hands.append(counts)
    return hands


# --- baselines -------------------------------------------------------------------------------------

class Naive:
    """The naive CP-SAT models: rebuilt from scratch for every hand over every unit of the rule set."""

    def __init__(self, units: list[tuple[int, ...]], kinds: int, hand_size: int, points_won: list[int],
                 points_lost: list[int]):
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.units, self.kinds, self.hand_size = units, kinds, hand_size
        # catalogue data (not model state): which units hold each kind, as the project's rules do
        self.users = [[j for j, u in enumerate(units) if k in u] for k in range(kinds)]
        self.points = {True: points_won, False: points_lost}

    def _solve(self, model: Any, presolve: bool, limit: float | None) -> Any:
        cp_model = self.cp
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if not presolve:
            solver.parameters.cp_model_presolve = False
        if limit is not None:
            solver.parameters.max_time_in_seconds = limit
        status = solver.solve(model)
        if status == cp_model.OPTIMAL:
            return round(solver.objective_value)
        if status == cp_model.INFEASIBLE:
            return None
        raise Censored(solver.status_name(status))

    def h(self, counts: list[int], presolve: bool, limit: float | None = None) -> int | None:
        """max sum k s.t. T_i = sum_{u ∋ i} x[u] <= 3, k_i <= min(c_i, T_i), sum |u| x[u] = 13."""
        cp_model = self.cp
        model = cp_model.CpModel()
        x = [model.new_int_var(0, COPIES, f"x_{j}") for j in range(len(self.units))]
        kept = []
        for i in range(self.kinds):
            total = cp_model.LinearExpr.sum([x[j] for j in self.users[i]])
            k = model.new_int_var(0, counts[i], f"k_{i}")
            model.add(total <= COPIES)
            model.add(k <= total)
            kept.append(k)
        model.add(cp_model.LinearExpr.weighted_sum(x, [len(u) for u in self.units]) == self.hand_size)
        model.maximize(cp_model.LinearExpr.sum(kept))
        best = self._solve(model, presolve, limit)
        return None if best is None else self.hand_size - best

    def score(self, counts: list[int], won: bool, presolve: bool, limit: float | None = None) -> int | None:
        """Exact cover (won) or packing (not won) of the hand by copies of every unit, max points."""
        cp_model = self.cp
        model = cp_model.CpModel()
        x = [model.new_int_var(0, COPIES, f"x_{j}") for j in range(len(self.units))]
        for i in range(self.kinds):
            total = cp_model.LinearExpr.sum([x[j] for j in self.users[i]])
            model.add(total == counts[i]) if won else model.add(total <= counts[i])
        model.maximize(cp_model.LinearExpr.weighted_sum(x, self.points[won]))
        return self._solve(model, presolve, limit)


# --- checks and tables ---------------------------------------------------------------------------

def compare(series: dict, names: list[str]) -> dict:
    """Hands where two methods both gave an exact answer and disagree (first few kept as examples)."""
    result = {}
    base = series[PROJECT]
    for name in names:
        rec = series[name]
        bad, checked = [], 0
        for i, (ans, cen) in enumerate(zip(rec["answers"], rec["censored"])):
            if cen:
                continue
            checked += 1
            if ans != base["answers"][i]:
                bad.append({"hand": i, PROJECT: base["answers"][i], name: ans})
        result[name] = {"checked": checked, "disagreements": len(bad), "examples": bad[:5]}
    return result


def table(series: dict, labels: dict[str, str], heading: str,
          notes: dict[str, str]) -> tuple[list[str], dict]:
    """Rows of median/p90/max and the ratio of each baseline's median to the project's on the same hands."""
    stats = {}
    proj = series[PROJECT]
    lines = [row(heading, HEAD, "ratio vs project", width=34, cell=10)]
    for name, rec in series.items():
        s = summary(rec["times"], rec["censored"])
        if s["n"] == 0:
            continue
        if name == PROJECT:
            ratio, ratio_lower, ratio_text = 1.0, False, "1x"
        else:
            p = summary(proj["times"][:s["n"]], proj["censored"][:s["n"]])
            ratio = s["median_ms"] / p["median_ms"]
            ratio_lower = s["median_lower_bound"]
            ratio_text = f"{fmt_ratio(ratio, ratio_lower)} slower" if ratio >= 1 else \
                f"{fmt_ratio(1 / ratio)} FASTER than project"
            ratio_text += f"  (project median {fmt_ms(p['median_ms'])} on these {s['n']})"
        s.update(ratio=ratio, ratio_lower_bound=ratio_lower)
        stats[name] = s
        note = notes.get(name, "")
        lines.append(row(labels[name], cells(s), f"{ratio_text}{note}", width=34, cell=10))
    return lines, stats


def report_disagreements(checks: dict, say: Callable[[str], None]) -> int:
    """Print the first few disagreeing hands (index into the hand list) and return how many there are."""
    for check in checks.values():
        for ex in check["examples"]:
            say(f"    DISAGREE on hand {ex['hand']}: " + ", ".join(f"{k} {v}" for k, v in ex.items() if k != "hand"))
    return sum(c["disagreements"] for c in checks.values())


def target_lines(stats: dict, what: str, informational: bool) -> tuple[list[str], dict]:
    """The issue's targets: median < 2 ms, and >= 4x faster than the naive CP-SAT model."""
    lines, res = [], {}
    tag = f"targets ({what})" if not informational else f"{what}, for reference only (the issue sets targets for h)"
    med = stats[PROJECT]["median_ms"]
    res["median_under_2ms"] = med < TARGET_MEDIAN_MS
    parts = [f"median {fmt_ms(med)} < {TARGET_MEDIAN_MS:g} ms: {verdict(res['median_under_2ms'])}"]
    for name, label in ((NAIVE_DEFAULT, "naive CP-SAT (default parameters, as the issue defines it)"),
                        (NAIVE_OFF, "naive CP-SAT with presolve off")):
        if name not in stats:
            continue
        s = stats[name]
        ok = s["ratio"] >= TARGET_RATIO
        res[f"4x_vs_{name}"] = ok
        bound = " (a lower bound: some naive solves hit their time limit)" if s["ratio_lower_bound"] else ""
        parts.append(f">= {TARGET_RATIO:g}x faster than {label}: {verdict(ok)} "
                     f"({fmt_ratio(s['ratio'], s['ratio_lower_bound'])}{bound})")
    lines.append(f"  {tag}:")
    lines += [f"    {p}" for p in parts]
    return lines, res


# --- main ------------------------------------------------------------------------------------------

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = parser(__doc__, (200, 40), "hands timed for the project, naive presolve-off and the oracle",
                "a smoke run: fewer hands, shorter limits")
    option(ap, "--naive-default-hands", int, 10, 3, "hands for the slow naive model with presolve on")
    option(ap, "--naive-limit", float, 10.0, 3.0, "time limit per naive default-parameter h solve in seconds; a "
           "solve that hits it counts as that time, a lower bound")
    option(ap, "--naive-budget", float, 90.0, 10.0, "stop timing the naive default-parameter h model once it has "
           "used this many seconds in all")
    ap.add_argument("--oracle-hands", type=int, help="hands for the brute-force oracle (default: all)")
    args = parse(ap, argv, chunk=20)
    args.naive_default_hands = min(args.hands, args.naive_default_hands)
    args.oracle_hands = min(args.hands, args.oracle_hands if args.oracle_hands is not None else args.hands)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    say, progress = printers(args.json)

    run_start = time.perf_counter()
    one_off, ev, ortools_version = setup(RULES)  # one-off costs, each measured once
    import oracle

    from solver import Hand

    rules = ev.rules
    kinds, hand_size = len(rules.tiles), rules.hand_size
    units = [u.members for u in rules.units]
    spec = rules.spec
    oracle_rules = dict(min_points=spec.min_points, member_points=spec.member_points, called=spec.called,
                        ron_minus_member=spec.ron_minus_member, no_win=spec.no_win, favourite=spec.favourite,
                        favourite_bonus=spec.favourite_bonus, sora_mode=spec.sora, ron_on_shika=spec.ron_on_shika,
                        shika=rules.tiles.shika, hand_size=hand_size)

    def pts(won: bool) -> list[int]:
        return [oracle.unit_copy_points(len(u), oracle_rules, won=won, is_called=False, holds_ron=False,
                                        has_favourite=False) for u in units]

    naive = Naive(units, kinds, hand_size, pts(True), pts(False))
    sora, mode, cap = rules.tiles.sora, rules.sora_mode, [COPIES] * kinds

    def project_h(c):
        return ev.h(Hand(tuple(c))).h

    def oracle_h(c):
        return oracle.exchange_distance(units, c, [], cap=cap, hand_size=hand_size, sora=sora, sora_mode=mode)

    def project_score(win):
        return lambda c: ev.score(Hand(tuple(c)), win).total

    def oracle_score(won):
        return lambda c: oracle.best_score(units, c, [], won=won, ron_tile=None, favourite=None,
                                           rules=oracle_rules, sora=sora)

    deals = random_deals(args.seed, args.hands, kinds, hand_size)
    wins = complete_hands(f"{args.seed}:complete", args.hands, units, kinds, hand_size)
    warm = random_deals(f"{args.seed}:warm-up", 3, kinds, hand_size)
    warm_wins = complete_hands(f"{args.seed}:warm-up", 3, units, kinds, hand_size)

    with clocked(one_off, "first_h_solve_ms"):
        project_h(warm[0])
    with clocked(one_off, "first_score_ms"):
        ev.score(Hand(tuple(warm_wins[0])), "tsumo")
    for c, w in zip(warm, warm_wins):  # warm-up, not timed
        project_h(c), naive.h(c, presolve=False), oracle_h(c)
        project_score("tsumo")(w), project_score("none")(c), oracle_score(True)(w)
        naive.score(w, True, presolve=True), naive.score(c, False, presolve=False)
    timed(lambda: naive.h(warm[0], presolve=True, limit=min(1.0, args.naive_limit)), (Censored,))  # may hit its limit

    say(f"bench_core: rule set {RULES}, {len(units)} units, {kinds} kinds; seed {args.seed}; "
        f"{environment(ortools_version)}")
    say(one_off_line(one_off, ("first h solve", "first_h_solve_ms"), ("first score", "first_score_ms")))

    limit = args.naive_limit
    results: dict[str, Any] = {"config": {"rules": RULES, "seed": args.seed, "hands": args.hands,
                                          "naive_default_hands": args.naive_default_hands,
                                          "naive_limit_s": limit,
                                          "naive_budget_s": args.naive_budget, "oracle_hands": args.oracle_hands,
                                          "quick": args.quick, "chunk": args.chunk, "cpus": os.cpu_count(),
                                          "ortools": ortools_version},
                               "one_off": one_off}
    disagreements = 0

    # --- h -----------------------------------------------------------------------------------------
    budget = args.naive_budget
    progress("timing h ...")
    h_series = run_series(deals, {
        PROJECT: (project_h, args.hands),
        NAIVE_OFF: (lambda c: naive.h(c, presolve=False), args.hands),
        NAIVE_DEFAULT: (lambda c: naive.h(c, presolve=True, limit=limit), args.naive_default_hands),
        ORACLE: (oracle_h, args.oracle_hands),
    }, chunk=args.chunk, warm_hand=warm[1], budget={NAIVE_DEFAULT: budget}, censor=(Censored,), every=10,
        progress=lambda done, _: progress(f"  h: {done}/{len(deals)} hands"))
    cen = sum(h_series[NAIVE_DEFAULT]["censored"])
    done = len(h_series[NAIVE_DEFAULT]["times"])
    notes = {NAIVE_DEFAULT: f"  [only the first {done} hands (too slow for all); {cen} hit the {limit:g} s limit"
                            + (f"; stopped early at its {budget:g} s budget" if done < args.naive_default_hands else "")
                            + "]"}
    lines, h_stats = table(h_series, LABELS, f"h ({RULES}, {args.hands} hands)", notes)
    checks = compare(h_series, [NAIVE_OFF, NAIVE_DEFAULT, ORACLE])
    t_lines, h_targets = target_lines(h_stats, "h", informational=False)
    say()
    for line in lines + t_lines:
        say(line)
    say("  agreement on h: " + "; ".join(
        f"{LABELS[n]} {c['disagreements']} of {c['checked']} differ" for n, c in checks.items()))
    disagreements += report_disagreements(checks, say)
    results["h"] = {"stats": h_stats, "targets": h_targets, "agreement": checks}

    # --- score -------------------------------------------------------------------------------------
    for key, win, hands, title in (("score_tsumo", "tsumo", wins, "complete hands built from random units"),
                                   ("score_none", "none", deals, "the random deals of h, no win")):
        won = win != "none"
        progress(f"timing score ({win}) ...")
        series = run_series(hands, {
            PROJECT: (project_score(win), args.hands),
            NAIVE_OFF: (lambda c, won=won: naive.score(c, won, presolve=False), args.hands),
            NAIVE_DEFAULT: (lambda c, won=won: naive.score(c, won, presolve=True), args.hands),
            ORACLE: (oracle_score(won), args.oracle_hands),
        }, chunk=args.chunk, warm_hand=(warm_wins if won else warm)[1], budget={}, censor=(Censored,), every=10,
            progress=lambda done, _, win=win, n=len(hands): progress(f"  score {win}: {done}/{n} hands"))
        lines, stats = table(series, SCORE_LABELS, f"score {win} ({RULES}, {len(hands)} hands)", {})
        checks = compare(series, [NAIVE_OFF, NAIVE_DEFAULT, ORACLE])
        t_lines, targets = target_lines(stats, f"score {win}", informational=True)
        say()
        say(f"  score, win={win}: {title}")
        for line in lines + t_lines:
            say(line)
        say(f"  agreement on score ({win}): " + "; ".join(
            f"{SCORE_LABELS[n]} {c['disagreements']} of {c['checked']} differ" for n, c in checks.items()))
        disagreements += report_disagreements(checks, say)
        results[key] = {"stats": stats, "targets": targets, "agreement": checks}

    wall = time.perf_counter() - run_start
    results["disagreements"] = disagreements
    results["wall_s"] = wall
    say()
    say(f"total {disagreements} disagreement(s); run took {wall:.0f} s. Times are per hand, one call each; "
        f"ratios compare medians on the same hands from this run.")
    write_json(results, args.json)
    return exit_status(disagreements, say)


if __name__ == "__main__":
    sys.exit(main())
