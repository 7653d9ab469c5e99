"""The `planner` COM: `mj plan`'s recommendation (exact P(win) over the draws this seat has left, within the
class the plan names; solo model, opponents not modelled) for discards and そら, within a time budget per
decision. Past the budget (or the plan's state limit) the greedy COM decides and the logged event carries
the label "greedy fallback" (docs/game.md). Calls follow greedy (a call when it lowers h).
"""

from __future__ import annotations

import time

from game.players.base import win_in
from game.players.simple import GreedyPlayer
from game.view import Observation
from solver.core.errors import MjError

BUDGET = 0.5  # seconds a decision (the target: median <= 0.5 s a decision)
MAX_STATES = 200_000


class _OverBudget(Exception):
    pass


class PlannerPlayer(GreedyPlayer):
    name = "planner"

    def __init__(self, budget: float = BUDGET):
        self.budget = budget
        self.last_label = None

    def plan(self, obs: Observation):
        """The plan of the position, or None past the budget."""
        from solver.planning.plan import plan

        deadline = time.monotonic() + self.budget

        def tick(*_):
            if time.monotonic() > deadline:
                raise _OverBudget
        turns = max(0, obs.turns_left)
        try:
            return plan(obs.rules, obs.hand, turns=turns, objective="win", seen=obs.seen,
                        waiting_room=tuple(obs.room_tiles), favourite=obs.favourite, both=False,
                        state_limit=MAX_STATES, progress=tick)
        except (_OverBudget, MjError):
            return None

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        obs = observation
        self.last_label = None
        won = win_in(possible_actions)
        kind = possible_actions[0]["type"]
        if won is not None or kind not in ("dahai", "sora") or obs.turns_left == 0:
            return super().act(obs, possible_actions)
        made = self.plan(obs)
        if made is None:
            self.last_label = f"greedy fallback: the plan passed its {self.budget:g} s budget"
            return super().act(obs, possible_actions)
        best = made.recommended
        if kind == "dahai":
            return {"type": "dahai", "actor": obs.seat, "pai": obs.table.names[best.tile]}
        move = best.sora
        if move is not None and move.use_now and move.take is not None:
            name = obs.table.names[move.take]
            chosen = next((a for a in possible_actions if a.get("pai") == name), None)
            if chosen is not None:
                return chosen
        return {"type": "none"}
