"""The streamed output of ``mj check`` (the command's terminal view; the other views are render.py's).

Apart from render.py so that ``--json`` never imports rich (about 55 ms of the command's start-up):
rich comes only to draw, a progress bar on a terminal or the summary's tables.
"""

from __future__ import annotations

import sys
from typing import Any


def check_line(result: dict[str, Any]) -> str:
    """One line for a claim that is not right: where, what, and why."""
    problems = [result["error"]] if "error" in result else list(result.get("problems", ()))
    problems += [{**r, "text": f"{name}: {r['text']}"} for name, d in result.get("fields", {}).items()
                 for r in d.get("reasons", ())]
    from solver.core.errors import safe_text

    where = f"line {result['line']}"
    named = "" if result["id"] == result["line"] else f" {result['id']}"  # (no id: the line number, said once)
    texts = [p["text"].removeprefix(f"{where}: ") for p in problems]
    line = f"{where}{named}: {result['verdict']}: " + "; ".join(texts)
    return safe_text(line, 2000)  # echoed input: escaped, and bounded however long the claim


def check_run_output(run, json_: bool) -> int:
    """Stream a ``mj check`` run: a line per claim that is not right (or the JSON report), a progress bar on
    a terminal, then the summary. Returns the exit code; a stop by signal still closes the JSON report
    (with ``"interrupted": true``) and ends with one line saying what was written."""
    import json
    from contextlib import ExitStack

    from solver.batch.signals import Stopped
    from solver.serialize import dumps

    def say(text: str) -> None:
        print(text, flush=True)

    stopped: Stopped | None = None
    with ExitStack() as stack:
        advance = None
        if sys.stderr.isatty():  # a progress bar on a terminal only
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            progress = stack.enter_context(Progress(
                TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True, redirect_stdout=False, redirect_stderr=False))
            task = progress.add_task("check", total=run.total)
            advance = lambda n: progress.advance(task, n)  # noqa: E731
            if sys.stdout.isatty():  # one terminal: print above the bar
                say = lambda text: progress.console.print(text, markup=False, highlight=False, soft_wrap=True)  # noqa: E731
        if json_:
            say('{"claims": [')
        results = run.results()
        first = True
        try:
            for batch in results:  # (JSON line, facts with the verdict first) pairs: one print a batch
                if json_:
                    say(("" if first else ",") + "\n,".join(text for text, _ in batch))
                    first = False
                else:
                    wrong = [check_line(json.loads(text)) for text, facts in batch if facts[0] != "correct"]
                    if wrong:
                        say("\n".join(wrong))
                if advance:
                    advance(len(batch))
        except Stopped as exc:
            stopped = exc
        finally:
            results.close()  # (the run, closed by the caller, stops its workers at once when stopped)
    report = run.report() if stopped else run.finish()
    if json_:
        print('], "summary": ' + dumps(report) + (', "interrupted": true' if stopped else "") + "}", flush=True)
    if not json_ and report["claims"]:  # (after a stop too: the counts of what was checked, QA)
        from console.render import check_summary_view, console

        for part in check_summary_view(report):
            console.print(part)
    if stopped:
        print(run.stopped_text(), file=sys.stderr, flush=True)
        return stopped.exit_code
    if report["claims"] == 0:
        from solver.core.errors import safe_text

        print(f"no claims in {safe_text(run.file, 200) if run.file != '-' else 'the input'}", file=sys.stderr)
        return 1
    return 0 if run.summary.all_correct else 1
