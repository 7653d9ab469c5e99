"""Progress bars for long commands: on stderr, only on a terminal (the CLI draws them; nothing here models or
solves)."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator

# The progress bar for long plans: on stderr, only on a terminal, only after one second.
DELAY = 1.0  # seconds before a bar appears: short plans print nothing extra


@contextmanager
def progress_bar(quiet: bool = False) -> Iterator[Callable[[int, int, int], None] | None]:
    """A callback (roots done, roots in all, states) for solver.planning.plan, or None off a terminal."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    started = time.monotonic()
    bar: list = []

    def report(done: int, total: int, states: int) -> None:
        if not bar:
            if time.monotonic() - started < DELAY:
                return
            # (drawn on each report, no refresh thread: a process with a second thread may not fork, and the plan
            # forks for its second core; plan() reports between its steps too, so a long one shows its bar)
            progress = Progress(TextColumn("planning"), BarColumn(), TextColumn("{task.completed}/{task.total} roots"),
                                TextColumn("{task.fields[states]} states"), TimeElapsedColumn(),
                                console=Console(stderr=True), transient=True, auto_refresh=False)
            progress.start()
            bar.extend([progress, progress.add_task("plan", total=total, states=0)])
        bar[0].update(bar[1], completed=done, total=total, states=states, refresh=True)

    try:
        yield report
    finally:
        if bar:
            bar[0].stop()


@contextmanager
def count_bar(label: str, total: int | None, start: int = 0, quiet: bool = False) -> Iterator[Callable[..., None]]:
    """A callback (items done[, total once known]) drawing `label` done/total on stderr, on a terminal only
    (`quiet`: the items are printed on that terminal, so nothing is drawn over them). The elapsed time shows a
    slow item is alive."""
    if quiet or not sys.stderr.isatty():
        yield lambda done, total=None: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=Console(stderr=True), transient=True)  # done/total, "?" while it is unknown
    task = progress.add_task(label, total=total, completed=start)
    progress.start()
    try:
        yield lambda done, total=None: progress.update(task, completed=done, **({"total": total} if total else {}))
    finally:
        progress.stop()


@contextmanager
def elapsed(label: str, budget: float | None, quiet: bool = False) -> Iterator[None]:
    """'label… 3 s of 30 s' on stderr, rewritten every half second from DELAY on, on a terminal only, for a step
    that reports no progress of its own (the turn analysis, h: milliseconds on the built-in rule sets, seconds on a
    house of thousands of units). Its thread is joined before the block's end, so a plan after it may fork."""
    if quiet or not sys.stderr.isatty():
        yield
        return
    import threading

    stop, started = threading.Event(), time.monotonic()

    def draw() -> None:
        shown = False
        while not stop.wait(DELAY if not shown else 0.5):
            seconds = time.monotonic() - started
            of = f" of {budget:g} s" if budget is not None else ""
            sys.stderr.write(f"\r{label}… {seconds:.0f} s{of}\033[K")
            sys.stderr.flush()
            shown = True
        if shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
    thread = threading.Thread(target=draw, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
