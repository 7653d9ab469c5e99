"""CP-SAT model builders. They build models and read values; they never solve (see cpsat.py).

Notation follows docs/formulation.md: x[u] copies of unit u, k[i] kept tiles of kind i,
s[i] そら tiles standing in for kind i (wildcard mode), y[u] the ron tile sits in a copy of u.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from solver.core.cpsat import new_model
from solver.core.hand import COPIES, Hand
from solver.core.rules import RuleSet


def _set_upper(proto_domain: Any, upper: int) -> None:
    proto_domain[1] = upper


class DistanceModel:
    """The min-exchange model of one rule set, built once and re-targeted per hand.

    Maximise sum k[i] subject to
      k[i] <= c[i]                      (keep only tiles held; set per hand)
      k[i] <= r[i]                      r[i] = sum_u m[u,i] x[u] - s[i], real tiles of kind i in T
      r[i] <= cap[i]                    (3 copies minus called and seen; set per hand)
      sum_u |u| x[u] = N                (T's concealed part fills the slots left by calls; set per hand)
    and in wildcard mode k[sora] <= min(c[sora], sum s[i]), sum s[i] <= cap[sora].
    Per hand only variable bounds and right-hand sides change, so nothing is rebuilt.
    """

    _BUILT_ON_USE = frozenset({"model", "x", "k", "s", "cap_ct", "real", "size_ct"})

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.wildcard = rules.sora_mode == "wildcard" and rules.tiles.sora is not None
        self.copies = COPIES

    def __getstate__(self) -> dict:
        """Without the CP-SAT model (built again on use): an Evaluator pickles whatever it has answered (QA: not once
        an analysis had built the model)."""
        return {k: v for k, v in self.__dict__.items() if k not in DistanceModel._BUILT_ON_USE}

    def __getattr__(self, name: str) -> Any:
        # the model is built on first use: the searches answer most hands, and OR-Tools loads only here
        if name not in DistanceModel._BUILT_ON_USE or "model" in self.__dict__:
            raise AttributeError(name)
        self._build()
        return self.__dict__[name]

    def _build(self) -> None:
        rules = self.rules
        self.model = model = new_model()
        kinds = len(rules.tiles)
        sora = rules.tiles.sora
        # x[u] = copies of unit u in the target's concealed part (with そら standing in: up to 3 more)
        self.x = [model.new_int_var(0, self._unit_copies(), f"x_{u.id}") for u in rules.units]
        self.k: dict[int, Any] = {}  # k[i] = tiles of kind i kept from the hand
        self.s: dict[int, Any] = {}  # s[i] = そら tiles standing in for kind i (wildcard)
        self.cap_ct: dict[int, int] = {}  # constraint index of r[i] <= cap[i]
        self.real: dict[int, Any] = {}  # r[i] as an expression: real tiles of kind i in the target
        for kind in range(kinds):
            users = rules.units_of_kind[kind]
            if not users:
                continue
            used = sum(self.x[u] for u in users)
            self.k[kind] = model.new_int_var(0, COPIES, f"k_{kind}")
            if self.wildcard:
                self.s[kind] = model.new_int_var(0, COPIES, f"s_{kind}")  # sum s <= cap_sora <= 3
                used = used - self.s[kind]
            self.real[kind] = used
            model.add(used - self.k[kind] >= 0)
            self.cap_ct[kind] = model.add_linear_constraint(used, 0, COPIES).index
        if self.wildcard:
            soras = sum(self.s.values())
            self.k[sora] = model.new_int_var(0, COPIES, f"k_{sora}")
            self.real[sora] = soras
            model.add(soras - self.k[sora] >= 0)
            self.cap_ct[sora] = model.add_linear_constraint(soras, 0, COPIES).index
        self.size_ct = model.add_linear_constraint(sum(u.size * self.x[u.index] for u in rules.units), 0, 0).index
        model.maximize(sum(self.k.values()))

    def configure(self, hand: Hand, seen: tuple[int, ...] = (), copies: int = COPIES) -> int:
        """Re-target the template at `hand`; returns N, the concealed slots of a complete hand.

        `copies` other than 3 is for explaining other engines' answers (e.g. ones that ignore the limit).
        """
        proto = self.model.proto
        if copies != self.copies:  # rare: only to explain engines that ignore the limit
            self.copies = copies
            for var in self.x:
                _set_upper(proto.variables[var.index].domain, self._unit_copies())
        called = hand.called_counts(self.rules)
        for kind, var in self.k.items():
            _set_upper(proto.variables[var.index].domain, hand.concealed[kind])
        for kind, index in self.cap_ct.items():
            visible = seen[kind] if seen else 0
            _set_upper(proto.constraints[index].linear.domain, max(0, copies - called[kind] - visible))
        slots = self.rules.concealed_slots(hand.called)
        domain = proto.constraints[self.size_ct].linear.domain
        domain[0] = domain[1] = slots
        return slots

    def _unit_copies(self) -> int:
        """Most copies of one unit in a target: one per copy of a kind, and with そら standing in, as many again."""
        return 2 * self.copies if self.wildcard else self.copies

    @cached_property
    def units_by_size(self) -> dict[int, list[int]]:
        table: dict[int, list[int]] = {}
        for unit in self.rules.units:
            table.setdefault(unit.size, []).append(unit.index)
        return table

    def into(self, kind: int) -> Any:
        """e[i] = r[i] - k[i]: tiles of kind i drawn in (exact at an optimum, where k[i] = min(c[i], r[i]))."""
        return self.real[kind] - self.k[kind]

    def target(self, value: Any) -> tuple[int, ...]:
        return tuple(u for u, var in enumerate(self.x) for _ in range(value(var)))

    def sora_for(self, value: Any) -> tuple[int, ...]:
        return tuple(kind for kind, var in self.s.items() for _ in range(value(var)))


@dataclass
class ScoreModel:
    """Max-score model of one connected component of a hand (see score.py)."""

    model: Any
    units: list[int]  # candidate unit indices
    x: list[Any]  # x[j] = copies of units[j]
    y: dict[int, Any]  # y[j] = 1 if the ron tile sits in a copy of units[j]
    s: dict[int, Any]  # s[i] = そら standing in for kind i (wildcard)
    bonus: Any | None  # b = 1 if a unit of this component holds the favourite


def build_score_model(rules: RuleSet, units: list[int], counts: Counter, *, won: bool, soras: int,
                      ron_tile: int | None, favourite: int | None, bonus_open: bool,
                      copies: int = COPIES) -> ScoreModel:
    """Exact cover (won) or packing (not won) of `counts` by copies of `units`, maximising points.

    won:     sum_j m[j,i] x[j] = c[i] + s[i]  for every kind i of the component
    not won: sum_j m[j,i] x[j] <= c[i] + s[i]
    sum_i s[i] = soras (won) or <= soras (not won); s is absent unless wildcard.
    Objective: sum_j p0[j] x[j] - sum_j (p0[j] - p1[j]) y[j] + bonus * b, where p1 is the unit's
    points when it holds the ron tile, sum_j y[j] = 1 over units holding the ron tile, y[j] <= x[j],
    and b <= sum of x[j] over units holding the favourite.
    """
    model = new_model()
    defs = [rules.units[u] for u in units]
    x = [model.new_int_var(0, copies + soras, f"x_{d.id}") for d in defs]  # そら may stand in a 4th copy
    kinds = sorted(set(counts) | {k for d in defs for k in d.members})
    s: dict[int, Any] = {}
    if soras:
        s = {k: model.new_int_var(0, soras, f"s_{k}") for k in kinds}
        total = sum(s.values())
        model.add(total == soras) if won else model.add(total <= soras)
    for kind in kinds:
        used = sum(x[j] for j, d in enumerate(defs) if kind in d.members)
        have = counts.get(kind, 0) + (s[kind] if kind in s else 0)
        model.add(used == have) if won else model.add(used <= have)

    def p(d, **flags):
        return rules.points(d.size, won=won, has_favourite=favourite in d.members, **flags)

    objective = sum(p(d) * x[j] for j, d in enumerate(defs))
    y: dict[int, Any] = {}
    if ron_tile is not None and rules.spec.ron_minus_member:
        for j, d in enumerate(defs):
            if ron_tile in d.members:
                y[j] = model.new_bool_var(f"y_{d.id}")
                model.add(y[j] <= x[j])
        model.add(sum(y.values()) == 1)
        objective -= sum((p(defs[j]) - p(defs[j], holds_ron=True)) * var for j, var in y.items())
    bonus = None
    if bonus_open and favourite is not None and rules.favourite_bonus:
        holders = [x[j] for j, d in enumerate(defs) if favourite in d.members]
        if holders:
            bonus = model.new_bool_var("b")
            model.add(bonus <= sum(holders))
            objective += rules.favourite_bonus * bonus
    model.maximize(objective)
    return ScoreModel(model, units, x, y, s, bonus)
