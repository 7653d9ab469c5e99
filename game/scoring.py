"""Every seat's score at the end of a game, from the rule set alone: the engine logs these scores, and a replay
(game/log.py) recomputes them to check a log's `hora` and `end_game` (an edited score is refused)."""

from __future__ import annotations

from game.state import GameState, winning_hand
from solver.core.hand import Hand, Situation
from solver.core.results import ScoreResult
from solver.core.rules import RuleSet
from solver.core.score import best_score


def final_hand(state: GameState, seat: int) -> tuple[Hand, str, int | None]:
    """(hand, how, winning tile or None) the seat is scored with at the end: its win (tsumo or ron, the tile
    in the hand) or its 12 tiles as a hand that did not win (how = "none")."""
    for win in state.wins:
        if win.seat == seat:
            return winning_hand(state, win), "tsumo" if win.tsumo else "ron", None if win.tsumo else win.tile
    return state.seats[seat].hand(), "none", None


def seat_result(rules: RuleSet, state: GameState, seat: int) -> ScoreResult | None:
    """The seat's ScoreResult at the end (Evaluator.score's answer), or None where the rule set defines no
    score for a hand that did not win (e.g. 2019-10)."""
    hand, how, tile = final_hand(state, seat)
    if how == "none" and not rules.scores_no_win:
        return None
    return best_score(hand, rules, Situation(how, tile, state.favourites[seat]))
