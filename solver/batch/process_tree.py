"""Processes read from /proc (Linux; elsewhere none are found): what a worker or a bot started, to stop it with
them where a process group would miss it (a child that moved to a group of its own)."""

from __future__ import annotations

import os


def _table() -> list[tuple[int, int, int]]:
    """(pid, parent pid, session) of every process, as far as /proc can be read."""
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="utf-8") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()  # (state, ppid, pgrp, session, ...)
                found.append((int(name), int(fields[1]), int(fields[3])))
            except (OSError, IndexError, ValueError):
                continue
    return found


def in_session(sid: int) -> list[int]:
    """The processes of session `sid` but its leader."""
    return [pid for pid, _, session in _table() if session == sid and pid != sid]


def descendants(pid: int) -> list[int]:
    """Every living process below `pid` (children, theirs, ...): found while `pid` runs, before an orphan's parent
    becomes init."""
    children: dict[int, list[int]] = {}
    for child, parent, _ in _table():
        children.setdefault(parent, []).append(child)
    out, todo = [], list(children.get(pid, ()))
    while todo:
        child = todo.pop()
        out.append(child)
        todo.extend(children.get(child, ()))
    return out
