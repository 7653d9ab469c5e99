"""Players by name: the built-in COMs, `cmd:COMMAND` (an external engine) and `human`."""

from __future__ import annotations

import re

from game.players.base import BotFault, Player
from solver.core.errors import MjError, shown

COMS = ("random", "greedy", "seed000", "planner", "planner-clock")
NO_COMMAND = 'cmd: needs a command after the colon, e.g. -p "cmd:node bot.js"'  # (play and tournament alike)
DEFAULT_PLAYERS = ("greedy", "seed000", "random", "planner")  # four different COMs
DEFAULT_BOT_TIMEOUT = 5.0
_ALIAS = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]{0,31})=(.+)", re.ASCII)


def split_alias(spec: str) -> tuple[str | None, str]:
    """("mybot", "cmd:python3 bot.py") for "mybot=cmd:python3 bot.py", a short name for tables and logs (QA: a cmd:
    spec made each row of a tournament's table three lines); (None, spec) where there is none. Only before a COM or
    cmd:, so a command's own "=" is never taken for one."""
    found = _ALIAS.fullmatch(spec)
    if found and (found[2] in COMS or found[2] == "human" or found[2].startswith("cmd:")):
        return found[1], found[2]
    return None, spec


def make_player(spec: str, bot_timeout: float = DEFAULT_BOT_TIMEOUT, planner_budget: float | None = None,
                human=None) -> Player:
    """A player from its name: a COM, "cmd:COMMAND" or "human" (`human`: the terminal's player class, which
    the console supplies: the game does not render); "NAME=SPEC" names it NAME (split_alias)."""
    alias, spec = split_alias(spec)
    if alias is not None:
        player = make_player(spec, bot_timeout, planner_budget, human)
        player.name = alias
        return player
    if spec == "random":
        from game.players.simple import RandomPlayer

        return RandomPlayer()
    if spec == "greedy":
        from game.players.simple import GreedyPlayer

        return GreedyPlayer()
    if spec == "seed000":
        from game.players.seed000 import Seed000Player

        return Seed000Player()
    if spec == "planner":
        from game.players.planner import PlannerPlayer

        return PlannerPlayer() if planner_budget is None else PlannerPlayer(planner_budget)
    if spec == "planner-clock":
        from game.players.planner import ClockedPlannerPlayer

        return ClockedPlannerPlayer() if planner_budget is None else ClockedPlannerPlayer(planner_budget)
    if spec.startswith("cmd:") and spec[4:].strip():
        from game.players.external import ExternalPlayer

        return ExternalPlayer(spec[4:], bot_timeout)
    if spec == "human" and human is not None:
        return human()
    if spec.startswith("cmd:"):  # (QA: "unknown player cmd::")
        raise MjError(NO_COMMAND)
    if spec == "human":  # (QA: "unknown player human: one of ..., or human")
        raise MjError("a human player needs its class: make_player('human', human=...), a Player that asks "
                      "someone (the terminal's is console/game_view.py's)")
    raise MjError(f"unknown player {shown(spec)}: one of {', '.join(COMS)}, cmd:COMMAND or human")


FALLBACK = "greedy"  # the name of fallback_player's COM


def fallback_player() -> Player:
    """The COM that decides when an external engine cannot (docs/game.md): FALLBACK."""
    from game.players.simple import GreedyPlayer

    return GreedyPlayer()


__all__ = ["BotFault", "COMS", "DEFAULT_PLAYERS", "FALLBACK", "NO_COMMAND", "Player", "fallback_player", "make_player",
           "split_alias"]
