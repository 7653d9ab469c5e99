"""Time the full turn analysis of seeded random 13-tile hands, beside a naive baseline from the same run.

    /tmp/venv/bin/python bench/bench_analysis.py            # full run, about 3-4 minutes on 2 quiet cores
    /tmp/venv/bin/python bench/bench_analysis.py --quick    # smoke run, well under a minute
    /tmp/venv/bin/python bench/bench_analysis.py --json out.json   (--json - : JSON on stdout, table on stderr)

What is timed, per hand (time.perf_counter around one call, GC paused during the call as timeit does):
  analyze        solver.analysis.analyze(dm, hand) with its defaults (first 20 exchanges): the exchange
                 list, the per-discard acceptance table, waits and score; dm is
                 Evaluator("2019-12").distance_model, built once. Its time is split by wrapping the
                 helpers solver.analysis.turn calls by name (discard_table, distinct_exchanges, ...; see
                 Split), in memory for this run only.
  discard_table  solver.analysis.discard_table(dm, hand, (), None) called on its own (first --table-hands).
  naive          "one solve per discard x draw": for each distinct discard d, h12 = h(hand - d) and, for
                 every kind t with a copy left, h(hand - d + t), each one solve of the project's own h
                 template (solver.core.distance.exchange_distance, seen = one copy of d); t is accepted iff
                 h(hand - d + t) < h12. About 700 solves a hand, so only the first --naive-hands hands.
  SWAPS=False    discard_table with solver.core.enumerate.SWAPS = False (no unit-swap witnesses), on the
                 first --swaps-hands hands.
Methods take turns in chunks of --chunk hands (order rotated per chunk), so a slow spell of this shared
machine hits all of them alike; the baselines run on a prefix of the hand list, so they share chunks with
the project's timings of the same hands. Every ratio is a baseline's median over the project's median on
the SAME hands, measured in this run. Speed targets are only reported (MET/MISSED); the exit status is 1
only when answers disagree.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))  # timing.py, shared with bench_core.py

from timing import (  # noqa: E402
    COPIES,
    HEAD,
    cells,
    clocked,
    environment,
    exit_status,
    fmt_ms,
    load,
    one_off_line,
    option,
    parse,
    parser,
    printers,
    quantile,
    random_deals,
    row,
    run_series,
    setup,
    spread,
    verdict,
    write_json,
)

RULES = "2019-12"
TARGET_MEDIAN_S = 0.2  # issue: full analysis, median under 0.2 s on this 2-core machine
TARGET_WORST_S = 2.0  # issue: worst under 2 s
SEED000_BAR_S = 10.0  # the seed 000 engine's author: 10 s a turn (that engine took minutes at h = 5)

ANALYZE, TABLE, NAIVE, NOSWAPS = "analyze", "discard_table", "naive", "noswaps"
LABELS = {ANALYZE: "analyze (full turn analysis)", TABLE: "discard_table alone",
          NAIVE: "naive: 1 solve per discard x draw", NOSWAPS: "discard_table, SWAPS=False"}
BASE_OF = {NAIVE: TABLE, NOSWAPS: TABLE}  # the project method each baseline is compared with


# --- statistics and formatting -------------------------------------------------------------------

def summary(times: list[float]) -> dict:
    s = spread(times)
    if times:
        s["mean_ms"] = sum(times) / len(times) * 1e3
    return s


def fmt_ratio(r: float) -> str:
    return f"{r:.2f}x" if r < 10 else f"{r:.1f}x" if r < 100 else f"{r:.0f}x"


# --- the time split inside analyze -----------------------------------------------------------------
# (the hands are timing.random_deals, the same as bench_core.py's; the timing loop is timing.run_series)

class Split:
    """Wraps helpers that solver.analysis.turn calls by module-level name, so each analyze() call reports
    where its time went.

    analyze() looks these names up in its own module at call time, so replacing the module attributes
    is enough. install() / uninstall() bracket each timed analyze() call (a few setattr, about a
    microsecond), so discard_table called on its own runs unwrapped. Only the outermost wrapped call is
    charged (discard_table calls accepted_kinds and best_score itself: that is table time). Names the
    module no longer has are skipped. Nothing is edited on disk.
    """

    PARTS = {  # module name -> label; several names may share a label
        "discard_table": "discard table",
        "accepted_with_witnesses": "h + optimal targets of the 13-tile hand",
        "accepted_kinds": "h + optimal targets of the 13-tile hand",
        "distinct_exchanges": "exchange list (solver enumeration)",
        "exchanges_from_table": "exchange list (from the table, h = 1)",
        "best_score": "score of the hand",
    }

    def __init__(self, module: Any):
        self.module = module
        self.originals = {name: getattr(module, name) for name in self.PARTS if callable(getattr(module, name, None))}
        self.wrappers = {name: self._wrap(self.PARTS[name], fn) for name, fn in self.originals.items()}
        self.labels = list(dict.fromkeys(self.PARTS[n] for n in self.originals))
        self.depth = 0
        self.acc = dict.fromkeys(self.labels, 0.0)
        self.calls = dict.fromkeys(self.labels, 0)

    def _wrap(self, label: str, fn: Callable) -> Callable:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if self.depth:  # nested inside another wrapped call: charged to that one
                return fn(*args, **kwargs)
            self.depth += 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.acc[label] += time.perf_counter() - start
                self.calls[label] += 1
                self.depth -= 1
        return wrapper

    def install(self) -> None:
        for name, fn in self.wrappers.items():
            setattr(self.module, name, fn)

    def uninstall(self) -> None:
        for name, fn in self.originals.items():
            setattr(self.module, name, fn)

    def take(self) -> dict[str, tuple[float, int]]:
        """(seconds, calls) per label since the last take (and reset)."""
        got = {label: (self.acc[label], self.calls[label]) for label in self.labels}
        self.acc = dict.fromkeys(self.labels, 0.0)
        self.calls = dict.fromkeys(self.labels, 0)
        return got


def overridden(module: Any, name: str, value: Any, fn: Callable[[], Any]) -> Any:
    """fn() with module.name set to value, restored afterwards."""
    before = getattr(module, name)
    setattr(module, name, value)
    try:
        return fn()
    finally:
        setattr(module, name, before)


# --- answers and checks ----------------------------------------------------------------------------

def rows_of(discards: Any) -> dict[int, tuple[int | None, frozenset[int]]]:
    """discard -> (h after it, the set of accepted draws) from the project's DiscardRow tuple."""
    return {r.tile: (r.h, frozenset(a.tile for a in r.accept)) for r in discards}


