"""What every executor (executors.py, cluster.py) and the ordered runner share: the job a chunk gets done
to, the error for a lost worker, and a future already done. Apart so that no executor imports another."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

MAX_WORKERS = 256  # local worker processes: past it a typo (a million) starts processes until the machine stalls


@dataclass(frozen=True)
class Job:
    """What every chunk gets done to: ``function(chunk, *args)``. The function is module-level (worker
    processes import it by name) and takes and returns plain data."""

    function: Callable[..., list[Any]]
    args: tuple = ()

    def __call__(self, chunk: list[Any]) -> list[Any]:
        return self.function(chunk, *self.args)


class WorkerLost(RuntimeError):
    """The process running a chunk died before answering (killed, out of memory)."""


@dataclass(frozen=True)
class JobFailed:
    """What a worker process sends back instead of a chunk's results when the job raised: the parent raises the
    error as one process would (a job's error is its answer, not a lost worker: running it again gives it again)."""

    error: BaseException

    @staticmethod
    def message_of(exc: Exception) -> bytes:
        """The pickled JobFailed of an exception (a RuntimeError with its text where it does not pickle, or would
        not unpickle in the parent: an __init__ of other arguments, unless a library taught pickle otherwise)."""
        try:
            message = pickle.dumps(JobFailed(exc), protocol=pickle.HIGHEST_PROTOCOL)
            pickle.loads(message)
            return message
        except Exception:  # noqa: BLE001 (any error of pickling an arbitrary exception's fields)
            return pickle.dumps(JobFailed(RuntimeError(f"{type(exc).__name__}: {exc}")),
                                protocol=pickle.HIGHEST_PROTOCOL)


def completed(results: list[dict[str, Any]]) -> Future:
    """A future already holding its results."""
    future: Future = Future()
    future.set_result(results)
    return future
