"""What bench_core.py and bench_analysis.py share: the hands, the timing loop, statistics, formatting,
the common options and the one-off costs. Each script keeps its own methods, tables and checks.

Each script puts its own directory first on sys.path before importing this, so `python bench/<script>.py`
works from any directory.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import random
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

COPIES = 3


# --- hands -----------------------------------------------------------------------------------------

def random_deals(seed: object, n: int, kinds: int, hand_size: int) -> list[list[int]]:
    """n random hand_size-tile deals from the full wall (3 copies of every kind), as count vectors.

    Both scripts deal with this, so the same seed gives them the same hands.
    """
    rng = random.Random(seed)
    wall = [k for k in range(kinds) for _ in range(COPIES)]
    hands = []
    for _ in range(n):
        counts = [0] * kinds
        for k in rng.sample(wall, hand_size):
            counts[k] += 1
        hands.append(counts)
    return hands


# --- statistics and formatting -------------------------------------------------------------------

def quantile(values: list[float], q: float) -> float:
    """Linear-interpolated quantile (q in [0, 1]) of a non-empty list."""
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def spread(times: list[float]) -> dict:
    """n and median/p90/max in ms ({"n": 0} for no times)."""
    if not times:
        return {"n": 0}
    return {"n": len(times), "median_ms": quantile(times, 0.5) * 1e3, "p90_ms": quantile(times, 0.9) * 1e3,
            "max_ms": max(times) * 1e3}


def fmt_ms(ms: float | None, lower: bool = False) -> str:
    if ms is None:
        return "-"
    pre = ">=" if lower else ""
    if ms >= 1000:
        return f"{pre}{ms / 1000:.2f} s"
    if ms >= 100:
        return f"{pre}{ms:.0f} ms"
    if ms >= 10:
        return f"{pre}{ms:.1f} ms"
    return f"{pre}{ms:.2f} ms"


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def load() -> str:
    """The 1/5/15-minute load averages, as text."""
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def environment(ortools_version: str) -> str:
    return f"python {platform.python_version()}, ortools {ortools_version}, {os.cpu_count()} cpus"


# --- tables ----------------------------------------------------------------------------------------

HEAD = ("median", "p90", "max")


def cells(s: dict) -> tuple[str, str, str]:
    """A summary's median, p90 and max, each marked '>=' where the summary says it is a lower bound."""
    return tuple(fmt_ms(s[f"{k}_ms"], s.get(f"{k}_lower_bound", False)) for k in ("median", "p90", "max"))


def row(label: str, values: tuple[str, ...], tail: str, *, width: int, cell: int) -> str:
    """One table line: the label, the right-aligned values, then the free text."""
    return f"  {label:<{width}}" + "".join(f"{v:>{cell}}" for v in values) + f"   {tail}"


# --- the timing loop -------------------------------------------------------------------------------

def timed(fn: Callable[[], Any], censor: tuple[type[BaseException], ...] = ()) -> tuple[float, Any, bool]:
    """(seconds, answer, censored) of one call, with the garbage collector paused during it.

    An exception in `censor` (a solve that hit its time limit) gives answer None and censored True.
    """
    gc.disable()
    try:
        start = time.perf_counter()
        try:
            answer, censored = fn(), False
        except censor:
            answer, censored = None, True
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed, answer, censored


def run_series(hands: list, methods: dict[str, tuple[Callable[[Any], Any], int]], *, chunk: int,
               budget: dict[str, float], progress: Callable[[int, dict[str, float]], None], every: float,
               warm_hand: Any = None, after: dict[str, Callable[[Any], Any]] | None = None,
               censor: tuple[type[BaseException], ...] = ()) -> dict:
    """Time each method on its first `count` hands, in chunks of `chunk` hands.

    The methods take turns chunk by chunk, order rotated, so a slow spell of this shared machine hits
    all of them alike. Given a `warm_hand`, each method without a budget makes one untimed call on it
    before its hands of a chunk (the methods with a budget are the slow ones: a warm call would not
    help). A method whose total time passes its budget stops early (its n says so).
    `after[name](answer)` runs untimed after each call and goes in the record's "extra".
    `progress(done, spent)` is called after a chunk when `every` seconds have passed since the last.
    Every method's hands are a prefix of `hands`, so answers line up by index.
    """
    after = after or {}
    names = list(methods)
    out = {name: {"times": [], "censored": [], "answers": [], "extra": []} for name in names}
    spent = dict.fromkeys(names, 0.0)
    last = time.monotonic()
    for number, first in enumerate(range(0, len(hands), chunk)):
        shift = number % len(names)
        for name in names[shift:] + names[:shift]:
            fn, count = methods[name]
            todo = range(first, min(first + chunk, count, len(hands)))
            if not todo or spent[name] > budget.get(name, float("inf")):
                continue
            if warm_hand is not None and name not in budget:
                fn(warm_hand)
            rec = out[name]
            for i in todo:
                if spent[name] > budget.get(name, float("inf")):
                    break
                elapsed, answer, censored = timed(lambda: fn(hands[i]), censor)
                spent[name] += elapsed
                rec["times"].append(elapsed)
                rec["censored"].append(censored)
                rec["answers"].append(answer)
                rec["extra"].append(after[name](answer) if name in after else None)
        if time.monotonic() - last > every:
            last = time.monotonic()
            progress(min(first + chunk, len(hands)), spent)
    return out


