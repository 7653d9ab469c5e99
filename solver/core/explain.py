"""Why a unit scores what it scores: docs/rules.md section 4's formula written out step by step.

The page and `mj score --json` show these lines when a score is disputed. The text is checked
against ``RuleSet.points`` on every call, so an explanation can never disagree with the score.
"""

from __future__ import annotations

from solver.core.rules import RuleSet


def points_why(rules: RuleSet, size: int, *, won: bool, called: bool = False, holds_ron: bool = False,
               has_favourite: bool = False) -> str:
    """One line, e.g. '3 members − 1 (called) = 2: max(1000, 2000 × (2 − 1)) = 2000'."""
    spec = rules.spec
    n, steps = size, []
    for applies, label in ((not won and spec.no_win == "minus_member", "no win"),
                           (called and spec.called == "minus_member", "called"),
                           (holds_ron and spec.ron_minus_member, "holds the ron tile")):
        if applies:
            n -= 1
            steps.append(f" − 1 ({label})")
    points = max(spec.min_points, spec.member_points * (n - 1))
    text = f"{size} member{'s' if size != 1 else ''}" + ("".join(steps) + f" = {n}" if steps else "")
    text += f": max({spec.min_points}, {spec.member_points} × ({n} − 1)) = {points}"
    if called and spec.called == "half":
        points //= 2
        text += f"; called: half = {points}"
    if has_favourite and spec.favourite == "double":
        points *= 2
        text += f"; holds the favourite: × 2 = {points}"
    expected = rules.points(size, won=won, called=called, holds_ron=holds_ron, has_favourite=has_favourite)
    if points != expected:  # a bug, never input
        raise AssertionError(f"explained {points} points, the rule set gives {expected}")
    return text
