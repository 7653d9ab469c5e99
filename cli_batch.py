"""The options and the run loop that `mj check` and `mj generate` share: where the work runs (--workers,
--cluster) and where it goes (--output, --resume, --force), so the flags read the same on both."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Annotated, Any, Optional

import typer

WorkersOpt = Annotated[int, typer.Option("--workers", "-j", min=1, help="Worker processes (default: every core).")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    "--cluster", help="Run on a Dask cluster: the scheduler's address, e.g. tcp://10.0.0.5:8786 "
                      "(pip install \".[cluster]\"; README).")]
OutputOpt = Annotated[Optional[str], typer.Option(
    "--output", "-o", help="Write each line to this file as soon as it is known (FILE.meta records what "
                           "produced it). An existing file is not overwritten: see --resume and --force.")]
ResumeOpt = Annotated[bool, typer.Option("--resume", help="Continue the run that wrote --output (same input and "
                                                          "options, else refused): append what it lacks.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite an --output file that already holds results.")]
ALL_CORES = os.cpu_count() or 1


def run_batch(open_run: Callable[[], Any], show: Callable[[Any], int],
              errors: Callable[[], AbstractContextManager]) -> None:
    """Open the run (usage errors: one line, exit 2), show it, close it; exit with ``show``'s code, or
    130 / 143 when Ctrl-C / SIGTERM came before the run was open."""
    from solver.batch.signals import Stopped, stop_signals

    with stop_signals():
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
    from solver.batch.signals import Stopped

    results = run.positions()
    try:
        for _ in results:
            pass
    except Stopped as exc:
        results.close()
        print(run.stopped_text(), file=sys.stderr, flush=True)
        return exc.exit_code
    finally:
        for note in run.notes():
            print(f"note: {note}", file=sys.stderr, flush=True)
    return 0
