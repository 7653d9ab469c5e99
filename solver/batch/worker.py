"""A local worker process (``python -m solver.batch.worker``, started by executors.LocalProcesses).

It reads a pickled ``Job`` on stdin (a forked worker, forked.py, has it already), then pickled chunks,
and writes one pickled result list per chunk on stdout (a JobFailed where the job raised), until its stdin
closes. It exits quietly when its parent is gone (end of stdin, or a broken pipe on writing): a killed run never
leaves workers printing tracebacks.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from typing import IO

from solver.batch.job import JobFailed


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the workers
    # The protocol owns the real stdout; anything a library prints goes to stderr instead.
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, channel)
    os._exit(0)  # no interpreter shutdown: nothing left to flush into a closed pipe


def serve(source: IO[bytes], channel: IO[bytes], job: bytes | None = None) -> None:
    """Run chunks until ``source`` ends (or the parent is gone); ``job`` pickled, or the first message."""
    try:
        job = pickle.loads(job) if job is not None else pickle.load(source)
        while True:
            try:
                chunk = pickle.load(source)
            except EOFError:
                break
            try:
                message = pickle.dumps(job(chunk), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # the job's own error: raised in the parent, this worker goes on
                message = JobFailed.message_of(exc)
            channel.write(message)
            channel.flush()
    except (BrokenPipeError, EOFError, KeyboardInterrupt, OSError):
        pass


if __name__ == "__main__":
    main()
