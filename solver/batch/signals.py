"""Clean stops for a batch command: SIGINT, SIGTERM, SIGHUP and the end of its time budget (SIGALRM) become the same
exception (``Stopped``), so a stopped run closes its output, stops its workers and says what it wrote;
``--resume`` continues it."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

EXIT_SIGINT, EXIT_SIGTERM, EXIT_SIGHUP = 130, 143, 129  # 128 + the signal's number, as shells report it
# (SIGHUP, a closed terminal: stopped cleanly too, so an external bot's processes and a run's workers go with it, QA)
HANGUP = getattr(signal, "SIGHUP", None)  # (POSIX)
EXIT_BUDGET = 124  # the time budget ran out (as timeout(1) reports it)


class Stopped(KeyboardInterrupt):
    """The run was stopped by a signal; ``exit_code`` is 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP)."""

    def __init__(self, exit_code: int = EXIT_SIGINT):
        super().__init__()
        self.exit_code = exit_code


_fired: list[int] = []  # the first stop signal of this run (a second one is ignored)
_held = {"depth": 0, "pending": 0}  # inside held(): the signal that arrived and waits
_budget: list[float | None] = [None]  # the run's time budget in seconds, for its last line


def _code(signum: int) -> int:
    if signum == signal.SIGALRM:
        return EXIT_BUDGET
    if signum == HANGUP:
        return EXIT_SIGHUP
    return EXIT_SIGTERM if signum == signal.SIGTERM else EXIT_SIGINT


def _handler(signum: int, frame: Any) -> None:
    if _fired:
        return
    _fired.append(signum)
    if _held["depth"]:
        _held["pending"] = signum
        return
    raise Stopped(_code(signum))


@contextmanager
def stop_signals(budget: float | None = None) -> Iterator[None]:
    """Inside: SIGINT, SIGTERM and SIGHUP raise Stopped (at most once: a second signal during the clean-up waits), and
    so does the end of `budget` seconds (a timer of this process only: forked workers do not inherit it)."""
    _fired.clear()
    _held["pending"] = 0
    _budget[0] = budget
    stops = (signal.SIGINT, signal.SIGTERM) + ((HANGUP,) if HANGUP is not None else ()) + \
        ((signal.SIGALRM,) if budget is not None else ())
    try:
        previous = {s: signal.signal(s, _handler) for s in stops}
    except ValueError:  # not the main thread (an embedding program): leave its signals alone
        yield
        return
    if budget is not None:
        signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        yield
    finally:
        if budget is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for s, old in previous.items():
            signal.signal(s, old)


class held:
    """Inside: a stop waits until the block ends, so a written line and its count never part.
    ``final``: the block ends the run (its summary line), so a stop that came meanwhile is moot.
    (A class, not a generator: a batch's parent enters it for every chunk of results.)"""

    def __init__(self, final: bool = False):
        self.final = final

    def __enter__(self) -> None:
        _held["depth"] += 1

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        _held["depth"] -= 1
        pending = _held["pending"]
        if kind is None and pending and not _held["depth"]:
            _held["pending"] = 0
            if not self.final:
                raise Stopped(_code(pending))


def stopped_text(done: str, output: str | None) -> str:
    """The one line a stopped run ends with: what it wrote, and how to continue."""
    from solver.core.errors import shown

    where = f" (in {shown(output)})" if output else ""
    hint = "; rerun with --resume to continue" if output else "; use --output FILE to be able to resume"
    if _fired and _fired[0] == signal.SIGALRM:
        return f"the time budget of {_budget[0]:g} s ran out after {done}{where}{hint}"
    return f"interrupted after {done}{where}{hint}"
