"""The cluster executor: chunks run as tasks on a Dask distributed cluster (``pip install ".[cluster]"``).

Same seam as executors.py (``slots``, ``submit``, ``close``): ordered.py still orders, bounds and re-runs,
and the commands write, so ``--resume``, input order and constant memory hold on a cluster as they do
locally. Each Dask worker process caches its own Evaluator per rule set and receives plain data.

A worker that dies: Dask reschedules the tasks it was running on another worker and counts the death
against each task (``suspicious`` on the scheduler). A task is given at most one such death here: while
waiting, the future is watched, and a task whose worker died is cancelled and comes back as
``WorkerLost``, so ordered.py's rule holds as it does locally (re-run once, then split, then a task lost
twice is reported). A task Dask re-ran before it was seen (it finished on its second worker, or its
result was lost with a worker that died before the result was fetched) is marked ``rerun`` for the
summary. A cluster left with no worker at all is an error after ``idle_limit``
seconds, not a hang: what was written stays resumable.
"""

from __future__ import annotations

import time
from typing import Any

from solver.batch.executors import Job, WorkerLost
from solver.core.errors import MjError, shown

POLL = 0.5  # seconds between looks at a task still running


class _Result:
    """A Dask future seen as ordered.py expects: ``result()`` gives the list or raises WorkerLost."""

    def __init__(self, cluster: DaskCluster, future: Any):
        self.cluster, self.future, self.rerun = cluster, future, False

    def result(self) -> list[Any]:
        from distributed import KilledWorker

        alone_since = None
        while True:
            try:
                results = self.future.result(timeout=POLL)
            except KilledWorker as exc:
                raise WorkerLost(str(exc)) from None
            except TimeoutError:
                deaths, _, workers = self.cluster.watch(self.future.key)
                if deaths:
                    self.future.cancel()
                    raise WorkerLost("its worker died") from None
                alone_since = None if workers else alone_since or time.monotonic()
                if alone_since is not None and time.monotonic() - alone_since > self.cluster.idle_limit:
                    raise MjError(f"no worker on the Dask cluster for {self.cluster.idle_limit:.0f} s; "
                                  "start workers and rerun with --resume") from None
                continue
            deaths, runs, _ = self.cluster.watch(self.future.key)
            self.rerun = deaths > 0 or runs > 1
            return results


class DaskCluster:
    """Chunks as Dask tasks on the scheduler at ``address`` (tcp://host:8786) or an existing Client."""

    def __init__(self, address: Any, job: Job, per_worker: int = 2, idle_limit: float = 120.0):
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
        workers = len(self.client.scheduler_info().get("workers", {})) or 1
        self.slots = per_worker * workers

    def watch(self, key: Any) -> tuple[int, int, int]:
        """(deaths of the task's workers, times it went to a worker, workers on the cluster), from the
        scheduler's own state and its recent transition log; (0, 1, 1) if the scheduler will not say."""
        def on_scheduler(key: Any, dask_scheduler: Any = None) -> tuple[int, int, int]:
            task = dask_scheduler.tasks.get(key)
            runs = sum(1 for step in dask_scheduler.story(key) if step[0] == key and step[2] == "processing")
            return (task.suspicious if task is not None else 0), runs, len(dask_scheduler.workers)

        try:  # a local function travels by value: the scheduler need not have this project installed
            return tuple(self.client.run_on_scheduler(on_scheduler, key))
        except Exception:
            return 0, 1, 1

    def submit(self, chunk: list[Any]) -> _Result:
        return _Result(self, self.client.submit(self.job.function, chunk, *self.job.args, pure=False))

    def close(self, abort: bool = False) -> None:
        if self._own:
            self.client.close()
