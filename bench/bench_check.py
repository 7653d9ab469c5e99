"""Throughput of `mj check` (claims/s, time to the first result) for 1 and 2 workers, beside the code on
main timed in the same run on the same file.

    python bench/bench_check.py                    # 5,000 random h-claims, 1 round (several minutes on 2 cores)
    python bench/bench_check.py --claims 1000 --rounds 2
    python bench/bench_check.py --baseline-ref HEAD~3   # any git ref as the baseline

The claims are seeded random 13-tile deals with a random claimed h (most are wrong, each needs the
exact h and an explanation: the checker's common path). Each configuration runs the whole command in a
fresh process (`mj check FILE --json --workers N`, start-up included), reading stdout as it streams:
"first" is the time to the first claim's line. The baseline tree is `git archive <ref>` in a temporary
directory, with the C search built in it as `pip install` builds it here. Configurations take turns in an order rotated each round, so a slow spell of the shared
machine hits all alike; compare ratios, never times across runs. A CPU-bound probe (one process, then
two at once) at the start and the end says how much a second worker can gain on the machine as it is. The verdicts of every line must agree
between the two trees (exit status 1 otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


PARENT_CPU = ("import atexit, resource; atexit.register(lambda: print('parent-cpu', sum(resource.getrusage("
              "resource.RUSAGE_SELF)[:2]), file=sys.stderr)); ")


def run(tree: Path, claims: Path, workers: int, cluster: str | None = None
        ) -> tuple[float, float, float, float, list[tuple]]:
    """(seconds to the first result, total seconds, CPU seconds of the command and its workers, CPU seconds
    of the command's own process, [(line, verdict, exact h)]) for one whole command."""
    code = (f"import sys; sys.path.insert(0, {str(tree)!r}); {PARENT_CPU}import cli; "
            "sys.argv = ['mj'] + sys.argv[1:]; cli.main()")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cpu = _children_cpu()  # the command waits for its workers, so their CPU time is counted in its own
    start = time.perf_counter()
    where = ["--cluster", cluster] if cluster else ["--workers", str(workers)]
    proc = subprocess.Popen([sys.executable, "-c", code, "check", str(claims), "--json", *where],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tree, env=env, text=True)
    first = None
    lines = []
    for line in proc.stdout:
        if first is None and line.startswith(("{\"line\"", ",{\"line\"")):
            first = time.perf_counter() - start
        lines.append(line)
    err = proc.stderr.read()  # a line or two: it cannot fill its pipe while stdout is read
    proc.wait()
    total = time.perf_counter() - start
    report = json.loads("".join(lines))
    answers = [(c["line"], c["verdict"], c.get("fields", {}).get("h", {}).get("exact")) for c in report["claims"]]
    parent = [float(line.split()[1]) for line in err.splitlines() if line.startswith("parent-cpu ")]
    return first or total, total, _children_cpu() - cpu, parent[-1] if parent else float("nan"), answers


PROBE = "sum(i * i for i in range(6_000_000))"  # about 0.5 s of one core


def parallelism() -> float:
    """What two processes get from this machine right now: a CPU-bound probe run alone, then two at once
    (2.0: two free cores; near 1: the other core is busy). The 2-worker/1-worker ratio cannot beat it."""
    def wall(n: int) -> float:
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", PROBE]) for _ in range(n)]
        for proc in procs:
            proc.wait()
        return time.perf_counter() - start

    return 2 * wall(1) / wall(2)


def build_extension(tree: Path) -> str:
    """Build the optional C search in a baseline tree as `pip install` would (same compiler, in place)."""
    if not (tree / "setup.py").exists():
        return "no C extension in this tree"
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree,
                          capture_output=True, text=True)
    built = list(tree.glob("solver/core/_searchc*.so"))
    return "C search built" if done.returncode == 0 and built else "C search NOT built (pure Python baseline)"


