"""`mj research ...`: questions about a rule set as a whole, answered with a certificate.

`mj research max-h`: the largest exchange distance h over all hands (solver.research.max_h, docs/max-h.md).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Annotated, Optional

import typer

from console.common import AsOfOpt, CatalogueOpt, JsonOpt, RulesOpt, WholeFile, errors, evaluator
from solver.core.errors import shown
from solver.core.rules import DEFAULT_RULES

research_app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                           help="Questions about a rule set as a whole (proved, with a certificate). "
                                "Example: mj research max-h --rules 2019-12")

BudgetOpt = Annotated[Optional[float], typer.Option(
    "--time-budget", min=1.0, help="Stop the search after this many seconds (default: an hour), say how far the proof "
                                   "got and exit 124 (checking the witness after it takes about 0.5 s more).")]
OutOpt = Annotated[Optional[str], typer.Option(
    "--output", "--out", "-o", metavar="FILE", help="Write the certificate (JSON) to this file, whole at the end: Ctrl-C leaves an earlier one as it was.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines on stderr.")]


def _progress(quiet: bool):
    """Progress on stderr: a line rewritten in place on a terminal, a line every 15 s elsewhere (the first at once:
    QA, a log of a 10 s run had none)."""
    if quiet:
        return None
    tty = sys.stderr.isatty()
    every = 0.5 if tty else 15.0
    last = [-every]

    def report(p) -> None:
        if p.seconds - last[0] < every:
            return
        last[0] = p.seconds
        line = (f"max-h: witness h = {p.lower}; searching for h >= {p.goal}: {p.checks:,} prefixes measured, "
                f"{100 * p.done:.0f}% of first-level branches (the first are the largest), {p.seconds:.0f} s")
        sys.stderr.write(("\r" + line + "\033[K") if tty else line + "\n")
        sys.stderr.flush()

    report.tty = tty  # type: ignore[attr-defined]
    return report


def _interrupted(ev, result, out: Optional[str], code: int, json_: bool) -> None:
    """Ctrl-C: one line with what the search reached (the certificate file, if any, left as it was); with --json the
    unproved certificate on stdout too, so that it is still one JSON document (QA: nothing was printed)."""
    if json_:
        from solver.research.certificate import certificate
        from solver.serialize import dumps

        typer.echo(dumps(certificate(ev, result, ev.rules.name)))
    names = " ".join(ev.tiles.name(k) for k, n in enumerate(result.witness) for _ in range(n))
    state = "proved" if result.proved else f"not proved ({result.stopped.removeprefix('interrupted: ')})"
    kept = f"; {shown(out)} left as it was" if out else ""
    typer.echo(f"interrupted after {result.seconds:.1f} s: {ev.rules.name}: largest h found = {result.max_h}, "
               f"{state}; witness: {names}{kept}", err=True)
    raise typer.Exit(code)


@research_app.command("max-h")
def max_h_command(rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, time_budget: BudgetOpt = 3600.0,
                  out: OutOpt = None, quiet: QuietOpt = False, catalogue: CatalogueOpt = None,
                  as_of: AsOfOpt = None) -> None:
    """The largest h over all hands (no calls, nothing seen), proved by an exhaustive search (docs/max-h.md).

    Example: mj research max-h --rules hitori-jong-2.1 --output max-h.json
    """
    from solver.research.certificate import certificate
    from solver.research.max_h import Interrupted, max_h
    from solver.serialize import dumps

    with errors():  # (SIGTERM stops it as Ctrl-C does, cli.said_on_interrupt: the file beside the certificate removed)
        ev = evaluator(rules, catalogue, as_of)
        if out is not None:
            from solver.batch.output import check_output

            check_output(out, "--output")
        target = WholeFile(out) if out is not None else None
        result = None
        try:
            report = _progress(quiet)
            started = time.monotonic()
            try:
                result = max_h(ev, time_budget=time_budget, progress=report)
            finally:
                if report is not None and getattr(report, "tty", False):
                    sys.stderr.write("\n")
            cert = certificate(ev, result, ev.rules.name)
            text = dumps(cert)
            # (an unproved answer never replaces a file: QA, a 1 s run had replaced a proof with "proved": false)
            if target is not None and not result.proved and os.path.exists(out):
                typer.echo(f"note: {out} not written: the file exists (kept as it was), and this answer is not "
                           "proved", err=True)
            elif target is not None:
                target.write(text + "\n")
        except Interrupted as stop:
            _interrupted(ev, stop.result, out, stop.exit_code, json_)
        except KeyboardInterrupt as stop:  # while the witness was checked: the search's answer is whole
            if result is None:
                raise
            _interrupted(ev, result, out, getattr(stop, "exit_code", 130), json_)
        finally:
            if target is not None:
                target.drop()
        if json_:
            typer.echo(text)
        else:
            state = "proved" if result.proved else f"not proved ({result.stopped})"
            said = "largest h" if result.proved else "largest h found"
            typer.echo(f"{cert['rules']}: {said} = {cert['max_h']} ({state}, {time.monotonic() - started:.1f} s)")
            typer.echo(f"witness (h = {cert['witness_h']}): {' '.join(cert['witness'])}")
            if result.proved:
                typer.echo(f"no hand has h = {cert['max_h'] + 1}: {cert['proof_checks']:,} prefixes measured, "
                           f"every one dropped certified by a complete target")
        if not result.proved:  # (QA: exit 0 read as an answer; the budget's code, as mj check --time-budget)
            raise typer.Exit(124)
