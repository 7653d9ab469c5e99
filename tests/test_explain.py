"""Each unit's `why` line: for every rule set, size and flag, it ends in the points the rule set gives,
and the arithmetic it shows is right (recomputed here from the line's own numbers)."""

from __future__ import annotations

import itertools
import re

import pytest

from catalogue import load_catalogue
from solver.core.explain import points_why
from solver.core.rules import build_rules

CATALOGUE = load_catalogue()


@pytest.mark.parametrize("name", list(CATALOGUE.rules))
def test_why_shows_the_points_of_every_case(name):
    rules = build_rules(CATALOGUE, name)
    for size, won, called, ron, fav in itertools.product(range(1, 14), *[(False, True)] * 4):
        line = points_why(rules, size, won=won, called=called, holds_ron=ron, has_favourite=fav)
        points = rules.points(size, won=won, called=called, holds_ron=ron, has_favourite=fav)
        assert line.endswith(f"= {points}"), line
        least, per, n = map(int, re.search(r"max\((\d+), (\d+) × \((-?\d+) − 1\)\)", line).groups())
        assert n == size - line.count("− 1 (")
        assert re.search(rf"\) = {max(least, per * (n - 1))}", line)


def test_why_names_each_reduction():
    rules = build_rules(CATALOGUE, "2019-12")
    assert points_why(rules, 3, won=True, called=True) == "3 members − 1 (called) = 2: max(1000, 2000 × (2 − 1)) = 2000"
    assert points_why(rules, 1, won=True) == "1 member: max(1000, 2000 × (1 − 1)) = 1000"
