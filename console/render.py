"""Readable terminal views of results (rich). Tiles in their Princess / Fairy / Angel colours on a
terminal, plain text when piped. The CLI calls these; nothing here models or solves."""

from __future__ import annotations

import math
from typing import Any, Iterable

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from solver.core.explain import points_why
from solver.core.present import UnitsPresent
from solver.core.results import DistanceResult, ScoreResult
from solver.core.rules import RuleSet
from solver.core.wording import count

ATTRIBUTE_STYLE = {"Princess": "bold #ff5b8c", "Fairy": "bold #3b7bff", "Angel": "bold #e6b422",
                   "Extra": "bold white", "Sora": "italic"}


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """The reader of stdout went away (| head): raised on, so the command says so in one line like every
        other command (cli.main), where rich would exit 1 without a word."""
        self.quiet = True
        raise BrokenPipeError


console = _Console(highlight=False, soft_wrap=True, markup=False)  # (user text, e.g. an id "[/bold]", is never markup)
UNREACHABLE = "no complete hand can be reached (every target needs tiles that are not left)"


def h_cell(h: int | None) -> str:
    """h as a cell reads it: a number, or "unreachable" (no complete hand can be reached), never None."""
    return "unreachable" if h is None else str(h)


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


def score_view(result: ScoreResult, rules: RuleSet, why: bool = False, favourite: int | None = None) -> Any:
    """`why`: each unit's points worked out below the table (`mj score`; the analysis keeps to the table)."""
    if result.total is None:
        return Text(f"not a win: {result.reason}")
    table = Table(title="Win" if result.won else "Score if the hand does not win: best complete units")
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
    if not why or not result.units:
        return table
    worked = [f"{rules.units[su.unit].name}: " + points_why(
        rules, rules.units[su.unit].size, won=result.won, called=su.called, holds_ron=su.holds_ron,
        has_favourite=favourite in rules.units[su.unit].members) for su in result.units]
    return Group(table, Text("why:\n" + "\n".join(f"  {line}" for line in worked)))


def distance_view(result: DistanceResult, rules: RuleSet, called: tuple[int, ...] = ()) -> Any:
    if result.h is None:
        return Text(UNREACHABLE)
    ex = result.exchange
    lines = Text.assemble(("h = ", "bold"), (str(result.h), "bold"), "\n")
    if ex.out:
        lines.append_text(Text.assemble("exchange: ", tiles_text(ex.out, rules), " ⇒ ", tiles_text(ex.into, rules)))
    elif ex.into:
        lines.append_text(Text.assemble("draw: ", tiles_text(ex.into, rules)))
    else:
        lines.append("complete as it is")
    if ex.sora_for:
        lines.append(f"\n(そら stands in for {' '.join(rules.tiles.name(k) for k in ex.sora_for)})")
    if result.sora_exchanges:
        lines.append(f"\n({result.sora_exchanges} of them そら, taken from the waiting room at will)")
    lines.append("\nreaches: ")
    for n, u in enumerate(called + ex.target):
        lines.append("  " if n else "")
        lines.append_text(Text.assemble("called ", unit_label(u, rules)) if n < len(called) else unit_label(u, rules))
    return lines


