"""Readable terminal views of results (rich). Tiles in their Princess / Fairy / Angel colours on a
terminal, plain text when piped. The CLI calls these; nothing here models or solves."""

from __future__ import annotations

from typing import Any, Iterable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from solver.present import UnitsPresent
from solver.results import DistanceResult, ScoreResult
from solver.rules import RuleSet

ATTRIBUTE_STYLE = {"Princess": "bold #ff5b8c", "Fairy": "bold #3b7bff", "Angel": "bold #e6b422",
                   "Extra": "bold white", "Sora": "italic"}

console = Console(highlight=False, soft_wrap=True)


def tiles_text(kinds: Iterable[int], rules: RuleSet, sep: str = " ") -> Text:
    text = Text()
    for n, kind in enumerate(kinds):
        idol = rules.tiles.idols[kind]
        if n:
            text.append(sep)
        text.append(idol.name, style=ATTRIBUTE_STYLE.get(idol.attribute, ""))
    return text


def unit_label(u: int, rules: RuleSet) -> Text:
    d = rules.units[u]
    return Text.assemble(d.name, " [", tiles_text(d.members, rules), "]")


def present_view(present: UnitsPresent, rules: RuleSet) -> Table:
    table = Table(title="Units present", show_lines=False)
    for column in ("missing", "unit", "size", "members", "needs"):
        table.add_column(column)
    groups = (("0", present.complete), ("1", present.one_short), ("2", present.two_short))
    for label, group in groups:
        for p in group:
            d = rules.units[p.unit]
            table.add_row(label, d.name, str(d.size), tiles_text(d.members, rules), tiles_text(p.missing, rules))
    table.caption = (f"{len(present.complete)} complete, {len(present.one_short)} one short, "
                     f"{len(present.two_short)} two short")
    return table


def score_view(result: ScoreResult, rules: RuleSet) -> Any:
    if result.total is None:
        return Text(f"not a win: {result.reason}")
    table = Table(title="Win" if result.won else "No win: best complete units")
    for column in ("unit", "members", "points", "flags"):
        table.add_column(column)
    for su in result.units:
        d = rules.units[su.unit]
        flags = ", ".join(f for f, on in (("called", su.called), ("ron tile", su.holds_ron)) if on)
        if su.sora_for:
            flags = ", ".join(filter(None, [flags, "そら as " + " ".join(rules.tiles.name(k) for k in su.sora_for)]))
        table.add_row(d.name, tiles_text(d.members, rules), str(su.points), flags)
    if result.bonus:
        table.add_row("favourite bonus", "", str(result.bonus), "")
    if result.leftover:
        table.add_row("(in no unit)", tiles_text(result.leftover, rules), "", "")
    table.add_row(Text("total", style="bold"), "", Text(str(result.total), style="bold"), "")
    return table


def distance_view(result: DistanceResult, rules: RuleSet) -> Any:
    if result.h is None:
        return Text("no complete hand can be reached (every target needs tiles that are not left)")
    ex = result.exchange
    lines = Text.assemble(("h = ", "bold"), (str(result.h), "bold"), "\n")
    if ex.out:
        lines.append_text(Text.assemble("exchange: ", tiles_text(ex.out, rules), " ⇒ ", tiles_text(ex.into, rules)))
    elif ex.into:
        lines.append_text(Text.assemble("draw: ", tiles_text(ex.into, rules)))
    else:
        lines.append("complete as it is")
    if result.sora_exchanges:
        lines.append(f"\n({result.sora_exchanges} of them そら, taken from the waiting room at will)")
    lines.append("\nreaches: ")
    for n, u in enumerate(ex.target):
        lines.append("  " if n else "")
        lines.append_text(unit_label(u, rules))
    return lines
