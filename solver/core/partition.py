"""Best score of a winning hand by exact partition search in plain Python (memoised).

The CP-SAT model (score.py, build_score_model) stays the reference; this answers the same question
for a win (tsumo or ron) much faster, which matters where many complete hands are scored (the waits
of a turn analysis). A decomposition is a multiset M of units with m_i >= c_i for every kind and
sum_i (m_i - c_i) = held そら (wildcard: each そら stands in for one member; otherwise there must be
none). Search: the kind still to cover that the fewest units hold (then the lowest) takes one unit
holding it (members still to cover are covered, the others stood in for by そら); when every real
tile is covered, the そら left form whole units of stand-ins. Every M is reached this way, and the
value of M (its points, the favourite bonus, the ron tile in whichever unit loses least: D1) depends
on M alone, so the maximum is exact.
"""

from __future__ import annotations

from solver.core.hand import Hand, Situation
from solver.core.rules import RuleSet

NEG = float("-inf")


class WinScorer:
    """Exact winning scores for one rule set (the totals best_score gives for tsumo and ron)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.sora = rules.tiles.sora
        self.wildcard = rules.sora_mode == "wildcard" and self.sora is not None
        self.members = tuple(u.members for u in rules.units)
        self.units_with = rules.units_of_kind
        self._covers: dict[tuple[int | None, int | None], _Cover] = {}  # memo tables shared across hands

    def total(self, hand: Hand, situation: Situation) -> int | None:
        """The score of a win, or None when the tiles do not split into units. The caller has checked
        the situation (a ron on 詩花 where it is not a win, a ron on a wildcard そら)."""
        rules, fav = self.rules, situation.favourite
        ron = situation.winning_tile if situation.win == "ron" and rules.spec.ron_minus_member else None
        counts = list(hand.concealed)
        soras = 0
        if self.sora is not None:
            soras, counts[self.sora] = counts[self.sora], 0
        if soras and not self.wildcard:
            return None
        cover = self._covers.get((fav, ron))
        if cover is None or cover.size > 1 << 16:
            cover = self._covers[(fav, ron)] = _Cover(self, fav, ron)
        values = cover.best(tuple(counts), soras)
        called = [rules.units[u] for u in hand.called]
        fixed = sum(rules.points(d.size, won=True, called=True, has_favourite=fav in d.members) for d in called)
        fav_called = fav is not None and any(fav in d.members for d in called)
        best = NEG
        for (has_fav, took_ron), value in values.items():
            if ron is not None and not took_ron:
                continue  # the ron tile sits in some unit (D1)
            bonus = rules.favourite_bonus if (has_fav or fav_called) and fav is not None else 0
            best = max(best, value + bonus)
        return None if best == NEG else int(best + fixed)


class _Cover:
    """The memoised search for one (favourite, ron tile): state -> {(favourite used, ron placed): points}.

    A state is the counts still to cover (bytes: their hash is kept) and the そら left. The kinds
    still held ride along as a bit mask (derived from the counts, so not part of the key) whose bit
    r stands for the kind of rank r in the covering order, so the next kind is its lowest bit and a
    unit's stand-ins are its members' bits that are not set."""

    def __init__(self, scorer: WinScorer, fav: int | None, ron: int | None):
        self.s = scorer
        rules = scorer.rules
        members = scorer.members
        self.p0 = [rules.points(len(m), won=True, has_favourite=fav in m) for m in members]
        self.p1 = [rules.points(len(m), won=True, holds_ron=True, has_favourite=fav in m) for m in members]
        self.fav = [fav is not None and fav in m for m in members]
        self.ron = [ron is not None and ron in m for m in members]
        self.sizes = [len(m) for m in members]
        # the kind to cover first: the one in fewest units (least branching; any choice reaches every M)
        self.order = sorted(range(len(scorer.units_with)), key=lambda k: (len(scorer.units_with[k]), k))
        self.bit = [0] * len(self.order)  # kind -> its bit in the held mask
        for rank, kind in enumerate(self.order):
            self.bit[kind] = 1 << rank
        self.masks = [sum(self.bit[k] for k in set(m)) for m in members]
        self.memo: dict[tuple[bytes, int], dict[tuple[bool, bool], float]] = {}
        self.stands: dict[tuple[int, int], dict[tuple[bool, bool], float]] = {}

    @property
    def size(self) -> int:
        return len(self.memo)

    def best(self, counts: tuple[int, ...], soras: int) -> dict[tuple[bool, bool], float]:
        return self._best(bytes(counts), soras, sum(self.bit[k] for k, n in enumerate(counts) if n))

    def _best(self, counts: bytes, soras: int, held: int) -> dict[tuple[bool, bool], float]:
        key = (counts, soras)
        found = self.memo.get(key)
        if found is not None:
            return found
        if not held:
            found = self._stand_ins(soras, 0)
        else:
            found = {}
            kind = self.order[(held & -held).bit_length() - 1]
            members, sizes, masks, bit = self.s.members, self.sizes, self.masks, self.bit
            for u in self.s.units_with[kind]:
                need = sizes[u] - (masks[u] & held).bit_count()
                if need > soras:
                    continue
                rest = bytearray(counts)
                left = held
                for k in members[u]:
                    if rest[k]:
                        rest[k] -= 1
                        if not rest[k]:
                            left ^= bit[k]
                self._extend(found, u, self._best(bytes(rest), soras - need, left))
        self.memo[key] = found
        return found

    def _stand_ins(self, soras: int, start: int) -> dict[tuple[bool, bool], float]:
        """Whole units of そら stand-ins filling `soras` (units from index `start` on, no repeats of order); memoised
        by the instance (QA: a method's lru_cache kept every cover, and so every rule set, alive)."""
        if soras == 0:
            return {(False, False): 0}
        found = self.stands.get((soras, start))
        if found is None:
            found = {}
            for u in range(start, len(self.s.members)):
                if len(self.s.members[u]) <= soras:
                    self._extend(found, u, self._stand_ins(soras - len(self.s.members[u]), u))
            self.stands[soras, start] = found
        return found

    def _extend(self, found: dict, u: int, sub: dict) -> None:
        for (has_fav, took_ron), value in sub.items():
            key = (has_fav or self.fav[u], took_ron)
            if value + self.p0[u] > found.get(key, NEG):
                found[key] = value + self.p0[u]
            if self.ron[u] and not took_ron:
                key = (has_fav or self.fav[u], True)
                if value + self.p1[u] > found.get(key, NEG):
                    found[key] = value + self.p1[u]
