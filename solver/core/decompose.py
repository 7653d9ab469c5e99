"""Best decomposition of one component of a hand by exhaustive search in plain Python (no solver).

It answers exactly what the CP-SAT score model (model.build_score_model) answers, so `mj score` and
`mj analyze` of ordinary hands need no OR-Tools (start-up time); score.py keeps the model as the
reference, and tests compare the two.

A decomposition is a multiset M of the component's candidate units. Won: every real tile is in
exactly one unit copy and the そら (wildcard) fill the other member slots, all of them. Not won: M
packs into the tiles, そら standing in for at most `soras` member slots, the rest left over.
Whether M fits depends on M alone (sum_i max(0, m_i - c_i) stand-ins), so a unit may take the real
tiles first. Search: at the first kind still held, either place one more unit holding it (members
held are taken, the others stood in for) or, not won, leave that kind's remaining tiles over; when
no real tile is left, whole units of stand-ins take the そら left (all of them when won). Every M is
reached, and its value (points, the ron tile in whichever unit loses least, the favourite bonus)
depends on M and the choice of the ron unit alone, so the maximum over paths is the optimum.
States are memoised on (tiles left, そら left).
"""

from __future__ import annotations

from collections import Counter

from solver.core.rules import RuleSet

Step = tuple[int, bool, tuple[int, ...]]  # (unit, holds the ron tile, kinds stood in for by そら)
Options = dict[tuple[bool, bool], tuple[int, tuple[Step, ...]]]  # (favourite held, ron placed) -> best


class Decomposer:
    """The search over one component; `best()` returns the model's optimum or None (no split)."""

    def __init__(self, rules: RuleSet, units: list[int], counts: Counter, *, won: bool, soras: int,
                 ron_tile: int | None, favourite: int | None):
        self.rules, self.won, self.soras = rules, won, soras
        self.units = units
        self.members = {u: rules.units[u].members for u in units}
        self.kinds = sorted(set(counts) | {k for u in units for k in self.members[u]})
        self.index = {k: i for i, k in enumerate(self.kinds)}
        self.start = tuple(counts.get(k, 0) for k in self.kinds)
        self.holding = {k: [u for u in units if k in self.members[u]] for k in self.kinds}
        ron = ron_tile if rules.spec.ron_minus_member else None  # no deduction: no ron unit to choose

        def points(u: int, holds_ron: bool = False) -> int:
            return rules.points(len(self.members[u]), won=won, holds_ron=holds_ron,
                                has_favourite=favourite in self.members[u])

        self.p0 = {u: points(u) for u in units}
        self.p1 = {u: points(u, True) for u in units}
        self.fav = {u: favourite is not None and favourite in self.members[u] for u in units}
        self.ron = {u: ron is not None and ron in self.members[u] for u in units}
        self.needs_ron = ron is not None and counts.get(ron, 0) > 0
        self.memo: dict[tuple[tuple[int, ...], int], Options] = {}
        self.fill: dict[tuple[int, int], Options] = {}

    def best(self, bonus: int) -> tuple[int, tuple[Step, ...], bool] | None:
        """(points, the units placed, whether the favourite bonus is earned) of the best M, or None."""
        found = None
        for (has_fav, took_ron), (value, steps) in self._best(self.start, self.soras).items():
            if self.needs_ron and not took_ron:
                continue  # the ron tile sits in some unit (D1)
            total = value + (bonus if has_fav else 0)
            if found is None or total > found[0]:
                found = (total, steps, has_fav and bonus > 0)
        return found

    def _best(self, left: tuple[int, ...], soras: int) -> Options:
        key = (left, soras)
        if key in self.memo:
            return self.memo[key]
        first = next((i for i, n in enumerate(left) if n), None)
        if first is None:
            found = self._stand_ins(soras, 0)
        else:
            found = {}
            if not self.won:  # leave the rest of this kind over
                rest = list(left)
                rest[first] = 0
                self._merge(found, self._best(tuple(rest), soras))
            for u in self.holding[self.kinds[first]]:
                rest = list(left)
                stood = []
                for k in self.members[u]:
                    i = self.index[k]
                    if rest[i]:
                        rest[i] -= 1
                    else:
                        stood.append(k)
                if len(stood) <= soras:
                    self._extend(found, u, tuple(stood), self._best(tuple(rest), soras - len(stood)))
        self.memo[key] = found
        return found

    def _stand_ins(self, soras: int, start: int) -> Options:
        """Units made only of そら stand-ins, from units[start:] on (a multiset: no order repeated)."""
        key = (soras, start)
        if key in self.fill:
            return self.fill[key]
        found: Options = {}
        if soras == 0 or not self.won:
            found[(False, False)] = (0, ())
        for j in range(start, len(self.units)):
            u = self.units[j]
            if 0 < len(self.members[u]) <= soras:
                self._extend(found, u, tuple(self.members[u]), self._stand_ins(soras - len(self.members[u]), j))
        self.fill[key] = found
        return found

    def _extend(self, found: Options, u: int, stood: tuple[int, ...], sub: Options) -> None:
        for (has_fav, took_ron), (value, steps) in sub.items():
            _keep(found, (has_fav or self.fav[u], took_ron), value + self.p0[u], ((u, False, stood),) + steps)
            if self.ron[u] and not took_ron and self.won:
                _keep(found, (has_fav or self.fav[u], True), value + self.p1[u], ((u, True, stood),) + steps)

    @staticmethod
    def _merge(found: Options, sub: Options) -> None:
        for key, (value, steps) in sub.items():
            _keep(found, key, value, steps)


def _keep(found: Options, key: tuple[bool, bool], value: int, steps: tuple[Step, ...]) -> None:
    if key not in found or value > found[key][0]:
        found[key] = (value, steps)
