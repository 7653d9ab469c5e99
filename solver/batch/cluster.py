"""The cluster executor: chunks run as tasks on a Dask distributed cluster (``pip install ".[cluster]"``).

Same seam as executors.py (``slots``, ``submit``, ``close``): ordered.py still orders, bounds and re-runs,
and the commands write, so ``--resume``, input order and constant memory hold on a cluster as they do
locally. Each Dask worker process caches its own Evaluator per rule set and receives plain data.

A dispatcher thread gives each worker two chunks per thread (one running, one ready, so it never waits
for the next), each task pinned to that worker (``workers=[address]``, no other), and fetches each
result as soon as it is done. A worker runs its tasks in the order they were given; so when a worker
dies (killed, out of memory), the oldest of its unfinished chunks, one per thread, are the ones it was
running: they come back as ``WorkerLost`` and ordered.py re-runs them elsewhere, splits a chunk lost
twice and reports a task lost twice, as locally. The chunks that were only waiting behind them are
given to another worker with no mark against them (once: a second time they count), and so is a
chunk that finished but whose results died with the worker before they were fetched; both count as
re-run in the summary (``given_back``). (Left to itself Dask counts a death against every
task queued on that worker, and re-runs it up to its ``allowed-failures``: a claim queued behind one
that kills workers could be reported lost.) A cluster left with no worker at all fails the waiting
chunks with an error after ``idle_limit`` seconds, not a hang: what was written stays resumable.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter, deque
from concurrent.futures import Future
from typing import Any

from solver.batch.job import Job, WorkerLost
from solver.core.errors import MjError, shown

POLL = 0.2  # seconds between looks at the workers while chunks run
FETCH = 2  # seconds to wait for a finished chunk's results before asking whether its worker is alive


class DaskCluster:
    """Chunks as Dask tasks on the scheduler at ``address`` (tcp://host:8786) or an existing Client."""

    def __init__(self, address: Any, job: Job, per_thread: int = 2, idle_limit: float = 120.0):
        """``per_thread`` chunks per worker thread are on the worker (running or next), one more waits here."""
        try:
            from distributed import Client
        except ImportError:
            raise MjError('--cluster needs Dask distributed: pip install ".[cluster]"') from None
        self.job, self.idle_limit, self.per_thread = job, idle_limit, per_thread
        self._own = not hasattr(address, "submit")
        try:
            self.client = Client(address, timeout="10s") if self._own else address
        except (OSError, TimeoutError, ValueError) as exc:
            raise MjError(f"cannot reach the Dask scheduler at {shown(str(address))}: {shown(str(exc), 200)}") from None
        self.slots = (per_thread + 1) * (sum(self._workers().values()) or 1)
        self._given = 0  # chunks given to workers so far: their order on a worker
        self.given_back = 0  # tasks run again after a death without a charge (waiting behind, or unfetched)
        self._threads: dict[str, int] = {}  # every worker seen: its threads
        self._spared: Counter[Future] = Counter()  # chunks given back uncharged after a death behind another
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._dispatch, daemon=True)
        self._thread.start()

    def _workers(self) -> dict[str, int]:
        """Each live worker's address and its threads."""
        return {address: threads or 1 for address, threads in self.client.nthreads().items()}

    def submit(self, chunk: list[Any]) -> Future:
        future: Future = Future()
        self._queue.put((chunk, future))
        return future

    def _dispatch(self) -> None:
        waiting: deque[tuple[list[Any], Future]] = deque()
        running: dict[Any, tuple[str, int, list[Any], Future]] = {}  # Dask future -> (worker, order, chunk, ours)
        try:
            self._loop(waiting, running)
        except Exception as exc:  # the scheduler went away: every chunk not done fails with one error
            error = MjError(f"lost the Dask scheduler: {shown(str(exc) or type(exc).__name__, 200)}")
            for future in [item[-1] for item in list(running.values()) + list(waiting)]:
                if not future.done():
                    future.set_exception(error)

    def _loop(self, waiting: deque, running: dict) -> None:
        from distributed import wait

        alone_since = None
        workers: dict[str, int] = {}
        looked = 0.0
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
            if (waiting or running) and time.monotonic() - looked >= POLL:  # at most every POLL seconds
                workers, looked = self._workers(), time.monotonic()
                self._threads.update(workers)
            self._collect(running, workers, waiting)
            if not workers and waiting:
                alone_since = alone_since or time.monotonic()
                if time.monotonic() - alone_since > self.idle_limit:
                    error = MjError(f"no worker on the Dask cluster for {self.idle_limit:.0f} s; "
                                    "start workers and rerun with --resume")
                    while waiting:
                        waiting.popleft()[1].set_exception(error)
            else:
                alone_since = None
            busy = Counter(address for address, *_ in running.values())
            for address, threads in workers.items():
                while waiting and busy[address] < self.per_thread * threads:
                    chunk, future = waiting.popleft()
                    if future.running() or future.set_running_or_notify_cancel():  # running: given back
                        pinned = self.client.submit(self.job.function, chunk, *self.job.args, pure=False,
                                                    workers=[address], allow_other_workers=False)
                        running[pinned] = (address, self._given, chunk, future)
                        self._given += 1
                        busy[address] += 1
            if running:
                try:
                    wait(list(running), timeout=POLL, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    pass
            elif waiting:
                time.sleep(POLL)  # no worker yet

    def _collect(self, running: dict, workers: dict[str, int], waiting: deque) -> None:
        """Hand over finished chunks. On a worker that is gone, the oldest unfinished chunks (one per
        thread it had) are WorkerLost; the ones behind them go back to the front of ``waiting``."""
        from distributed import KilledWorker

        gone: dict[str, list] = {}
        fetched_too_late = []
        for dask_future, (address, order, chunk, future) in list(running.items()):
            if dask_future.done():
                del running[dask_future]
                try:
                    results = self._fetch(dask_future, address)
                except KilledWorker as exc:
                    future.set_exception(WorkerLost(str(exc)))
                except WorkerLost:  # it finished, but its worker died before the results were fetched
                    fetched_too_late.append((chunk, future))
                except Exception as exc:  # the job's own error: as in any executor
                    future.set_exception(exc)
                else:
                    self._spared.pop(future, None)
                    future.set_result(results)
            elif address not in workers:
                del running[dask_future]
                dask_future.cancel()
                gone.setdefault(address, []).append((order, chunk, future))
        requeue = []
        for address, lost in gone.items():
            lost.sort(key=lambda item: item[0])
            threads = self._threads.get(address, 1)
            for n, (_, chunk, future) in enumerate(lost):
                if n < threads or self._spared[future]:  # spared once already: charged this time
                    self._spared.pop(future, None)
                    future.set_exception(WorkerLost(f"worker {address} died"))
                else:
                    self._spared[future] += 1
                    requeue.append((chunk, future))
        self.given_back += sum(len(chunk) for chunk, _ in fetched_too_late + requeue)
        waiting.extendleft(reversed(fetched_too_late + requeue))

    def _fetch(self, dask_future: Any, address: str) -> Any:
        """A finished chunk's results; WorkerLost if its worker died before they came (never a hang)."""
        while True:
            try:
                return dask_future.result(timeout=FETCH)
            except TimeoutError:
                if address not in self._workers():
                    raise WorkerLost(f"worker {address} died") from None

    def close(self, abort: bool = False) -> None:
        """Stop the dispatcher (tasks still running are cancelled) and leave the cluster."""
        self._queue.put(None)
        self._thread.join(timeout=30)
        if self._own:
            self.client.close()
