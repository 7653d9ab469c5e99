"""`mj plan`: P(win) and E[score] per discard over the draws left (solver.planning)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from console.common import (MAX_STATES, SECONDS, AsOfOpt, CatalogueOpt, DetourOpt, EstimateOpt, HandArg, JsonOpt,
                            MaxStatesOpt, NearestOpt, PlanRulesOpt, SecondsOpt, SeedOpt, SeenOpt, emit_json, errors,
                            evaluator, plan_request, show)
from solver.core.rules import DEFAULT_RULES


class Objective(str, Enum):
    win = "win"
    score = "score"


def plan(hand: HandArg,
         turns: Annotated[int, typer.Option("--turns", "-n", help="Draws left in the game.")],
         objective: Annotated[Objective, typer.Option("--objective", help="Sort and recommend by P(win) or E[score].")] = Objective.win,
         seen: SeenOpt = "",
         waiting_room: Annotated[str, typer.Option("--waiting-room", help="Tiles in the waiting room (fetch-mode そら takes one).")] = "",
         favorite: Annotated[Optional[str], typer.Option("--favorite", "--favourite", help="The player's favourite (担当).")] = None,
         detour: DetourOpt = None, nearest: NearestOpt = False, estimate: EstimateOpt = None,
         max_states: MaxStatesOpt = MAX_STATES, seconds: SecondsOpt = SECONDS, seed: SeedOpt = 0, rules: PlanRulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
         as_of: AsOfOpt = None) -> None:
    """Optimal P(win) and E[score] per discard over the draws left (bounds past the budget), the play and そら use.

    Example: mj plan "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花" --turns 3
    """
    from console.progress import progress_bar

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        with progress_bar(json_) as progress:
            request = plan_request(ev, hand, turns, objective=objective.value, seen=seen, waiting_room=waiting_room,
                                   favourite=favorite, detour=detour, nearest=nearest, estimate=estimate,
                                   max_states=max_states, seconds=seconds, seed=seed)
            result = ev.plan_request(request, progress)
        if json_:
            from solver.serialize_plan import plan_dict

            return emit_json(plan_dict(result, ev.rules))
        from console.render import plan_view

        for part in plan_view(result, ev.rules):
            show(part)
