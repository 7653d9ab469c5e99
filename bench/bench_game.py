"""Issue 21's game figures: a game of four greedy / seed000 COMs in this process and as an `mj play` process,
beside baselines timed in the same run (a game of four random COMs: the engine and scoring alone; `mj --help`:
a process's start-up).

    python bench/bench_game.py            # 40 games in process, 8 processes (about a minute on 2 busy cores)
    python bench/bench_game.py --quick    # 10 games, 3 processes
    python bench/bench_game.py --planner 5  # also: the planner COM's time per decision over 5 games
    python bench/bench_game.py --planner 5 --clock  # the same for planner-clock (mj plan's answer on a 0.5 s clock)
    python bench/bench_game.py --review 3   # also: `mj review` of one seat's game (2 workers), 3 games

Targets (the issue): median <= 0.3 s a game in process, <= 2 s as a process; planner <= 0.5 s a decision (planner-clock
<= 1 s: its 0.5 s clock plus the least work past it); `mj review` of one seat's game <= 30 s.
Printed as MET / MISSED; the exit status never depends on a time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

COMS = ("greedy", "seed000", "greedy", "seed000")


def in_process(ev, specs, seeds) -> list[float]:
    from game.engine import Game, Setup
    from game.players import fallback_player, make_player

    times = []
    for seed in seeds:
        start = time.perf_counter()
        Game(ev, Setup(seed), [make_player(s) for s in specs], fallback_player).play()
        times.append(time.perf_counter() - start)
    return times


def processes(args_list) -> list[float]:
    mj = str(Path(sys.executable).with_name("mj"))
    times = []
    for args in args_list:
        start = time.perf_counter()
        subprocess.run([mj, *args], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def planner_decisions(ev, games: int, clocked: bool = False) -> list[float]:
    """Seconds per planner decision (discards and そら), with how many fell back to greedy; `clocked`: planner-clock's
    (its budget is the plan's whole clock, so the decision's target is about that budget)."""
    from game.engine import Game, Setup
    from game.players import fallback_player, make_player
    from game.players.planner import ClockedPlannerPlayer, PlannerPlayer

    times: list[float] = []

    class Timed(ClockedPlannerPlayer if clocked else PlannerPlayer):
        def act(self, observation, possible_actions):
            start = time.perf_counter()
            try:
                return super().act(observation, possible_actions)
            finally:
                if possible_actions[0]["type"] in ("dahai", "sora"):
                    times.append(time.perf_counter() - start)
    fallbacks = 0
    for seed in range(games):
        players = [Timed(), make_player("greedy"), make_player("seed000"), make_player("greedy")]
        record = Game(ev, Setup(seed), players, fallback_player).play()
        fallbacks += sum(1 for e in record.events if e.get("label"))
    print(f"planner: {len(times)} decisions, {fallbacks} greedy fallbacks past the budget")
    return times


def reviews(ev, games: int) -> tuple[list[float], list[float]]:
    """Seconds to review seat 0 of a four-COM game (2 workers), and, as the baseline, to replay its log."""
    from game.engine import Game, Setup
    from game.log import replay
    from game.players import fallback_player, make_player
    from game.review import review_game
    from game.state import Table

    times, base = [], []
    for seed in range(games):
        events = Game(ev, Setup(seed), [make_player(s) for s in COMS], fallback_player).play().events
        start = time.perf_counter()
        replay(events, Table(ev.rules))
        base.append(time.perf_counter() - start)
        start = time.perf_counter()
        review = review_game(ev, events, 0, workers=2)
        times.append(time.perf_counter() - start)
        print(f"review seed {seed}: {len(review.decisions)} decisions, methods {review.summary()['methods']}")
    return times, base


def line(name: str, times: list[float], target: float | None = None, base: float | None = None) -> None:
    median = statistics.median(times)
    extra = f"   x{median / base:.1f} the baseline" if base else ""
    verdict = "" if target is None else f"   target <= {target:g} s: {'MET' if median <= target else 'MISSED'}"
    print(f"{name:<44} median {median:7.3f} s   max {max(times):7.3f} s   n={len(times)}{extra}{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--planner", type=int, default=0, help="games with one planner COM (0: skip)")
    parser.add_argument("--clock", action="store_true", help="that COM is planner-clock")
    parser.add_argument("--review", type=int, default=0, help="games whose seat 0 is reviewed (0: skip)")
    args = parser.parse_args()
    games = args.games or (10 if args.quick else 40)
    runs = 3 if args.quick else 8
    from solver.api import Evaluator

    start = time.perf_counter()
    ev = Evaluator()
    in_process(ev, COMS, [10_000])  # warm-up: imports, the search tables, the first CP-SAT solve
    print(f"one-off: evaluator and warm-up game {time.perf_counter() - start:.2f} s")
    seeds = list(range(games))
    random_times = in_process(ev, ("random",) * 4, seeds)
    com_times = in_process(ev, COMS, seeds)
    line("game, four random COMs (baseline)", random_times)
    line("game, greedy/seed000 COMs, in process", com_times, 0.3, statistics.median(random_times))
    help_times = processes([["--help"]] * runs)
    play = [["play", "--seed", str(s), *sum((["-p", c] for c in COMS), [])] for s in range(runs)]
    play_times = processes(play)
    line("mj --help process (baseline)", help_times)
    line("game, greedy/seed000 COMs, mj play process", play_times, 2.0, statistics.median(help_times))
    if args.planner:
        name = "planner-clock" if args.clock else "planner"
        # (planner-clock's budget is its plan's whole clock: its target is that budget plus the least work past it)
        line(f"{name} COM, one decision", planner_decisions(ev, args.planner, args.clock), 1.0 if args.clock else 0.5)
    if args.review:
        times, base = reviews(ev, args.review)
        line("replay of the game's log (baseline)", base)
        line("mj review of one seat's game, 2 workers", times, 30.0, statistics.median(base))


if __name__ == "__main__":
    main()
