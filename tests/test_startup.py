"""Start-up: what a command imports before it answers (console/params.py, lazy imports). Timings live in
bench/bench_fast.py; here only which modules load, and that the plain parameters keep typer's answers."""

from __future__ import annotations

import difflib
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cli
from solver import Evaluator
from solver.core.errors import close_matches

IMPORTS = ("import sys, cli\n"
           "try:\n    cli.main(sys.argv[1:])\n"
           "except SystemExit as exc:\n    code = exc.code\n"
           "print(sorted(m for m in ('pydantic', 'ortools', 'networkx', 'rich') if m in sys.modules), code)")


def loaded(*args: str) -> str:
    result = subprocess.run([sys.executable, "-c", IMPORTS, *args], capture_output=True, text=True, timeout=60)
    return result.stdout.strip().splitlines()[-1]


def test_bad_tile_loads_neither_pydantic_nor_the_solver():
    assert loaded("h", "春香 XYZ") == "[] 2"
    assert loaded("h", "春香 千早", "--seen", "XYZ", "--json") == "[] 2"


def test_plain_values_still_parse():
    runner = CliRunner()
    result = runner.invoke(cli.app, ["h", "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美", "--json",
                                     "--rules", "2019-12"])
    assert result.exit_code == 0 and '"h": 1' in result.stdout
    # a bounded int still goes through typer's own coercion, with its one-line error
    result = runner.invoke(cli.app, ["analyze", "春香", "--max-exchanges", "0"])
    assert result.exit_code == 2 and "greater than or equal to 1" in result.output


@settings(max_examples=300, deadline=None, derandomize=True)
@given(word=st.text(alphabet="abhikmorstuzあいかはるー・ ", max_size=12), n=st.integers(1, 6),
       cutoff=st.sampled_from([0.0, 0.3, 0.6]))
def test_close_matches_equal_difflib(word, n, cutoff):
    choices = list(Evaluator().tiles._lookup)
    assert close_matches(word, choices, n, cutoff) == difflib.get_close_matches(word, choices, n, cutoff)
