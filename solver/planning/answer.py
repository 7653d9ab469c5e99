"""What a plan answers (solver/planning/plan.py): per discard its values and bounds, the そら advice, and the plan
with its method and labels (docs/formulation.md section 8). The JSON shapes are solver/serialize_plan.py's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

MODEL = ("solo (docs/formulation.md section 8): the wall is every unseen copy, each equally likely; "
         "discards never return to the wall; no win after the last draw, the 12 tiles score as a hand that did not win")
METHODS = ("optimal", "bounds", "estimate", "class")  # class: exact within a named class asked for (nearest, detour),
# or E[score] over all play beside a P(win) of a named class
Progress = Callable[[int, int, int], None]  # (roots done, roots in all, states visited)


@dataclass(frozen=True)
class SoraMove:
    use_now: bool  # send そら to the waiting room before the next draw
    take: int | None  # the tile to take from the waiting room
    value_if_used: Fraction | None  # the objective's value when using it now (best tile)
    value_if_waiting: Fraction  # the value when drawing without using it


def holds_sora(rules, hand, discard: int | None) -> bool:
    """A fetch-mode そら held after the discard (its advice is shown)."""
    sora = rules.tiles.sora
    return rules.sora_mode == "fetch" and sora is not None and hand.concealed[sora] > (discard == sora)


def first_advice(value, wait, take: int | None) -> "SoraMove":
    """The そら advice of an exact search's first move: (value, value drawing at once, the kind a そら fetches first
    or None)."""
    return SoraMove(take is not None, take, value if take is not None else None, wait)


@dataclass(frozen=True)
class DiscardPlan:
    tile: int | None  # the discard; None for a 12-tile hand as it stands
    win_probability: Fraction | None  # the optimum, or a lower bound (bounds, a class); None: not computed
    expected_score: Fraction | None
    h: int | None  # exchange distance after the discard (None: no complete hand within the budget)
    live: int | None  # live copies of the kinds that lower h (None: not all such targets within the budget)
    sora: SoraMove | None = None  # fetch mode, a そら held: its use before the next draw (chosen objective)
    win_interval: tuple[float, float] | None = None  # an estimate's 95 % interval (None: the value is exact)
    score_interval: tuple[float, float] | None = None
    upper: Fraction | None = None  # proved >= the optimal P(win) (= win_probability where optimal); None: none
    # proved >= the optimal E[score] (= expected_score where that is over all play; score_bounds.py); None: none
    score_upper: Fraction | None = None
    # where `upper` is 1: the relaxation's sampled value (sampled_upper.py), an estimate of a bound, and its interval
    upper_estimate: Fraction | None = None
    upper_interval: tuple[float, float] | None = None
    score_upper_estimate: Fraction | None = None  # the same for E[score], where score_upper came from that 1
    score_upper_interval: tuple[float, float] | None = None
    # False where `upper` is not the row's own: the bound of the 13 tiles before the discard, or 1, given to the rows
    # the relaxation did not reach within its clock (a tie on the value is then not broken by it: not in the JSON)
    upper_own: bool = True


@dataclass(frozen=True)
class Plan:
    turns: int
    objective: str
    budget: int  # targets within this many exchanges of the starting hand
    h: int | None  # of the starting hand
    complete: bool  # a 13-tile hand that is complete now (tsumo available)
    tsumo: int | None  # its score
    discards: tuple[DiscardPlan, ...]  # best first for the objective
    policy_class: dict[str, str]  # objective ("win_probability", "expected_score") -> class of play
    states: int  # memoised states visited
    wall: int  # unseen tiles
    games: int | None = None  # sampled walls of an estimate past the exact frontier; None: exact
    method: str = "class"  # one of METHODS
    separated: bool | None = None  # bounds: the best discard's lower bound reaches every other's upper bound
    stopped: str | None = None  # why the optimal search stopped (bounds, estimate); None: it finished
    upper_note: str | None = None  # the bracket's words on its P(win) upper bounds (the end of their label)
    # a step stopped at its time budget (the clock, not a state limit): another run, or machine, may answer otherwise
    clocked: bool = False

    @property
    def recommended(self) -> DiscardPlan:
        """The best discard (declining the win where the hand is complete: see tsumo_now)."""
        return self.discards[0]

    @property
    def methods(self) -> dict[str, str | None]:
        """Each column's own method, read from its numbers (the plan's `method` is its objective's): "estimate" where
        a row is sampled (a bracket's lower side too), else "optimal" where every row's value is its proved upper
        bound, "bounds" where upper bounds stand above, else "class"; None where the column was not computed."""
        def of(value: str, upper: str, interval: str) -> str | None:
            rows = [(getattr(r, value), getattr(r, upper), getattr(r, interval)) for r in self.discards]
            if all(v is None for v, _, _ in rows):
                return None
            if any(i is not None for _, _, i in rows):  # (first: a sample equal to its bound proves nothing, and
                return "estimate"  # game/grading.py claims proved losses only from exact values)
            if all(v is not None and v == u for v, u, _ in rows):
                return "optimal"
            return "bounds" if any(u is not None for _, u, _ in rows) else "class"
        return {"win_probability": of("win_probability", "upper", "win_interval"),
                "expected_score": of("expected_score", "score_upper", "score_interval")}

    @property
    def tsumo_now(self) -> bool:
        """Whether winning now is the recommendation: a complete hand wins for sure (P(win) 1, no discard does
        better), and for E[score] its tsumo scores at least the best discard's value (its lower bound where
        bracketed, the rows' own rule)."""
        if not self.complete or self.tsumo is None:
            return False
        best = self.recommended.expected_score
        return self.objective == "win" or best is None or self.tsumo >= best


def proves_more(value, current, interval: tuple[float, float] | None) -> bool:
    """Whether an exact lower value replaces a row's current one: it is higher, or the current one is sampled and
    the exact value reaches its 95 % interval's lower end (a proved value over a sample that does not prove more)."""
    return current is None or value > current or (interval is not None and value >= interval[0])


def ranked(rows, objective: str, last: int | None = None) -> list:
    """Best first for the objective: by its value (the lower bound where bracketed), ties by its upper bound (the
    row that may be worth more), then by the other objective (None last). Where some rows are sampled and others
    exact, a sampled row counts at its 95 % interval's lower end: it outranks a proved value only where its interval
    lies above it (QA: a sample of 3.50 % (2.53-4.83 %) was recommended over exact rows of 3.39 % whose optimum was
    higher; the same walls serve every sampled row, so among them the point estimates still decide). `last`: the
    held そら's kind (plan.keep_sora): among rows tied on the value, its discard ranks last, and so does a row whose
    first move fetches its own discard back (the same hand and room as discarding そら), before the upper bound
    decides; and a row whose upper bound is its own before one given the 13 tiles' bound or 1 for want of time (QA:
    such a placeholder of 1 had put a row that fetched its discard back first)."""
    first, upper, second, interval = ("win_probability", "upper", "expected_score", "win_interval") \
        if objective == "win" else ("expected_score", "score_upper", "win_probability", "score_interval")
    sampled = [getattr(row, interval) is not None for row in rows]
    mixed = any(sampled) and not all(sampled)

    def key(row) -> tuple:
        value, bound, other, drawn = (getattr(row, name) for name in (first, upper, second, interval))
        return drawn[0] if mixed and drawn is not None else value, value, not sora_like(row, last), row.upper_own, \
            value if bound is None else bound, -1 if other is None else other
    return sorted(rows, key=key, reverse=True)


def sora_like(row, sora: int | None) -> bool:
    """The row discards the held そら, or its first move fetches its own discard back: either way the hand and the
    waiting room are those of discarding そら."""
    if sora is None:
        return False
    move = row.sora
    return row.tile == sora or (move is not None and move.use_now and move.take == row.tile)
