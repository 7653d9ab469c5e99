"""Issue 20, item 5: every input is answered in bounded time. Each finding of the issue is a test here, run as a
process with a timeout, so a regression fails instead of hanging: the planner at its budget, the generator's
impossible and hard filters and its count, catalogue files past the size and nesting limits, write errors (a full
file system, a closed pipe). The server's numbers: tests/test_params_fuzz.py."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 120  # seconds: any of these runs far shorter (a hang is what they guard against)
SEED = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
THREE_SORA = "そら そら そら 春香 千早 美希 雪歩 やよい 真 伊織 律子 あずさ 亜美"


def mj(*args: str, limit: int = LIMIT, file_size: int | None = None, **kwargs) -> subprocess.CompletedProcess:
    """`mj ARGS` as a process; `file_size` caps the bytes it may write to a file (a full disk: EFBIG)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          timeout=limit, cwd=ROOT, preexec_fn=cap if file_size is not None else None, **kwargs)


def one_line(done: subprocess.CompletedProcess, code: int = 2) -> str:
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return done.stderr


def test_plan_with_three_sora_stops_within_its_budget():
    """The issue's plan ran silently for a minute: now it answers or says what it reached within --seconds
    (a budget per step: a few steps, not an hour)."""
    start = time.monotonic()
    done = mj("plan", THREE_SORA, "-n", "3", "--seconds", "2")
    took = time.monotonic() - start
    assert done.returncode in (0, 2), done.stderr[-2000:]
    if done.returncode == 2:
        one_line(done)
        assert "--max-states" in done.stderr or "--seconds" in done.stderr  # what to raise to go further
    else:
        assert "P(win)" in done.stdout
    assert took < LIMIT


@pytest.mark.parametrize("difficulty, says", [
    ("waits>=100", "waits is at most 54"),
    ("waits>=3,waits<=1", "contradict"),
    ("depth>=99999999999999999999", "more than any feature can count"),
    ("depth>=14", "depth is at most"),
])
def test_impossible_difficulty_is_refused_at_once(difficulty, says):
    done = mj("generate", "waits", "-n", "1", "--difficulty", difficulty, "--workers", "1", limit=60)
    assert says in one_line(done) and "impossible difficulty" in done.stderr and done.stdout == ""


@pytest.mark.parametrize("kind, difficulty", [("exchanges", "h>=4"), ("discard", "h<=0"), ("exchanges", "h=9"),
                                              ("discard", "margin<=0"), ("discard", "accept<=0"),
                                              ("waits", "waits<=0"), ("exchanges", "exchanges<=0")])
def test_h_past_what_the_construction_can_make_is_refused(kind, difficulty):
    """Exchanges and discard positions replace 1 to 3 tiles of a complete hand: 1 <= h <= 3; a proved least value
    (a wait, a margin of one live tile) is refused below it too (QA: 'margin<=0' tried 1000 hands, 10 s)."""
    assert "impossible difficulty" in one_line(mj("generate", kind, "-n", "1", "--difficulty", difficulty, limit=60))


def test_h_three_is_made_not_crashed():
    """h>=3 once asked randint(3, 2): a traceback. Now it is a position with h = 3."""
    done = mj("generate", "exchanges", "-n", "1", "--difficulty", "h>=3", "--workers", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"h": 3' in done.stdout


@pytest.mark.parametrize("count", ["99999999999999999999999", "1000001", "-1", "²"])
def test_count_is_capped(count):
    assert "--count" in one_line(mj("generate", "waits", "-n", count, limit=60))


def test_a_hard_filter_gives_up_after_its_tries_saying_how_many_it_found():
    done = mj("generate", "waits", "-n", "3", "--difficulty", "waits>=30", "--attempts", "3", "--workers", "1")
    assert "found only 0 of 3" in one_line(done) and "3 attempts" in done.stderr


def test_a_hard_filter_keeps_what_it_found(tmp_path):
    out = tmp_path / "w.jsonl"
    done = mj("generate", "waits", "-n", "40", "--difficulty", "waits>=9", "--attempts", "4", "--workers", "1",
              "-o", str(out))
    found = len(out.read_text(encoding="utf-8").splitlines())
    assert f"found only {found} of 40" in one_line(done)


def deep_toml(path: Path, depth: int, kind: str = "array") -> str:
    opener, closer = ("[", "]") if kind == "array" else ("{b = ", "}")
    path.write_text("a = " + opener * depth + "1" + closer * depth + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("make", [
    lambda tmp: deep_toml(tmp / "deep.toml", 5000),
    lambda tmp: deep_toml(tmp / "deep-tables.toml", 3000, "table"),
    lambda tmp: "/dev/zero",
    lambda tmp: (tmp / "big.toml").write_text("# " + "x" * (2 << 20), encoding="utf-8") and str(tmp / "big.toml"),
], ids=["nested arrays", "nested tables", "/dev/zero", "2 MB"])
def test_catalogue_files_are_read_with_limits(tmp_path, make):
    path = make(tmp_path)
    assert "bad catalogue" in one_line(mj("h", SEED, "--catalogue", path, limit=60))
    checked = mj("catalogue", "check", path, limit=60)
    assert checked.returncode in (1, 2) and "Traceback" not in checked.stderr


def test_modest_nesting_still_reads(tmp_path):
    """The limit is far above what a catalogue needs: 10 levels parse (and are then judged by the schema)."""
    done = mj("h", SEED, "--catalogue", deep_toml(tmp_path / "ten.toml", 10), limit=60)
    assert "nested" not in done.stderr


@pytest.mark.parametrize("command", [
    ("generate", "waits", "-n", "3", "--workers", "1", "-o", "{out}"),
    ("check", "{claims}", "--workers", "1", "--output", "{out}"),
    ("research", "max-h", "--rules", "hitori-jong-2.1", "--time-budget", "1", "-q", "--out", "{out}"),
], ids=["generate -o", "check --output", "research --out"])
def test_a_full_disk_is_one_line(tmp_path, command):
    claims = tmp_path / "claims.jsonl"
    claims.write_text(f'{{"id": "a", "hand": "{SEED}", "h": 1}}\n' * 50, encoding="utf-8")
    args = [part.format(out=tmp_path / "out.jsonl", claims=claims) for part in command]
    done = mj(*args, file_size=200)  # the first few hundred bytes fit, then the disk is "full"
    assert done.returncode != 0
    one_line(done, done.returncode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [("h", SEED), ("analyze", SEED, "--json"),
                                  ("generate", "waits", "-n", "2", "--workers", "1")])
def test_stdout_on_a_full_disk_is_one_line(args):
    """stdout on /dev/full (every write: ENOSPC; only opened, never replaced). A file's output on a full disk:
    test_a_full_disk_is_one_line, with a file size limit instead."""
    with open("/dev/full", "w") as stdout:
        done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], stdout=stdout, stderr=subprocess.PIPE,
                              text=True, timeout=LIMIT, cwd=ROOT)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert done.stderr.startswith("error: cannot write the output") and "Exception ignored" not in done.stderr


