"""The planner COMs: `mj plan`'s recommendation (P(win) over the draws this seat has left; solo model, opponents
not modelled) for discards and そら. Calls follow greedy (a call when it lowers h).

`planner`, reproducible: with OPTIMUM_TURNS draws or fewer left it asks what `mj plan` answers by default, the
optimum over all play (every そら use included; past its states, the bracket, as `mj plan` answers); with more, what
`mj plan --nearest --estimate ESTIMATE_GAMES` answers: the class nearest within a time budget per decision, past it
the estimate's policy played in ESTIMATE_GAMES seeded walls per discard. Every request is capped by states and
games, not by the clock (the same position, the same answer, so logs are reproducible), with the clock as a safety
net at three budgets. Past it the greedy COM decides and the logged event carries the label "greedy fallback"
(docs/game.md).

`planner-clock`: `mj plan`'s default answer at every decision, on the whole plan's clock (ClockedPlannerPlayer).
"""

from __future__ import annotations

import time

from game.observation import Observation, plan_position
from game.players.base import win_in
from game.players.simple import GreedyPlayer
from solver.core.errors import MjError

BUDGET = 0.5  # seconds a decision (the target: median <= 0.5 s a decision)
STATES_PER_SECOND = 2000  # nearest's search visits 2,000-6,000 states a second here at 20-28 draws (bench_game.py)
ESTIMATE_GAMES = 300  # walls per discard past nearest's states (common to every discard: their order is sharper)
SAFETY = 3  # the clock stops a plan only at this many budgets: the state cap decides, so logs are reproducible
OPTIMUM_TURNS = 3  # draws left at which the default answer, the optimum, is asked (about 0.2 s median at 3)
OPTIMUM_STATES = 500_000  # its state cap (mj plan's default)


class _OverBudget(Exception):
    pass


class PlannerPlayer(GreedyPlayer):
    name = "planner"
    safety: float | None = SAFETY

    def __init__(self, budget: float = BUDGET):
        self.budget = budget
        self.states = max(1, int(budget * STATES_PER_SECOND))  # deterministic: the same position, the same answer
        self.last_label = None

    def plan(self, obs: Observation):
        """The plan of the position, or None past the budget."""
        from solver.planning.plan import plan
        from solver.planning.targets import TooLarge

        deadline = None if self.safety is None else time.monotonic() + self.safety * self.budget

        def tick(*_):
            if deadline is not None and time.monotonic() > deadline:
                raise _OverBudget
        request = self.request(obs)
        try:
            return plan(obs.rules, request, progress=tick)
        except (_OverBudget, TooLarge):
            self.why = f"the plan passed its budget ({self.spent()})"
        except MjError as exc:  # a position the plan does not take (named in the label, never hidden)
            self.why = f"the plan refused the position: {exc}"
        return None

    def spent(self) -> str:
        return f"{self.states} states, {self.budget:g} s"

    def request(self, obs: Observation):
        """The plan request of a position: stopped by its state cap and games alone (no clock), so the same position
        gets the same answer; the default (the optimum) near the end, the class nearest (past its states, its
        estimate) before."""
        from solver.planning.request import Limits, PlanRequest

        position, turns = plan_position(obs.hand, obs.seen, obs.room_tiles, obs.favourite), max(0, obs.turns_left)
        if turns <= OPTIMUM_TURNS:
            return PlanRequest(position, turns, both=False, limits=Limits(OPTIMUM_STATES, None))
        return PlanRequest(position, turns, play="nearest", both=False,
                           limits=Limits(self.states, None, ESTIMATE_GAMES))

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        obs = observation
        self.last_label = None
        won = win_in(possible_actions)
        kind = possible_actions[0]["type"]
        if won is not None or kind not in ("dahai", "sora") or obs.turns_left == 0:
            return super().act(obs, possible_actions)
        made = self.plan(obs)
        if made is None:
            self.last_label = f"greedy fallback: {self.why}"
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


class ClockedPlannerPlayer(PlannerPlayer):
    """`planner-clock`: at every decision what `mj plan --seconds BUDGET` answers by default (both=False): the optimum
    where it finishes, else the bracket's recommendation (the best lower bound: the class nearest raised by the
    estimate's policy and the lookahead, or the estimate), within the whole plan's clock (solver/planning/clock.py).
    The same answer as the command, at a price `planner` does not pay: what finishes within the clock depends on the
    machine's load, so the same seed may give another log."""

    name = "planner-clock"
    safety = None  # (the plan's own clock answers: no net past it)

    def spent(self) -> str:
        return f"its {self.budget:g} s clock"

    def request(self, obs: Observation):
        from solver.planning.request import Limits, PlanRequest

        position = plan_position(obs.hand, obs.seen, obs.room_tiles, obs.favourite)
        return PlanRequest(position, max(0, obs.turns_left), both=False, limits=Limits(OPTIMUM_STATES, self.budget))
