"""The C search (solver/core/search/_searchc.c) beside the pure-Python search and CP-SAT, timed in one run on
the same hands (issue 9: h median <= 0.5 ms, analyze median <= 60 ms).

    python bench/bench_native.py               # 300 deals for h, 30 hands for analyze (~2-4 minutes busy)
    python bench/bench_native.py --quick       # 60 deals, 8 hands

Rows: h of a 13-tile deal (2019-12) by the C search, the pure search and the CP-SAT template, each
uncached; `analyze` of random hands (2019-12 and 2019-10) with the C search on and off (the search's
memo tables cleared before each call, the order alternated). Exit status 1 if any answers differ.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests")]

from hand_classes import analysis_view, hands_of_class, ms, timed  # noqa: E402
from timing import quantile, random_deals  # noqa: E402


def fine(seconds: float) -> str:
    return f"{seconds * 1000:9.3f} ms" if seconds < 0.01 else ms(seconds)


def row(label: str, times: list[float], base: list[float] | None = None, base_label: str = "C search") -> str:
    line = (f"  {label:12} median {fine(statistics.median(times))}  p90 {fine(quantile(times, 0.9))}"
            f"  max {fine(max(times))}")
    if base is not None:
        line += f"   {statistics.median(times) / statistics.median(base):6.1f}x the {base_label}'s median"
    return line


def bench_h(args, say) -> int:
    """h by the C search (when built), the pure search and the CP-SAT template, same deals, uncached."""
    from solver import Evaluator, Hand
    from solver.core.distance import exchange_distance
    from solver.core.search import NATIVE, TileSearch

    ev = Evaluator("2019-12")
    dm = ev.distance_model
    deals = [Hand(tuple(c)) for c in random_deals(args.seed, args.hands, len(ev.tiles), 13)]
    exchange_distance(dm, deals[0])
    methods = {"pure search": TileSearch(ev.rules, native=False).h, "CP-SAT": lambda x: exchange_distance(dm, x).h}
    if NATIVE:
        methods = {"C search": TileSearch(ev.rules, native=True).h, **methods}
    times: dict[str, list[float]] = {label: [] for label in methods}
    problems = 0
    for hand in deals:
        answers = []
        for label, fn in methods.items():
            t, value = timed(lambda: fn(hand))
            times[label].append(t)
            answers.append(value)
        if len(set(answers)) != 1:
            problems += 1
            say(f"  DISAGREE on {hand}: {answers}")
    first = next(iter(times))
    say(f"h of a 13-tile deal, 2019-12, {len(deals)} seeded deals (uncached; target: median <= 0.5 ms)")
    for label, ts in times.items():
        say(row(label, ts, None if label == first else times[first], first))
    return problems


def bench_analyze(args, say) -> int:
    from solver import Evaluator
    from solver.core.search import fast

    problems = 0
    say(f"\nanalyze of a random 13-tile hand, {args.per_class} hands a rule set (target: median <= 60 ms)")
    for name in ("2019-12", "2019-10"):
        ev = Evaluator(name)
        pairs = hands_of_class(ev, "random", args.per_class, random.Random(f"native/{name}"))
        ev.analyze(pairs[0][0])  # warm-up: imports, models
        search = fast.search_for(ev.rules)
        c_searcher = search._c
        times: dict[bool, list[float]] = {True: [], False: []}
        for i, (hand, seen) in enumerate(pairs):
            seen_names = [ev.tiles.name(k) for k, n in enumerate(seen) for _ in range(n)]
            views = {}
            for on in ((True, False) if i % 2 == 0 else (False, True)):
                search._c = c_searcher if on else None
                for cache in (search._h_cache, search._leaf_cache, search._fill_cache, search._weight_cache):
                    cache.clear()
                t, a = timed(lambda: ev.analyze(hand, seen=seen_names))
                times[on].append(t)
                views[on] = analysis_view(a)
            if views[True] != views[False]:
                problems += 1
                say(f"  DISAGREE on {hand}")
        search._c = c_searcher
        say(row(f"{name} C", times[True]))
        say(row(f"{name} pure", times[False], times[True]))
    return problems


def main(argv: list[str] | None = None) -> int:
    from solver.core.search import NATIVE

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--hands", type=int, default=None, help="deals for the h rows (default 300; --quick 60)")
    ap.add_argument("--per-class", type=int, default=None, help="hands per rule set for analyze (default 30; --quick 8)")
    ap.add_argument("--seed", default="2019")
    args = ap.parse_args(argv)
    args.hands = args.hands or (60 if args.quick else 300)
    args.per_class = args.per_class or (8 if args.quick else 30)
    if not NATIVE:
        print("error: the C search is not built (pip install -e . with a C compiler)", file=sys.stderr)
        return 2

    def say(line: str) -> None:
        print(line, flush=True)

    problems = bench_h(args, say) + bench_analyze(args, say)
    say(f"\n{'all answers agree' if not problems else f'{problems} DISAGREEMENTS'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
