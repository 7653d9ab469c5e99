"""Start-up: what a command imports before it answers (console/typer_params.py, lazy imports). Timings live in
bench/bench_fast.py; here only which modules load, and that the plain parameters keep typer's answers."""

from __future__ import annotations

import difflib
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cli
from solver import Evaluator
from solver.core.errors import close_matches

IMPORTS = ("import sys, cli\n"
           "code = 0\n"
           "try:\n    cli.main(sys.argv[1:])\n"
           "except SystemExit as exc:\n    code = exc.code\n"
           "print(sorted(m for m in ('pydantic', 'ortools', 'networkx', 'rich') if m in sys.modules), code)")
HEAVY = ("ortools", "networkx", "pandas")
THIRTEEN = "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美 響"  # a win: 765 ALL STARS
TWELVE = "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美"
SEED = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"  # seed 000, h = 1
ORDINARY = [
    ("h", THIRTEEN), ("h", SEED, "--json"), ("h", TWELVE, "--rules", "2019-10"),
    ("analyze", THIRTEEN), ("analyze", SEED, "--json"), ("analyze", TWELVE), ("analyze", SEED, "--favorite", "可奈"),
    ("analyze", TWELVE, "--discard", "響", "--json"),
    ("analyze", "そら そら そら 春香 千早 美希 雪歩 やよい 真 伊織 律子 あずさ 亜美", "--rules", "hitori-jong-2.1"),
    ("score", TWELVE, "--no-win"), ("score", THIRTEEN, "--tsumo"), ("score", THIRTEEN, "--ron", "響", "--json"),
    ("score", THIRTEEN, "--no-win", "--favorite", "春香"),
    ("score", "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也", "--ron", "美也", "--favorite", "可奈"),
    ("units", SEED),
]
HEAVY_LOADED = ("import sys, cli\n"
                "try:\n    cli.main(sys.argv[1:])\n"
                "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
                f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")


def loaded(*args: str) -> str:
    result = subprocess.run([sys.executable, "-c", IMPORTS, *args], capture_output=True, text=True, timeout=60)
    return result.stdout.strip().splitlines()[-1]


def test_bad_tile_loads_neither_pydantic_nor_the_solver():
    assert loaded("h", "春香 XYZ") == "[] 2"
    assert loaded("h", "春香 千早", "--seen", "XYZ", "--json") == "[] 2"


@pytest.mark.parametrize("args", ORDINARY, ids=lambda a: " ".join(a)[:40])
def test_ordinary_hands_load_no_solver_library(args):
    """The searches answer ordinary hands: OR-Tools (and pandas, which it pulls in) and networkx load only where a
    CP-SAT model is built or a graph is needed (issue 20; bench/bench_fast.py measures the start-up)."""
    result = subprocess.run([sys.executable, "-c", HEAVY_LOADED, *args], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout[-500:]


def test_a_plan_with_an_enum_option_loads_no_pydantic():
    """mj plan's --objective (a str Enum) is read without typer's pydantic adapter: about 0.1 s of every plan."""
    assert loaded("plan", SEED, "--turns", "1", "--objective", "score") == "['rich'] 0"
    assert loaded("plan", SEED, "--turns", "1", "--objective", "money").endswith(" 2")  # (a usage error)
    result = CliRunner().invoke(cli.app, ["plan", SEED, "--turns", "1", "--objective", "score", "--json"])
    assert result.exit_code == 0 and '"objective": "score"' in result.stdout


def test_plain_values_still_parse():
    runner = CliRunner()
    result = runner.invoke(cli.app, ["h", "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美", "--json",
                                     "--rules", "2019-12"])
    assert result.exit_code == 0 and '"h": 1' in result.stdout
    # a bounded int still goes through typer's own coercion, with its one-line error
    result = runner.invoke(cli.app, ["analyze", "春香", "--max-exchanges", "0"])
    assert result.exit_code == 2 and "must be a whole number of at least 1, not 0" in result.output


@settings(max_examples=300, deadline=None, derandomize=True)
@given(word=st.text(alphabet="abhikmorstuzあいかはるー・ ", max_size=12), n=st.integers(1, 6),
       cutoff=st.sampled_from([0.0, 0.3, 0.6]))
def test_close_matches_equal_difflib(word, n, cutoff):
    choices = list(Evaluator().tiles._lookup)
    assert close_matches(word, choices, n, cutoff) == difflib.get_close_matches(word, choices, n, cutoff)
