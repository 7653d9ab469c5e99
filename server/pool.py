"""Worker processes for the solving requests: each owns its Evaluators, one job at a time.

Why processes rather than threads: a solve is mostly Python (the GIL would serialise threads),
CP-SAT models cannot be shared mid-solve, and a process can be stopped at once. A request whose
client goes away (the page aborts its fetch) or that runs past the time limit has its worker
killed and replaced, so the work is really cancelled rather than left running.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Callable

from solver.core.errors import MjError, error_line


class WorkerDied(RuntimeError):
    """The worker process ended in the middle of a job (killed, or out of memory)."""


class JobTimeout(RuntimeError):
    pass


class PoolBusy(RuntimeError):
    """Too many requests already wait for a worker (a 503: ask again in a moment)."""


WAITING_PER_WORKER = 16  # requests that may wait for each worker (QA, security: 200 waiting reviews held 2 GB)


def _worker_main(conn: Connection, catalogue_files: tuple[str, ...]) -> None:
    """A worker's loop: receive (function, args), send back ("ok", value) or ("error", line, code)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops its workers
    from server import jobs

    jobs.configure(catalogue_files)
    try:
        jobs.evaluator({})  # the default rule set's Evaluator, ready before the first request
    except MjError:
        pass  # a bad --catalogue is reported to each request instead
    while True:
        try:
            func, args = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        try:
            reply: tuple = ("ok", func(*args))
        except MjError as exc:
            reply = ("error", error_line(str(exc)), exc.code)
        except Exception as exc:  # a bug: reported to that request, the worker lives on
            reply = ("bug", f"error: internal error ({type(exc).__name__}: {str(exc)[:200]})", "ERR_INTERNAL")
        conn.send(reply)


class Worker:
    def __init__(self, context, catalogue_files: tuple[str, ...]):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, catalogue_files), daemon=True,
                                       name="mj-serve-worker")
        self.process.start()
        child.close()

    def stop(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()


class JobError(Exception):
    """A job's domain error (bad input) or bug, with the CLI's one-line message."""

    def __init__(self, line: str, code: str, bug: bool = False):
        super().__init__(line)
        self.line, self.code, self.bug = line, code, bug


class WorkerPool:
    """`size` worker processes; `run` waits for a free one, so extra requests queue."""

    def __init__(self, size: int = 2, catalogue_files: tuple[str, ...] = ()):
        self.size = max(1, size)
        self.catalogue_files = tuple(catalogue_files)
        self._context = multiprocessing.get_context("spawn")  # clean workers: no CP-SAT state inherited
        self._idle: asyncio.Queue[Worker] | None = None
        self._all: set[Worker] = set()
        self.waiting = 0  # requests waiting for a free worker
        self.uploading = 0  # requests still reading their body (reading())
        # recv() blocks, so it runs in a thread; a killed worker's recv ends at once with EOFError
        self._threads = ThreadPoolExecutor(max_workers=2 * self.size + 2, thread_name_prefix="mj-serve-recv")

    def start(self) -> None:
        self._idle = asyncio.Queue()
        for _ in range(self.size):
            self._idle.put_nowait(self._spawn())

    def _spawn(self) -> Worker:
        worker = Worker(self._context, self.catalogue_files)
        self._all.add(worker)
        return worker

    def _replace(self, worker: Worker) -> None:
        self._all.discard(worker)
        worker.stop()
        if self._idle is not None:
            self._idle.put_nowait(self._spawn())

    @contextmanager
    def reading(self) -> Iterator[None]:
        """A question's body being read before it is asked: counted in the queue by full(before_body=True) (QA: 60
        slow uploads of 4 MB held 250 MB)."""
        self.uploading += 1
        try:
            yield
        finally:
            self.uploading -= 1

    def full(self, before_body: bool = False) -> PoolBusy | None:
        """PoolBusy where WAITING_PER_WORKER a worker already wait (`before_body`: the bodies still being read
        counted too) and no worker is free for the waiting alone; else None. Checked before a body is read: one
        waiting does not hold its 4 MB. The queue is first come, first served."""
        uploading = self.uploading if before_body else 0
        queued = self.waiting + uploading
        if self._idle is not None and (self._idle.empty() or uploading) and queued >= WAITING_PER_WORKER * self.size:
            return PoolBusy(f"the server is busy: {queued} questions wait for its {self.size} solver "
                            "process(es); ask again in a moment")
        return None

    async def run(self, func: Callable[..., Any], *args: Any, timeout: float | None = None) -> Any:
        """func(*args) in a worker. Raises JobError, JobTimeout, WorkerDied, PoolBusy; cancelling kills the work."""
        if self._idle is None:
            raise RuntimeError("the pool is not started")
        busy = self.full()
        if busy is not None:
            raise busy
        self.waiting += 1
        try:
            worker = await self._idle.get()
        finally:
            self.waiting -= 1
        healthy = False
        try:
            try:
                worker.conn.send((func, args))
                recv = asyncio.get_running_loop().run_in_executor(self._threads, worker.conn.recv)
                reply = await asyncio.wait_for(recv, timeout)
            except asyncio.TimeoutError:
                raise JobTimeout(f"stopped after {timeout:g} s: this question takes too long here") from None
            except (EOFError, OSError):
                raise WorkerDied("the solver's worker process stopped in the middle of the request") from None
            healthy = True
        finally:  # also on cancellation (the client went away): the busy worker is killed, not reused
            if healthy:
                self._idle.put_nowait(worker)
            else:
                self._replace(worker)
        if reply[0] == "ok":
            return reply[1]
        raise JobError(reply[1], reply[2], bug=reply[0] == "bug")

    def close(self) -> None:
        for worker in list(self._all):
            worker.stop()
        self._all.clear()
        self._idle = None
        self._threads.shutdown(wait=False, cancel_futures=True)
