"""The batch commands, `mj check` and `mj generate`, with the options and the run loop they share: where the
work runs (--workers, --cluster) and where it goes (--output, --resume, --force), so the flags read the same on both."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, Optional

import typer

from console.common import CatalogueOpt, RulesOpt, errors
from solver.batch.job import MAX_WORKERS
from solver.core.rules import DEFAULT_RULES

WorkersOpt = Annotated[int, typer.Option("--workers", "-j", min=1, max=MAX_WORKERS, help="Worker processes (default: every core).")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    "--cluster", help="Run on a Dask cluster: the scheduler's address, e.g. tcp://10.0.0.5:8786 "
                      "(pip install \".[cluster]\"; README).")]
OutputOpt = Annotated[Optional[str], typer.Option(
    "--output", "-o", metavar="FILE", help="Write each line to this file as soon as it is known (FILE.meta records what "
                           "produced it). An existing file is not overwritten: see --resume and --force.")]
ResumeOpt = Annotated[bool, typer.Option("--resume", help="Continue the run that wrote --output (same input and "
                                                          "options, else refused): append what it lacks.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite an --output file that already holds results.")]
ALL_CORES = os.cpu_count() or 1
TimeBudgetOpt = Annotated[Optional[float], typer.Option(
    "--time-budget", min=0.1, help="Stop cleanly after this many seconds, as Ctrl-C does: say what was written "
                                   "(--resume continues it) and exit 124.")]


def run_batch(open_run: Callable[[], Any], show: Callable[[Any], int], budget: float | None = None) -> None:
    """Open the run (usage errors: one line, exit 2), show it, close it; exit with ``show``'s code, or
    130 / 143 / 124 when Ctrl-C / SIGTERM / the end of the time budget came before the run was open."""
    from solver.batch.signals import Stopped, stop_signals

    with stop_signals(budget):
        try:
            with errors():
                run = open_run()
        except Stopped as exc:
            raise typer.Exit(exc.exit_code) from None
        try:
            with errors():
                code = show(run)
        finally:
            run.close()
    import gc

    gc.freeze()  # the process ends: its last collection over the catalogue and solver tables (0.15 s) is moot
    raise typer.Exit(code)


def show_generate(run: Any) -> int:
    """Positions go to the output as they are made; stderr says only what is not in it."""
    from console.progress import count_bar
    from solver.batch.signals import Stopped

    results = run.positions()
    try:
        with count_bar(f"{run.kind} positions", run.count, run.start, quiet=not run.output and sys.stdout.isatty()) \
                as advance:
            for _ in results:
                advance(run.start + run.written)
    except Stopped as exc:
        results.close()
        print(run.stopped_text(), file=sys.stderr, flush=True)
        return exc.exit_code
    finally:
        for note in run.notes():
            print(f"note: {note}", file=sys.stderr, flush=True)
    return 0


def check(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Claims, one JSON object per line (docs/checker.md); '-' reads stdin.")],
    json_: Annotated[bool, typer.Option("--json", help="Print a JSON report {\"claims\": [...], \"summary\": {...}}.")] = False,
    workers: WorkersOpt = ALL_CORES, output: OutputOpt = None, resume: ResumeOpt = False, force: ForceOpt = False,
    time_budget: TimeBudgetOpt = None,
    rules: Annotated[str, typer.Option("--rules", "-r", help="Rule set for claims that name none.")] = DEFAULT_RULES,
    cluster: ClusterOpt = None, catalogue: CatalogueOpt = None,
) -> None:
    """Check other engines' answers (h, score, units, exchanges, waits, discard, complete) exactly.

    Each claim is right, wrong (with the exact value and why), invalid (with the parse error) or error
    (the checker failed on it). Prints the claims that are not right and a summary by field and reason;
    exits 0 only if every claim is right, 1 otherwise (also when there is no claim), 2 on a usage error,
    130 / 143 when stopped by Ctrl-C / SIGTERM (rerun with --resume to continue). --output ends with a
    {"summary": ...} line (absent if the run was interrupted).

    Example: mj check claims.jsonl --rules hitori-jong-2.1 --output results.jsonl
    """
    from console.render_check import check_run_output
    from solver.checking.run import CheckRun

    run_batch(lambda: CheckRun(file, output, workers, rules, resume, force, cluster, tuple(catalogue or ())),
              lambda run: check_run_output(run, json_), time_budget)


def generate(
    kind: Annotated[str, typer.Argument(metavar="KIND", help="waits, exchanges, discard or traps (docs/generation.md).")],
    count: Annotated[int, typer.Option("--count", "-n", min=0, max=1_000_000, help="How many positions.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same file (on any executor).")] = 0,
    rules: RulesOpt = DEFAULT_RULES, catalogue: CatalogueOpt = None,
    difficulty: Annotated[Optional[str], typer.Option(
        "--difficulty", help="easy, medium, hard, any, or bounds on features such as 'waits>=3,depth>=1'.")] = None,
    output: OutputOpt = None, workers: WorkersOpt = ALL_CORES, cluster: ClusterOpt = None,
    resume: ResumeOpt = False, force: ForceOpt = False,
    attempts: Annotated[int, typer.Option("--attempts", min=1, max=100_000, help=(
        "Give up on a position after this many tries (then say how many were found)."))] = 1000,
    time_budget: TimeBudgetOpt = None,
) -> None:
    """Positions with proven answers, one JSON line each in the claims format of mj check (stdout or --output).

    Example: mj generate waits --count 20 --seed 7 --difficulty hard --output waits.jsonl
    """
    from solver.generation.run import GenerateRun

    run_batch(lambda: GenerateRun(kind, count, seed, rules, difficulty, output, workers, cluster, resume,
                                  force, stdout=sys.stdout, attempts=attempts, catalogue=tuple(catalogue or ())),
              show_generate, time_budget)
