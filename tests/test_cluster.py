"""`mj check` and `mj generate` on a Dask cluster: a LocalCluster of 2 worker processes started by the test.

Skipped (with the reason) when Dask distributed is not installed: pip install ".[cluster]".
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import pytest

distributed = pytest.importorskip("distributed", reason='Dask distributed is not installed: pip install ".[cluster]"')

from test_batch_resume import reference  # noqa: E402
from test_check import wait_for_lines  # noqa: E402
from test_hardening import GOOD, HOSTILE, ROOT, random_claims, run_mj  # noqa: E402

from solver.batch.cluster import DaskCluster  # noqa: E402
from solver.batch.executors import Job  # noqa: E402
from solver.checking.batch import Stats, check_lines, lost_claim, run_ordered, tasks_of  # noqa: E402
from solver.checking.worker import check_chunk, check_job  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="600MB",
                                       dashboard_address=None)
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


@pytest.fixture
def on_cluster(client):
    """DaskCluster executors on the test's cluster, closed after the test."""
    made = []

    def make(job: Job = check_job("2019-12")) -> DaskCluster:
        made.append(DaskCluster(client, job))
        return made[-1]

    yield make
    for executor in made:
        executor.close()


def lines() -> list[str]:
    return random_claims(40, seed=11) + [HOSTILE["NaN"], HOSTILE["deep array"], GOOD]


def test_cluster_gives_exactly_the_local_result(on_cluster):
    expected = list(check_lines(lines(), workers=1))
    got = list(check_lines(lines(), executor=on_cluster()))
    assert got == expected


def test_a_killed_cluster_worker_loses_no_line(client, on_cluster):
    claims = lines() + random_claims(1000, seed=12)  # enough that the run goes on while the victim dies
    expected = list(check_lines(claims, workers=1))
    stats = Stats()
    victim = sorted(client.scheduler_info()["workers"])[0]

    def kill() -> None:
        try:
            client.run(lambda: os._exit(1), workers=[victim])  # the worker process dies; its nanny restarts it
        except Exception:
            pass  # the call itself fails with the worker

    killer = threading.Thread(target=kill)
    got = []
    for result in run_ordered(tasks_of(claims), on_cluster(), stats):
        got.append(result)
        if len(got) == 20:
            killer.start()  # while the results keep coming
    killer.join()
    assert got == expected
    assert stats.rerun > 0  # said in the summary (rerun_claims)


def test_a_claim_that_kills_its_worker_twice_is_an_error_line_not_a_hang(on_cluster):
    claims = random_claims(12, seed=4)
    expected = list(check_lines(claims, workers=1))
    poison = expected[4]["line"]

    def poisoned(chunk, default_rules):  # travels by value: a claim that kills any worker running it
        if any(line_no == poison for line_no, _ in chunk):
            os._exit(1)
        return check_chunk(chunk, default_rules)

    stats = Stats()
    got = list(run_ordered(tasks_of(claims), on_cluster(Job(poisoned, ("2019-12",))), stats, lost_claim))
    assert [r["line"] for r in got] == [r["line"] for r in expected]
    assert [r for r in got if r["line"] != poison] == [r for r in expected if r["line"] != poison]
    assert got[4]["verdict"] == "error" and got[4]["error"]["code"] == "worker_lost"
    assert stats.rerun > 0


def test_cli_cluster_option_and_resume(client, tmp_path):
    claims, out = tmp_path / "claims.jsonl", tmp_path / "out.jsonl"
    claims.write_text("\n".join(lines()) + "\n", encoding="utf-8")
    address = client.scheduler.address
    code, stdout, err = run_mj("check", str(claims), "--cluster", address, "--output", str(out))
    assert code == 1, err
    full = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(full[:10]) + "\n" + full[10][:20], encoding="utf-8")  # an interrupted run
    assert run_mj("check", str(claims), "--cluster", address, "--output", str(out), "--resume")[0] == 1
    assert out.read_text(encoding="utf-8").splitlines() == full
    assert json.loads(full[-1])["summary"]["claims"] == sum(1 for line in lines() if line.strip())


def test_sigkilled_cluster_run_resumed_is_the_uninterrupted_file(client, tmp_path):
    claims, out, ref = tmp_path / "claims.jsonl", tmp_path / "out.jsonl", tmp_path / "ref.jsonl"
    claims.write_text("\n".join(random_claims(10_000, seed=6)) + "\n", encoding="utf-8")  # the kill lands mid-run
    address = client.scheduler.address
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "check", str(claims), "--cluster", address,
                             "--output", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_lines(out, 3, proc, timeout=120)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert b'"summary"' not in out.read_bytes(), "the run ended before it was killed"
    assert run_mj("check", str(claims), "--cluster", address, "--output", str(out), "--resume")[0] == 1
    run_mj("check", str(claims), "--output", str(ref), "--workers", "1")
    assert out.read_text(encoding="utf-8") == ref.read_text(encoding="utf-8")  # nothing lost, nothing twice


def test_generate_on_the_cluster_is_byte_identical_to_local(client, tmp_path):
    out = tmp_path / "traps.jsonl"
    code, _, err = run_mj("generate", "traps", "-n", "6", "--seed", "5", "--cluster", client.scheduler.address,
                          "-o", str(out))
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == reference("traps", 6, 5)


def test_a_cluster_without_workers_is_an_error_not_a_hang():
    from solver.core.errors import MjError

    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty, \
            distributed.Client(empty) as bare:
        executor = DaskCluster(bare, check_job("2019-12"), idle_limit=1)
        try:
            with pytest.raises(MjError, match="no worker on the Dask cluster"):
                list(check_lines([GOOD], executor=executor))
        finally:
            executor.close()


def test_sigkilled_generate_on_the_cluster_resumed_is_the_uninterrupted_file(client, tmp_path):
    out = tmp_path / "waits.jsonl"
    args = ["generate", "waits", "-n", "12", "--seed", "8", "--cluster", client.scheduler.address, "-o", str(out)]
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    wait_for_lines(out, 2, proc, timeout=120)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert out.read_bytes().count(b"\n") < 12, "the run ended before it was killed"
    code, _, err = run_mj(*args, "--resume")
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == reference("waits", 12, 8)  # nothing lost, nothing twice
