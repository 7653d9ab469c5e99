"""The second objective's search beside the first, in a forked process: P(win) and E[score] are two
independent searches over the same prepared hand, so on two cores a plan of both takes about the
longer of the two instead of their sum.

Forking is taken only when it is safe and can pay (solver/batch/forked.py's test: one thread in this
process, so no lock is held by another; and more than one core). Otherwise, or if the child cannot start
or dies before it answers, the search runs here as before: the answers are the same either way
(tests/test_planner_side.py).
The child inherits the prepared searches, runs its roots, and sends back plain data: the first moves
(Fractions), its state count, or the message of the TooLarge it raised.

`split_sums` shares one search's work instead: a sum over the kinds of the first draw, each kind valued apart
(score_optimum.py, fetch_win.py, first_draw.py), the next kind taken by whichever process is free.
"""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from solver.planning.targets import OutOfTime, TooLarge, clock_cut, cut_by_clock


_FORKED = False  # this process is a child of Side: it forks no further (one child per search is one more core)
_RUNNING = [0]  # Side children of this process not yet closed: while one runs, the second core is taken


def can_split() -> bool:
    from solver.batch.forked import can_fork

    return not _FORKED and not _RUNNING[0] and (os.cpu_count() or 1) > 1 and can_fork()


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
        _RUNNING[0] += 1

    def result(self) -> Any:
        try:
            kind, value, cut = pickle.load(self.stream)
        except EOFError:  # killed (out of memory?): no answer came
            kind, value, cut = "lost", None, False
        finally:
            self.close()
        if cut:  # (a step of the child's stopped at its time budget: this plan was cut by its clock too)
            cut_by_clock()
        if kind == "too_large":
            raise TooLarge(value)
        if kind == "out_of_time":  # (QA: its own kind, so the plan's advice for a clock's stop is given)
            raise OutOfTime(value)
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
            _RUNNING[0] -= 1


Sums = Callable[[Iterable[int], Callable[[], int] | None], list[int]]


class Splittable(Protocol):
    tick: Callable[[int], None] | None  # called every few thousand states (the child's: its orphan check)

    def split_states(self) -> int: ...  # the states visited so far

    def add_split_states(self, states: int) -> None: ...  # the child's, counted here (TooLarge past the cap)


class Beside:
    """`run()` started in a child where one can be forked, else run here at once. `value()` gives its value (from
    the child when it answers, else by running it here: the same value either way); `close()` stops a child
    whose value is no longer wanted (the parent failed first)."""

    def __init__(self, run: Callable[[], Any]):
        self.run, self.side = run, None
        if can_split():
            try:
                self.side = Side(run)
            except OSError:
                pass
        if self.side is None:
            self.done = run()

    def value(self) -> Any:
        if self.side is None:
            return self.done
        try:
            self.done = self.side.result()
        except SideLost:
            self.done = self.run()
        self.side = None
        return self.done

    def settle(self) -> None:
        """Its value taken now if the child has answered already (its core then free for another child)."""
        import select

        if self.side is not None and select.select([self.side.stream], [], [], 0)[0]:
            self.value()

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


def split_sums(kinds: list[int], run: Sums, search: Splittable) -> list[int]:
    """`run(kinds, left)` (a list of sums per move, over the kinds it is given; `left()`: how many kinds are left
    for it, to pace itself) over every kind, on two cores where a child can be forked: both processes take the next
    kind not yet taken until none is left, and the child's sums are added to this one's, its states to `search`'s.
    Where the child cannot start or dies, what it took is valued here: the same sums either way."""
    import multiprocessing

    if not can_split():
        return run(kinds, None)
    try:
        taken = multiprocessing.get_context("fork").Value("i", 0)  # (shared: the next kind's index)
    except OSError:  # no shared memory to be had (a container without /dev/shm): every kind here
        return run(kinds, None)
    mine: list[int] = []  # the kinds this process took

    def claimed():
        while True:
            with taken.get_lock():
                i = taken.value
                taken.value += 1
            if i >= len(kinds):
                return
            mine.append(kinds[i])
            yield kinds[i]

    def left() -> int:
        return max(0, len(kinds) - taken.value) // 2

    def in_the_child():
        search.tick = orphan_check(parent)
        before = search.split_states()
        return run(claimed(), left), search.split_states() - before

    parent = os.getpid()
    try:
        side = Side(in_the_child)
    except OSError:  # no process to be had: every kind here
        return run(kinds, None)
    try:
        sums = run(claimed(), left)
        try:
            theirs, spent = side.result()
            search.add_split_states(spent)
        except SideLost:  # the child died: the kinds it took are valued here
            theirs = run([k for k in kinds if k not in mine], None)
    finally:
        side.close()
    return [a + b for a, b in zip(sums, theirs)]


def orphan_check(parent: int) -> Callable[[int], None]:
    """A search's tick for the child: it leaves at once when its parent is gone (killed, or a web request
    cancelled), instead of searching on for nobody. Called every few thousand states."""
    def tick(states: int) -> None:
        if os.getppid() != parent:
            os._exit(1)
    return tick


def _child(run: Callable[[], Any], writer: int) -> None:
    global _FORKED
    _FORKED = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it kills this process
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command's clean-stop handler (cli.said_on_interrupt)
    try:
        try:
            message = ("ok", run())
        except TooLarge as exc:
            message = ("out_of_time" if isinstance(exc, OutOfTime) else "too_large", str(exc))
        except BaseException as exc:  # reported to the parent, which raises it there
            message = (type(exc).__name__, str(exc)[:500])
        with os.fdopen(writer, "wb") as out:
            pickle.dump(message + (clock_cut(),), out, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        os._exit(0)  # no interpreter shutdown in a forked child
