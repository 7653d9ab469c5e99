"""The second objective's search beside the first, in a forked process: P(win) and E[score] are two
independent searches over the same prepared hand, so on two cores a plan of both takes about the
longer of the two instead of their sum.

Forking is taken only when it is safe and can pay (solver/batch/forked.py's test: one thread in this
process, so no lock is held by another; and more than one core). Otherwise, or if the child cannot start
or dies before it answers, the search runs here as before: the answers are the same either way
(tests/test_planner_side.py).
The child inherits the prepared searches, runs its roots, and sends back plain data: the first moves
(Fractions), its state count, or the message of the TooLarge it raised.
"""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable
from typing import Any

from solver.planning.targets import TooLarge


def can_split() -> bool:
    from solver.batch.forked import can_fork

    return (os.cpu_count() or 1) > 1 and can_fork()


class SideLost(RuntimeError):
    """The child died or failed before answering: its search is to be run here instead."""


class Side:
    """``run()`` in a child process (started at once; OSError if it cannot be); ``result()`` waits for it
    here and returns its value, raises its TooLarge, or SideLost. ``close()`` kills a child still running
    (the parent stopped first)."""

    def __init__(self, run: Callable[[], Any]):
        reader, writer = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            os.close(reader)
            _child(run, writer)
        os.close(writer)
        self.stream = os.fdopen(reader, "rb")

    def result(self) -> Any:
        try:
            kind, value = pickle.load(self.stream)
        except EOFError:  # killed (out of memory?): no answer came
            kind, value = "lost", None
        finally:
            self.close()
        if kind == "too_large":
            raise TooLarge(value)
        if kind != "ok":
            raise SideLost(f"{kind}: {value}")
        return value

    def close(self) -> None:
        if self.pid:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
            self.pid = 0
            self.stream.close()


def orphan_check(parent: int) -> Callable[[int], None]:
    """A search's tick for the child: it leaves at once when its parent is gone (killed, or a web request
    cancelled), instead of searching on for nobody. Called every few thousand states."""
    def tick(states: int) -> None:
        if os.getppid() != parent:
            os._exit(1)
    return tick


def _child(run: Callable[[], Any], writer: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it kills this process
    try:
        try:
            message = ("ok", run())
        except TooLarge as exc:
            message = ("too_large", str(exc))
        except BaseException as exc:  # reported to the parent, which raises it there
            message = (type(exc).__name__, str(exc)[:500])
        with os.fdopen(writer, "wb") as out:
            pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        os._exit(0)  # no interpreter shutdown in a forked child
