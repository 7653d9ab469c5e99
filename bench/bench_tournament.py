"""Issue 21's tournament figure: 1,000 games of four greedy / seed000 COMs as one `mj tournament` process on
2 worker processes, beside a baseline timed in the same run: the same COMs' games played one after the
other in this process (the work itself), from which the ideal time on 2 cores is the sum over 2.

    python bench/bench_tournament.py              # 1,000 games (about a minute on 2 idle cores)
    python bench/bench_tournament.py --games 200  # fewer, and the time for 1,000 extrapolated (said so)

Target (the issue): 1,000 such games <= 3 min on 2 cores. Printed as MET / MISSED; the exit status never
depends on a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

COMS = ("greedy", "seed000", "greedy", "seed000")
TARGET_GAMES, TARGET_SECONDS = 1000, 180.0


def baseline(games: int) -> list[float]:
    """Seconds per game, played in this process: the tournament's own games (seed 0's first deals)."""
    from game.tournament import Settings, evaluator, play_game

    settings = Settings(COMS, deals=-(-games // len(COMS)))
    evaluator(settings.rules)
    play_game(0, settings)  # warm-up: imports, the search tables, the first CP-SAT solve
    times = []
    for index in range(games):
        start = time.perf_counter()
        play_game(index, settings)
        times.append(time.perf_counter() - start)
    return times


def tournament(games: int, jobs: int) -> float:
    mj = str(Path(sys.executable).with_name("mj"))
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "games.jsonl")
        start = time.perf_counter()
        subprocess.run([mj, "tournament", *sum((["-p", c] for c in COMS), []), "--games", str(games),
                        "--jobs", str(jobs), "--output", out, "--json"], check=True, stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        lines = Path(out).read_bytes().count(b"\n")
    assert lines == games, f"{lines} games written, not {games}"
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="games in the tournament (a multiple of 4)")
    parser.add_argument("--baseline", type=int, default=40, help="games timed one by one in this process")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    per_game = baseline(args.baseline)
    mean = statistics.fmean(per_game)
    print(f"baseline: one game in this process, median {statistics.median(per_game):.3f} s, mean {mean:.3f} s, "
          f"n={len(per_game)}; ideal on {args.jobs} cores: {mean * args.games / args.jobs:.1f} s for {args.games} games")
    elapsed = tournament(args.games, args.jobs)
    ideal = mean * args.games / args.jobs
    print(f"mj tournament, {args.games} games, --jobs {args.jobs}: {elapsed:.1f} s ({args.games / elapsed:.1f} games/s), "
          f"x{elapsed / ideal:.2f} the ideal from the baseline")
    projected = elapsed * TARGET_GAMES / args.games
    how = "measured" if args.games == TARGET_GAMES else f"extrapolated from {args.games} games"
    verdict = "MET" if projected <= TARGET_SECONDS else "MISSED"
    print(f"{TARGET_GAMES} games ({how}): {projected:.1f} s   target <= {TARGET_SECONDS:g} s: {verdict}")


if __name__ == "__main__":
    main()
