"""E[score]'s relaxation counted over every draw multiset (counted_upper.py, issue 22): the count in C
(planc_relax.c) beside the Python loop it replaces, and the default plan at 4 draws with the count beside the same
plan without it (the bound before: N + (S - N) U), in one run.

    .venv/bin/python bench/bench_score_relaxation.py               # 2 hands per h = 1, 2, 3, both rule sets
    .venv/bin/python bench/bench_score_relaxation.py --hands 1 --seconds 10

Hands: bench_optimal.positions (seeded 13-tile hands, 0-15 seen tiles). Per rule set: the count of every row at 3
draws in C and in Python (the same Fractions asserted) and at 4 draws in C; then the default plan (objective score,
E[score] alone, `--seconds`): seconds, rows with the counted bound, and the recommended row's lower - upper and width,
beside the plan whose count stops at 3 draws (the baseline).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_optimal import positions  # noqa: E402
from timing import timed as timed_call  # noqa: E402

from solver import Evaluator  # noqa: E402
from solver.planning import counted_upper, plan as plan_module  # noqa: E402
from solver.planning.request import Limits, PlanRequest  # noqa: E402


def timed(f):
    seconds, answer, _ = timed_call(f)
    return seconds, answer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2, help="hands per h (1, 2, 3)")
    ap.add_argument("--seconds", type=float, default=5.0, help="the plans' budget (mj plan's default: 5)")
    args = ap.parse_args()
    for name in ("2019-12", "hitori-jong-2.1"):
        ev = Evaluator(name)
        found = [p for h in (1, 2, 3) for p in positions(ev, h, args.hands, 0)]
        c3, py3, c4, widths = [], [], [], {True: [], False: []}
        for position in found:
            rows = [k for k, n in enumerate(position.hand.concealed) if n]
            values = {}
            for native, times in ((True, c3), (False, py3)):
                request = PlanRequest(position, 3, "score", both=False)
                t, values[native] = timed(lambda: counted_upper.counted_relaxation(ev.rules, request, rows,
                                                                                   native=native))
                times.append(t)
            assert values[True] == values[False], "the counts differ"
            t, _ = timed(lambda: counted_upper.counted_relaxation(ev.rules, PlanRequest(position, 4, "score"), rows))
            c4.append(t)
            request = PlanRequest(position, 4, "score", both=False, limits=Limits(seconds=args.seconds))
            line = []
            for counted in (True, False):
                keep, counted_upper.NATIVE_TURNS = counted_upper.NATIVE_TURNS, (4 if counted else 3)
                try:
                    t, p = timed(lambda: plan_module.plan(ev.rules, request))
                finally:
                    counted_upper.NATIVE_TURNS = keep
                r = p.recommended
                low, high = float(r.expected_score), float(r.score_upper)
                widths[counted].append(high - low)
                line.append(f"{'counted' if counted else 'before'} {t:.2f} s {low:,.0f} - {high:,.0f}")
            print(f"  {name} {len(rows)} rows: count at 3 draws C {c3[-1]:.3f} s, Python {py3[-1]:.3f} s; at 4 draws C "
                  f"{c4[-1]:.2f} s; plan at 4 draws: {'; '.join(line)}", flush=True)
        print(f"{name}, {len(found)} hands: count of every row, 3 draws: C median {statistics.median(c3):.3f} s, Python "
              f"(baseline) {statistics.median(py3):.3f} s, ratio {statistics.median(py3) / statistics.median(c3):.1f}x; "
              f"4 draws: C median {statistics.median(c4):.2f} s, worst {max(c4):.2f} s")
        print(f"  plan at 4 draws, recommended row's E[score] width: median {statistics.median(widths[True]):,.0f} "
              f"points with the count, {statistics.median(widths[False]):,.0f} without (baseline)", flush=True)


if __name__ == "__main__":
    main()
