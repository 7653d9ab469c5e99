"""Issue 20's start-up figures: `mj h` and `mj analyze --json` as whole processes, this tree beside a
baseline tree (`git archive REF`, its C search built in place) in the same run, alternating.

    python bench/bench_startup.py                      # baseline: fb1538e, the tree before issue 20's start-up work
    python bench/bench_startup.py --rounds 7 --baseline-ref main

Hands: the analysis bench's worst (bench_fast.py's named hands: 765 ALL STARS complete; two 2019-10 hands
with 2-3 wildcard そら), seed 000's hand (h = 1), a 12-tile hand, an h = 5 hand. Each command runs
`--rounds` times per tree; the table gives the median and the worst, and the ratio of the medians
(baseline / this tree). Targets (issue 20): mj h <= 0.2 s; mj analyze --json <= 0.25 s median, <= 0.4 s worst.
The machine is shared: compare the ratios, not times across runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "fb1538e"

HANDS = [
    ("765 ALL STARS (complete)", "2019-12", "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美 響"),
    ("2019-10, 2 wildcard そら", "2019-10", "美希 未来 翼 翼 杏奈 百合子 瑞希 麗花 ジュリア 詩花 詩花 そら そら"),
    ("2019-10, 3 wildcard そら", "2019-10", "やよい 真 律子 真美 響 杏奈 ロコ 百合子 可憐 昴 そら そら そら"),
    ("seed 000 (h = 1)", "2019-12", "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"),
    ("12 tiles", "2019-12", "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美"),
    ("h = 5", "2019-12", "美希 律子 真美 真美 未来 美奈子 星梨花 ひなた ひなた 風花 可憐 莉緒 麗花"),
]


def commands() -> list[tuple[str, list[str]]]:
    runs = [("python -c pass (floor)", ["-c", "pass"])]
    runs += [(f"mj h: {label}", ["cli.py", "h", hand, "-r", rules]) for label, rules, hand in HANDS[:1]]
    runs += [(f"mj analyze --json: {label}", ["cli.py", "analyze", hand, "-r", rules, "--json"])
             for label, rules, hand in HANDS]
    return runs


def baseline_tree(ref: str, tmp: Path) -> Path:
    base = tmp / "baseline"
    base.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=base, capture_output=True)
    return base


def run(tree: Path, args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(args)[:80]} failed: {done.stderr[-300:]}")
    return took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline-ref", default=BASELINE)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline_tree(args.baseline_ref, Path(tmp))
        trees = {"this tree": ROOT, "baseline": base}
        for tree in trees.values():  # which solver each tree imports (the script's directory comes first)
            where = subprocess.run([sys.executable, "-c", "import solver; print(solver.__file__)"], cwd=tree,
                                   capture_output=True, text=True).stdout.strip()
            assert where.startswith(str(tree)), where
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for label, cmd in commands():
                for name, tree in trees.items():
                    times.setdefault((label, name), []).append(run(tree, cmd))
    print(f"whole processes, {args.rounds} rounds, baseline {args.baseline_ref} (same run, alternating)")
    print("| command | this tree: median / worst | baseline: median / worst | ratio |")
    print("| --- | --- | --- | --- |")
    for label, _ in commands():
        now, then = times[(label, "this tree")], times[(label, "baseline")]
        ratio = statistics.median(then) / statistics.median(now)
        print(f"| {label} | {statistics.median(now):.3f} s / {max(now):.3f} s | "
              f"{statistics.median(then):.3f} s / {max(then):.3f} s | {ratio:.2f}x |")
    analyses = [t for (label, name), ts in times.items() if name == "this tree" and "analyze" in label for t in ts]
    print(f"\nmj analyze --json over every hand, this tree: median {statistics.median(analyses):.3f} s, "
          f"worst {max(analyses):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
