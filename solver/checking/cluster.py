"""The cluster executor: chunks of claims run on a Dask distributed cluster (``pip install ".[cluster]"``).

Same seam as executors.py (``slots``, ``submit``, ``close``): batch.py still orders, bounds, re-runs
and writes, so ``--resume``, input order and constant memory hold on a cluster as they do locally. Each
Dask worker process caches its own Evaluator per rule set (context.py) and receives plain data (line
numbers and raw lines). Dask itself re-runs a task whose worker died (up to its
``distributed.scheduler.allowed-failures``); a chunk it gives up on (``KilledWorker``) comes back as
``WorkerLost``, and batch.py splits it and reports a claim lost twice as an ``error`` verdict.
"""

from __future__ import annotations

from typing import Any

from solver.checking.executors import WorkerLost
from solver.checking.worker import Task, check_chunk
from solver.core.errors import MjError, shown


class _Result:
    """A Dask future seen as batch.py expects: ``result()`` gives the list or raises WorkerLost."""

    def __init__(self, future: Any):
        self.future = future

    def result(self) -> list[dict[str, Any]]:
        from distributed import KilledWorker

        try:
            return self.future.result()
        except KilledWorker as exc:
            raise WorkerLost(str(exc)) from None


class DaskCluster:
    """Chunks as Dask tasks on the scheduler at ``address`` (tcp://host:8786) or an existing Client."""

    def __init__(self, address: Any, default_rules: str, per_worker: int = 2):
        try:
            from distributed import Client
        except ImportError:
            raise MjError('--cluster needs Dask distributed: pip install ".[cluster]"') from None
        self.default_rules = default_rules
        self._own = not hasattr(address, "submit")
        try:
            self.client = Client(address, timeout="10s") if self._own else address
        except (OSError, TimeoutError, ValueError) as exc:
            raise MjError(f"cannot reach the Dask scheduler at {shown(str(address))}: {shown(str(exc), 200)}") from None
        workers = len(self.client.scheduler_info().get("workers", {})) or 1
        self.slots = per_worker * workers

    def submit(self, chunk: list[Task]) -> _Result:
        return _Result(self.client.submit(check_chunk, chunk, self.default_rules, pure=False))

    def close(self, abort: bool = False) -> None:
        if self._own:
            self.client.close()
