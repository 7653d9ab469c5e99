"""The one place that owns CpSolver. Only OPTIMAL (or a proven INFEASIBLE) is an answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.core.errors import NOT_EXACT, MjError

# Presolve off: on these models CP-SAT's presolve costs 10-1000x the search itself (bench/).
# One worker: thousands of tiny models, deterministic answers (parallelism belongs a level up).
# No SIGINT handler of CP-SAT's own: it would replace Python's during a solve and a Ctrl-C would then kill
# the process without clean-up (a batch must stop cleanly and say what it wrote).
PARAMETERS = {"num_workers": 1, "cp_model_presolve": False, "max_time_in_seconds": 120.0,
              "catch_sigint_signal": False}


@dataclass
class Outcome:
    """A finished solve: `feasible` is False only when infeasibility was proven."""

    feasible: bool
    solver: Any = None
    objective: int | None = None

    def value(self, expr: Any) -> int:
        return int(self.solver.value(expr))


def _cp():
    from ortools.sat.python import cp_model  # lazy: the import costs ~0.2 s

    return cp_model


def new_model():
    return _cp().CpModel()


def solve(model: Any, **overrides: Any) -> Outcome:
    """Solve to proven optimality (or proven infeasibility); anything else raises NOT_EXACT."""
    cp_model = _cp()
    solver = cp_model.CpSolver()
    for key, value in {**PARAMETERS, **overrides}.items():
        setattr(solver.parameters, key, value)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return Outcome(False)
    if status != cp_model.OPTIMAL:
        raise MjError(f"the solver stopped with status {solver.status_name(status)}; no exact answer",
                      NOT_EXACT)
    objective = int(round(solver.objective_value)) if model.has_objective() else None
    return Outcome(True, solver, objective)