# --- options, output, one-off costs ----------------------------------------------------------------

class ByQuick(NamedTuple):
    """The default of an option that --quick changes; parse() puts the right one in its place."""

    full: float
    quick: float


def option(ap: argparse.ArgumentParser, flag: str, kind: type, full: float, quick: float, help: str) -> None:
    """An option whose default depends on --quick; its help ends with both defaults."""
    ap.add_argument(flag, type=kind, default=ByQuick(full, quick), help=f"{help} (default {full:g}, --quick {quick:g})")


def parser(doc: str, hands: tuple[int, int], hands_help: str, quick_help: str) -> argparse.ArgumentParser:
    """The options both scripts start with: --hands (hands = (full, quick) defaults), --seed, --quick."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    option(ap, "--hands", int, *hands, hands_help)
    ap.add_argument("--seed", type=int, default=2019, help="seed of the hand set (default 2019)")
    ap.add_argument("--quick", action="store_true", help=quick_help)
    return ap


def parse(ap: argparse.ArgumentParser, argv: list[str] | None, *, chunk: int) -> argparse.Namespace:
    """Add the options both scripts end with (--chunk, --json), parse, fill in the --quick-dependent
    defaults and check --hands and --chunk."""
    ap.add_argument("--chunk", type=int, default=chunk,
                    help=f"hands each method times back to back before the next method's turn (default {chunk})")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH ('-': stdout, and "
                                                   "the table goes to stderr)")
    args = ap.parse_args(argv)
    for dest, value in vars(args).items():
        if isinstance(value, ByQuick):
            setattr(args, dest, value.quick if args.quick else value.full)
    if args.hands < 1 or args.chunk < 1:
        ap.error("--hands and --chunk must be at least 1")
    return args


def printers(json_dest: str | None) -> tuple[Callable[..., None], Callable[[str], None]]:
    """(say, progress): the report goes to stdout, or to stderr when the JSON takes stdout; progress to stderr."""
    out = sys.stderr if json_dest == "-" else sys.stdout

    def say(line: str = "") -> None:
        print(line, file=out, flush=True)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    return say, progress


@contextmanager
def clocked(into: dict[str, float], key: str) -> Iterator[None]:
    """into[key] = the milliseconds the block took."""
    start = time.perf_counter()
    yield
    into[key] = (time.perf_counter() - start) * 1e3


def setup(rules: str, imports: tuple[str, ...] = ()) -> tuple[dict[str, float], Any, str]:
    """(one-off costs, the Evaluator, the ortools version): the ortools import, the Evaluator (with the
    solver package's imports and the modules in `imports`) and the h template build, each measured once."""
    one_off: dict[str, float] = {}
    with clocked(one_off, "import_ortools_ms"):
        from ortools.sat.python import cp_model  # noqa: F401  (the project imports it lazily)
    import ortools

    with clocked(one_off, "evaluator_ms"):
        for module in imports:
            importlib.import_module(module)
        from solver import Evaluator
        ev = Evaluator(rules)
    with clocked(one_off, "h_template_build_ms"):
        ev.distance_model  # noqa: B018  builds the h template once per rule set
    return one_off, ev, ortools.__version__


def one_off_line(one_off: dict[str, float], *more: tuple[str, str]) -> str:
    """The one-off costs as one line; `more` adds (label, key) pairs after the common three."""
    parts = (("import ortools", "import_ortools_ms"), ("Evaluator", "evaluator_ms"),
             ("h template build", "h_template_build_ms")) + more
    return "one-off: " + ", ".join(f"{label} {fmt_ms(one_off[key])}" for label, key in parts) + " (not in the tables)"


def write_json(results: dict, dest: str | None) -> None:
    """The results as JSON to dest ('-': stdout); nothing when dest is None."""
    if not dest:
        return
    text = json.dumps(results, indent=2, sort_keys=True)
    if dest == "-":
        print(text)
    else:
        Path(dest).write_text(text + "\n", encoding="utf-8")


def exit_status(disagreements: int, say: Callable[[str], None]) -> int:
    """1 only when answers disagree; a missed speed target never changes it."""
    if disagreements:
        say("FAIL: answers disagree (see above)")
        return 1
    return 0
