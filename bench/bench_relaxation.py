"""The proved upper bound past the optimum (issue 22): the listing of the complete hands and the relaxation's count,
each in C beside the pure Python it replaces, and the plan at 5 draws beside the same plan without its own listing
(the bracket before: upper bound 1), in one run.

    .venv/bin/python bench/bench_relaxation.py                 # 2 hands per h = 1, 2, 3, both rule sets, 5 draws
    .venv/bin/python bench/bench_relaxation.py --turns 4 --hands 1

Hands: bench_optimal.positions (seeded 13-tile hands, 0-15 seen tiles). Per rule set: the listing within `turns`
exchanges (C, pure; the same hands asserted), the count of the recommended discard's bound (C with dominated needs
dropped; pure Python without dropping them, the count before; the same Fraction asserted), and the default plan
(P(win), 5 s): seconds, how many rows have a proved bound below 1, and the recommended row's lower - upper.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from bench_optimal import positions  # noqa: E402

from solver import Evaluator  # noqa: E402
from solver.planning import bounds, plan as plan_module  # noqa: E402
from solver.planning.prepare import position_counts  # noqa: E402
from solver.planning.request import Limits, PlanRequest  # noqa: E402
from solver.planning.targets import TooLarge, enumerate_targets  # noqa: E402


def seconds(f):
    start = time.perf_counter()
    out = f()
    return time.perf_counter() - start, out


def median_line(label: str, new: list[float], old: list[float], names=("C", "pure")) -> str:
    if not new:
        return f"  {label}: nothing timed"
    a, b = statistics.median(new), statistics.median(old)
    return (f"  {label}: {names[0]} median {a:.3f} s worst {max(new):.3f} s; {names[1]} (baseline) median {b:.3f} s "
            f"worst {max(old):.3f} s; ratio {b / a:.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=5)
    ap.add_argument("--hands", type=int, default=2, help="hands per h (1, 2, 3)")
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    for name in ("2019-12", "hitori-jong-2.1"):
        ev = Evaluator(name)
        found = [p for h in (1, 2, 3) for p in positions(ev, h, args.hands, 0)]
        listing = {True: [], False: []}
        count = {True: [], False: []}
        plans, proved = {True: [], False: []}, []
        for position in found:
            seen, room, wall, _ = position_counts(ev.rules, position, args.turns)
            out_of_wall = tuple(s + r for s, r in zip(seen, room))
            try:
                lists = {}
                for native in (True, False):
                    t, lists[native] = seconds(lambda: enumerate_targets(ev.rules, position.hand, out_of_wall,
                                                                         args.turns, position.favourite,
                                                                         native=native))
                    listing[native].append(t)
                assert lists[True] == lists[False], "the listings differ"
            except TooLarge as exc:
                print(f"  {name}: {exc}", flush=True)
                lists = None
            if lists is not None:
                targets = lists[True]
                kinds = list(targets.relevant)
                matrix = np.array(list(targets.counts), dtype=np.int16)[:, kinds]
                discard = next(k for k, n in enumerate(position.hand.concealed) if n)
                kept = position.hand.remove(discard)
                hand = tuple(kept.concealed[k] for k in kinds)
                args_ = (matrix, hand, tuple(wall[k] for k in kinds), (0,) * len(kinds), sum(wall), args.turns)
                values = {}
                t, values[True] = seconds(lambda: bounds.win_upper(*args_, native=True))
                count[True].append(t)
                drop, bounds.DOMINATED_DRAWS = bounds.DOMINATED_DRAWS, 0  # (the count before: every need kept)
                try:
                    t, values[False] = seconds(lambda: bounds.win_upper(*args_, native=False))
                finally:
                    bounds.DOMINATED_DRAWS = drop
                count[False].append(t)
                assert values[True] == values[False], "the counts differ"
            request = PlanRequest(position, args.turns, both=False, limits=Limits(seconds=args.seconds))
            for relist in (True, False):
                keep, plan_module.RELIST_TURNS = plan_module.RELIST_TURNS, (args.turns if relist else 0)
                try:
                    t, p = seconds(lambda: plan_module.plan(ev.rules, request))
                finally:
                    plan_module.RELIST_TURNS = keep
                plans[relist].append(t)
                if relist:
                    r = p.recommended
                    below = sum(1 for row in p.discards if row.upper is not None and row.upper < 1)
                    proved.append(below == len(p.discards))
                    print(f"  {name}: plan {t:.2f} s, {below}/{len(p.discards)} rows proved below 1, recommended "
                          f"{float(r.win_probability):.3f} - {float(r.upper):.3f}", flush=True)
        print(f"{name}, {args.turns} draws, {len(found)} hands:")
        print(median_line("listing", listing[True], listing[False]))
        print(median_line("count (one discard)", count[True], count[False],
                          ("C, dominated needs dropped", "pure, every need")))
        print(median_line("plan (5 s)", plans[True], plans[False], ("listing for the bound", "bound 1")))
        print(f"  every row proved below 1: {sum(proved)}/{len(proved)} hands (before: 0)")


if __name__ == "__main__":
    main()
