"""Time the planner (P(win) per discard, default detour 1) on seeded random 13-tile hands by h and turns.

    .venv/bin/python bench/bench_planner.py              # 5 hands per h, turns 6 and 12
    .venv/bin/python bench/bench_planner.py --hands 3 --h 1 2

Hands: a random complete hand (random units of the 2019-12 rule set filling 13 tiles), then h
random tiles replaced, kept when the plan's own h equals the class. Per class: median and worst
time, median states, and how many plans stopped at the state limit (the frontier, reported, never
cut silently). Baseline in the same run: the same recursion with the memo switched off (every
state recomputed) on the first hands at h = 1, turns 3, beside the memoised run of those hands.
Targets (issue #10, 2-core machine): h <= 2 median < 0.5 s and worst < 5 s; h = 3 median < 5 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver import Evaluator, Hand  # noqa: E402
from solver.planning import recursion  # noqa: E402
from solver.planning.plan import distance, plan  # noqa: E402
from solver.planning.targets import TooLarge  # noqa: E402

STATE_LIMIT = 20_000  # about 20 s a plan here: the frontier shows as "stopped"


def random_hand(ev: Evaluator, rng: random.Random, h: int) -> Hand | None:
    units = [u for u in ev.rules.units if ev.tiles.sora not in u.members]
    counts = [0] * len(ev.tiles)
    size = 0
    for _ in range(50):
        u = rng.choice(units)
        if size + u.size <= 13 and all(counts[k] < 3 for k in u.members):
            for k in u.members:
                counts[k] += 1
            size += u.size
        if size == 13:
            break
    if size != 13:
        return None
    for _ in range(h):
        out = rng.choice([k for k, n in enumerate(counts) if n])
        into = rng.choice([k for k, n in enumerate(counts) if n < 3 and k != out])
        counts[out] -= 1
        counts[into] += 1
    hand = Hand(tuple(counts))
    return hand if distance(ev.rules, hand, ()) == h else None


def hands_at(ev: Evaluator, h: int, n: int, seed: int) -> list[Hand]:
    rng = random.Random(f"planner-{seed}-{h}")
    found: list[Hand] = []
    while len(found) < n:
        hand = random_hand(ev, rng, h)
        if hand is not None:
            found.append(hand)
    return found


def timed_plan(ev: Evaluator, hand: Hand, turns: int) -> tuple[float, int | None]:
    start = time.perf_counter()
    try:
        p = plan(ev.rules, hand, turns=turns, both=False, state_limit=STATE_LIMIT)
    except TooLarge:
        return time.perf_counter() - start, None
    return time.perf_counter() - start, p.states


class NoMemo(dict):
    """A memo that forgets everything: the baseline recursion recomputes each state."""

    def __setitem__(self, key, value) -> None:
        pass


def baseline(ev: Evaluator, hands: list[Hand], turns: int) -> None:
    memo_times, plain_times = [], []
    for hand in hands:
        memo_times.append(timed_plan(ev, hand, turns)[0])
        original = recursion.Search.__init__

        def patched(self, *args, **kwargs):
            original(self, *args, **kwargs)
            self.memo, self.seen12, self.seen13 = NoMemo(), NoMemo(), NoMemo()

        recursion.Search.__init__ = patched
        try:
            plain_times.append(timed_plan(ev, hand, turns)[0])
        finally:
            recursion.Search.__init__ = original
    m, p = statistics.median(memo_times), statistics.median(plain_times)
    print(f"baseline h=1 turns={turns}, {len(hands)} hands: memo {m:.3f} s, no memo {p:.3f} s, ratio {p / m:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--h", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--turns", type=int, nargs="+", default=[6, 12])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ev = Evaluator("2019-12")
    targets = {1: (0.5, 5.0), 2: (0.5, 5.0), 3: (5.0, None)}
    print(f"planner, P(win), default detour, state limit {STATE_LIMIT}")
    for h in args.h:
        hands = hands_at(ev, h, args.hands, args.seed)
        for turns in args.turns:
            results = [timed_plan(ev, hand, turns) for hand in hands]
            times = [t for t, _ in results]
            states = [s for _, s in results if s is not None]
            stopped = sum(1 for _, s in results if s is None)
            med, worst = statistics.median(times), max(times)
            goal = targets.get(h)
            met = "" if goal is None else ("MET" if med < goal[0] and (goal[1] is None or worst < goal[1]) else "MISSED")
            print(f"h={h} turns={turns:2d}: median {med:7.3f} s  worst {worst:7.3f} s  "
                  f"median states {statistics.median(states) if states else '-'}  stopped {stopped}/{len(hands)}  {met}")
    baseline(ev, hands_at(ev, 1, min(3, args.hands), args.seed), 3)


if __name__ == "__main__":
    main()
