"""How chunks of a batch are executed: in this process, or in local worker processes (Dask: cluster.py).

An executor runs one ``Job`` (a module-level function and its fixed arguments: ``job.function(chunk,
*job.args)`` gives the chunk's result list) and has ``slots`` (how many chunks it wants in flight),
``submit(chunk) -> Future`` and ``close(abort)``. A future that fails with ``WorkerLost`` means the
process running it died; ordered.py re-runs the chunk. Ordering, bounding and writing are ordered.py's
and the commands'; an executor only runs the job somewhere, on plain data.
"""

from __future__ import annotations

import os
import pickle
import queue
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from solver.batch.forked import Forked, can_fork, kill_group
from solver.core.errors import MjError
from solver.batch.job import MAX_WORKERS, Job, JobFailed, WorkerLost, completed  # noqa: F401 (WorkerLost, completed: part of this room's entry)


class InProcess:
    """Runs each chunk at once in this process: the first result comes without any start-up cost."""

    slots = 1

    def __init__(self, job: Job):
        self.job = job

    def submit(self, chunk: list[Any]) -> Future:
        return completed(self.job(chunk))

    def close(self, abort: bool = False) -> None:
        pass


class LocalProcesses:
    """``workers`` worker processes (python -m solver.batch.worker), each fed by a thread of this one.

    Workers start at once (their imports run while the first chunks are read) in their own session, so a
    Ctrl-C on the terminal reaches only this process, which then stops them: forked from this process
    while it runs one thread (forked.py: they inherit its imports), else spawned. A worker that dies
    fails its chunk with WorkerLost and is replaced (spawned: threads run by then) for the next chunk.
    """

    def __init__(self, workers: int, job: Job):
        self.slots = 2 * workers  # one running and one waiting per worker
        self.job = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)  # each worker's first message
        self._queue: queue.Queue = queue.Queue()
        fork = can_fork()
        self._procs: list[Any] = [Forked(self.job) if fork else self._start() for _ in range(workers)]
        self._threads = [threading.Thread(target=self._serve, args=(n,), daemon=True) for n in range(workers)]
        for thread in self._threads:
            thread.start()

    def _start(self) -> subprocess.Popen:
        root = str(Path(__file__).resolve().parents[2])  # the project, importable whether installed or not
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))}
        proc = subprocess.Popen([sys.executable, "-m", "solver.batch.worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env=env, start_new_session=True)
        try:
            proc.stdin.write(self.job)
            proc.stdin.flush()
        except OSError:
            pass  # it died at once: the first chunk sent to it fails with WorkerLost
        return proc

    def submit(self, chunk: list[Any]) -> Future:
        future: Future = Future()
        self._queue.put((chunk, future))
        return future

    def _serve(self, n: int) -> None:
        while (item := self._queue.get()) is not None:
            chunk, future = item
            if not future.set_running_or_notify_cancel():
                continue
            proc = self._procs[n]
            if proc is None or proc.poll() is not None:
                proc = self._procs[n] = self._start()
            try:
                pickle.dump(chunk, proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                proc.stdin.flush()
                results = pickle.load(proc.stdout)
            except (OSError, EOFError, pickle.UnpicklingError, ValueError):
                self._stop(n, kill=True)
                future.set_exception(WorkerLost(f"worker {n} died"))
                continue
            if isinstance(results, JobFailed):
                future.set_exception(results.error)
            else:
                future.set_result(results)

    def _stop(self, n: int, kill: bool) -> None:
        proc, self._procs[n] = self._procs[n], None
        if proc is None:
            return
        try:
            if kill:
                kill_group(proc.pid)  # (a worker leads its own session: what it started goes with it)
            else:
                proc.stdin.close()  # end of input: the worker finishes and exits on its own
            proc.wait(timeout=None if kill else 5)
        except (OSError, subprocess.TimeoutExpired):
            kill_group(proc.pid)
            proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def close(self, abort: bool = False) -> None:
        """Stop every worker: at once on abort (work in flight is dropped), else after their last chunk."""
        if abort:
            while True:
                try:
                    chunk, future = self._queue.get_nowait()
                except queue.Empty:
                    break
                future.cancel()
        for _ in self._threads:
            self._queue.put(None)
        if abort:
            for n in range(len(self._procs)):
                self._stop(n, kill=True)  # its thread's read fails at once
        for thread in self._threads:
            thread.join(timeout=10)
        for proc in self._procs:  # every worker sees the end of its input at once, then each is waited for
            try:
                if proc is not None:
                    proc.stdin.close()
            except OSError:
                pass
        for n in range(len(self._procs)):
            self._stop(n, kill=False)


def make_executor(workers: int, job: Job, cluster: str | None = None) -> Any:
    """--cluster ADDRESS: a Dask cluster; else --workers: this process (1) or local worker processes."""
    if not cluster and workers > MAX_WORKERS:
        raise MjError(f"--workers must be at most {MAX_WORKERS} local processes, not {workers}")
    if cluster:
        from solver.batch.cluster import DaskCluster

        return DaskCluster(cluster, job)
    return InProcess(job) if workers <= 1 else LocalProcesses(workers, job)
