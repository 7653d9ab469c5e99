"""`mj research ...`: questions about a rule set as a whole, answered with a certificate.

`mj research max-h`: the largest exchange distance h over all hands (solver.research.max_h, docs/max-h.md).
"""

from __future__ import annotations

import sys
import time
from typing import Annotated, Optional

import typer

from console.common import AsOfOpt, CatalogueOpt, JsonOpt, RulesOpt, errors, evaluator
from solver.core.rules import DEFAULT_RULES

research_app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                           help="Questions about a rule set as a whole (proved, with a certificate). "
                                "Example: mj research max-h --rules 2019-12")

BudgetOpt = Annotated[Optional[float], typer.Option(
    "--time-budget", min=1.0, help="Stop after this many seconds (default: an hour) and say how far the proof got.")]
OutOpt = Annotated[Optional[str], typer.Option("--out", "-o", help="Write the certificate (JSON) to this file.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines on stderr.")]


def _progress(quiet: bool):
    """Progress on stderr: a line rewritten in place on a terminal, a line every 15 s elsewhere."""
    if quiet:
        return None
    tty = sys.stderr.isatty()
    every = 0.5 if tty else 15.0
    last = [0.0]

    def report(p) -> None:
        if p.seconds - last[0] < every:
            return
        last[0] = p.seconds
        line = (f"max-h: witness h = {p.lower}; searching for h >= {p.goal}: {p.checks:,} prefixes measured, "
                f"{100 * p.done:.0f}% of first-level branches, {p.seconds:.0f} s")
        sys.stderr.write(("\r" + line + "\033[K") if tty else line + "\n")
        sys.stderr.flush()

    report.tty = tty  # type: ignore[attr-defined]
    return report


def certificate(ev, result, rules: str) -> dict:
    """The certificate: the answer, the witness re-checked by the ordinary h search, the method and its counts."""
    from solver.research.max_h import check_witness

    names = [ev.tiles.name(k) for k, n in enumerate(result.witness) for _ in range(n)]
    checked, by_cpsat = check_witness(ev, result.witness)  # the ordinary search again, and CP-SAT
    if checked != result.max_h or by_cpsat != result.max_h:
        raise AssertionError(f"the witness has h = {checked} (search), {by_cpsat} (CP-SAT), not {result.max_h}")
    return {
        "rules": rules,
        "max_h": result.max_h,
        "proved": result.proved,
        "upper": result.upper,
        "witness": names,
        "witness_h": checked,
        "witness_h_cpsat": by_cpsat,
        "witness_target": [ev.rules.units[u].name for u in result.witness_target],
        "method": "exhaustive: every multiset of r0 real tiles in one canonical order, a prefix dropped when a "
                  "complete target (checked) keeps more than N - goal of it (K is monotone); docs/max-h.md",
        "real_tiles": result.real_tiles,
        "checks": result.checks,
        "proof_checks": result.proof_checks,
        "certificates": result.certificates,
        "survivors_by_size": {str(k): v for k, v in result.survivors.items()},
        "timeline": [{"seconds": s, "goal": g, "outcome": o} for s, g, o in result.timeline],
        "stopped": result.stopped or None,
        "seconds": round(result.seconds, 2),
    }


def _fail(path: str, exc: OSError) -> None:
    typer.echo(f"error: cannot write {path}: {exc.strerror or exc}", err=True)
    raise typer.Exit(2) from None


def _open_out(path: Optional[str]):
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        _fail(path, exc)


@research_app.command("max-h")
def max_h_command(rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, time_budget: BudgetOpt = 3600.0,
                  out: OutOpt = None, quiet: QuietOpt = False, catalogue: CatalogueOpt = None,
                  as_of: AsOfOpt = None) -> None:
    """The largest h over all hands (no calls, nothing seen), proved by an exhaustive search (docs/max-h.md).

    Example: mj research max-h --rules hitori-jong-2.1 --out max-h.json
    """
    from solver.research.max_h import max_h
    from solver.serialize import dumps

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        handle = _open_out(out)  # before the search: a bad path costs no compute
        report = _progress(quiet)
        started = time.monotonic()
        result = max_h(ev, time_budget=time_budget, progress=report)
        if report is not None and getattr(report, "tty", False):
            sys.stderr.write("\n")
        cert = certificate(ev, result, ev.rules.name)
        text = dumps(cert)
        if handle is not None:
            try:
                with handle:
                    handle.write(text + "\n")
            except OSError as exc:
                _fail(out, exc)
        if json_:
            typer.echo(text)
        else:
            state = "proved" if result.proved else f"not proved ({result.stopped})"
            typer.echo(f"{cert['rules']}: largest h = {cert['max_h']} ({state}, {time.monotonic() - started:.1f} s)")
            typer.echo(f"witness (h = {cert['witness_h']}): {' '.join(cert['witness'])}")
            if result.proved:
                typer.echo(f"no hand has h = {cert['max_h'] + 1}: {cert['proof_checks']:,} prefixes measured, "
                           f"every one dropped certified by a complete target")