def analysis_view(analysis, hand, rules: RuleSet, plan=None) -> list[Any]:
    """The readable report of `mj analyze`, section by section (`plan`: P(win) and E[score] columns)."""
    out: list[Any] = []
    p = analysis.present
    h = Text.assemble(("h = ", "bold"), (str(analysis.h), "bold")) if analysis.h is not None else \
        Text(UNREACHABLE, style="bold")
    head = Text.assemble(h, f"   {analysis.size} tiles   {len(p.complete)} complete, {len(p.one_short)} one short, "
                         f"{len(p.two_short)} two short units")
    out.append(head)
    if analysis.score is not None:
        out.append(score_view(analysis.score, rules))
    if analysis.exchanges:
        table = Table(title=f"Optimal exchanges ({len(analysis.exchanges)}"
                            f"{'' if analysis.exchanges_complete else '+, list cut short'})")
        for column in ("in", "out", "reaches"):
            table.add_column(column)
        for e in analysis.exchanges:
            reaches = Text(" / ").join([Text(rules.units[u].name) for u in e.target])
            if e.sora_for:
                reaches.append(f" (そら as {' '.join(rules.tiles.name(k) for k in e.sora_for)})")
            table.add_row(tiles_text(e.into, rules), tiles_text(e.out, rules), reaches)
        out.append(table)
    title = "Per discard: h after it and the draws that lower it" if analysis.size == rules.hand_size \
        else "Next draw: the tiles that lower h"
    table = Table(title=title)
    planned = {(-1 if r.tile is None else r.tile): r for r in plan.discards} if plan else {}
    for column in ("discard", "h", "live", "accepted draws (live copies)") + \
            ((f"P(win) in {plan.turns}", f"E[score] in {plan.turns}") if plan else ()):
        table.add_column(Text(column))
    for row in analysis.discards:
        accept = Text(" ").join([Text.assemble(tiles_text([a.tile], rules), f"×{a.live}") for a in row.accept])
        extra = plan_cells(planned[row.tile]) if row.tile in planned else ()
        table.add_row(tiles_text([row.tile], rules) if row.tile >= 0 else "-", h_cell(row.h), str(row.live), accept,
                      *extra)
    out.append(table)
    if plan:
        out.extend(recommendation(plan, rules))  # (over the draws left: the h-based そら verdict below says "by h")
        headline = plan_headline(plan)
        if headline is not None:
            out.append(headline)
        out.append(Text(f"P(win) class: {plan.policy_class['win_probability']}; "
                        f"E[score] class: {plan.policy_class['expected_score']}", style="dim"))
        out.extend(estimate_note(plan))
    if analysis.waits:
        table = Table(title="Waits (score by tsumo / by ron)")
        for column in ("tile", "live", "tsumo", "ron"):
            table.add_column(column)
        for w in analysis.waits:
            table.add_row(tiles_text([w.tile], rules), str(w.live) + (" (dead)" if w.live == 0 else ""),
                          "no win" if w.tsumo is None else str(w.tsumo), "no win" if w.ron is None else str(w.ron))
        out.append(table)
    if analysis.callable and analysis.call_tile is None:
        table = Table(title="Any discard: ron on it, or a call into a unit (best discard after it)")
        for column in ("tile", "live", "ron", "unit", "h after", "discard", "verdict"):
            table.add_column(column)
        for r in analysis.callable:
            ron = "" if r.ron is None else ("no win" if r.ron.ron is None else str(r.ron.ron))
            for n, c in enumerate(r.units or (None,)):
                cells = ("", "", "", "") if c is None else (unit_label(c.unit, rules), h_cell(c.h),
                                                           tiles_text(c.discards, rules), "lowers h" if c.lowers else "does not lower h")
                table.add_row(tiles_text([r.tile], rules) if n == 0 else "", str(r.live) if n == 0 else "",
                              ron if n == 0 else "", *cells)
        out.append(table)
    if analysis.call_tile is not None:
        ron = analysis.ron_on_call_tile
        if ron is not None:
            out.append(Text(f"Ron on it: {ron.ron} points" if ron.ron is not None else
                            "It completes the hand, but a ron on it is not a win (the house rule: docs/rules.md D2)"))
        table = Table(title=f"Calls on {rules.tiles.name(analysis.call_tile)} (h now {h_cell(analysis.h)})")
        for column in ("unit", "discard", "h after", "verdict"):
            table.add_column(column)
        for c in analysis.calls:
            table.add_row(unit_label(c.unit, rules), tiles_text([c.discard], rules), h_cell(c.h),
                          "lowers h" if c.lowers else "mistake: does not lower h")
        if not analysis.calls:
            table.add_row("(no unit of 3+ members can take it)", "", "", "")
        out.append(table)
    if analysis.sora is not None:
        s = analysis.sora
        best = s.options[0] if s.options else None
        verdict = (f"use そら now: take {rules.tiles.name(best.take)} (h {h_cell(s.h_now)} → {h_cell(best.h)})"
                   if s.use_now else f"keep そら: no tile in the waiting room lowers h (now {h_cell(s.h_now)})")
        out.append(Text(("by h alone: " + verdict) if plan else  # (QA: mj plan may advise otherwise, by P(win))
                        f"{verdict} (by h alone; --turns N weighs it by P(win) over the draws left, as mj plan)"))
    for note in analysis.notes:
        out.append(Text(f"note: {note}", style="italic"))
    return out


def check_summary_view(report: dict[str, Any]) -> list[Any]:
    """Counts by verdict, by field, and by reason with an example each."""
    from solver.checking.check import LABELS
    from solver.core.errors import safe_text

    verdicts = report["verdicts"]
    out: list[Any] = [Text(f"{count(report['claims'], 'claim')}: {verdicts['correct']} correct, {verdicts['wrong']} wrong, "
                           f"{verdicts['invalid']} invalid"
                           + (f", {verdicts['error']} error (the checker failed; please report)" if verdicts.get('error') else ""))]
    if report.get("rerun_claims"):
        out.append(Text(f"{report['rerun_claims']} claims re-run after a worker died"))
    if report["fields"]:  # (none where every claim was invalid as a whole: no empty table, QA)
        table = Table(title="By field")
        for column in ("field", "correct", "wrong", "invalid"):
            table.add_column(column, justify="left" if column == "field" else "right")
        for name, counts in report["fields"].items():
            table.add_row(name, *(str(counts[v]) for v in ("correct", "wrong", "invalid")))
        out.append(table)
    if report["reasons"]:
        table = Table(title="Reasons")
        for column in ("field", "reason", "count", "example"):
            table.add_column(column, justify="right" if column == "count" else "left", overflow="fold")
        for row in report["reasons"]:
            claim, text = row["example"]["id"], row["example"]["text"]
            if not str(text).startswith(f"line {claim}: "):  # (QA: "12: line 12: bad JSON")
                text = f"{claim}: {text}"
            table.add_row(row["field"], LABELS.get(row["code"], row["code"]), str(row["count"]), safe_text(text, 600))
        out.append(table)
    return out


