"""What the web layer costs: `mj analyze`'s answer through `mj serve` against the same call in-process.

    python bench/bench_server.py [--hands 20] [--seed 2019]

Same seeded random 13-tile deals as the other scripts. Per hand, in one run:
- direct: `Evaluator.analyze` + `analysis_payload` in this process (the baseline);
- served: GET /api/analyze on a real `mj serve` (subprocess, 2 workers), one request at a time;
- 4 clients at once: the same hands split over 4 threads; wall time per hand (2 workers, 2 cores).
Every served answer must equal the direct one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import fmt_ms, quantile, random_deals  # noqa: E402

from server.browser import running_server  # noqa: E402
from solver import Evaluator  # noqa: E402
from solver.core.hand import Hand  # noqa: E402
from solver.core.notation import format_hand  # noqa: E402
from solver.serialize import analysis_payload  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", default="2019")
    args = parser.parse_args()
    ev = Evaluator()
    hands = [format_hand(Hand(tuple(c), ()), ev.rules)
             for c in random_deals(args.seed, args.hands, len(ev.tiles), ev.rules.hand_size)]

    def direct(text: str) -> dict:
        parsed = ev.hand(text)
        return analysis_payload(ev.analyze(parsed), parsed, ev.rules)

    direct(hands[0])  # models built before timing
    times, answers = [], []
    for text in hands:
        start = time.perf_counter()
        answers.append(direct(text))
        times.append(time.perf_counter() - start)

    with running_server(workers=2) as url:
        def served(text: str) -> dict:
            with urllib.request.urlopen(f"{url}api/analyze?{urllib.parse.urlencode({'hand': text})}") as response:
                return json.load(response)

        for text in hands[:2]:
            served(text)  # both workers warm
        served_times, served_answers = [], []
        for text in hands:
            start = time.perf_counter()
            served_answers.append(served(text))
            served_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        with ThreadPoolExecutor(4) as clients:
            together = list(clients.map(served, hands))
        wall = (time.perf_counter() - start) / len(hands)

    same = served_answers == answers and together == answers
    median = quantile(times, 0.5) * 1000
    print(f"{len(hands)} random 13-tile hands, seed {args.seed}, rule set {ev.rules.name}")
    print(f"direct (baseline)   median {fmt_ms(median)}  max {fmt_ms(max(times) * 1000)}")
    served_median = quantile(served_times, 0.5) * 1000
    print(f"served, one client  median {fmt_ms(served_median)}  max {fmt_ms(max(served_times) * 1000)}  "
          f"({served_median / median:.2f}x the baseline)")
    print(f"served, 4 clients   {fmt_ms(wall * 1000)} wall per hand ({wall * 1000 / median:.2f}x the baseline median)")
    print(f"answers identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
