"""The work every executor runs for ``mj check``: a chunk of claim lines in, their results out.

``check_chunk`` is plain data in, plain data out (line numbers and raw lines; result dicts), so any
executor of solver/batch can ship it: the parent itself, local worker processes, or a cluster. Each
process caches one Evaluator per rule set (context.py). ``checked_chunk`` is the same work with each
result already serialized, for ``mj check`` (summary.Checked).
"""

from __future__ import annotations

from typing import Any

from solver.batch.executors import Job

Task = tuple[int, Any]  # (line number, the line as intake.numbered_lines gives it)


def check_chunk(chunk: list[Task], default_rules: str, catalogue: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """One result per task, in order. A claim the checker fails on is its error verdict, never an exception."""
    from solver.checking.check import check_claim, failed

    results = []
    for line_no, line in chunk:
        try:
            results.append(check_claim(line, line_no, default_rules, catalogue))
        except Exception as exc:  # check_claim catches its own; this is the last guard for the batch
            results.append(failed(line_no, "error", "internal_error", type(exc).__name__))
    return results


def check_job(default_rules: str, catalogue: tuple[str, ...] = ()) -> Job:
    return Job(check_chunk, (default_rules, catalogue))


def checked_chunk(chunk: list[Task], default_rules: str, catalogue: tuple[str, ...] = ()) -> list[Any]:
    """As check_chunk, each result as a summary.Checked pair (its JSON line and its summary facts): the job of
    ``mj check``, whose parent then only writes lines and counts."""
    from solver.checking.summary import checked

    return [checked(result) for result in check_chunk(chunk, default_rules, catalogue)]


def checked_job(default_rules: str, catalogue: tuple[str, ...] = ()) -> Job:
    return Job(checked_chunk, (default_rules, catalogue))
