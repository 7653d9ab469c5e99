"""Best score: is the hand complete, and its highest-scoring decomposition (docs/rules.md section 4).

The hand's idol-unit graph splits the problem: units that share no kind cannot interact, so each
connected component is solved on its own, and a kind held but in no candidate unit proves at once
that the tiles do not split (won) or stay over (not won). Each component is solved by the exhaustive
search of decompose.py; the CP-SAT model (model.build_score_model) is the reference it is tested
against (SEARCH = False), and loads OR-Tools only then.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from solver.core.decompose import Decomposer, Step
from solver.core.errors import HAND_SIZE, UNDEFINED_SCORE, MjError
from solver.core.hand import COPIES, Hand, Situation, check_hand, check_situation
from solver.core.results import ScoredUnit, ScoreResult
from solver.core.rules import RuleSet

SEARCH = True  # each component by exhaustive search (False: by the CP-SAT model, the reference; for tests)


def candidate_units(rules: RuleSet, counts: Counter, soras: int) -> list[int]:
    """Units that fit in the concealed tiles, with up to `soras` members stood in for by そら."""
    return [u.index for u in rules.units if sum(1 for k in u.members if counts[k] == 0) <= soras]


def components(rules: RuleSet, units: list[int], counts: Counter, soras: int) -> list[tuple[list[int], Counter]]:
    """Connected components of the bipartite graph kinds - candidate units (そら joins everything),
    by union-find; in the order of each component's first kind held (then unit)."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for k in counts:
        root(("k", k))
    for u in units:
        for k in rules.units[u].members:
            parent[root(("u", u))] = root(("k", k))
    if soras:  # the そら node exists even alone, so a hand of only そら still gets judged
        for node in list(parent) or [("sora", 0)]:
            parent[root(node)] = root(("sora", 0))
        root(("sora", 0))
    parts: dict[tuple[str, int], tuple[list[int], Counter]] = {}
    for node in list(parent):
        unit_part, count_part = parts.setdefault(root(node), ([], Counter()))
        if node[0] == "u":
            unit_part.append(node[1])
        elif node[0] == "k" and counts[node[1]]:
            count_part[node[1]] = counts[node[1]]
    return [(sorted(u), c) for u, c in parts.values()]


def _solve_part(rules: RuleSet, units: list[int], counts: Counter, *, won: bool, soras: int, ron_tile: int | None,
                favourite: int | None, bonus_open: bool, copies: int) -> tuple[list[Step], bool] | None:
    """The best decomposition of one component: its units (unit, holds ron, stood-in kinds) and whether
    it earns the favourite bonus; None when the tiles do not split."""
    bonus = rules.favourite_bonus if bonus_open and favourite is not None else 0
    if SEARCH:
        found = Decomposer(rules, units, counts, won=won, soras=soras, ron_tile=ron_tile, favourite=favourite).best(bonus)
        # in unit order, the ron unit's copy first: the order the model's answer is read in (stable output)
        return None if found is None else (sorted(found[1], key=lambda step: (step[0], not step[1])), found[2])
    from solver.core import cpsat
    from solver.core.model import build_score_model

    built = build_score_model(rules, units, counts, won=won, soras=soras, ron_tile=ron_tile, favourite=favourite,
                              bonus_open=bonus_open, copies=copies)
    outcome = cpsat.solve(built.model)
    if not outcome.feasible:
        return None
    value = outcome.value
    sora_kinds = [k for k, var in built.s.items() for _ in range(value(var))]
    ron_unit = next((j for j, var in built.y.items() if value(var)), None)
    placed = []
    for j, u in enumerate(built.units):
        for copy in range(value(built.x[j])):
            stood = tuple(k for k in rules.units[u].members if k in sora_kinds)
            for k in stood:  # any assignment of そら to member slots of its kind is equivalent
                sora_kinds.remove(k)
            placed.append((u, j == ron_unit and copy == 0, stood))
    return placed, built.bonus is not None and bool(value(built.bonus))