def diff_rows(a: dict, b: dict) -> list[tuple[int, Any, Any]]:
    return [(d, a.get(d), b.get(d)) for d in sorted(set(a) | set(b)) if a.get(d) != b.get(d)]


# --- main ------------------------------------------------------------------------------------------

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = parser(__doc__, (200, 20), "hands for analyze", "a smoke run: fewer hands everywhere")
    option(ap, "--naive-hands", int, 15, 3, "hands (a prefix) for the naive one-solve-per-discard-x-draw "
           "baseline, about 700 solves each")
    option(ap, "--swaps-hands", int, 20, 3, "hands (a prefix) for discard_table with solver.core.enumerate.SWAPS = False")
    ap.add_argument("--table-hands", type=int,
                    help="hands (a prefix) for discard_table called on its own, at least the baselines' "
                         "hands (default: all); analyze's own time split covers the table on every hand")
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds each slow baseline (naive, SWAPS=False) may use in all before it stops "
                         "early; its row says how many hands it did (default 60)")
    args = parse(ap, argv, chunk=5)
    args.naive_hands = max(0, min(args.hands, args.naive_hands))
    args.swaps_hands = max(0, min(args.hands, args.swaps_hands))
    table_hands = args.hands if args.table_hands is None else max(0, min(args.hands, args.table_hands))
    args.table_hands = max(table_hands, args.naive_hands, args.swaps_hands)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    say, progress = printers(args.json)

    run_start = time.perf_counter()
    load_start = load()
    # one-off costs, each measured once (the solver modules' imports count with the Evaluator)
    one_off, ev, ortools_version = setup(RULES, ("solver.analysis.turn", "solver.core.enumerate", "solver.core.distance"))
    import solver.analysis.turn as analysis_mod
    import solver.core.enumerate as enumerate_mod
    from solver import Hand
    from solver.core.distance import exchange_distance
    dm = ev.distance_model
    rules = ev.rules
    kinds, hand_size = len(rules.tiles), rules.hand_size

    def name(kind: int) -> str:
        try:
            return rules.tiles.name(kind)
        except Exception:  # noqa: BLE001  a name is only decoration
            return str(kind)

    def show(hand: Any) -> str:
        return " ".join(name(k) for k in hand.tiles()) + f"  (kinds {hand.tiles()})"

    discard_table = analysis_mod.discard_table  # the originals, captured before Split wraps them
    analyze = analysis_mod.analyze

    split = Split(analysis_mod)

    def project_analyze(hand: Any) -> Any:
        split.install()
        try:
            return analyze(dm, hand)
        finally:
            split.uninstall()

    def project_table(hand: Any) -> Any:
        return discard_table(dm, hand, (), None)

    def project_table_noswaps(hand: Any) -> Any:
        return overridden(enumerate_mod, "SWAPS", False, lambda: project_table(hand))

    def naive(hand: Any) -> tuple[dict, int]:
        """One exchange_distance solve per discard d (h12) and per discard x draw t (h13)."""
        rows, solves = {}, 0
        for d in sorted(k for k, n in enumerate(hand.concealed) if n):
            seen = [0] * kinds
            seen[d] = 1  # the discard lies in the waiting room: seen
            seen = tuple(seen)
            rest = hand.remove(d)
            h12 = exchange_distance(dm, rest, seen).h
            solves += 1
            accepted = set()
            for t in range(kinds):
                if COPIES - hand.concealed[t] - (1 if t == d else 0) <= 0:
                    continue
                h13 = exchange_distance(dm, rest.add(t), seen).h
                solves += 1
                if h13 is not None and (h12 is None or h13 < h12):
                    accepted.add(t)
            rows[d] = (h12, frozenset(accepted))
        return rows, solves

    if args.swaps_hands and not hasattr(enumerate_mod, "SWAPS"):
        say("  (SWAPS=False row skipped: solver.core.enumerate.SWAPS no longer exists)")
        args.swaps_hands = 0

    deals = [Hand(tuple(c)) for c in random_deals(args.seed, args.hands, kinds, hand_size)]
    warm = [Hand(tuple(c)) for c in random_deals(f"{args.seed}:warm-up", 2, kinds, hand_size)]
    with clocked(one_off, "first_analyze_ms"):
        analyze(dm, warm[0])
    for hand in warm:  # warm-up, not timed
        project_analyze(hand), project_table(hand)
    if args.naive_hands:
        naive(warm[1])
    if args.swaps_hands:
        project_table_noswaps(warm[1])

    say(f"bench_analysis: rule set {RULES}, {len(rules.units)} units, {kinds} kinds, {hand_size}-tile hands; "
        f"seed {args.seed}; {environment(ortools_version)}, load {load_start} at start")
    say(one_off_line(one_off, ("first analyze", "first_analyze_ms")))

    # --- timing -------------------------------------------------------------------------------------
    methods = {ANALYZE: (project_analyze, args.hands), TABLE: (project_table, args.table_hands),
               NAIVE: (naive, args.naive_hands), NOSWAPS: (project_table_noswaps, args.swaps_hands)}
    methods = {k: v for k, v in methods.items() if v[1] > 0}
    wanted = {k: v[1] for k, v in methods.items()}
    split.take()  # drop the warm-up's timings
    try:
        progress(f"timing: analyze on {args.hands} hands, " + ", ".join(
            f"{k} on {n}" for k, n in wanted.items() if k != ANALYZE) + " ...")
        # no warm_hand: a call takes a large fraction of a second, so no per-chunk warm call (one each above)
        series = run_series(deals, methods, chunk=args.chunk, budget={NAIVE: args.budget, NOSWAPS: args.budget},
                            after={ANALYZE: lambda _: split.take()}, every=15,
                            progress=lambda done, spent: progress(
                                f"  {done}/{len(deals)} hands "
                                f"({', '.join(f'{n} {s:.0f} s' for n, s in spent.items())}; load {load()})"))
    finally:
        split.uninstall()
    for k in (ANALYZE, TABLE, NAIVE, NOSWAPS):
        series.setdefault(k, {"times": [], "censored": [], "answers": [], "extra": []})

    # --- correctness ----------------------------------------------------------------------------------
    problems: list[str] = []
    an = series[ANALYZE]["answers"]
    table_answers = series[TABLE]["answers"]
    checks = {}

    def check(key: str, label: str, pairs: list[tuple[int, dict, dict]], left: str, right: str) -> None:
        bad = 0
        for i, a, b in pairs:
            diffs = diff_rows(a, b)
            if diffs:
                bad += 1
                problems.append(f"    DISAGREE ({label}) on hand {i}: {show(deals[i])}")
                for d, x, y in diffs[:6]:
                    fx = "-" if x is None else f"h {x[0]}, accept {{{' '.join(name(k) for k in sorted(x[1]))}}}"
                    fy = "-" if y is None else f"h {y[0]}, accept {{{' '.join(name(k) for k in sorted(y[1]))}}}"
                    problems.append(f"      discard {name(d)}: {left} {fx} | {right} {fy}")
        checks[key] = {"label": label, "hands_checked": len(pairs), "hands_disagreeing": bad,
                       "rows_checked": sum(len(b) for _, _, b in pairs)}

    naive_answers = series[NAIVE]["answers"]
    check("naive_vs_analyze", "naive vs analyze's discard rows, (h, accepted set) per discard",
          [(i, rows_of(an[i].discards), rows) for i, (rows, _) in enumerate(naive_answers)], "project", "naive")
    check("table_vs_analyze", "discard_table alone vs analyze's discard rows",
          [(i, rows_of(an[i].discards), rows_of(ans)) for i, ans in enumerate(table_answers)],
          "analyze", "discard_table")
    if series[NOSWAPS]["answers"]:
        check("noswaps_vs_swaps", f"{LABELS[NOSWAPS]} vs discard_table alone",
              [(i, rows_of(table_answers[i]), rows_of(ans)) for i, ans in enumerate(series[NOSWAPS]["answers"])],
              "discard_table", LABELS[NOSWAPS])
    # h of the 13-tile hand itself: analyze's h against one plain solve (untimed)
    h_bad = 0
    for i, a in enumerate(an):
        direct = exchange_distance(dm, deals[i]).h
        if a.h != direct:
            h_bad += 1
            problems.append(f"    DISAGREE (h of the hand) on hand {i}: analyze {a.h}, exchange_distance {direct}: "
                            f"{show(deals[i])}")
    checks["h_vs_exchange_distance"] = {"label": "analyze's h vs exchange_distance(hand)", "hands_checked": len(an),
                                        "hands_disagreeing": h_bad}
    disagreements = sum(c["hands_disagreeing"] for c in checks.values())

    # --- main table -----------------------------------------------------------------------------------
    stats: dict[str, dict] = {m: summary(rec["times"]) for m, rec in series.items()}
    say()
    say(row(f"per hand, {args.hands} hands", HEAD, "ratio", width=44, cell=9))
    for method in (ANALYZE, TABLE, NAIVE, NOSWAPS):
        s, times = stats[method], series[method]["times"]
        if s["n"] == 0:
            continue
        label = LABELS[method] + (f" [first {s['n']}]" if s["n"] < args.hands else "")
        ratio_text = ""
        if method in BASE_OF:
            base = BASE_OF[method]
            bt = series[base]["times"][:s["n"]]
            base_med = quantile(bt, 0.5)
            r = s["median_ms"] / (base_med * 1e3)
            paired = quantile([x / y for x, y in zip(times, bt)], 0.5)
            s.update(ratio_vs=base, ratio=r, paired_ratio_median=paired, base_median_ms=base_med * 1e3)
            word = "slower" if r >= 1 else "FASTER"
            ratio_text = (f"{fmt_ratio(r if r >= 1 else 1 / r)} {word} than {LABELS[base]} on these {s['n']} "
                          f"({fmt_ms(base_med * 1e3)}; per-hand ratio median {fmt_ratio(paired)})")
        say(row(label, cells(s), ratio_text, width=44, cell=9))
    if naive_answers:
        solves = [n for _, n in naive_answers]
        per_solve = [t / n for t, (_, n) in zip(series[NAIVE]["times"], naive_answers)]
        at = series[ANALYZE]["times"][:len(naive_answers)]
        stats[NAIVE].update(solves_median=quantile(solves, 0.5), solves_max=max(solves),
                            per_solve_median_ms=quantile(per_solve, 0.5) * 1e3,
                            ratio_vs_analyze=stats[NAIVE]["median_ms"] / (quantile(at, 0.5) * 1e3))
        say(f"    naive: first {len(naive_answers)} hands only; {quantile(solves, 0.5):.0f} solves a hand (median; max "
            f"{max(solves)}), {fmt_ms(stats[NAIVE]['per_solve_median_ms'])} a solve; "
            f"{fmt_ratio(stats[NAIVE]['ratio_vs_analyze'])} the whole analyze's median on these hands "
            f"({fmt_ms(quantile(at, 0.5) * 1e3)})")
    for method in (NAIVE, NOSWAPS):
        if method in wanted and stats[method]["n"] < wanted[method]:
            say(f"    {LABELS[method]}: stopped after {stats[method]['n']} of {wanted[method]} hands at its "
                f"{args.budget:g} s budget")

    # --- time split inside analyze ------------------------------------------------------------------------
    parts = series[ANALYZE]["extra"]
    atimes = series[ANALYZE]["times"]
    total = sum(atimes)
    split_stats: dict[str, Any] = {}
    in_table = [p.get("discard table", (0.0, 0))[0] for p in parts]
    have_table = any(p.get("discard table", (0.0, 0))[1] for p in parts)
    say()
    say(row("time inside analyze (the same calls)", HEAD, "share of all analyze time", width=44, cell=9))
    labels = [lab for lab in split.labels if any(p[lab][1] for p in parts)]
    rest = [t - sum(p[lab][0] for lab in labels) for t, p in zip(atimes, parts)]
    for lab, vals in [(lab, [p[lab][0] for p in parts]) for lab in labels] + [("rest", rest)]:
        s = summary(vals)
        s["share"] = sum(vals) / total if total else 0.0
        if lab != "rest":
            s["hands_calling"] = sum(1 for p in parts if p[lab][1])
            s["calls"] = sum(p[lab][1] for p in parts)
        split_stats[lab] = s
        used = (f"  ({s['calls']} call{'s' * (s['calls'] != 1)} on {s['hands_calling']} "
                f"hand{'s' * (s['hands_calling'] != 1)})" if lab != "rest" else "")
        shown = lab if lab != "rest" else "rest (checks, units present, objects)"
        say(row(shown, cells(s), f"{s['share'] * 100:5.1f}%{used}", width=44, cell=9))
    if not have_table:
        say("    (analyze no longer calls solver.analysis.discard_table by that name: its table time is not split out)")

    # --- h distribution, truncation -------------------------------------------------------------------------
    hs = [a.h for a in an]
    trunc = sum(1 for a in an if not a.exchanges_complete)
    say()
    say(f"  {'h of the hand':<14}{'hands':>6}{'truncated':>11}{'analyze median':>16}{'max':>10}"
        f"{'its discard table, median':>27}")
    by_h: dict[str, dict] = {}
    for h in sorted(set(hs), key=lambda v: (v is None, v if v is not None else 0)):
        idx = [i for i, v in enumerate(hs) if v == h]
        at = [atimes[i] for i in idx]
        tt = [in_table[i] for i in idx]
        tr = sum(1 for i in idx if not an[i].exchanges_complete)
        by_h[str(h)] = {"hands": len(idx), "truncated": tr, "analyze": summary(at), "discard_table_in_analyze": summary(tt)}
        say(f"  {('none' if h is None else str(h)):<14}{len(idx):>6}{tr:>11}{fmt_ms(quantile(at, 0.5) * 1e3):>16}"
            f"{fmt_ms(max(at) * 1e3):>10}{fmt_ms(quantile(tt, 0.5) * 1e3) if have_table else '-':>27}")
    say(f"  exchange list truncated (exchanges_complete False: more than analyze's default 20 distinct optimal "
        f"exchanges): {trunc} of {len(an)} analyses")

    # --- targets ----------------------------------------------------------------------------------------------
    med, worst = stats[ANALYZE]["median_ms"] / 1e3, stats[ANALYZE]["max_ms"] / 1e3
    targets = {"median_under_0.2s": med < TARGET_MEDIAN_S, "worst_under_2s": worst < TARGET_WORST_S,
               "worst_under_seed000_bar_10s": worst < SEED000_BAR_S}
    say()
    say(f"  targets (issue; analyze, {args.hands} hands, this 2-core machine): median {fmt_ms(med * 1e3)} < "
        f"{TARGET_MEDIAN_S:g} s: {verdict(targets['median_under_0.2s'])}; worst {fmt_ms(worst * 1e3)} < "
        f"{TARGET_WORST_S:g} s: {verdict(targets['worst_under_2s'])}")
    h5 = by_h.get("5")
    h5_text = f" (worst at h = 5: {fmt_ms(h5['analyze']['max_ms'])}, {h5['hands']} hands)" if h5 else ""
    say(f"  context: the seed 000 engine needed minutes a turn at h = 5; its author's bar is {SEED000_BAR_S:g} s a "
        f"turn: worst here {fmt_ms(worst * 1e3)}{h5_text}: {verdict(targets['worst_under_seed000_bar_10s'])}")

    # --- agreement --------------------------------------------------------------------------------------------
    say()
    say("  agreement:")
    for c in checks.values():
        rows = f", {c['rows_checked']} discard rows" if "rows_checked" in c else ""
        say(f"    {c['label']}: {c['hands_disagreeing']} of {c['hands_checked']} hands differ{rows}")
    for line in problems[:60]:
        say(line)
    if len(problems) > 60:
        say(f"    ... {len(problems) - 60} more lines")

    wall = time.perf_counter() - run_start
    say()
    say(f"total {disagreements} disagreeing hand(s); run took {wall:.0f} s; load {load_start} at start, {load()} at "
        f"end. Times are per hand, one call each; ratios compare medians on the same hands from this run.")
    if args.json:
        results = {
            "config": {"rules": RULES, "seed": args.seed, "hands": args.hands, "table_hands": args.table_hands,
                       "naive_hands": args.naive_hands, "swaps_hands": args.swaps_hands,
                       "budget_s": args.budget, "chunk": args.chunk, "quick": args.quick, "cpus": os.cpu_count(),
                       "ortools": ortools_version, "python": platform.python_version()},
            "one_off": one_off, "stats": stats, "split": split_stats, "by_h": by_h,
            "h_distribution": {k: v["hands"] for k, v in by_h.items()},
            "truncated": trunc, "targets": targets, "checks": checks, "disagreements": disagreements,
            "problems": problems, "wall_s": wall, "load_start": load_start, "load_end": load(),
            "times_s": {m: rec["times"] for m, rec in series.items()},
        }
        write_json(results, args.json)
    return exit_status(disagreements, say)


if __name__ == "__main__":
    sys.exit(main())
