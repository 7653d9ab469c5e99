"""Throughput of `mj generate` (positions/s, time to the first position) with 1 and 2 local workers and
on a Dask LocalCluster, in the same run, beside the code on main (one process, no executor).

    python bench/bench_generate.py                          # waits, 40 positions, 1 round
    python bench/bench_generate.py --kind traps --count 60 --rounds 2 --local-cluster
    python bench/bench_generate.py --baseline-ref HEAD~3     # any git ref as the baseline

Each configuration runs the whole command in a fresh process (`mj generate KIND -n N --seed S` with
`--workers N` or `--cluster ADDRESS`, start-up included), reading stdout as it streams. Configurations
take turns in an order rotated each round; compare ratios, never times across runs. Every configuration
of this tree must write the same bytes (exit status 1 otherwise). Ratios are to this tree with the
first --workers value (the same positions); main draws its positions from one random stream, so it
builds other positions and its row is a reference only.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_check import ROOT, baseline_tree, batch_options, build_extension, local_cluster


def run(tree: Path, args: list[str]) -> tuple[float, float, str]:
    """(seconds to the first position, total seconds, SHA-256 of stdout) for one whole command."""
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); import cli; sys.argv = ['mj'] + sys.argv[1:]; cli.main()"
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, "generate", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
    first, digest = None, hashlib.sha256()
    for line in proc.stdout:
        first = first or time.perf_counter() - start
        digest.update(line)
    if proc.wait() != 0:
        raise SystemExit(f"mj generate {' '.join(args)} failed in {tree}")
    total = time.perf_counter() - start
    return first or total, total, digest.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="waits")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1)
    batch_options(parser)
    args = parser.parse_args()
    common = [args.kind, "-n", str(args.count), "--seed", str(args.seed)]
    cluster = local_cluster() if args.local_cluster else None
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline_tree(args.baseline_ref, Path(tmp))
        print(f"{args.baseline_ref}: {build_extension(base)}")
        configs = [(f"{args.baseline_ref}, 1 process", base, common)]
        configs += [(f"this tree, {w} worker(s)", ROOT, common + ["--workers", str(w)]) for w in args.workers]
        if cluster:
            configs.append(("this tree, cluster of 2", ROOT, common + ["--cluster", cluster.scheduler_address]))
        times: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in configs}
        digests: dict[str, set[str]] = {}
        print(f"{args.kind}, {args.count} positions, {args.rounds} round(s); load average at start "
              f"{os.getloadavg()[0]:.1f}")
        for r in range(args.rounds):
            for name, tree, argv in configs[r % len(configs):] + configs[:r % len(configs)]:
                first, total, digest = run(tree, argv)
                times[name].append((first, total))
                digests.setdefault(name, set()).add(digest)
                print(f"  round {r + 1}: {name}: first position {first:.2f} s, {total:.1f} s, "
                      f"{args.count / total:.2f} positions/s", flush=True)
        base_rate = args.count / statistics.median(t for _, t in times[configs[1][0]])
        print(f"\n| configuration | positions/s (median) | first position (median) | ratio to {configs[1][0]} |")
        print("| --- | --- | --- | --- |")
        for name, _, _ in configs:
            rate = args.count / statistics.median(t for _, t in times[name])
            first = statistics.median(f for f, _ in times[name])
            print(f"| {name} | {rate:.2f} | {first:.2f} s | {rate / base_rate:.2f}x |")
        print(f"load average at end {os.getloadavg()[0]:.1f}")
        ours = set().union(*(d for name, d in digests.items() if name != configs[0][0]))
        if len(ours) != 1:
            print("DIFFERENT BYTES: this tree's configurations wrote different files")
            return 1
        print("this tree wrote the same bytes in every configuration")
    if cluster:
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