@pytest.mark.parametrize("args", [("generate", "waits", "-n", "5", "--workers", "1"),
                                  ("check", str(ROOT / "tests" / "data" / "claims_right.jsonl"), "--workers", "1")])
def test_a_closed_pipe_is_one_line(args):
    """Plain writes (generate) and rich's (check's table, which rich alone would end with exit 1 and no word)."""
    read, write = os.pipe()
    os.close(read)  # nobody will read: the first write fails (EPIPE)
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args],
                          stdout=write, stderr=subprocess.PIPE, text=True, timeout=LIMIT, cwd=ROOT)
    os.close(write)
    assert done.returncode == 141 and "broken pipe" in done.stderr and done.stderr.count("\n") == 1, done.stderr


def on_terminal(*args: str) -> tuple[subprocess.CompletedProcess, bytes]:
    """`mj ARGS` with stderr on a pseudo-terminal: (the process, what the terminal showed)."""
    import pty

    master, slave = pty.openpty()
    try:
        done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], stdout=subprocess.PIPE, stderr=slave,
                              timeout=LIMIT, cwd=ROOT)
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the pty's other end is closed: everything is read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
    return done, seen


def test_plan_shows_progress_on_a_terminal():
    """On a terminal (stderr a pty) the long plan draws its progress bar."""
    done, seen = on_terminal("plan", THREE_SORA, "-n", "3", "--seconds", "2")
    assert done.returncode in (0, 2)
    assert b"planning" in seen and b"states" in seen, seen[-500:]


def test_generate_shows_progress_on_a_terminal(tmp_path):
    done, seen = on_terminal("generate", "waits", "-n", "4", "--workers", "1", "-o", str(tmp_path / "w.jsonl"))
    assert done.returncode == 0
    assert b"waits positions" in seen and b"4/4" in seen, seen[-500:]
    plain = mj("generate", "waits", "-n", "2", "--workers", "1", "-o", str(tmp_path / "v.jsonl"))
    assert plain.stderr == ""  # off a terminal: no bar


@pytest.mark.parametrize("difficulty", ["", "  "])
def test_an_empty_difficulty_is_refused_not_taken_for_any(difficulty):
    done = mj("generate", "waits", "-n", "1", "--difficulty", difficulty, "--workers", "1", limit=60)
    assert "--difficulty is empty" in one_line(done) and done.returncode == 2 and done.stdout == ""


def _nesting_by_characters(text: str) -> int:
    """The catalogue's nesting scan as first written, a loop over the characters: the oracle of the regex one."""
    depth = deepest = i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "#":
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif c in "\"'":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else c
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                i += 2 if text[i] == "\\" and c == '"' else 1
            i += len(quote) - 1
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
        i += 1
    return deepest


def test_the_nesting_scan_agrees_with_a_loop_over_characters():
    """QA: the scan looped over a file's characters in Python, 0.3 s a megabyte on every load of a house. It is a
    regex now; on texts made of the characters that matter (strings, escapes, comments, brackets) it agrees with
    the loop it replaced."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from catalogue.loader import _nesting

    @settings(max_examples=3000, deadline=None)
    @given(st.text(alphabet='[]{}"\'\\#\na =', max_size=60))
    def agrees(text):
        assert _nesting(text) == _nesting_by_characters(text)
    agrees()
    assert _nesting('a = [[1], {b = "[[[["}] # [[[[\nc = \'\'\'[[\n\'\'\'') == 2
