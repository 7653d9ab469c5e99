"""The output file of a batch command, and the sidecar ``<output>.meta`` that says what produced it.

Both ``mj check --output`` and ``mj generate --output`` follow one policy: never write onto the input,
never truncate an earlier run's output by surprise (``--resume`` continues it, ``--force`` overwrites
it), and keep what produced the output beside it, in ``<output>.meta`` (one JSON object: the command,
its options that change the output, and for ``mj check`` a SHA-256 of the input's first MiB). The
output itself stays plain JSON Lines, readable by every tool as before. ``--resume`` compares the
record with the new run's and refuses (one ``error:`` line, exit 2) when they differ, or when the
record is missing: two runs are never mixed in one file.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from typing import IO, Any

from solver.core.errors import MjError, shown
from solver.serialize import dumps

PREFIX_BYTES = 1 << 20  # the input's first MiB identifies it (the whole input when shorter)
FORMAT = 1


def write_line(stream: IO[str], item: Any) -> None:
    """One JSON line, flushed; a stop signal waits for it (signals.held), so no line is torn by a stop."""
    write_text(stream, dumps(item))


def write_text(stream: IO[str], text: str) -> None:
    """As write_line, for a line already serialized."""
    from solver.batch.signals import held

    with held():
        stream.write(text + "\n")
        stream.flush()


def close_quietly(*streams: IO | None) -> None:
    """Close a run's files at its end: an error closing one is moot by then (what was written was flushed)."""
    for stream in streams:
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass


def meta_path(output: str) -> str:
    return output + ".meta"


def _samefile(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(path: str, option: str = "--output") -> None:
    """MjError for a path no output can go to: empty (else taken for no output at all) or a directory
    (else taken for earlier results); said before anything, the .meta included, is written."""
    if not path:
        raise MjError(f"{option} is empty: give a file name")
    if os.path.isdir(path):
        raise MjError(f"{option} {shown(path)} is a directory: give a file name")


def holds_output(path: str, source: str | None, resume: bool, force: bool) -> bool:
    """Whether ``path`` holds an earlier run's output to continue. MjError for the outputs refused:
    a directory, the input itself (also through a link), or earlier output without ``--resume`` or ``--force``."""
    check_output(path)
    if resume and force:
        raise MjError("--resume continues the earlier run and --force overwrites it: give one of them")
    if source not in (None, "-") and _samefile(path, source):
        raise MjError(f"--output {shown(path)} is the input file; write the results elsewhere")
    exists = os.path.exists(path) and os.path.getsize(path) > 0
    if exists and not (resume or force):
        raise MjError(f"{shown(path)} already holds results: add --resume to continue that run, "
                      "or --force to overwrite it")
    return exists and resume


class Replayed:
    """A binary stream whose first bytes were read already (to identify it): they are read again first."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self.head, self.rest = io.BytesIO(head), rest

    def readline(self, limit: int = -1) -> bytes:
        line = self.head.readline(limit)
        if line.endswith(b"\n") or (limit >= 0 and len(line) >= limit):
            return line
        return line + self.rest.readline(limit - len(line) if limit >= 0 else -1)

    def close(self) -> None:
        self.rest.close()


def identify(stream: IO[bytes], size: int = PREFIX_BYTES) -> tuple[dict[str, Any], IO[bytes]]:
    """The input's identity (SHA-256 of its first ``size`` bytes, and how many there were) and the stream
    to read it from, whole. A resumed run passes the earlier run's count, so that lines appended to a
    short input since then do not make it another input."""
    head = stream.read(size)
    identity = {"prefix_bytes": len(head), "prefix_sha256": hashlib.sha256(head).hexdigest()}
    if stream.seekable():
        stream.seek(0)
        return identity, stream
    return identity, Replayed(head, stream)


def recorded_prefix(meta: dict[str, Any]) -> int:
    size = meta.get("input", {}).get("prefix_bytes") if isinstance(meta.get("input"), dict) else None
    return size if isinstance(size, int) and 0 <= size <= PREFIX_BYTES else PREFIX_BYTES


def write_meta(output: str, record: dict[str, Any]) -> None:
    """``<output>.meta``, replaced whole (written aside, then renamed over)."""
    path, aside = meta_path(output), meta_path(output) + ".tmp"
    try:
        with open(aside, "w", encoding="utf-8") as handle:
            handle.write(dumps({"format": FORMAT, **record}) + "\n")
        os.replace(aside, path)
    except OSError as exc:
        raise MjError(f"cannot write {shown(path)}: {exc.strerror}") from None


def read_meta(output: str) -> dict[str, Any]:
    path = meta_path(output)
    try:
        with open(path, encoding="utf-8") as handle:
            meta = json.loads(handle.read(1 << 16))
    except FileNotFoundError:
        raise MjError(f"cannot resume {shown(output)}: {shown(path)}, the record of what produced it, is "
                      "missing; use --force to start over") from None
    except (OSError, ValueError) as exc:
        raise MjError(f"cannot resume {shown(output)}: {shown(path)} is unreadable ({shown(str(exc), 80)}); "
                      "use --force to start over") from None
    if not isinstance(meta, dict):
        raise MjError(f"cannot resume {shown(output)}: {shown(path)} is not a record of mj; use --force to start over")
    return meta


def check_meta(output: str, record: dict[str, Any], meta: dict[str, Any]) -> None:
    """Refuse to resume ``output`` (whose record is ``meta``) with another run (the first difference said)."""
    earlier = {key: value for key, value in meta.items() if key != "format"}
    for key in sorted(set(earlier) | set(record)):
        then, now = earlier.get(key), record.get(key)
        if then == now:
            continue
        if key == "input":
            what = "the input differs from that run's (its first bytes changed)"
        elif key == "command":
            what = f"it was written by mj {shown(str(then))}"
        elif key == "rules_digest":  # (QA: it read as an option, --rules-digest)
            what = (f"the rule set {shown(str(record.get('rules')))} of its catalogue files is not the same as then (its "
                    "units or scoring changed)")
        else:
            name = key if key == "kind" else f"--{key.replace('_', '-')}"
            what = f"that run had {name} {shown(json.dumps(then))}, this one {shown(json.dumps(now))}"
        raise MjError(f"cannot resume {shown(output)}: {what}; rerun as before, or use --force to start over")
