"""The work every executor runs: a chunk of claim lines in, their results out; and the local worker process.

``check_chunk`` is plain data in, plain data out (line numbers and raw lines; result dicts), so any
executor can ship it: the parent itself, local worker processes (``python -m solver.checking.worker``,
started by executors.py), or a cluster. Each process caches one Evaluator per rule set (context.py).

The worker process reads pickled chunks on stdin and writes pickled result lists on stdout, one per
chunk, until its stdin closes. It exits quietly when its parent is gone (end of stdin, or a broken pipe
on writing): a killed run never leaves workers printing tracebacks.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from typing import Any

Task = tuple[int, Any]  # (line number, the line as intake.numbered_lines gives it)


def check_chunk(chunk: list[Task], default_rules: str) -> list[dict[str, Any]]:
    """One result per task, in order. A claim the checker fails on is its error verdict, never an exception."""
    from solver.checking.check import check_claim, failed

    results = []
    for line_no, line in chunk:
        try:
            results.append(check_claim(line, line_no, default_rules))
        except Exception as exc:  # check_claim catches its own; this is the last guard for the batch
            results.append(failed(line_no, "error", "internal_error", type(exc).__name__))
    return results


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the workers
    default_rules = sys.argv[1]
    # The protocol owns the real stdout; anything a library prints goes to stderr instead.
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    source = sys.stdin.buffer
    try:
        while True:
            try:
                chunk = pickle.load(source)
            except EOFError:
                break
            pickle.dump(check_chunk(chunk, default_rules), channel, protocol=pickle.HIGHEST_PROTOCOL)
            channel.flush()
    except (BrokenPipeError, KeyboardInterrupt, OSError):
        pass
    os._exit(0)  # no interpreter shutdown: nothing left to flush into a closed pipe


if __name__ == "__main__":
    main()
