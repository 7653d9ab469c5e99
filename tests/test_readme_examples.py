"""The README's `$ mj ...` examples give the lines it shows (a line holding "..." stands for lines left out)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from test_hardening import run_mj

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
EXAMPLES = [(m.group(1), [line for line in m.group(2).splitlines() if "..." not in line])
            for m in re.finditer(r"^\$ mj ([^\n]+)\n(.*?)^```", README, re.M | re.S)]


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("command, shown", EXAMPLES, ids=[c[:30] for c, _ in EXAMPLES])
def test_each_example_gives_the_lines_shown(command, shown):
    code, out, err = run_mj(*shlex.split(command))
    printed = {line.rstrip() for line in (out + err).splitlines()}
    missing = [line for line in shown if line.rstrip() not in printed]
    assert not missing, f"mj {command}: the README shows lines it does not print: {missing}"
