"""Time E[score] over all play (solver/planning/score_optimum.py, issue 22) beside the class it replaces, in one run.

    .venv/bin/python bench/bench_score_optimum.py                  # 2019-12, 3 hands per h = 1, 2, 3, turns 1 and 2
    .venv/bin/python bench/bench_score_optimum.py --turns 1 2 3 --hands 2 --rules hitori-jong-2.1
    .venv/bin/python bench/bench_score_optimum.py --turns 2 3 --hands 1 --pure   # the search in C and in Python

Hands: seeded random 13-tile hands (bench_optimal.positions: 0-15 seen tiles). Per turns: median and worst
seconds of the plan (objective score, one objective) with the all-play search, and of the same plan with it
switched off (the class as before: the baseline, same hands, same run), the ratio of medians; how many plans
finished all play within the cap; the gain of the recommended discard's E[score] over the class's value
(points), and how often the recommended discard changed. With --pure, the search alone (every discard, no cap)
with its last two draws in C (planc_tail.c) and in pure Python (native=False), the baseline, on the same hands.
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
from solver.planning.score_optimum import score_optimum  # noqa: E402
from solver.planning.targets import TooLarge  # noqa: E402

CAP = 20.0  # seconds: the plans' default time budget here (past it the bracket answers; its time counts)


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
    ap.add_argument("--seconds", type=float, default=CAP, help="the plans' time budget (mj plan's default: 5)")
    ap.add_argument("--pure", action="store_true", help="only the search, in C and in pure Python (no cap)")
    args = ap.parse_args()
    ev = Evaluator(args.rules)
    found = [p for h in (1, 2, 3) for p in positions(ev, h, args.hands, args.seed)]
    if args.pure:
        for turns in args.turns:
            searches(ev, found, turns)
        return
    original = plan_module.score_plan
    for turns in args.turns:
        new, old, gains, changed, exact = [], [], [], 0, 0
        for position in found:
            request = PlanRequest(position, turns, "score", both=False, limits=Limits(seconds=args.seconds))
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


def searches(ev: Evaluator, found, turns: int) -> None:
    """The search alone over every discard: the C tail against pure Python on the same hands (the same values)."""
    times = {True: [], False: []}
    for position in found:
        discards = [k for k, n in enumerate(position.hand.concealed) if n]
        values = {}
        for native in (True, False):
            start = time.perf_counter()
            values[native], states = score_optimum(ev.rules, position, turns, discards, state_limit=10**9,
                                                   native=native)
            times[native].append(time.perf_counter() - start)
            print(f"  {'C tail' if native else 'pure  '} {times[native][-1]:.2f} s, {states:,} states", flush=True)
        assert values[True] == values[False], "the C tail differs from the pure search"
    c, pure = statistics.median(times[True]), statistics.median(times[False])
    print(f"{ev.rules.name} turns {turns}, the search alone over {len(found)} hands: C tail median {c:.2f} s worst "
          f"{max(times[True]):.2f} s; pure (baseline) median {pure:.2f} s worst {max(times[False]):.2f} s; "
          f"ratio {pure / c:.1f}")


if __name__ == "__main__":
    main()
