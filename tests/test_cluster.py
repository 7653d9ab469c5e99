"""`mj check` on a Dask cluster: a LocalCluster of 2 worker processes started by the test itself.

Skipped (with the reason) when Dask distributed is not installed: pip install ".[cluster]".
"""

from __future__ import annotations

import json
import os

import pytest

distributed = pytest.importorskip("distributed", reason='Dask distributed is not installed: pip install ".[cluster]"')

from solver.checking.batch import Stats, check_lines, run_ordered, tasks_of  # noqa: E402
from solver.batch.cluster import DaskCluster  # noqa: E402
from solver.checking.worker import check_job  # noqa: E402
from test_hardening import GOOD, HOSTILE, random_claims, run_mj  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="600MB",
                                       dashboard_address=None)
    with distributed.Client(cluster) as client:
        yield client
    cluster.close()


def lines() -> list[str]:
    return random_claims(40, seed=11) + [HOSTILE["NaN"], HOSTILE["deep array"], GOOD]


def test_cluster_gives_exactly_the_local_result(client):
    expected = list(check_lines(lines(), workers=1))
    got = list(check_lines(lines(), executor=DaskCluster(client, check_job("2019-12"))))
    assert got == expected


def test_a_killed_cluster_worker_loses_no_line(client):
    expected = list(check_lines(lines(), workers=1))
    stats = Stats()
    results = run_ordered(tasks_of(lines()), DaskCluster(client, check_job("2019-12")), stats)
    got = [next(results)]
    victim = sorted(client.scheduler_info()["workers"])[0]
    try:
        client.run(lambda: os._exit(1), workers=[victim])  # the worker process dies; its nanny restarts it
    except Exception:
        pass  # the call itself fails with the worker
    got += list(results)
    assert got == expected


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
