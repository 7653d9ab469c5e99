"""The cluster executor: chunks run as tasks on a Dask distributed cluster (``pip install ".[cluster]"``).

Same seam as executors.py (``slots``, ``submit``, ``close``): ordered.py still orders, bounds and re-runs,
and the commands write, so ``--resume``, input order and constant memory hold on a cluster as they do
locally. Each Dask worker process caches its own Evaluator per rule set and receives plain data.

A dispatcher thread gives each worker as many chunks as it has threads, each task pinned to that worker
(``workers=[address]``, no other), and fetches each result as soon as it is done. So a worker that dies
(killed, out of memory) takes with it exactly the chunks it was running: they come back as
``WorkerLost`` and ordered.py re-runs them elsewhere, splits a chunk lost twice and reports a task lost
twice, as locally. Left to itself Dask would count a death against every task queued on that worker
and re-run it up to its ``allowed-failures``; pinned tasks never queue behind another. A cluster left
with no worker at all fails the waiting chunks with an error after ``idle_limit`` seconds, not a hang:
what was written stays resumable.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter, deque
from concurrent.futures import Future
from typing import Any

from solver.batch.executors import Job, WorkerLost
from solver.core.errors import MjError, shown

POLL = 0.2  # seconds between looks at the workers while chunks run
FETCH = 60  # seconds to fetch a finished chunk's results from its worker


class DaskCluster:
    """Chunks as Dask tasks on the scheduler at ``address`` (tcp://host:8786) or an existing Client."""

    def __init__(self, address: Any, job: Job, per_thread: int = 2, idle_limit: float = 120.0):
        try:
            from distributed import Client
        except ImportError:
            raise MjError('--cluster needs Dask distributed: pip install ".[cluster]"') from None
        self.job, self.idle_limit = job, idle_limit
        self._own = not hasattr(address, "submit")
        try:
            self.client = Client(address, timeout="10s") if self._own else address
        except (OSError, TimeoutError, ValueError) as exc:
            raise MjError(f"cannot reach the Dask scheduler at {shown(str(address))}: {shown(str(exc), 200)}") from None
        self.slots = per_thread * (sum(self._workers().values()) or 1)  # one running, one ready, per thread
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._dispatch, daemon=True)
        self._thread.start()

    def _workers(self) -> dict[str, int]:
        """Each live worker's address and its threads."""
        return {addr: info.get("nthreads", 1) or 1
                for addr, info in self.client.scheduler_info().get("workers", {}).items()}

    def submit(self, chunk: list[Any]) -> Future:
        future: Future = Future()
        self._queue.put((chunk, future))
        return future

    def _dispatch(self) -> None:
        waiting: deque[tuple[list[Any], Future]] = deque()
        running: dict[Any, tuple[str, Future]] = {}  # Dask future -> (its worker, our future)
        try:
            self._loop(waiting, running)
        except Exception as exc:  # the scheduler went away: every chunk not done fails with one error
            error = MjError(f"lost the Dask scheduler: {shown(str(exc) or type(exc).__name__, 200)}")
            for _, future in list(running.values()) + list(waiting):
                if not future.done():
                    future.set_exception(error)

    def _loop(self, waiting: deque, running: dict) -> None:
        from distributed import wait

        alone_since = None
        while True:
            try:  # new chunks (block only when there is nothing else to do)
                item = self._queue.get(timeout=POLL) if not (waiting or running) else self._queue.get_nowait()
                while True:
                    if item is None:
                        for dask_future in running:
                            dask_future.cancel()
                        return
                    waiting.append(item)
                    item = self._queue.get_nowait()
            except queue.Empty:
                pass
            workers = self._workers()
            self._collect(running, workers)
            if not workers and waiting:
                alone_since = alone_since or time.monotonic()
                if time.monotonic() - alone_since > self.idle_limit:
                    error = MjError(f"no worker on the Dask cluster for {self.idle_limit:.0f} s; "
                                    "start workers and rerun with --resume")
                    while waiting:
                        waiting.popleft()[1].set_exception(error)
            else:
                alone_since = None
            busy = Counter(address for address, _ in running.values())
            for address, threads in workers.items():
                while waiting and busy[address] < threads:
                    chunk, future = waiting.popleft()
                    if future.set_running_or_notify_cancel():
                        pinned = self.client.submit(self.job.function, chunk, *self.job.args, pure=False,
                                                    workers=[address], allow_other_workers=False)
                        running[pinned] = (address, future)
                        busy[address] += 1
            if running:
                try:
                    wait(list(running), timeout=POLL, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    pass
            elif waiting:
                time.sleep(POLL)  # no worker yet

    def _collect(self, running: dict, workers: dict[str, int]) -> None:
        """Hand over finished chunks; a chunk whose worker is gone is WorkerLost."""
        from distributed import KilledWorker

        for dask_future, (address, future) in list(running.items()):
            if dask_future.done():
                del running[dask_future]
                try:  # a bounded wait: a result lost with its worker just now would never come
                    future.set_result(dask_future.result(timeout=FETCH))
                except (KilledWorker, TimeoutError) as exc:
                    future.set_exception(WorkerLost(str(exc)))
                except Exception as exc:  # the job's own error: as in any executor
                    future.set_exception(exc)
            elif address not in workers:
                del running[dask_future]
                dask_future.cancel()
                future.set_exception(WorkerLost(f"worker {address} died"))

    def close(self, abort: bool = False) -> None:
        """Stop the dispatcher (tasks still running are cancelled) and leave the cluster."""
        self._queue.put(None)
        self._thread.join(timeout=30)
        if self._own:
            self.client.close()
