"""The planner's JSON shape (mj plan --json, mj analyze --turns N --json), beside solver/serialize.py.

Values are the exact Fractions of the API written as floats (within one unit in the last place). `method`:
"optimal" (win_probability = upper = the optimum), "bounds" (win_probability: a real policy's exact value,
upper: proved at least the optimum; `separated`: the best discard is proved), "estimate" (sample means with their
95 % intervals, and the upper bound), "class" (exact within the named class asked for), all of the objective's
column; `methods` gives each column's own ({"win_probability": ..., "expected_score": ...}, null where not
computed), read from its numbers. `expected_score_upper`: proved at least the optimal E[score] (= expected_score
where that is over all play; null where none is computed).
`upper_estimate` (with `upper_estimate_interval`, 95 %), only where `upper` is 1: the sampled value of the relaxation
whose count would be the proved bound, so an estimate of a number at least the optimum, not a proof;
`expected_score_upper_estimate` (and its interval) the same for E[score] where its upper bound came from that 1.
`clocked`: a step stopped at its time budget, so another run (or machine) may answer otherwise; false: the same
request answers the same.
"""

from __future__ import annotations

from typing import Any

from solver.core.rules import RuleSet
from solver.planning.answer import MODEL, DiscardPlan, Plan


def number(value) -> float | None:
    return None if value is None else float(value)


def tile_id(kind: int | None, rules: RuleSet) -> str | None:
    return None if kind is None else rules.tiles.ids[kind]


def discard_dict(row: DiscardPlan, rules: RuleSet) -> dict[str, Any]:
    out = {"tile": tile_id(row.tile, rules), "win_probability": number(row.win_probability),
           "upper": number(row.upper), "expected_score": number(row.expected_score),
           "expected_score_upper": number(row.score_upper)}
    if row.win_interval is not None:  # a sampled value: its 95 % interval beside the sample mean
        out["win_probability_interval"] = list(row.win_interval)
    if row.score_interval is not None:
        out["expected_score_interval"] = list(row.score_interval)
    if row.upper_estimate is not None:  # the relaxation sampled where its proved value is 1: an estimate of a bound
        out["upper_estimate"] = number(row.upper_estimate)
        out["upper_estimate_interval"] = list(row.upper_interval)
    if row.score_upper_estimate is not None:
        out["expected_score_upper_estimate"] = number(row.score_upper_estimate)
        out["expected_score_upper_estimate_interval"] = list(row.score_upper_interval)
    return out


def plan_dict(plan: Plan, rules: RuleSet) -> dict[str, Any]:
    best = plan.recommended
    sora = None if best.sora is None else {"use_now": best.sora.use_now, "take": tile_id(best.sora.take, rules)}
    return {"turns": plan.turns, "model": MODEL, "method": plan.method, "methods": plan.methods,
            "games": plan.games,
            "separated": plan.separated, "stopped": plan.stopped, "clocked": plan.clocked,
            "policy_class": plan.policy_class,
            "discards": [discard_dict(row, rules) for row in plan.discards],
            "recommended": {**discard_dict(best, rules), "objective": plan.objective, "win_now": plan.complete,
                            "tsumo_now": plan.tsumo_now,
                            "sora": sora}}
