"""Generated positions with proven answers: puzzles for players, test suites for engines (docs/generation.md)."""

from solver.generation.generate import KINDS, generate
from solver.generation.shapes import dumps

__all__ = ["KINDS", "dumps", "generate"]
