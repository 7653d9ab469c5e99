"""Exact Milli-Jong evaluation: completion, best score, exchange distance h, turn analysis."""

import os

# numpy's OpenBLAS starts a thread at import, and a process with two threads never forks (batch/forked.py: the
# planner's second search and E[score]'s first draws on a second core, side.py). Its matrices here are small.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

from solver.api import Evaluator  # noqa: E402 (after the thread setting)
from solver.core.errors import MjError  # noqa: E402 (after the thread setting)
from solver.core.hand import Hand, Situation  # noqa: E402 (after the thread setting)
from solver.core.results import DistanceResult, Exchange, ScoredUnit, ScoreResult  # noqa: E402 (after the thread setting)

__all__ = ["DistanceResult", "Evaluator", "Exchange", "Hand", "MjError", "ScoreResult", "ScoredUnit", "Situation"]
