"""One run of ``mj check``: its input, its results file, its summary and its end, whatever ends it.

The CLI only prints: it iterates ``CheckRun.results()`` and renders each result. This module opens the
input and the results file (resume.py's rules), writes each result as it comes, counts the summary and
turns SIGTERM into the same clean stop as Ctrl-C (``stop_signals``), so an interrupted run leaves a
results file that ``--resume`` completes.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from solver.checking.batch import Stats, Summary, check_lines, count_lines, record
from solver.checking.check import validate_rules
from solver.checking.executors import make_executor
from solver.checking.resume import Answered, open_results
from solver.core.errors import MjError, shown
from solver.serialize import dumps

EXIT_SIGINT, EXIT_SIGTERM = 130, 143  # 128 + the signal's number, as shells report it


class Stopped(KeyboardInterrupt):
    """The run was stopped by a signal; ``exit_code`` is 130 (SIGINT) or 143 (SIGTERM)."""

    def __init__(self, exit_code: int = EXIT_SIGINT):
        super().__init__()
        self.exit_code = exit_code


@contextmanager
def stop_signals() -> Iterator[None]:
    """Inside: SIGINT and SIGTERM raise Stopped (at most once: a second signal during the clean-up waits)."""
    fired = []

    def handler(signum: int, frame: Any) -> None:
        if not fired:
            fired.append(signum)
            raise Stopped(EXIT_SIGTERM if signum == signal.SIGTERM else EXIT_SIGINT)

    try:
        previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread (an embedding program): leave its signals alone
        yield
        return
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)


class CheckRun:
    """Opens the input and the results file (MjError for a usage problem), checks, records, summarises."""

    def __init__(self, file: str, output: str | None, workers: int, rules: str, resume: bool = False,
                 force: bool = False, cluster: str | None = None):
        validate_rules(rules)
        if (resume or force) and not output:
            raise MjError("--resume and --force apply to --output FILE; give one")
        self.file, self.output, self.workers, self.rules = file, output, workers, rules
        self.executor = None  # local executors are made by check_lines; a cluster is reached here, at once
        self.summary = Summary()
        self.stats = Stats()
        self.written = 0  # results written by this run
        self.answered = Answered()
        self.sink: IO[str] | None = None
        try:
            self.source = sys.stdin.buffer if file == "-" else open(file, "rb")
        except OSError as exc:
            raise MjError(f"cannot open {shown(file)}: {exc.strerror}") from None
        try:
            if output:
                self.sink, self.answered = open_results(output, file, resume, force, self.summary.add)
            self.total = None if file == "-" else max(0, count_lines(file) - self.answered.count)
            if cluster:
                self.executor = make_executor(workers, rules, cluster)
        except BaseException:
            self.close()
            raise

    def results(self) -> Iterator[dict[str, Any]]:
        """Each new result, in input order, already written to the results file and counted."""
        checked = check_lines(self.source, self.workers, self.rules, skip=self.answered, stats=self.stats,
                              executor=self.executor)
        try:
            for result in (record(checked, self.sink) if self.sink else checked):
                self.written += 1
                yield self.summary.add(result)
        finally:
            checked.close()  # stops the workers at once if the loop did not finish

    def report(self) -> dict[str, Any]:
        report = self.summary.to_dict()
        if self.stats.rerun_claims:
            report["rerun_claims"] = self.stats.rerun_claims  # re-run because their worker died
        return report

    def finish(self) -> dict[str, Any]:
        """The summary; written as the results file's last line (only a finished run has it)."""
        report = self.report()
        if self.sink:
            self.sink.write(dumps({"summary": report}) + "\n")
            self.sink.flush()
        return report

    def stopped_text(self) -> str:
        where = f" (in {shown(self.output)})" if self.output else ""
        hint = "; rerun with --resume to continue" if self.output else "; use --output FILE to be able to resume"
        return f"interrupted after {self.written} claims{where}{hint}"

    def close(self) -> None:
        if self.executor is not None:
            self.executor.close()
            self.executor = None
        for stream in (self.sink, None if self.file == "-" else getattr(self, "source", None)):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
