"""One run of ``mj check``: its input, its results file, its summary and its end, whatever ends it.

The CLI only prints: it iterates ``CheckRun.results()`` and renders each result. This module opens the
input and the results file (resume.py's rules), writes each result as it comes, counts the summary and
turns SIGTERM into the same clean stop as Ctrl-C (solver/batch/signals.py), so an interrupted run
leaves a results file that ``--resume`` completes (and ``<output>.meta``, what produced it, so that a
resume with another input or rule set is refused).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import IO, Any

from solver.api import house_files, house_record
from solver.batch.executors import make_executor
from solver.batch.ordered import run_batches
from solver.batch.output import (check_meta, close_quietly, holds_output, identify, read_meta, recorded_prefix,
                                 write_line, write_meta, write_text)
from solver.batch.signals import held, stopped_text
from solver.checking.batch import Stats, count_lines, lost_claim, tasks_of
from solver.checking.check import validate_rules
from solver.checking.resume import Answered, open_results
from solver.checking.summary import Checked, Summary, checked
from solver.checking.worker import checked_job
from solver.core.errors import MjError, shown

class CheckRun:
    """Opens the input and the results file (MjError for a usage problem), checks, records, summarises."""

    def __init__(self, file: str, output: str | None, workers: int, rules: str, resume: bool = False,
                 force: bool = False, cluster: str | None = None, catalogue: tuple[str, ...] = ()):
        self.catalogue = house_files(catalogue)
        self.house = house_record(self.catalogue, validate_rules(rules, self.catalogue))  # (an unknown rule set or a
        # bad file: before any work)
        if (resume or force) and output is None:
            raise MjError("--resume and --force apply to --output FILE; give one")
        self.file, self.output, self.workers, self.rules = file, output, workers, rules
        self.executor = None
        self.finished = False  # every result came: the workers may finish their work before they stop
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
            if output is not None:  # (an empty one too: refused by holds_output, not taken for none)
                self.open_output(output, resume, force)
            self.total = None if file == "-" else max(0, count_lines(file) - self.answered.count)
            # made last, before any thread: local workers are forked from this process (executors.py)
            self.executor = make_executor(workers, checked_job(rules, self.catalogue), cluster)
        except BaseException:
            self.close()
            raise

    def open_output(self, output: str, resume: bool, force: bool) -> None:
        """The results file and its record; resuming, the record must match this run's input and rules."""
        resuming = holds_output(output, self.file, resume, force)
        earlier = read_meta(output) if resuming else {}
        identity, self.source = identify(self.source, recorded_prefix(earlier))
        record = {"command": "check", "input": identity, "rules": self.rules, **self.house}
        if resuming:
            check_meta(output, record, earlier)
        else:
            write_meta(output, record)
        self.sink, self.answered = open_results(output, resuming, self.summary.add)

    def results(self) -> Iterator[list[Checked]]:
        """The new results in input order, a batch at a time (summary.Checked pairs: a JSON line and its
        summary facts), each batch already written to the results file and counted. A batch is what came
        back together (at most about 50 ms of work): one write and one flush for it, not one a line."""
        batches = run_batches(tasks_of(self.source, self.answered), self.executor, self.stats,
                              lambda task: checked(lost_claim(task)))
        sink, count = self.sink, self.summary.count
        for batch in batches:
            with held():  # a stop between the lines and their count would misreport what was written
                if sink:
                    write_text(sink, "\n".join(text for text, _ in batch))
                self.written += len(batch)
                for _, facts in batch:
                    count(facts)
            yield batch
        self.finished = True

    def report(self) -> dict[str, Any]:
        report = self.summary.to_dict()
        if self.stats.rerun:
            report["rerun_claims"] = self.stats.rerun  # re-run because their worker died
        return report

    def finish(self) -> dict[str, Any]:
        """The summary; written as the results file's last line (only a finished run has it)."""
        report = self.report()
        if self.sink:
            with held(final=True):  # written, the run is complete: a stop that comes now changes nothing
                write_line(self.sink, {"summary": report})
        return report

    def stopped_text(self) -> str:
        return stopped_text(f"{self.written} claims", self.output)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.close(abort=not self.finished)  # stopped: at once, dropping the work in flight
            self.executor = None
        close_quietly(self.sink, None if self.file == "-" else getattr(self, "source", None))
