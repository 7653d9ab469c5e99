"""One interface for whoever plays a seat: a built-in COM, an external engine or a human (Mjx's `act`)."""

from __future__ import annotations

from game.observation import Observation


class BotFault(Exception):
    """A player's answer could not be used: late, garbage or a crash (`crashed`: the seat is lost for good); or
    (`dropped`) output that answered no request, dropped, the player's answer to the request still standing."""

    def __init__(self, reason: str, crashed: bool = False, dropped: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.crashed = crashed
        self.dropped = dropped


class Player:
    """`act` picks one of `possible_actions` (exact event objects; {"type": "none"} where passing is legal)."""

    name = "player"
    label = ""  # the policy class, when its decisions are not exact answers (docs/game.md)

    def start(self, seat: int, seed: int) -> None:
        """Called once before the first event; `seed` seeds the player's own choices (never the deal's RNG)."""
        self.seat = seat

    def notify(self, event: dict) -> None:
        """Every event as this seat sees it (game/observation.py)."""

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        raise NotImplementedError

    def take_notes(self) -> list[BotFault]:
        """Faults noted during the last act that left its answer standing (BotFault.dropped), logged by the engine."""
        return []

    def close(self) -> None:
        """The game is over (external engines: the process is stopped)."""


def win_in(actions: list[dict]) -> dict | None:
    return next((a for a in actions if a["type"] == "hora"), None)


class Com(Player):
    """A built-in COM: a win is always taken, a discard is `discard_kind`, every other decision `respond`."""

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        won = win_in(possible_actions)
        if won is not None:
            return won
        if possible_actions[0]["type"] == "dahai":
            tile = self.discard_kind(observation)
            return {"type": "dahai", "actor": observation.seat, "pai": observation.table.names[tile]}
        return self.respond(observation, possible_actions)

    def discard_kind(self, observation: Observation) -> int:
        raise NotImplementedError

    def respond(self, observation: Observation, possible_actions: list[dict]) -> dict:
        """そら or not, a call or a pass."""
        raise NotImplementedError
