"""The issue-9 figures: the exact search (solver/core/search/tile_search.py, partition.py) beside the CP-SAT path,
timed in the same run on the same hands, plus start-up times and a differential run of h.

    python bench/bench_fast.py                 # full: ~10-20 minutes on 2 busy cores
    python bench/bench_fast.py --quick         # smoke: ~2 minutes
    python bench/bench_fast.py --diff 10000    # the differential run's size (default 10^4; --quick: 500)

Rows: h of a 13-tile deal (the C search when built, the pure search, the CP-SAT template: bench_native.py); every
optimal exchange (the search walk vs the CP-SAT listing, wildcard hands); `analyze` per hand class (search path vs
`turn.FAST = False`, every answer from CP-SAT as before); `mj` as a process. Exit status 1 if the two
paths disagree anywhere.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests")]

from hand_classes import analysis_view, hands_of_class, ms, timed  # noqa: E402
from timing import random_deals  # noqa: E402

NAMED = {
    "2019-12": ["春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美 響"],
    "2019-10": ["美希 未来 翼 翼 杏奈 百合子 瑞希 麗花 ジュリア 詩花 詩花 そら そら",
                "やよい 真 律子 真美 響 杏奈 ロコ 百合子 可憐 昴 そら そら そら"],
}


def bench_analyze(args, say) -> int:
    from solver import Evaluator
    from solver.analysis import turn

    problems = 0
    classes = [("2019-12", c) for c in ("random", "h>=5", "called", "seen", "sora", "complete")]
    classes += [("2019-10", "sora"), ("2019-10", "complete"), ("2019-10", "complete+そら"), ("hitori-jong-2.1", "random")]
    say(f"\nanalyze of a 13-tile hand ({args.per_class} hands a class; baseline = every answer from CP-SAT)")
    say(f"{'class':34} {'search median':>14} {'worst':>11} {'CP-SAT median':>14} {'worst':>11} {'ratio':>6}")
    everything = []
    for rules_name, cls in classes:
        ev = Evaluator(rules_name)
        ev.analyze(ev.hand(NAMED["2019-12"][0]) if rules_name == "2019-12" else hands_of_class(
            ev, "random", 1, random.Random(0))[0][0])  # warm-up: imports, models
        rng = random.Random(f"{rules_name}/{cls}")
        pairs = hands_of_class(ev, cls, args.per_class, rng)
        fast_t, slow_t = [], []
        for hand, seen in pairs:
            seen_names = [ev.tiles.name(k) for k, n in enumerate(seen) for _ in range(n)]
            turn.FAST = True
            t1, a = timed(lambda: ev.analyze(hand, seen=seen_names))
            turn.FAST = False
            t2, b = timed(lambda: ev.analyze(hand, seen=seen_names))
            turn.FAST = True
            fast_t.append(t1)
            slow_t.append(t2)
            if analysis_view(a) != analysis_view(b):
                problems += 1
                say(f"  DISAGREE on {hand}")
        everything += fast_t
        fm, sm = statistics.median(fast_t), statistics.median(slow_t)
        say(f"{rules_name + ' ' + cls:34} {ms(fm):>14} {ms(max(fast_t)):>11} {ms(sm):>14} {ms(max(slow_t)):>11}"
            f" {sm / fm:5.1f}x")
    say(f"{'all classes':34} {ms(statistics.median(everything)):>14} {ms(max(everything)):>11}"
        f"   target: median <= 60 ms, worst <= 500 ms")
    say("\nnamed slow hands (issue 9)")
    for rules_name, hands in NAMED.items():
        ev = Evaluator(rules_name)
        for text in hands:
            turn.FAST = True
            t1, a = timed(lambda: ev.analyze(text))
            line = f"  {rules_name} {text}: search {ms(t1)}"
            if not args.quick:
                turn.FAST = False
                t2, b = timed(lambda: ev.analyze(text))
                turn.FAST = True
                line += f", CP-SAT {ms(t2)} ({t2 / t1:.1f}x)"
                if analysis_view(a) != analysis_view(b):
                    problems += 1
                    line += "  DISAGREE"
            say(line)
    return problems


def bench_exchanges(args, say) -> int:
    """Every distinct optimal exchange (the first 20): the search walk (exchanges.py) vs the CP-SAT
    enumeration (enumerate.distinct_exchanges), same hands, same run; wildcard hands with 1-3 そら."""
    from solver import Evaluator, Hand
    from solver.core.search import fast
    from solver.core.enumerate import distinct_exchanges
    from solver.core.exchanges import listed_exchanges

    problems = 0
    say(f"\nevery optimal exchange, first 20 ({args.per_class * 2} hands a row; baseline = the CP-SAT enumeration)")
    say(f"{'hands':34} {'walk median':>14} {'worst':>11} {'CP-SAT median':>14} {'worst':>11} {'ratio':>6}")
    for rules_name, soras in (("2019-10", 1), ("2019-10", 2), ("2019-10", 3), ("2019-12", 0)):
        ev = Evaluator(rules_name)
        search, rng = fast.search_for(ev.rules), random.Random(f"exchanges/{rules_name}/{soras}")
        sora = ev.rules.tiles.sora
        walk_t, cp_t, handed = [], [], 0
        for i in range(args.per_class * 2):
            counts = random_deals(rng.random(), 1, len(ev.rules.tiles), ev.rules.hand_size - i % 2)[0]
            for _ in range(soras - counts[sora]):
                counts[rng.choice([k for k, c in enumerate(counts) if c and k != sora])] -= 1
                counts[sora] += 1
            hand = Hand(tuple(counts))
            t1, a = timed(lambda: listed_exchanges(search, ev.rules, hand, (), 20))
            t2, b = timed(lambda: distinct_exchanges(ev.distance_model, hand, (), 20))
            walk_t.append(t1)
            cp_t.append(t2)
            handed += a is None
            if a is not None and (a[0], a[2], len(a[1])) != (b[0], b[2], len(b[1])) or \
                    a is not None and a[2] and [(e.out, e.into) for e in a[1]] != [(e.out, e.into) for e in b[1]]:
                problems += 1
                say(f"  DISAGREE on {hand}")
        fm, sm = statistics.median(walk_t), statistics.median(cp_t)
        label = f"{rules_name} " + (f"{soras} そら" if soras else "random") + " (12 and 13 tiles)"
        say(f"{label:34} {ms(fm):>14} {ms(max(walk_t)):>11} {ms(sm):>14} {ms(max(cp_t)):>11} {sm / fm:5.1f}x"
            + (f"  ({handed} handed to CP-SAT)" if handed else ""))
    return problems


def bench_h(args, say) -> int:
    from bench_native import bench_h as h_rows  # the C search (when built), the pure search, CP-SAT

    say("")
    return h_rows(args, say)


def bench_diff(args, say) -> int:
    """Fast h vs CP-SAT h on random hands in every rule set, with calls and seen tiles now and then."""
    from solver import Evaluator
    from solver.core.distance import exchange_distance
    from solver.core.search import TileSearch

    from synthetic import random_real_hands  # tests/synthetic.py: the hands test_search.py uses too

    problems, n = 0, 0
    start = time.perf_counter()
    names = ("2019-12", "2019-10", "hitori-jong-2.1")
    for r, name in enumerate(names):
        ev = Evaluator(name)
        dm, search = ev.distance_model, TileSearch(ev.rules)
        count = args.diff // len(names) + (r < args.diff % len(names))
        for hand, seen in random_real_hands(ev, count, seed=r):
            n += 1
            if search.h(hand, seen) != exchange_distance(dm, hand, seen).h:
                problems += 1
                say(f"  DISAGREE {name} {hand} seen={seen}")
    say(f"\ndifferential: h by search vs CP-SAT on {n} random hands (3 rule sets; every 2nd 12 tiles, every 3rd with a called unit, every 4th with seen tiles): "
        f"{problems} disagreements ({time.perf_counter() - start:.0f} s)")
    return problems


def bench_startup(args, say) -> None:
    hand = "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美"
    runs = {"python -c pass (floor)": [sys.executable, "-c", "pass"],
            "mj --help": [sys.executable, str(ROOT / "cli.py"), "--help"],
            "mj h HAND": [sys.executable, str(ROOT / "cli.py"), "h", hand],
            "mj h (bad tile)": [sys.executable, str(ROOT / "cli.py"), "h", "春香 foo"],
            "mj h (bad tile), typer's pydantic coercion": [  # the baseline of console/typer_params.py: what it saves
                sys.executable, "-c", "import sys, console.typer_params; console.typer_params.take_plain_values_as_is = lambda: None; "
                "import cli; cli.main(['h', '春香 foo'])"],
            "import ortools cp_model": [sys.executable, "-c", "from ortools.sat.python import cp_model"]}
    say("\nprocess start-up (median of 5; targets: mj h <= 0.5 s, --help and errors <= 0.25 s)")
    for label, cmd in runs.items():
        times = [timed(lambda: subprocess.run(cmd, capture_output=True, cwd=ROOT))[0] for _ in range(5)]
        say(f"  {label:44} {ms(statistics.median(times))}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--hands", type=int, default=None, help="deals for the h row (default 300; --quick 60)")
    ap.add_argument("--per-class", type=int, default=None, help="hands per analyze class (default 10; --quick 3)")
    ap.add_argument("--diff", type=int, default=None, help="hands in the differential run (default 10^4; --quick 500)")
    ap.add_argument("--seed", default="2019")
    ap.add_argument("--parts", default="h,startup,exchanges,analyze,diff",
                    help="which rows, comma-separated (default: all of h,startup,exchanges,analyze,diff)")
    args = ap.parse_args(argv)
    args.hands = args.hands or (60 if args.quick else 300)
    args.per_class = args.per_class or (3 if args.quick else 10)
    args.diff = args.diff if args.diff is not None else (500 if args.quick else 10_000)

    def say(line: str) -> None:
        print(line, flush=True)

    parts = set(args.parts.split(","))
    problems = bench_h(args, say) if "h" in parts else 0
    if "startup" in parts:
        bench_startup(args, say)
    problems += bench_exchanges(args, say) if "exchanges" in parts else 0
    problems += bench_analyze(args, say) if "analyze" in parts else 0
    problems += bench_diff(args, say) if "diff" in parts else 0
    say(f"\n{'all answers agree' if not problems else f'{problems} DISAGREEMENTS'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
