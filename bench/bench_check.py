"""Throughput of `mj check` (claims/s, time to the first result) for 1 and 2 workers, beside the code on
main timed in the same run on the same file.

    python bench/bench_check.py                    # 5,000 random h-claims, 1 round (several minutes on 2 cores)
    python bench/bench_check.py --claims 1000 --rounds 2
    python bench/bench_check.py --baseline-ref HEAD~3   # any git ref as the baseline

The claims are seeded random 13-tile deals with a random claimed h (most are wrong, each needs the
exact h and an explanation: the checker's common path). Each configuration runs the whole command in a
fresh process (`mj check FILE --json --workers N`, start-up included), reading stdout as it streams:
"first" is the time to the first claim's line. The baseline tree is `git archive <ref>` in a temporary
directory. Configurations take turns in an order rotated each round, so a slow spell of the shared
machine hits all alike; compare ratios, never times across runs. The verdicts of every line must agree
between the two trees (exit status 1 otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_claims(path: Path, n: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT))
    from solver.api import open_catalogue

    ids = [i.id for i in open_catalogue().idols]
    rng = random.Random(seed)
    wall = [k for k in ids for _ in range(3)]
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(n):
            handle.write(json.dumps({"id": f"b{i}", "hand": rng.sample(wall, 13), "h": rng.randint(1, 5)}) + "\n")


def run(tree: Path, claims: Path, workers: int, cluster: str | None = None) -> tuple[float, float, list[tuple]]:
    """(seconds to the first result, total seconds, [(line, verdict, exact h)]) for one whole command."""
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); import cli; sys.argv = ['mj'] + sys.argv[1:]; cli.main()"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    where = ["--cluster", cluster] if cluster else ["--workers", str(workers)]
    proc = subprocess.Popen([sys.executable, "-c", code, "check", str(claims), "--json", *where],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tree, env=env, text=True)
    first = None
    lines = []
    for line in proc.stdout:
        if first is None and line.startswith(("{\"line\"", ",{\"line\"")):
            first = time.perf_counter() - start
        lines.append(line)
    proc.wait()
    total = time.perf_counter() - start
    report = json.loads("".join(lines))
    answers = [(c["line"], c["verdict"], c.get("fields", {}).get("h", {}).get("exact")) for c in report["claims"]]
    return first or total, total, answers


def batch_options(parser: argparse.ArgumentParser) -> None:
    """The options this script and bench_generate.py share: the baseline, the worker counts, the cluster."""
    parser.add_argument("--baseline-ref", default="main")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--local-cluster", action="store_true",
                        help="also this tree on a Dask LocalCluster of 2 worker processes (needs .[cluster])")


def local_cluster():
    from distributed import LocalCluster

    return LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="600MB",
                        dashboard_address=None, silence_logs=40)


def baseline_tree(ref: str, tmp: Path) -> Path:
    """`git archive REF` unpacked in ``tmp``/baseline."""
    base = tmp / "baseline"
    base.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    return base


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2019)
    batch_options(parser)
    args = parser.parse_args()
    cluster = local_cluster() if args.local_cluster else None
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline_tree(args.baseline_ref, Path(tmp))
        claims = Path(tmp) / "claims.jsonl"
        write_claims(claims, args.claims, args.seed)
        configs = [(name, tree, w) for name, tree in ((args.baseline_ref, base), ("this tree", ROOT))
                   for w in args.workers]
        if cluster:
            configs.append(("cluster", ROOT, 2))
        times: dict[tuple[str, int], list[tuple[float, float]]] = {(n, w): [] for n, _, w in configs}
        answers: dict[str, list] = {}
        print(f"{args.claims} claims, {args.rounds} round(s); load average at start {os.getloadavg()[0]:.1f}")
        for r in range(args.rounds):
            for name, tree, w in configs[r % len(configs):] + configs[:r % len(configs)]:
                first, total, got = run(tree, claims, w, cluster.scheduler_address if name == "cluster" else None)
                times[(name, w)].append((first, total))
                if answers.setdefault(name, got) != got:
                    print(f"{name}: answers differ between runs")
                print(f"  round {r + 1}: {name:>10}, {w} worker(s): first result {first:.2f} s, "
                      f"{total:.1f} s, {args.claims / total:.0f} claims/s", flush=True)
        print(f"\n| tree | workers | claims/s (median) | first result (median) | ratio to {args.baseline_ref} |")
        print("| --- | --- | --- | --- | --- |")
        for name, _, w in configs:
            rate = args.claims / statistics.median(t for _, t in times[(name, w)])
            base_rate = args.claims / statistics.median(t for _, t in times[(args.baseline_ref, w)]) \
                if (args.baseline_ref, w) in times else float("nan")
            first = statistics.median(f for f, _ in times[(name, w)])
            print(f"| {name} | {w} | {rate:.0f} | {first:.2f} s | {rate / base_rate:.2f}x |")
        print(f"load average at end {os.getloadavg()[0]:.1f}")
        if len({json.dumps(a) for a in answers.values()}) != 1:
            print("DISAGREEMENT: the trees give different verdicts")
            return 1
        print("verdicts and exact h agree on every line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
