"""Answer a generated suite as an engine that takes known shortcuts would (not a benchmark).

Reads positions from `mj generate` (a file or '-'), writes the same lines with the claims replaced
by the model engine's answers; `mj check` then scores the model. The default shortcuts are
Hitori-Jong 2.1.0's two known ones (no 3-copy limit; only units missing at most two members),
which reproduce all 540 of its recorded answers. What it does on the other trap labels is not
known: there the model answers exactly. See README, "Running a generated suite against an engine".

    mj generate traps --count 60 --seed 1 --rules hitori-jong-2.1 -o traps.jsonl
    python bench/engine_model.py traps.jsonl > model.jsonl
    mj check model.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.api import Evaluator  # noqa: E402
from solver.serialize import dumps  # noqa: E402
from solver.generation.shortcuts import HITORI_JONG, SHORTCUTS, shortcut_answer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="positions from mj generate ('-' for stdin)")
    parser.add_argument("--shortcuts", default=",".join(HITORI_JONG),
                        help=f"comma-separated, among {', '.join(SHORTCUTS)} (default: Hitori-Jong 2.1.0's)")
    args = parser.parse_args()
    shortcuts = tuple(s for s in args.shortcuts.split(",") if s)
    evaluators: dict[str, Evaluator] = {}
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    for line in source:
        if line.strip():
            pos = json.loads(line)
            ev = evaluators.setdefault(pos["rules"], Evaluator(pos["rules"]))
            print(dumps(shortcut_answer(ev, pos, shortcuts)), flush=True)


if __name__ == "__main__":
    main()
