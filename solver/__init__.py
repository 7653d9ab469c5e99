"""Exact Milli-Jong evaluation: completion, best score, exchange distance h, turn analysis."""

from solver.api import Evaluator
from solver.errors import MjError
from solver.hand import Hand, Situation
from solver.results import DistanceResult, Exchange, ScoredUnit, ScoreResult

__all__ = ["DistanceResult", "Evaluator", "Exchange", "Hand", "MjError", "ScoreResult", "ScoredUnit", "Situation"]
