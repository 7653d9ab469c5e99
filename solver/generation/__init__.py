"""Generated positions with proven answers: puzzles for players, test suites for engines (docs/generation.md)."""

from solver.generation.generate import KINDS, generate

__all__ = ["KINDS", "generate"]