def rows_view(title: str, rows: list[dict[str, Any]], columns: tuple[str, ...]) -> Table:
    table = Table(title=title)
    for column in columns:  # (fold: a narrow terminal must not cut the names a user types, QA)
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(str(row[c]) for c in columns))
    return table


def units_view(rules: RuleSet) -> Table:
    table = Table(title=f"{len(rules.units)} units under {rules.name}")
    for column in ("id", "name", "size", "members"):
        table.add_column(column, overflow="fold")
    for u in rules.units:
        table.add_row(u.id, u.name, str(u.size), tiles_text(u.members, rules))
    return table


def percent(value) -> str:
    """Two decimals; below 0.1 % two significant digits, fixed-point (a bracket 0.00097% – 0.0032% reads as two)."""
    if value is None:
        return "-"
    shown = float(value) * 100
    if 0 < abs(shown) < 0.1:  # (fixed-point, never an exponent)
        return f"{shown:.{1 - math.floor(math.log10(abs(shown)))}f}%"
    return f"{shown:.2f}%"


def points(value) -> str:
    return "-" if value is None else f"{float(value):.0f}"


def plan_cells(row: Any) -> tuple[str, str]:
    """P(win) and E[score] of a plan row; a sampled value shows "~" and its 95 % interval beside the sample mean; a
    bracket (lower below the optimum, upper above it) shows "lower – upper", and "(~x)" after it where the upper bound
    is 1 and the relaxation's value was sampled (an estimate of a bound, not a proof)."""
    win, score = percent(row.win_probability), points(row.expected_score)
    if row.win_interval is not None:
        win = f"~{win} ({percent(row.win_interval[0])}-{percent(row.win_interval[1])})"
    if row.score_interval is not None:
        score = f"~{score} ({points(row.score_interval[0])}-{points(row.score_interval[1])})"
    upper = getattr(row, "upper", None)
    if upper is not None and row.win_probability is not None and upper != row.win_probability:
        win = f"{win} – {percent(upper)}"
    if getattr(row, "upper_estimate", None) is not None:  # the relaxation sampled: an estimate of a bound
        win = f"{win} (~{percent(row.upper_estimate)})"
    score_upper = getattr(row, "score_upper", None)
    if score_upper is not None and row.expected_score is not None and score_upper != row.expected_score:
        score = f"{score} – {points(score_upper)}"
    if getattr(row, "score_upper_estimate", None) is not None:
        score = f"{score} (~{points(row.score_upper_estimate)})"
    return win, score


def plan_headline(plan: Any) -> Text | None:
    """What the recommended discard is worth for the objective: the optimum, or where the optimum lies (bounds,
    estimate)."""
    best = plan.recommended
    if plan.objective == "score":
        return score_headline(plan, best)
    if plan.method == "optimal" and best.win_probability is not None:
        return Text(f"P(win) over {count(plan.turns, 'draw')}: {percent(best.win_probability)} (the optimum)", style="bold")
    if plan.method in ("bounds", "estimate") and best.upper is not None and best.win_probability is not None:
        low = ("~" if best.win_interval is not None else "") + percent(best.win_probability)
        if best.win_interval is not None:  # a sampled lower side (an estimate, or the estimate's policy past nearest)
            low += f" ({percent(best.win_interval[0])}-{percent(best.win_interval[1])})"
        proved = {True: "the best discard is proved", False: "the brackets overlap: the best discard is not proved",
                  None: ""}[plan.separated]
        why = f"the exact optimum stopped: {plan.stopped}" if plan.stopped else ""
        sampled = "" if best.upper_estimate is None else (
            f"the relaxation above it, sampled: ~{percent(best.upper_estimate)} ({percent(best.upper_interval[0])}-"
            f"{percent(best.upper_interval[1])}), an estimate, not a proof")
        between = BETWEEN_SAMPLED if best.win_interval is not None else "the optimum lies between"
        notes = "; ".join(part for part in (between, sampled, proved, why) if part)
        return Text(f"P(win) over {count(plan.turns, 'draw')}: {low} – {percent(best.upper)} ({notes})", style="bold")
    return None


