"""One interface for whoever plays a seat: a built-in COM, an external engine or a human (Mjx's `act`)."""

from __future__ import annotations

from game.view import Observation


class BotFault(Exception):
    """A player's answer could not be used: late, garbage or a crash (`crashed`: the seat is lost for good)."""

    def __init__(self, reason: str, crashed: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.crashed = crashed


class Player:
    """`act` picks one of `possible_actions` (exact event objects; {"type": "none"} where passing is legal)."""

    name = "player"
    label = ""  # the policy class, when its decisions are not exact answers (docs/game.md)

    def start(self, seat: int, seed: int) -> None:
        """Called once before the first event; `seed` seeds the player's own choices (never the deal's RNG)."""
        self.seat = seat

    def notify(self, event: dict) -> None:
        """Every event as this seat sees it (game/view.py)."""

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        raise NotImplementedError

    def close(self) -> None:
        """The game is over (external engines: the process is stopped)."""


def win_in(actions: list[dict]) -> dict | None:
    return next((a for a in actions if a["type"] == "hora"), None)
