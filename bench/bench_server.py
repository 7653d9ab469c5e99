"""What the web layer costs: `mj analyze`'s answer through `mj serve` against the same call in-process.

    python bench/bench_server.py [--hands 20] [--seed 2019]

Same seeded random 13-tile deals as the other scripts. Per hand, in one run:
- direct: `Evaluator.analyze` + `analysis_payload` in this process (the baseline);
- served: GET /api/analyze on a real `mj serve` (subprocess, 2 workers), one request at a time;
- 4 clients at once: the same hands split over 4 threads; wall time per hand (2 workers, 2 cores).
Every served answer must equal the direct one.
Then memory under load (`--load-seconds`, default 10): 4 clients send mixed requests (analyze, h, score, units,
a one-draw plan, bad input) for that long; the server's resident memory (its process and its workers, from /proc)
is sampled every 50 ms. Printed: requests/s, p95, any status 500, the peak of the summed RSS beside the idle RSS
measured just before (the baseline), and each process's own peak (VmHWM).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
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
    parser.add_argument("--load-seconds", type=float, default=10.0)
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
        memory = load(url, hands, args.load_seconds)

    same = served_answers == answers and together == answers
    median = quantile(times, 0.5) * 1000
    print(f"{len(hands)} random 13-tile hands, seed {args.seed}, rule set {ev.rules.name}")
    print(f"direct (baseline)   median {fmt_ms(median)}  max {fmt_ms(max(times) * 1000)}")
    served_median = quantile(served_times, 0.5) * 1000
    print(f"served, one client  median {fmt_ms(served_median)}  max {fmt_ms(max(served_times) * 1000)}  "
          f"({served_median / median:.2f}x the baseline)")
    print(f"served, 4 clients   {fmt_ms(wall * 1000)} wall per hand ({wall * 1000 / median:.2f}x the baseline median)")
    print(f"answers identical: {same}")
    print(memory["line"])
    for pid, (name, peak) in memory["peaks"].items():
        print(f"  {name} (pid {pid}): peak RSS {peak / 1024:.0f} MB")
    return 0 if same and not memory["errors"] else 1


def _status(pid: int) -> dict[str, str]:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
            return dict(line.split(":", 1) for line in handle if ":" in line)
    except OSError:
        return {}


def _kb(field: str) -> int:
    return int(field.split()[0]) if field else 0


def server_processes() -> list[int]:
    """The `mj serve` started by this process and its worker processes (children, then theirs), from /proc."""
    parents = {os.getpid()}
    found: list[int] = []
    for _ in range(3):  # this process -> mj serve -> its workers (and a spawn helper)
        children = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in found
                    and _kb(_status(int(p)).get("PPid", "").strip() or "0") in parents]
        found += children
        parents = set(children)
    return found


def load(url: str, hands: list[str], seconds: float) -> dict:
    """Mixed requests from 4 clients for `seconds`; RSS of the server and its workers sampled meanwhile."""
    pids = server_processes()
    rss = lambda: sum(_kb(_status(p).get("VmRSS", "")) for p in pids)  # noqa: E731
    idle = rss()
    peak, stop, times, errors = [idle], threading.Event(), [], []
    rng = random.Random(0)
    queries = [("analyze", {"hand": h}) for h in hands] + [("h", {"hand": h}) for h in hands]
    queries += [("score", {"hand": h, "win": "none"}) for h in hands[:5]] + [("units", {"hand": hands[0]})]
    queries += [("plan", {"hand": h, "turns": "1", "seconds": "1"}) for h in hands[:3]]
    queries += [("analyze", {"hand": "春香 ²"}), ("plan", {"hand": hands[0], "turns": "①"})]

    def sample() -> None:
        while not stop.wait(0.05):
            peak.append(rss())

    def client(seed: int) -> None:
        mine = random.Random(seed)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            route, params = mine.choice(queries)
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(f"{url}api/{route}?{urllib.parse.urlencode(params)}") as response:
                    response.read()
            except urllib.error.HTTPError as exc:
                if exc.code >= 500:
                    errors.append((route, params, exc.code))
            times.append(time.perf_counter() - start)

    sampler = threading.Thread(target=sample)
    sampler.start()
    with ThreadPoolExecutor(4) as clients:
        list(clients.map(client, [rng.random() for _ in range(4)]))
    stop.set()
    sampler.join()
    peaks = {p: (" ".join(_status(p).get("Name", "?").split()), _kb(_status(p).get("VmHWM", ""))) for p in pids}
    line = (f"under load, {seconds:.0f} s, 4 clients, mixed requests: {len(times)} requests ({len(times) / seconds:.0f}/s), "
            f"p95 {fmt_ms(quantile(times, 0.95) * 1000)}, {len(errors)} answered 500; server + {len(pids) - 1} "
            f"worker processes: peak RSS {max(peak) / 1024:.0f} MB (sampled every 50 ms) against {idle / 1024:.0f} MB "
            f"idle before the load ({max(peak) / max(idle, 1):.2f}x)")
    return {"line": line, "peaks": peaks, "errors": errors}


if __name__ == "__main__":
    sys.exit(main())