def best_score(hand: Hand, rules: RuleSet, situation: Situation, copies: int = COPIES) -> ScoreResult:
    """The score under `rules`: the best over decompositions and over the ron tile's unit (D1).

    `copies` other than 3 is for explaining other engines' answers (e.g. ones that ignore the limit).
    """
    check_hand(hand, rules, seen=situation.seen, copies=copies)
    check_situation(hand, rules, situation)
    won = situation.win != "none"
    tiles = rules.tiles
    if won and hand.size(rules) != rules.hand_size:
        raise MjError(f"a winning hand holds {rules.hand_size} tiles, this one {hand.size(rules)}", HAND_SIZE)
    if not won and not rules.scores_no_win:
        raise MjError(f"rule set {rules.name} defines no score for a hand that did not win", UNDEFINED_SCORE)
    ron_tile = situation.winning_tile if situation.win == "ron" else None
    if ron_tile is not None and ron_tile == tiles.shika and not rules.spec.ron_on_shika:
        return ScoreResult(False, _complete(hand, rules), None,
                           reason="a ron on 詩花 is not a win (the house rule: docs/rules.md D2)")
    wildcard = rules.sora_mode == "wildcard" and tiles.sora is not None
    if wildcard and ron_tile is not None and ron_tile == tiles.sora and rules.spec.ron_minus_member:
        raise MjError("a ron on そら as a wildcard is undefined when the ron unit scores one member fewer",
                      UNDEFINED_SCORE)
    counts = Counter({k: n for k, n in enumerate(hand.concealed) if n})
    soras = counts.pop(tiles.sora, 0) if tiles.sora is not None else 0
    if won and soras and not wildcard:
        return ScoreResult(False, False, None, reason="そら is in no unit under this rule set")
    dead_soras = 0 if wildcard else soras  # in no unit: left over when the hand did not win
    soras = soras if wildcard else 0

    fav = situation.favourite
    called_units = [rules.units[u] for u in hand.called]
    scored = [ScoredUnit(d.index, rules.points(d.size, won=won, called=True, has_favourite=fav in d.members),
                         called=True) for d in called_units]
    bonus_fixed = fav is not None and any(fav in d.members for d in called_units)
    units = candidate_units(rules, counts, soras)
    leftover: list[int] = []
    bonus = rules.favourite_bonus if bonus_fixed else 0
    for part_units, part_counts in components(rules, units, counts, soras):
        if not part_units:  # kinds (or そら) no candidate unit holds
            if won:
                held = part_counts or Counter({tiles.sora: soras})
                return ScoreResult(False, False, None, reason=_no_unit_reason(rules, held))
            leftover += sorted(part_counts.elements())
            continue
        holds_ron = ron_tile is not None and ron_tile in part_counts
        steps = _solve_part(rules, part_units, part_counts, won=won, soras=soras,
                            ron_tile=ron_tile if holds_ron else None, favourite=fav, bonus_open=not bonus_fixed,
                            copies=copies)
        if steps is None:
            return ScoreResult(False, False, None, reason="the tiles do not split exactly into units")
        placed, earned = steps
        for u, holds, stood in placed:
            d = rules.units[u]
            scored.append(ScoredUnit(u, rules.points(d.size, won=won, holds_ron=holds,
                                                     has_favourite=fav in d.members), holds_ron=holds,
                                     sora_for=stood))
        if earned:
            bonus = rules.favourite_bonus
        if not won:
            used = Counter(k for su in scored if not su.called for k in rules.units[su.unit].members
                           if k in part_counts and k not in su.sora_for)
            leftover += sorted((part_counts - used).elements())
    if not won and (soras or dead_soras):
        leftover += [tiles.sora] * (soras + dead_soras - sum(len(su.sora_for) for su in scored))
    total = sum(su.points for su in scored) + bonus
    concealed = [su.unit for su in scored if not su.called]
    if total != decomposition_total(rules, hand.called, concealed, won=won, ron_tile=ron_tile, favourite=fav):
        raise AssertionError(f"the model's score {total} disagrees with its decomposition's")  # a bug, never input
    return ScoreResult(won, won, total, tuple(scored), bonus, tuple(sorted(leftover)))


def decomposition_total(rules: RuleSet, called: Iterable[int], units: Iterable[int], *, won: bool,
                        ron_tile: int | None = None, favourite: int | None = None) -> int:
    """Plain-Python score of one decomposition, the ron tile in whichever unit loses least (D1).

    Independent of the CP-SAT model: best_score checks its answer against it, and the checker scores
    a claimed decomposition with it.
    """
    called_defs = [rules.units[u] for u in called]
    defs = [rules.units[u] for u in units]
    total = sum(rules.points(d.size, won=won, called=True, has_favourite=favourite in d.members) for d in called_defs)
    total += sum(rules.points(d.size, won=won, has_favourite=favourite in d.members) for d in defs)
    if won and ron_tile is not None and rules.spec.ron_minus_member:
        total -= min((rules.points(d.size, won=True, has_favourite=favourite in d.members)
                      - rules.points(d.size, won=True, holds_ron=True, has_favourite=favourite in d.members)
                      for d in defs if ron_tile in d.members), default=0)
    if favourite is not None and any(favourite in d.members for d in called_defs + defs):
        total += rules.favourite_bonus
    return total


def _no_unit_reason(rules: RuleSet, counts: Counter) -> str:
    names = ", ".join(rules.tiles.name(k) for k in sorted(counts))
    return f"no unit holds {names} with the other tiles of the hand"


def _complete(hand: Hand, rules: RuleSet) -> bool:
    return best_score(hand, rules, Situation(win="tsumo")).complete


def is_complete(hand: Hand, rules: RuleSet) -> bool:
    """Whether the hand's tiles split exactly into units (called units as they are)."""
    return _complete(hand, rules)
