"""What every executor (executors.py, cluster.py) and the ordered runner share: the job a chunk gets done
to, the error for a lost worker, and a future already done. Apart so that no executor imports another."""

from __future__ import annotations

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


def completed(results: list[dict[str, Any]]) -> Future:
    """A future already holding its results."""
    future: Future = Future()
    future.set_result(results)
    return future
