"""--resume continues only the run that wrote the output (its .meta), for `mj check` and `mj generate`;
`mj generate` gives the same bytes on every executor and after a SIGKILL and a resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from test_check import wait_for_lines
from test_hardening import GOOD, ROOT, assert_one_error_line, random_claims, run_mj

from solver.generation import generate
from solver.serialize import dumps


def reference(kind: str, count: int, seed: int, difficulty: str | None = None) -> str:
    """The positions made in this process, one after the other: what every executor must write."""
    return "".join(dumps(p) + "\n" for p in generate(kind, count, seed, difficulty=difficulty))


# --- mj check ----------------------------------------------------------------------------------------


def test_check_resume_refuses_another_input_other_rules_or_no_record(tmp_path):
    claims, other, out = tmp_path / "claims.jsonl", tmp_path / "other.jsonl", tmp_path / "out.jsonl"
    claims.write_text("\n".join(random_claims(6)) + "\n", encoding="utf-8")
    other.write_text("\n".join(random_claims(6, seed=8)) + "\n", encoding="utf-8")
    assert run_mj("check", str(claims), "--output", str(out), "--workers", "1")[0] == 1
    meta = json.loads((tmp_path / "out.jsonl.meta").read_text(encoding="utf-8"))
    assert meta["command"] == "check" and meta["rules"] == "2019-12" and meta["input"]["prefix_bytes"] > 0
    before = out.read_bytes()
    err = assert_one_error_line(*run_mj("check", str(other), "--output", str(out), "--resume"))
    assert "input differs" in err
    err = assert_one_error_line(*run_mj("check", str(claims), "--output", str(out), "--resume",
                                        "--rules", "hitori-jong-2.1"))
    assert "--rules" in err and "hitori-jong-2.1" in err
    (tmp_path / "out.jsonl.meta").unlink()
    assert "missing" in assert_one_error_line(*run_mj("check", str(claims), "--output", str(out), "--resume"))
    assert out.read_bytes() == before  # nothing written by a refused resume
    assert run_mj("check", str(other), "--output", str(out), "--force", "--workers", "1")[0] == 1  # a new run


def test_check_resume_checks_lines_appended_to_the_input(tmp_path):
    lines = random_claims(12)
    claims, out, ref = tmp_path / "claims.jsonl", tmp_path / "out.jsonl", tmp_path / "ref.jsonl"
    claims.write_text("\n".join(lines[:6]) + "\n", encoding="utf-8")
    run_mj("check", str(claims), "--output", str(out), "--workers", "1")
    claims.write_text("\n".join(lines) + "\n", encoding="utf-8")  # the log grew: same first bytes
    assert run_mj("check", str(claims), "--output", str(out), "--resume", "--workers", "1")[0] == 1
    run_mj("check", str(claims), "--output", str(ref), "--workers", "1")
    assert out.read_text(encoding="utf-8") == ref.read_text(encoding="utf-8")


def test_check_resume_from_stdin_reads_the_whole_input_and_refuses_another(tmp_path):
    text = "\n".join(random_claims(8)) + "\n"
    out, ref = tmp_path / "out.jsonl", tmp_path / "ref.jsonl"
    run_mj("check", "-", "--output", str(ref), "--workers", "1", stdin=text)
    full = ref.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(full[:3]) + "\n", encoding="utf-8")  # an interrupted run
    (tmp_path / "out.jsonl.meta").write_bytes((tmp_path / "ref.jsonl.meta").read_bytes())
    err = assert_one_error_line(*run_mj("check", "-", "--output", str(out), "--resume", stdin=GOOD + "\n"))
    assert "input differs" in err
    assert run_mj("check", "-", "--output", str(out), "--resume", "--workers", "1", stdin=text)[0] == 1
    assert out.read_text(encoding="utf-8").splitlines() == full


# --- mj generate -------------------------------------------------------------------------------------


def test_generate_writes_the_same_bytes_in_process_and_on_local_workers(tmp_path):
    expected = reference("waits", 4, 9)
    out = tmp_path / "out.jsonl"
    code, stdout, err = run_mj("generate", "waits", "-n", "4", "--seed", "9", "--workers", "1", "-o", str(out))
    assert code == 0 and stdout == "", err
    assert out.read_text(encoding="utf-8") == expected
    assert run_mj("generate", "waits", "-n", "4", "--seed", "9", "--workers", "2")[1] == expected  # stdout


def test_generate_sigkilled_then_resumed_is_the_uninterrupted_file(tmp_path):
    out = tmp_path / "out.jsonl"
    args = ["generate", "waits", "-n", "10", "--seed", "3", "--output", str(out)]
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args, "--workers", "2"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_lines(out, 2, proc, timeout=120)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    written = out.read_bytes()
    assert written.count(b"\n") < 10, "the run ended before it was killed"
    with open(out, "ab") as handle:
        handle.write(b'{"id": "waits-3-00')  # as if the kill had torn the line being written
    code, stdout, err = run_mj(*args, "--resume", "--workers", "2")
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == reference("waits", 10, 3)  # nothing lost, nothing twice


@pytest.mark.parametrize("change, said", [
    (["--seed", "4"], "--seed"), (["--count", "3"], "--count"), (["--difficulty", "easy"], "--difficulty"),
    (["--rules", "hitori-jong-2.1"], "--rules"),
])
def test_generate_resume_refuses_changed_options(tmp_path, change, said):
    out = tmp_path / "out.jsonl"
    args = ["generate", "waits", "--workers", "1", "-o", str(out)]
    first = {"--seed": "2", "--count": "2"}
    assert run_mj(*args, *(a for kv in first.items() for a in kv))[0] == 0
    before = out.read_bytes()
    rerun = [a for k, v in first.items() if k != change[0] for a in (k, v)] + change
    err = assert_one_error_line(*run_mj(*args, *rerun, "--resume"))
    assert said in err and "--force" in err
    assert out.read_bytes() == before


def test_generate_resume_refuses_another_kind_a_foreign_file_and_no_output(tmp_path):
    out = tmp_path / "out.jsonl"
    assert run_mj("generate", "waits", "-n", "1", "-j", "1", "-o", str(out))[0] == 0
    err = assert_one_error_line(*run_mj("generate", "traps", "-n", "1", "-o", str(out), "--resume"))
    assert 'kind "waits", this one "traps"' in err
    assert "already holds" in assert_one_error_line(*run_mj("generate", "waits", "-n", "1", "-o", str(out)))
    out.write_text('{"id": "something else"}\n', encoding="utf-8")
    err = assert_one_error_line(*run_mj("generate", "waits", "-n", "1", "-o", str(out), "--resume"))
    assert "not position 0" in err
    assert_one_error_line(*run_mj("generate", "waits", "--resume"))  # --resume needs --output
    os.remove(str(out) + ".meta")
    assert "missing" in assert_one_error_line(*run_mj("generate", "waits", "-n", "1", "-o", str(out), "--resume"))


def test_generate_stopped_by_sigterm_says_what_it_wrote(tmp_path):
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "generate", "waits", "-n", "30", "--seed", "3",
                             "--workers", "1", "--output", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    wait_for_lines(out, 1, proc, timeout=120)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    err = err.decode()
    assert proc.returncode == 143, err
    assert err.startswith("interrupted after ") and " of 30 positions (in " in err, err
    assert err.endswith("); rerun with --resume to continue\n") and err.count("\n") == 1, err
    assert out.read_bytes().count(b"\n") == int(err.split()[2])  # every position it says, and whole
