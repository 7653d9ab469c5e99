"""Why a unit scores what it scores: docs/rules.md section 4's formula written out step by step.

The page and `mj score --json` show these lines when a score is disputed. The text is checked
against ``RuleSet.points`` on every call, so an explanation can never disagree with the score.
"""

from __future__ import annotations

from solver.core.rules import RuleSet


MINUS_LABELS = {"no_win": "no win", "called": "called", "ron": "holds the ron tile"}


def points_steps(rules: RuleSet, size: int, *, won: bool, called: bool = False, holds_ron: bool = False,
                 has_favourite: bool = False) -> dict:
    """The formula's steps as data (the page writes them in its own language): `minus` the members taken off
    (MINUS_LABELS' keys) leaving `n`; `base` = max(min_points, member_points × (n − 1)); then `half` (called, halved)
    and `double` (holds the favourite) where they apply, each the points after it."""
    spec = rules.spec
    minus = [key for key, applies in (("no_win", not won and spec.no_win == "minus_member"),
                                      ("called", called and spec.called == "minus_member"),
                                      ("ron", holds_ron and spec.ron_minus_member)) if applies]
    n = size - len(minus)
    points = base = max(spec.min_points, spec.member_points * (n - 1))
    half = double = None
    if called and spec.called == "half":
        points = half = points // 2
    if has_favourite and spec.favourite == "double":
        points = double = points * 2
    expected = rules.points(size, won=won, called=called, holds_ron=holds_ron, has_favourite=has_favourite)
    if points != expected:  # a bug, never input
        raise AssertionError(f"explained {points} points, the rule set gives {expected}")
    return {"size": size, "minus": minus, "n": n, "min_points": spec.min_points, "member_points": spec.member_points,
            "base": base, "half": half, "double": double, "points": points}


def points_why(rules: RuleSet, size: int, *, won: bool, called: bool = False, holds_ron: bool = False,
               has_favourite: bool = False) -> str:
    """One line, e.g. '3 members − 1 (called) = 2: max(1000, 2000 × (2 − 1)) = 2000'."""
    st = points_steps(rules, size, won=won, called=called, holds_ron=holds_ron, has_favourite=has_favourite)
    steps = "".join(f" − 1 ({MINUS_LABELS[key]})" for key in st["minus"])
    text = f"{size} member{'s' if size != 1 else ''}" + (steps + f" = {st['n']}" if steps else "")
    text += f": max({st['min_points']}, {st['member_points']} × ({st['n']} − 1)) = {st['base']}"
    if st["half"] is not None:
        text += f"; called: half = {st['half']}"
    if st["double"] is not None:
        text += f"; holds the favourite: × 2 = {st['double']}"
    return text