def score_headline(plan: Any, best: Any) -> Text | None:
    """E[score]'s headline: its optimum where it is over all play, else its bracket where an upper bound is proved."""
    over = f"E[score] over {count(plan.turns, 'draw')}: "
    if best.expected_score is None:
        return None
    if plan.policy_class["expected_score"] == "all play":
        return Text(f"{over}{points(best.expected_score)} (the optimum)", style="bold")
    if best.score_upper is None:
        return None
    low = ("~" if best.score_interval is not None else "") + points(best.expected_score)
    if best.score_interval is not None:
        low += f" ({points(best.score_interval[0])}-{points(best.score_interval[1])})"
    why = f"the exact optimum stopped: {plan.stopped}" if plan.stopped else ""
    between = BETWEEN_SAMPLED if best.score_interval is not None else "the optimum lies between"
    notes = "; ".join(part for part in (between, why) if part)
    return Text(f"{over}{low} – {points(best.score_upper)} ({notes})", style="bold")


# (QA: "the optimum lies between" a sampled mean and the bound, where the mean lay above the optimum by the noise)
BETWEEN_SAMPLED = ("the lower side is a real policy's sampled value, its 95 % interval in brackets: the optimum is at "
                   "least that policy's true value and at most the upper bound")


def estimate_note(plan: Any) -> list[Text]:
    """The note under a plan with sampled values (marked ~), naming their columns; none where every value is exact
    (a sample whose rows were all raised to exact values, the deepening's with a そら held)."""
    sampled = [name for name, field in (("P(win)", "win_interval"), ("E[score]", "score_interval"))
               if any(getattr(row, field) is not None for row in plan.discards)]
    if plan.games is None or not sampled:
        return []
    return [Text(f"ESTIMATE, not exact ({' and '.join(sampled)}): the exact plans passed their limits; {plan.games} "
                 "sampled walls per discard (the same walls for each)", style="bold")]


def recommendation(plan, rules: RuleSet) -> list[Text]:
    """The plan's recommended move: winning now, or the discard, and the そら advice before the next draw."""
    out, best = [], plan.recommended
    if plan.tsumo_now:
        out.append(Text.assemble(("Recommended: tsumo now", "bold"), f" (scores {plan.tsumo}); declining it, "
                                 "discard ", tiles_text([best.tile], rules)))
    elif best.tile is not None:
        out.append(Text.assemble(("Recommended: discard ", "bold"), tiles_text([best.tile], rules)))
    if best.sora is not None:
        advice = f"use そら now and take {rules.tiles.name(best.sora.take)}" if best.sora.use_now \
            else "keep そら for now (using it is worth no more yet)"
        if best.sora.use_now and best.sora.take == best.tile:  # (QA: said as if it were a fetch worth making)
            advice += (" back: the same hand and waiting room as discarding そら, the best this bracket's lower side "
                       "proves; a deeper search may find better")
        out.append(Text(f"そら before the next draw: {advice}"))
    return out


def plan_view(plan, rules: RuleSet) -> list[Any]:
    """The readable report of `mj plan`: one row per discard, best first for the objective."""
    out: list[Any] = []
    objective = "P(win)" if plan.objective == "win" else "E[score]"
    out.append(Text.assemble(("h = ", "bold"), (h_cell(plan.h), "bold"),
                             f"   {count(plan.turns, 'draw')} left   {count(plan.wall, 'unseen tile')}   sorted by {objective}"))
    if plan.complete:
        out.append(Text(f"The hand is complete: tsumo now scores {plan.tsumo}."))
    table = Table(title="Per discard" if plan.discards[0].tile is not None else "The hand as it stands")
    for column in ("discard", "P(win)", "E[score]", "h", "live"):
        table.add_column(Text(column), justify="left" if column == "discard" else "right")  # no markup: E[score]
    for row in plan.discards:
        win, score = plan_cells(row)
        table.add_row(tiles_text([row.tile], rules) if row.tile is not None else "-", win, score,
                      h_cell(row.h), "-" if row.live is None else str(row.live))
    out.append(table)
    out.extend(recommendation(plan, rules))
    headline = plan_headline(plan)
    if headline is not None:
        out.append(headline)
    out.append(Text(f"P(win) class: {plan.policy_class['win_probability']}"))
    out.append(Text(f"E[score] class: {plan.policy_class['expected_score']}"))
    out.extend(estimate_note(plan))
    searched = f"{count(plan.states, 'state')} searched; " if plan.states else ""  # (QA: "0 states" under a sample)
    out.append(Text(f"{searched}model: docs/formulation.md section 8", style="dim"))
    return out
