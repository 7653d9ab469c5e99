"""Exact Milli-Jong evaluation: completion, best score, exchange distance h, turn analysis."""

from solver.api import Evaluator
from solver.core.errors import MjError
from solver.core.hand import Hand, Situation
from solver.core.results import DistanceResult, Exchange, ScoredUnit, ScoreResult

__all__ = ["DistanceResult", "Evaluator", "Exchange", "Hand", "MjError", "ScoreResult", "ScoredUnit", "Situation"]
