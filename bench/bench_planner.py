"""Time the planner (P(win) per discard) on seeded random 13-tile hands by h, turns and class.

    .venv/bin/python bench/bench_planner.py              # 3 hands per h, turns 6 and 12, every class
    .venv/bin/python bench/bench_planner.py --hands 5 --h 1 2 --detour nearest

Hands: a random complete hand (random units of the 2019-12 rule set filling 13 tiles), then h
random tiles replaced, kept when the plan's own h equals the class. Classes: "nearest" (the default:
only the complete hands at the lowest h stay in play) and the wider "detour d" (targets within h + d,
discards within d of the lowest h). Per class: median and worst time, median states, and how many
plans stopped at the state limit (the frontier, reported, never cut silently); for those, the time of
the labelled estimate that replaces them (`--estimate`, 2,000 sampled walls per discard) and its
median 95 % half-width. Baselines in the same run: the same recursion with the memo switched off
(every state recomputed) on the h = 1 hand with the fewest targets, turns 4, beside the memoised run
of it; Monte Carlo with 10^4 games on one hand; and what "nearest" gives up: its recommended P(win)
beside all play (the full tree: turns 2 and 3) and the wider class detour 1 (turns 4) where they finish.
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
from solver.planning.plan import plan  # noqa: E402
from solver.planning.prepare import distance, prepare  # noqa: E402
from solver.planning.request import Limits, PlanRequest, Position  # noqa: E402
from solver.planning.targets import TooLarge  # noqa: E402

STATE_LIMIT = 10_000  # the wider classes: about 10 s a plan here; the frontier shows as "stopped"
NEAREST_LIMIT = 50_000  # "nearest" visits states faster (small keys, closed forms)
GAMES = 2_000


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


def run_plan(ev: Evaluator, hand: Hand, *, turns: int, both: bool = False, state_limit: int = STATE_LIMIT,
             detour: int | None = None, estimate: int | None = None, play: str | None = None):
    """A plan of the class this bench names ("nearest" for detour None), no clock: only the state limit stops it."""
    play = play or ("nearest" if detour is None else "detour")
    request = PlanRequest(Position(hand), turns, play=play, detour=detour if play == "detour" else None, both=both,
                          limits=Limits(state_limit, None, estimate))
    return plan(ev.rules, request)


def timed_plan(ev: Evaluator, hand: Hand, turns: int, detour: int | None = None,
               limit: int = STATE_LIMIT, both: bool = False) -> tuple[float, int | None]:
    start = time.perf_counter()
    try:
        p = run_plan(ev, hand, turns=turns, both=both, state_limit=limit, detour=detour)
    except TooLarge:
        return time.perf_counter() - start, None
    return time.perf_counter() - start, p.states


def loss(ev: Evaluator, hands: list[Hand], turns: int, detour: int) -> None:
    """The recommended P(win) of "nearest" beside a wider class's, where that finishes (all play when it
    says so: with detour >= turns every win within the turns is listed and every discard tried)."""
    gaps, other, label = [], 0, ""
    for hand in hands:
        try:
            wide = run_plan(ev, hand, turns=turns, both=False, state_limit=4 * STATE_LIMIT, detour=detour)
        except TooLarge:
            continue
        label = wide.policy_class["win_probability"]
        near = run_plan(ev, hand, turns=turns, both=False)
        gaps.append(float(wide.recommended.win_probability - near.recommended.win_probability))
        other += wide.recommended.tile != near.recommended.tile
    if gaps:
        against = "all play" if label == "all play" else f"detour {detour}"
        print(f"nearest vs {against}, turns {turns}, {len(gaps)} hands: P(win) lower by median "
              f"{statistics.median(gaps) * 100:.2f} points, at most {max(gaps) * 100:.2f}; "
              f"another discard recommended on {other}")


def timed_estimate(ev: Evaluator, hand: Hand, turns: int, detour: int | None, games: int = GAMES) -> tuple[float, float]:
    """(seconds, median 95 % half-width) of the estimate alone (a state limit of 1 skips the exact try)."""
    start = time.perf_counter()
    p = run_plan(ev, hand, turns=turns, both=False, state_limit=1, detour=detour, estimate=games)
    return time.perf_counter() - start, statistics.median((r.win_interval[1] - r.win_interval[0]) / 2
                                                          for r in p.discards)


def side_ratio(ev: Evaluator, hands: list[Hand], turns: int, rounds: int = 3) -> None:
    """A plan of both objectives with the second searched in a forked process (side.py) against one
    process, each hand both ways in turn (the order swapped each round)."""
    from solver.planning import side

    real, times = side.can_split, {True: [], False: []}
    try:
        for n in range(rounds):
            for hand in hands:
                for split in ((True, False) if n % 2 == 0 else (False, True)):
                    side.can_split = real if split else (lambda: False)
                    start = time.perf_counter()
                    run_plan(ev, hand, turns=turns, both=True, state_limit=NEAREST_LIMIT)
                    times[split].append(time.perf_counter() - start)
    finally:
        side.can_split = real
    beside, alone = statistics.median(times[True]), statistics.median(times[False])
    print(f"both objectives, {len(hands)} hands x {rounds}, turns={turns}: second search forked beside {beside:.3f} s, "
          f"in one process {alone:.3f} s, ratio {alone / beside:.2f}x (forking {'possible' if real() else 'NOT possible'} here)")


class NoMemo(dict):
    """A memo that forgets everything: the baseline recursion recomputes each state."""

    def __setitem__(self, key, value) -> None:
        pass


def baseline(ev: Evaluator, hands: list[Hand], turns: int) -> None:
    memo_times, plain_times = [], []
    for hand in hands:
        memo_times.append(timed_plan(ev, hand, turns, 1)[0])
        # no state limit here: without the memo every visit counts, and the limit would cut it short
        original = recursion.Search.__init__

        def patched(self, *args, **kwargs):
            original(self, *args, **kwargs)
            self.memo, self.seen12, self.seen13 = NoMemo(), NoMemo(), NoMemo()

        recursion.Search.__init__ = patched
        try:
            plain_times.append(timed_plan(ev, hand, turns, 1, limit=10 ** 9)[0])
        finally:
            recursion.Search.__init__ = original
    m, p = statistics.median(memo_times), statistics.median(plain_times)
    print(f"baseline h=1 turns={turns} detour=1, {len(hands)} hands: memo {m:.3f} s, no memo {p:.3f} s, ratio {p / m:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--h", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--turns", type=int, nargs="+", default=[6, 12])
    parser.add_argument("--detour", nargs="+", default=["nearest", "1", "0"],
                        help="classes: nearest, or a detour d")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--both", action="store_true",
                        help="time P(win) and E[score] together, as mj plan computes them (the limit applies to each)")
    parser.add_argument("--classes-only", action="store_true",
                        help="only the table by class: no baselines, no comparison with the wider class")
    args = parser.parse_args()
    ev = Evaluator("2019-12")
    targets = {1: (0.5, 5.0), 2: (0.5, 5.0), 3: (5.0, None)}
    print(f"planner, {'P(win) and E[score]' if args.both else 'P(win)'}, state limit {NEAREST_LIMIT} (nearest) or {STATE_LIMIT} (detour); estimates: {GAMES} sampled walls per discard")
    for h in args.h:
        hands = hands_at(ev, h, args.hands, args.seed)
        for turns in args.turns:
            for name in args.detour:
                detour = None if name == "nearest" else int(name)
                limit = NEAREST_LIMIT if detour is None else STATE_LIMIT
                results = [timed_plan(ev, hand, turns, detour, limit, args.both) for hand in hands]
                times = [t for t, _ in results]
                states = [s for _, s in results if s is not None]
                stopped = [hand for hand, (_, s) in zip(hands, results) if s is None]
                med, worst = statistics.median(times), max(times)
                goal = targets.get(h)
                met = "" if goal is None else \
                    ("MET" if med < goal[0] and (goal[1] is None or worst < goal[1]) else "MISSED")
                if goal is not None and goal[1] is None:
                    met += " (median; a plan stopped at the limit counts with its time)"
                line = (f"h={h} turns={turns:2d} {'nearest ' if detour is None else f'detour={detour}'}: exact median {med:7.3f} s  worst {worst:7.3f} s  "
                        f"median states {statistics.median(states) if states else '-'}  "
                        f"stopped {len(stopped)}/{len(hands)}  {met}")
                if stopped:
                    est = [timed_estimate(ev, hand, turns, detour) for hand in stopped]
                    line += (f"  | estimate median {statistics.median(t for t, _ in est):.3f} s, "
                             f"95% half-width {statistics.median(w for _, w in est) * 100:.1f} points")
                print(line, flush=True)
    if args.classes_only:
        return
    small = min(hands_at(ev, 1, 3, args.seed),  # the no-memo run takes about a minute on the smallest
                key=lambda hand: len(prepare(ev.rules, Position(hand), turns=4, objectives=("win",), play="detour", detour=1).targets.counts))
    baseline(ev, [small], 4)
    side_ratio(ev, hands_at(ev, 2, args.hands, args.seed), 12)
    for turns, detour in ((2, 2), (3, 3), (4, 1)):
        loss(ev, hands_at(ev, 1, 2 * args.hands, args.seed), turns, detour)
    hand = hands_at(ev, 1, 1, args.seed)[0]
    exact_t, _ = timed_plan(ev, hand, 12)
    mc_t, width = timed_estimate(ev, hand, 12, None, games=10_000)
    print(f"baseline h=1 turns=12 nearest, one hand: exact {exact_t:.3f} s; Monte Carlo 10^4 games per discard "
          f"{mc_t:.3f} s (95% half-width {width * 100:.1f} points)")


if __name__ == "__main__":
    main()
