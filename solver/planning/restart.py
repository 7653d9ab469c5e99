"""The class nearest of a complete 13-tile hand, restarted after each discard (docs/formulation.md section 8, "The
class nearest"). The lowest h of a complete hand is 0, so the class would keep the hand itself alone in play and
value each discard only by drawing that tile back (a ready hand keeps its wait): 4 % where playing on from the 12
tiles wins 75 %. Each discard is valued instead by the class restarted from the 12 tiles it leaves, at their own
lowest h: still a real way of playing (discard d, then nearest of H - d), so still a lower bound of the optimum.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning.answer import Plan, ranked
from solver.planning.request import PlanRequest, Position

LABEL = "; the hand is complete, so each discard is valued by the class restarted from the 12 tiles it leaves"


def after_discard(rules: RuleSet, position: Position, tile: int) -> Position:
    """The 12-tile position a discard leaves: the tile joins the waiting room where a fetch-mode そら may take it
    back, else it is seen (out of the wall either way)."""
    hand = position.hand.remove(tile)
    if rules.sora_mode == "fetch" and rules.tiles.sora is not None:
        return replace(position, hand=hand, waiting_room=tuple(position.waiting_room) + (tile,))
    return replace(position.seeing([tile]), hand=hand)


def restarted(rules: RuleSet, request: PlanRequest, plan: Plan, run: Callable[[PlanRequest], Plan]) -> Plan:
    """`plan` (the class's own plan of the complete hand) with each discard's values from `run` (a plan of the class)
    on the 12 tiles the discard leaves; the rows ranked again, the states and the labels added up."""
    rows, states, said = [], plan.states, {key: set() for key in plan.policy_class}
    for row in plan.discards:
        alone = run(replace(request, position=after_discard(rules, request.position, row.tile)))
        states += alone.states
        rows.append(replace(alone.discards[0], tile=row.tile, h=row.h, live=row.live))
        for key, text in alone.policy_class.items():
            said[key].add(text)
    # (the 12 tiles' own class where every discard's is the same, e.g. every win listed with one draw left)
    labels = {key: (next(iter(said[key])) if len(said[key]) == 1 else text) + LABEL
              for key, text in plan.policy_class.items()}
    return replace(plan, discards=tuple(ranked(rows, request.objective)), states=states, policy_class=labels)