def print_table(claims: int, baseline: str, configs: list, times: dict, probe: float | None = None) -> None:
    """Medians per configuration; "after start-up" counts from the first result on (the per-claim rate
    without the fixed cost of starting the command and its workers); CPU is the whole process tree's, and
    of it the command's own process (start-up included: about 0.4 s); ``probe``: the lower of the CPU
    probes (what a second process could gain), printed beside each 2/1 ratio."""
    def median(name: str, w: int, part) -> float:
        return statistics.median(part(*t[:3]) for t in times[(name, w)])

    def rate(name: str, w: int) -> float:
        return claims / median(name, w, lambda f, t, c: t)

    def steady(name: str, w: int) -> float:
        return (claims - 1) / median(name, w, lambda f, t, c: t - f)

    def parent(name: str, w: int) -> float:
        return statistics.median(t[3] for t in times[(name, w)])

    print(f"\n| tree | workers | claims/s | after start-up | first result | CPU ms a claim | of which the parent "
          f"| ratio to {baseline} |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, _, w in configs:
        base = rate(baseline, w) if (baseline, w) in times else float("nan")
        print(f"| {name} | {w} | {rate(name, w):.0f} | {steady(name, w):.0f} | "
              f"{median(name, w, lambda f, t, c: f):.2f} s | {1000 * median(name, w, lambda f, t, c: c) / claims:.2f} | "
              f"{1000 * parent(name, w) / claims:.2f} | {rate(name, w) / base:.2f}x |")
    for name in dict.fromkeys(n for n, _, _ in configs):
        if (name, 1) in times and (name, 2) in times:
            print(f"{name}: 2 workers / 1 worker = {rate(name, 2) / rate(name, 1):.2f}x "
                  f"({steady(name, 2) / steady(name, 1):.2f}x after start-up)"
                  + (f"; the probe allowed {probe:.2f}x" if probe else ""))


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
    parser.add_argument("--claims", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2019)
    batch_options(parser)
    args = parser.parse_args()
    cluster = local_cluster() if args.local_cluster else None
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline_tree(args.baseline_ref, Path(tmp))
        print(f"{args.baseline_ref}: {build_extension(base)}")
        claims = Path(tmp) / "claims.jsonl"
        write_claims(claims, args.claims, args.seed)
        configs = [(name, tree, w) for name, tree in ((args.baseline_ref, base), ("this tree", ROOT))
                   for w in args.workers]
        if cluster:
            configs.append(("cluster", ROOT, 2))
        times: dict[tuple[str, int], list[tuple[float, float, float, float]]] = {(n, w): [] for n, _, w in configs}
        answers: dict[str, list] = {}
        probes = [parallelism()]
        print(f"{args.claims} claims, {args.rounds} round(s); load average at start {os.getloadavg()[0]:.1f}; "
              f"two CPU-bound processes run {probes[0]:.2f}x as fast as one")
        for r in range(args.rounds):
            for name, tree, w in configs[r % len(configs):] + configs[:r % len(configs)]:
                first, total, cpu, parent, got = run(tree, claims, w,
                                                     cluster.scheduler_address if name == "cluster" else None)
                times[(name, w)].append((first, total, cpu, parent))
                if answers.setdefault(name, got) != got:
                    print(f"{name}: answers differ between runs")
                print(f"  round {r + 1}: {name:>10}, {w} worker(s): first result {first:.2f} s, "
                      f"{total:.1f} s, {args.claims / total:.0f} claims/s, CPU {cpu:.1f} s", flush=True)
        probes.append(parallelism())
        print(f"load average at end {os.getloadavg()[0]:.1f}; two CPU-bound processes run {probes[1]:.2f}x "
              "as fast as one")
        print_table(args.claims, args.baseline_ref, configs, times, min(probes))
        if len({json.dumps(a) for a in answers.values()}) != 1:
            print("DISAGREEMENT: the trees give different verdicts")
            return 1
        print("verdicts and exact h agree on every line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
