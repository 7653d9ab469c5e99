"""Time E[score] over all play (solver/planning/score_optimum.py, issue 22) beside the class it replaces, in one run.

    .venv/bin/python bench/bench_score_optimum.py                  # 2019-12, 3 hands per h = 1, 2, 3, turns 1 and 2
    .venv/bin/python bench/bench_score_optimum.py --turns 1 2 3 --hands 2 --rules hitori-jong-2.1

Hands: seeded random 13-tile hands (bench_optimal.positions: 0-15 seen tiles). Per turns: median and worst
seconds of the plan (objective score, one objective) with the all-play search, and of the same plan with it
switched off (the class as before: the baseline, same hands, same run), the ratio of medians; how many plans
finished all play within the cap; the gain of the recommended discard's E[score] over the class's value
(points), and how often the recommended discard changed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_optimal import positions  # noqa: E402
from solver import Evaluator  # noqa: E402
from solver.planning import plan as plan_module  # noqa: E402
from solver.planning.request import Limits, PlanRequest  # noqa: E402
from solver.planning.targets import TooLarge  # noqa: E402

CAP = 20.0  # seconds: the plans' time budget here (past it the class answers; its time counts)


def timed(ev: Evaluator, request: PlanRequest):
    start = time.perf_counter()
    try:
        p = plan_module.plan(ev.rules, request)
    except TooLarge:
        p = None
    return time.perf_counter() - start, p


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="2019-12")
    ap.add_argument("--turns", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--hands", type=int, default=3, help="hands per h (1, 2, 3)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    ev = Evaluator(args.rules)
    found = [p for h in (1, 2, 3) for p in positions(ev, h, args.hands, args.seed)]
    original = plan_module.score_plan
    for turns in args.turns:
        new, old, gains, changed, exact = [], [], [], 0, 0
        for position in found:
            request = PlanRequest(position, turns, "score", both=False, limits=Limits(seconds=CAP))
            t_new, p_new = timed(ev, request)
            plan_module.score_plan = lambda *args: None
            try:
                t_old, p_old = timed(ev, request)
            finally:
                plan_module.score_plan = original
            new.append(t_new)
            old.append(t_old)
            if p_new is None or p_old is None or p_new.policy_class["expected_score"] != "all play":
                continue
            exact += 1
            before = {r.tile: r.expected_score for r in p_old.discards}
            best = p_new.recommended
            gains.append(float(best.expected_score - before[p_old.recommended.tile]))
            changed += best.tile != p_old.recommended.tile
            assert all(r.expected_score >= before[r.tile] for r in p_new.discards), "below the class"
        ratio = statistics.median(new) / statistics.median(old)
        print(f"{args.rules} turns {turns}: {len(found)} hands, all play {exact}/{len(found)}; "
              f"all play median {statistics.median(new):.2f} s worst {max(new):.2f} s; "
              f"class (baseline) median {statistics.median(old):.2f} s worst {max(old):.2f} s; ratio {ratio:.2f}")
        if gains:
            print(f"  recommended E[score] over the class's: mean +{statistics.mean(gains):.1f}, "
                  f"max +{max(gains):.1f} points; recommended discard changed {changed}/{exact}")


if __name__ == "__main__":
    main()
