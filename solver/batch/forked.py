"""A worker process forked from this one: it inherits every module already imported (no interpreter start,
no imports: about 0.3 s less than ``python -m solver.batch.worker`` before its first result).

Forking is safe only while this process runs a single thread (a lock held by another thread would stay
held in the child forever), so executors.py forks only then (on Linux, where native threads can be
counted too) and spawns otherwise. The child speaks the
protocol of worker.py on a pair of pipes, in a session of its own (Ctrl-C is the parent's), with every
other inherited descriptor closed: when the parent dies, the end of its pipe is the child's end too.
"""

from __future__ import annotations

import os
import signal
import threading
import time

from solver.batch.process_tree import in_session


def can_fork() -> bool:
    """Linux, and one thread in this process: Python's and native ones (a solver's pool) alike."""
    try:
        return hasattr(os, "fork") and threading.active_count() == 1 and len(os.listdir("/proc/self/task")) == 1
    except OSError:  # not Linux (macOS: system libraries are not fork-safe either): spawn
        return False


def kill_group(pid: int) -> None:
    """SIGKILL to a worker's session: the worker (its leader) and whatever it started there, e.g. the external bots
    of a tournament's games, which a killed worker would otherwise leave running (a hung one for ever). A bot leads
    a process group of its own inside that session (game/players/external.py), so on Linux every process of the
    session is found in /proc; elsewhere the worker's group."""
    for kill, target in [(os.killpg, pid), (os.kill, pid)] + [(os.kill, other) for other in in_session(pid)]:
        try:  # (the worker itself too: killed before its setsid, it leads no group yet)
            kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):  # (gone, with everything it started)
            pass


class Forked:
    """The part of ``subprocess.Popen`` that executors.LocalProcesses uses, for a forked worker."""

    def __init__(self, job: bytes):
        to_child, from_parent = os.pipe()
        to_parent, from_child = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _child(to_child, from_child, job)
        os.close(to_child)
        os.close(from_child)
        self.pid, self.returncode = pid, None
        self.stdin, self.stdout = os.fdopen(from_parent, "wb"), os.fdopen(to_parent, "rb")

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                import subprocess

                raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout)
            time.sleep(0.001)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            kill_group(self.pid)


def _child(source: int, channel: int, job: bytes) -> None:
    code = 1
    try:
        os.setsid()
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the workers
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's clean-stop handler
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
        os.dup2(2, 1)  # the parent's stdout is its output: anything a library prints goes to stderr
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # the parent's stdin may be its input
        keep = {0, 1, 2, source, channel}
        for fd in _open_descriptors():
            if fd not in keep:
                try:
                    os.close(fd)
                except OSError:
                    pass
        from solver.batch.worker import serve

        serve(os.fdopen(source, "rb"), os.fdopen(channel, "wb"), job)
        code = 0
    finally:
        os._exit(code)  # no interpreter shutdown: the parent's objects are not this process's to flush


def _open_descriptors() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return list(range(3, 1024))
