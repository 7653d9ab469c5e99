"""Stops by signal (issue 8): a run stopped by SIGINT or SIGTERM says what it wrote and --resume completes it;
a stop never parts a written line from its count; a killed parent leaves no workers; a closed pipe is quiet."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from test_check import INVALID, lines_of, wait_for_lines
from test_hardening import ROOT, random_claims, run_mj

from solver.batch.signals import Stopped, held, stop_signals
from solver.checking.batch import check_lines, record


def start_check(claims: Path, out: Path, *extra: str, mark: str = "") -> subprocess.Popen:
    env = {**os.environ, "MJ_TEST_MARK": mark}
    return subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "check", str(claims), "--output", str(out),
                             *extra], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stopped_run_says_what_it_wrote_and_resume_completes_it(tmp_path, sig, code):
    lines = random_claims(10_000, seed=sig)  # about 1.5 s of work: the stop lands well before its end
    claims, out, ref = tmp_path / "claims.jsonl", tmp_path / "out.jsonl", tmp_path / "ref.jsonl"
    claims.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = start_check(claims, out, "--workers", "2")
    wait_for_lines(out, 3, proc, timeout=60)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    err = err.decode()
    assert proc.returncode == code, err
    assert err.startswith("interrupted after ") and err.count("\n") == 1 and "--resume" in err, err
    written = int(err.split()[2])
    assert len(out.read_text(encoding="utf-8").splitlines()) == written  # no summary line, nothing torn
    assert run_mj("check", str(claims), "--output", str(out), "--resume", "--workers", "2")[0] == 1
    run_mj("check", str(claims), "--output", str(ref), "--workers", "1")
    assert out.read_text(encoding="utf-8") == ref.read_text(encoding="utf-8")  # nothing lost, nothing twice


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_inside_a_held_block_waits_for_its_end(sig, code):
    # the race CI once hit: a stop between a written line and its count misreported what was written
    steps = []
    with stop_signals():
        with pytest.raises(Stopped) as stop:
            with held():
                os.kill(os.getpid(), sig)
                steps.append("written")
                steps.append("counted")
            steps.append("after")
    assert steps == ["written", "counted"] and stop.value.exit_code == code


def test_a_stop_during_the_final_line_is_moot():
    with stop_signals():
        with held(final=True):
            os.kill(os.getpid(), signal.SIGTERM)
        with held():
            os.kill(os.getpid(), signal.SIGTERM)  # a second stop is ignored, as during a clean-up


def test_a_stop_during_a_recorded_line_leaves_the_line_whole(tmp_path):
    class Interrupting(io.StringIO):
        def write(self, text):  # the signal lands mid-write; the line must still end whole
            os.kill(os.getpid(), signal.SIGINT)
            return super().write(text)

    sink = Interrupting()
    with stop_signals(), pytest.raises(Stopped):
        for _ in record(check_lines(lines_of(INVALID), workers=1), sink):
            pass
    assert sink.getvalue().endswith("\n") and sink.getvalue().count("\n") == 1


def marked_processes(mark: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"MJ_TEST_MARK={mark}".encode() in (entry / "environ").read_bytes():
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the workers through /proc")
def test_sigkill_of_the_parent_leaves_quiet_workers_that_exit(tmp_path):
    claims, out = tmp_path / "claims.jsonl", tmp_path / "out.jsonl"
    claims.write_text("\n".join(random_claims(200, seed=5)) + "\n", encoding="utf-8")
    mark = uuid.uuid4().hex
    proc = start_check(claims, out, "--workers", "2", mark=mark)
    wait_for_lines(out, 3, proc, timeout=60)
    proc.kill()
    _, err = proc.communicate(timeout=30)
    deadline = time.monotonic() + 30
    while marked_processes(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert marked_processes(mark) == []  # the workers noticed and left
    assert b"Traceback" not in err and b"leaked" not in err, err.decode()


def test_broken_stdout_pipe_is_quiet(tmp_path):
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(random_claims(40, seed=9)) + "\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "check", str(claims), "--json", "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()


def test_a_time_budget_stops_like_a_signal_and_resume_completes_it(tmp_path):
    """--time-budget S: at S seconds the run stops as Ctrl-C stops it (one line naming the budget, exit 124),
    and --resume then writes exactly what an uninterrupted run writes."""
    lines = random_claims(10_000, seed=12)
    claims, out, ref = tmp_path / "claims.jsonl", tmp_path / "out.jsonl", tmp_path / "ref.jsonl"
    claims.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run_mj("check", str(claims), "--output", str(out), "--workers", "2", "--time-budget", "0.3")
    assert code == 124, err
    assert err.startswith("the time budget of 0.3 s ran out after ") and err.count("\n") == 1, err
    assert len(out.read_text(encoding="utf-8").splitlines()) == int(err.split()[9])  # as many as it says
    assert run_mj("check", str(claims), "--output", str(out), "--resume", "--workers", "2")[0] == 1
    run_mj("check", str(claims), "--output", str(ref), "--workers", "1")
    assert out.read_text(encoding="utf-8") == ref.read_text(encoding="utf-8")
