"""How `mj check` spreads its work: forked workers, results sent back as their JSON lines, chunks sized
by the pace of the results. The outputs must not change: the library's dicts are the reference."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from test_check import INVALID, RIGHT, WRONG, lines_of
from test_hardening import random_claims

from solver.batch.executors import InProcess, Job
from solver.batch.ordered import CHUNK_SIZES, run_ordered
from solver.checking.batch import check_lines, tasks_of
from solver.checking.summary import Summary, checked, facts_of
from solver.checking.worker import checked_chunk
from solver.serialize import dumps

ROOT = Path(__file__).resolve().parent.parent
MIXED = lines_of(WRONG) + [b"", b"not json"] + lines_of(INVALID) + lines_of(RIGHT) + [
    '{"id": [1, {"a": null}], "hand": "春香", "h": 1}', '{"id": "x\\ud800", "hand": "春香", "h": 1}']


def test_a_checked_pair_is_the_results_line_and_counts_as_the_result():
    results = list(check_lines(MIXED, workers=1))
    pairs = checked_chunk(list(tasks_of(MIXED)), "2019-12")
    assert [text for text, _ in pairs] == [dumps(result) for result in results]
    assert [json.loads(text) for text, _ in pairs] == results
    by_dicts, by_facts = Summary(), Summary()
    for result, (_, facts) in zip(results, pairs):
        by_dicts.add(result)
        by_facts.count(facts)
    assert by_facts.to_dict() == by_dicts.to_dict()
    assert {v for v, *_ in (facts_of(r) for r in results)} == {"correct", "wrong", "invalid"}
    assert len(by_facts.reasons) > 3  # the fixtures exercise several fields and reason codes


def test_a_lost_claim_is_a_checked_pair_too():
    from solver.checking.batch import lost_claim

    text, facts = checked(lost_claim((7, b"{}")))
    assert json.loads(text)["error"]["code"] == "worker_lost" and facts[0] == "error"


def test_forked_workers_answer_as_in_process():
    """In a fresh process (one thread: the check command's parent), LocalProcesses forks its workers."""
    code = """if True:
        import json, sys
        from solver.batch.executors import LocalProcesses
        from solver.batch.forked import Forked, can_fork
        from solver.checking.batch import check_lines, tasks_of
        from solver.checking.worker import checked_job
        from solver.batch.ordered import run_ordered
        lines = [line for line in sys.stdin.read().split("\\n")]
        assert can_fork()
        executor = LocalProcesses(2, checked_job("2019-12"))
        assert all(isinstance(proc, Forked) for proc in executor._procs)
        try:
            got = [text for text, _ in run_ordered(tasks_of(lines), executor)]
        finally:
            executor.close()
        print(json.dumps(got))
    """
    lines = random_claims(150, seed=11)
    done = subprocess.run([sys.executable, "-c", code], input="\n".join(lines), capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [dumps(result) for result in check_lines(lines, workers=1)]


def slow(chunk: list[int], seconds: float) -> list[int]:
    time.sleep(seconds * len(chunk))
    return list(chunk)


class Recording(InProcess):
    """Runs chunks in this process and notes their sizes."""

    def __init__(self, job: Job):
        super().__init__(job)
        self.sizes: list[int] = []

    def submit(self, chunk):
        self.sizes.append(len(chunk))
        return super().submit(chunk)


def test_chunks_of_heavy_tasks_stay_small():
    executor = Recording(Job(slow, (0.02,)))
    assert list(run_ordered(iter(range(40)), executor)) == list(range(40))
    assert max(executor.sizes[4:]) <= 4 < max(CHUNK_SIZES)  # 50 ms of work at 20 ms a task: 2, not 64


def test_chunks_of_light_tasks_grow_to_the_largest_size():
    executor = Recording(Job(slow, (0.0,)))
    assert list(run_ordered(iter(range(2000)), executor)) == list(range(2000))
    assert executor.sizes[:5] == list(CHUNK_SIZES[:5]) and max(executor.sizes) == max(CHUNK_SIZES)


class Unpicklable(Exception):
    def __init__(self, text: str):
        super().__init__(text)
        self.lock = threading.Lock()  # (no pickling of it, whatever an imported library adds: tblib, via Dask)


def refuse(chunk: list[int]) -> list[int]:
    """A job whose error depends on the task: 13 is bad input, 14 an error that would not unpickle."""
    from solver.core.errors import MjError

    if 13 in chunk:
        raise MjError("13 is refused", "ERR_THIRTEEN")
    if 14 in chunk:
        raise Unpicklable("14 is refused")
    return [2 * n for n in chunk]


def test_a_jobs_error_in_a_worker_is_raised_here_and_the_worker_goes_on(monkeypatch):
    """A job that raises in a worker process: the parent raises the same error (its code kept) as one process
    would, never WorkerLost (a traceback of `mj review -j 2` had said a worker died), and the worker takes the next
    chunk. An error that would not unpickle comes as a RuntimeError with its text."""
    import pytest

    from solver.batch.executors import LocalProcesses
    from solver.core.errors import MjError

    # (where this process runs threads the worker is spawned, not forked: it imports this module to unpickle the job)
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))
    executor = LocalProcesses(1, Job(refuse))
    try:
        with pytest.raises(MjError, match="13 is refused") as caught:
            executor.submit([12, 13]).result(timeout=60)
        assert caught.value.code == "ERR_THIRTEEN"
        with pytest.raises(RuntimeError, match="Unpicklable: 14 is refused"):
            executor.submit([14]).result(timeout=60)
        worker = executor._procs[0]
        assert executor.submit([1, 2]).result(timeout=60) == [2, 4] and executor._procs[0] is worker
    finally:
        executor.close()
