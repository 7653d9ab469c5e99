"""One time budget for a whole plan (docs/formulation.md section 8, "The time budget"): `--seconds` is when the
answer is due, not one step's allowance. Each step takes a share of what is left when it starts, so a step that
finishes early leaves its time to the next, and the answer comes within the budget plus the least work that
always answers (a listing for the estimate and its first walls)."""

from __future__ import annotations

import time

RESERVE = 0.75  # seconds the optimal search leaves for the bracket past it (the rest is the optimum's: at 4 draws it
# needs 3-4.5 s of the default 5 s, and the bracket answers in well under a second there)
OPTIMUM = 0.7  # ... and at least this share of the budget is the optimum's (a short budget keeps 30 % for the bracket)
NEAREST = 0.4  # the bracket's lower plan, the class nearest (exact), of what the optimum left
ESTIMATE = 0.5  # its estimate where nearest passed its limits
UPPER = 0.3  # each of the two upper bounds (the relaxation counted, then sampled)
RELIST = 0.6  # ... the counted one where it lists the hands itself (the optimum, not started, left its time),
FETCH_UPPER = 0.6  # ... the counted one with a fetch-mode そら held (each discard its own count: the room's tiles need
# fetches; about 0.05 s a discard after a listing of 0.1-0.5 s), where the deepening has raised the lower side already
UPPER_AGAIN = 0.8  # ... once more where the first stopped at its share and the lower side left time (the rest:
# E[score]'s bound and the other objective's)
RELIST_LEAST = 0.6  # ... if that leaves it this many seconds (at 5 draws: 0.05-0.9 s of listing, kept for a second
# count where the first one stops; QA: 1.5 left a 3 s answer, the web page's, at 1 for every row, 1.5 s early; at 0.6 a
# 2 s answer proves the bench hands' bounds too)
LOWER = 0.6  # the lower side's improvements (the estimate's policy sampled, the lookahead)
NO_FETCH = 4.5  # seconds of the optimum's time its search with every fetch leaves to the no-fetch optimum that answers
# where it stops (2019-12 at 4 draws: 3-4.5 s, a bracket 0.05 wide) ...
FETCH = 0.5  # ... or half of that time where it is short
OTHER_OPTIMUM = 0.6  # the other objective over all play (the rest: the class nearest where it stops)
OTHER_NEAREST = 0.35  # ... or beside a sampled first objective, its class nearest (past it the sample's own values)
BRACKET = 0.7  # with both objectives, the first one's bracket (the rest is the other's: a column never left empty)
BRACKET_BESIDE = 0.9  # ... where the other's class runs beside on the second core from the start (then the other
# column takes a few ms after the bracket: at 5 draws, 0.7 had left 1.5 s of the default 5 s unused)
COUNT = 1.5  # seconds kept for E[score]'s relaxation counted at the end of a 4-draw E[score] plan (in C: 0.75-2 s for
COUNT_MOST = 0.3  # every row), or this share of the budget where less (QA: a hand holding そら spent all of 10 s before
# it, so its rows kept the loose bound N + (S - N) U)
LEAST_GAMES = 100  # walls an estimate plays whatever the clock says: every input gets an answer
BUILD_SECONDS = 1.2e-5  # a listed complete hand's share of building one search over the list (its compact key and
# the search's rows: 0.95 s for 80,868 hands and one objective, 0.76 s more for the second, on a quiet machine here)
PACE_SHARE = 0.5  # a paced search's later roots taken at this share of the earlier ones' mean (shared memo)
SCORE_PACE = 0.45  # ... E[score]'s over all play, paced on its first draw's kinds (later ones reuse the C tables)


HELD: list = []  # a plan's large structures (its listing, its deepening), freed once the next plan's clock runs: on
# return, freeing them took 0.27-0.36 s past the budget (QA, a 4-draw plan holding two そら)


def hold(*large) -> None:
    """Keep `large` alive past the plan's return, so that freeing it is not counted in this answer's time."""
    HELD.extend(large)


class Clock:
    """The request's end; None everywhere where the request has no clock (answers reproducible)."""

    def __init__(self, seconds: float | None, end: float | None = None):
        self.end = end if seconds is None else time.monotonic() + seconds

    def optimum(self) -> float | None:
        """The optimal search's deadline: the end less RESERVE, or less 1 - OPTIMUM of the time left where that is
        less."""
        return keeping(self.end, RESERVE, 1 - OPTIMUM)

    def part(self, part: float) -> Clock:
        """A clock that ends `part` of the time left from now (the steps it is handed share that)."""
        return Clock(None, self.share(part))

    def share(self, part: float) -> float | None:
        """A deadline `part` of the time left from now."""
        return part_of(self.end, part)


def part_of(deadline: float | None, part: float) -> float | None:
    """A deadline `part` of the time from now to `deadline`."""
    if deadline is None:
        return None
    now = time.monotonic()
    return now + max(0.0, deadline - now) * part


def keeping(deadline: float | None, keep: float, most: float) -> float | None:
    """A deadline that leaves `keep` seconds of the time from now to `deadline`, or `most` of that time where less."""
    if deadline is None:
        return None
    return deadline - min(keep, most * max(0.0, deadline - time.monotonic()))


def root_deadline(start: float, done: int, left: int, deadline: float, pace: float = PACE_SHARE) -> float:
    """When the root being valued, the one after `done` roots valued since `start` with `left` after it, would make
    `behind` true if it finished then: (deadline + a start) / (1 + a), a = left pace / (done + 1) (from
    (t - start) / (done + 1) * left * pace > deadline - t). A root still running then gives up at once."""
    a = left * pace / (done + 1)
    return (deadline + a * start) / (1 + a)


def behind(start: float, done: int, left: int, deadline: float | None, pace: float = PACE_SHARE) -> bool:
    """Whether a search over roots that valued `done` since `start` would, at `pace` of their mean time for each of
    the `left` others, pass the deadline: then it gives up at once and its time goes to what answers."""
    if deadline is None or not left:
        return False
    now = time.monotonic()
    return (now - start) / done * left * pace > deadline - now


def affordable(deadline: float | None, hands: int, what: str) -> None:
    """OutOfTime where building the searches over `hands` listed complete hands would itself pass the deadline (at
    BUILD_SECONDS a hand: their Python objects, which read no clock), so a hopeless step gives its time back first."""
    if deadline is not None and time.monotonic() + hands * BUILD_SECONDS > deadline:
        from solver.planning.targets import OutOfTime

        raise OutOfTime(f"{what} would pass its time budget building its searches over {hands:,} complete hands")


def check(deadline: float | None, what: str) -> None:
    """OutOfTime once the deadline has passed: said between a step's costly builds, which read no clock inside
    (a complete hand's list at 3 draws holds hundreds of thousands of hands: seconds a build)."""
    if deadline is not None and time.monotonic() > deadline:
        from solver.planning.targets import OutOfTime

        raise OutOfTime(f"{what} passed its time budget")
