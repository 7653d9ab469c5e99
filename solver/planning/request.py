"""What a plan is asked for (issue 20, 22): one typed request that `plan()` and its helpers take, built the same
way by the API (`Evaluator.plan`, `Evaluator.plan_request`), the command line and the server."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from numbers import Integral

from solver.core.errors import MjError, given
from solver.core.hand import Hand
from solver.core.numbers import budget_seconds
from solver.planning.recursion import STATE_LIMIT

OBJECTIVES = ("win", "score")
PLAYS = ("optimal", "nearest", "detour")  # the true optimum (bounds past the limits); two named classes
SECONDS = 5.0  # default time budget of the whole answer (clock.py): the optimum's search, then bounds past it
MAX_GAMES = 1_000_000  # sampled walls per discard for an estimate
DEFAULT_GAMES = 1_000  # the optimum's estimate where even the class nearest passes the limits (--estimate: more)


@dataclass(frozen=True)
class Position:
    """The hand and what is known outside it (kind indices; `seen` as counts per kind or empty)."""

    hand: Hand
    seen: tuple[int, ...] = ()
    waiting_room: tuple[int, ...] = ()  # tiles, one entry per copy
    favourite: int | None = None

    def seeing(self, tiles) -> "Position":
        """The position with `tiles` (kinds, an entry per copy) seen too: out of the wall and out of play."""
        seen = list(self.seen or (0,) * len(self.hand.concealed))
        for k in tiles:
            seen[k] += 1
        return replace(self, seen=tuple(seen))


@dataclass(frozen=True)
class Limits:
    """Where exact search stops: states memoised, seconds (None: no clock), and what is answered then:
    `estimate` games of a named policy (None: an error for a class; bounds for the optimum)."""

    max_states: int = STATE_LIMIT
    seconds: float | None = SECONDS
    estimate: int | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        whole(self, "max_states")
        whole(self, "seed")
        if self.estimate is not None:
            whole(self, "estimate")
        budget_seconds(self.seconds)
        if self.max_states < 1:
            raise MjError(f"max_states (--max-states) must be 1 or more, not {self.max_states}")
        if self.estimate is not None and not 2 <= self.estimate <= MAX_GAMES:
            raise MjError(f"estimate (--estimate) must be between 2 and {MAX_GAMES} games, not {self.estimate}")


def whole(request, name: str) -> None:
    """A count given through the API is an integer (not a bool, a float or text: the CLI parses its own), kept as
    Python's int (numpy's are taken too: engines use them, and the JSON answers need int)."""
    value = getattr(request, name)
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise MjError(f"{name} must be a whole number, not {given(value)}")
    object.__setattr__(request, name, int(value))  # (a frozen dataclass, still being made)


@dataclass(frozen=True)
class PlanRequest:
    """A plan over `turns` draws: `play` "optimal" (every way of playing; bounds past the limits), "nearest"
    (the class of docs section 8) or "detour" (targets within h + `detour`); `both`: also the other objective."""

    position: Position
    turns: int
    objective: str = "win"
    play: str = "optimal"
    detour: int | None = None
    both: bool = True
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        whole(self, "turns")
        if not isinstance(self.both, bool):
            raise MjError(f"both is True or False, not {given(self.both)}")
        if self.detour is not None:
            whole(self, "detour")
        if self.objective not in OBJECTIVES:
            raise MjError(f"objective must be win or score, not {self.objective!r}")
        if self.play not in PLAYS:
            raise MjError(f"play must be one of {', '.join(PLAYS)}, not {self.play!r}")
        if (self.play == "detour") != (self.detour is not None):
            raise MjError("a detour is given with play 'detour', and only then")
        if self.detour is not None and self.detour < 0:
            raise MjError("detour (--detour) must be 0 or more")

    @staticmethod
    def play_of(detour: int | None, nearest: bool) -> str:
        """The play the options name: --detour D, --nearest, or neither (the optimum)."""
        if not isinstance(nearest, bool):
            raise MjError(f"nearest is True or False, not {given(nearest)}")
        if detour is not None and nearest:
            raise MjError("detour and nearest (--detour, --nearest) name two different classes: give one")
        return "detour" if detour is not None else "nearest" if nearest else "optimal"
