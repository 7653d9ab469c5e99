"""P(win) with a fetch-mode そら held, by deepening (docs/formulation.md section 8, "P(win) with every fetch" and
"Bounds past the budget"): the optimum with every fetch of the game in which only the complete hands within B
exchanges of the hand win, for B = the least such cost, then one more, ... up to the draws plus the fetches.

With two そら held the search with every fetch (fetch_win.py) takes 5-16 s at 3 draws: it lists every complete hand
within the draws plus the fetches (20,000-50,000) and filters a state's list at each step. The classes the bracket
had below it fetch once (fetch_first.py) or never, and lost up to 16 points of P(win) there (QA of 2026-11-27:
the best play fetches twice, over two turns). The same search over the hands within B exchanges alone is the exact
optimum of a smaller game whose wins are wins: a real way of playing, so a lower bound of the optimum at every B,
and the optimum itself at the last B (the same list as the search with every fetch). Each level's values are at
least the last's (more hands win), and the levels below the last cost a fraction of it (the lists grow about
tenfold a level): on the QA's hands 0.01-3 s at the least B, 0.2-17 s one above it, where it mostly reached the
optimum. The optimal step deepens while its share of the clock lasts, and the bracket goes on from there. Where the
first level's time promises it, the step goes from there straight to the last; past 3 draws the levels over the first
3 draws alone come first (later draws only add wins: a lower bound, and at 4 draws a least level of every draw can
take 25 s), and with a clock past 4 draws they alone.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from fractions import Fraction

from solver.core.rules import RuleSet
from solver.core.wording import count
from solver.planning.answer import first_advice, holds_sora, proves_more
from solver.planning.clock import part_of
from solver.planning.prepare import position_counts
from solver.planning.request import PlanRequest
from solver.planning.targets import TARGET_LIMIT, TooLarge, cut_by_clock, enumerate_targets, past

FIRST = 0.6  # of the time left, what the first level with complete hands may take: where it does not finish, the
# rest goes to the bracket (QA: a first level of 4.9 s took a 5 s answer's whole optimal step, and the relaxation
# then reached 2 of 11 discards)
TOP = 0.5  # the last level's time against the first's grows about as the lists' ratio to the 1/2 (QA hands after the
# filters' speed-up: 0.46-0.55 on four, where the ratio between neighbouring levels ranged 0.16-0.64) ...
MARGIN = 1.3  # ... with this margin: where that fits in the time left, the levels between are skipped (they cost
# as much as the last one again: a one-そら hand's optimum in 2 s had gone to the bracket behind them)
STEP = 0.75  # a level's time against the one before it grows about as the lists' ratio to this power (measured on
# 18 hands holding a そら, 2026-11-28: 0.44-0.84; the square root, tried first, let levels start that then ran out
# of time) ...
LAST_STEP = 0.3  # ... but the last level's, the optimum's, to this one (0.13-0.33, median 0.23: at 3 draws 1.7 s
# after 1 s on a list 14 times longer, which 3/4 had put at 7 s, so a 5 s answer had stopped short of the optimum)
TOP_LIST = 50_000  # complete hands past which the last level's list is not looked at for that (nor searched in time)
LABEL = ("; for {n} of {of} discards the optimum with every fetch toward the complete hands at most {b} from the "
         "hand does better (exact)")  # (b: "1 exchange", "3 exchanges")
SHORT = 3  # draws: past them the levels over the first SHORT draws come first (0.1-0.4 s at the least level), within
# them those over one draw fewer come after the levels of every draw ...
FULL_TURNS = 4  # ... and with a clock, those of every draw follow up to this many draws alone
SHORT_LABEL = ("; for {n} of {of} discards the optimum over the first {s} draws alone (later draws only add wins) with "
               "every fetch toward the complete hands at most {b} from the hand does better (exact)")


def applies(rules: RuleSet, request: PlanRequest) -> bool:
    sora = rules.tiles.sora
    return (request.objective == "win" and rules.sora_mode == "fetch" and sora is not None
            and request.position.hand.concealed[sora] > 0 and request.turns >= 1)


class Deepening:
    """The levels of one P(win) request, resumed where the last call stopped: `found` is the deepest finished one as
    (B, {discard: (value, value drawing at once, the kind a そら fetches first or None)}), `why` what stopped it."""

    def __init__(self, rules: RuleSet, request: PlanRequest, short: bool = True):
        """`short`: with levels over fewer draws too (not for those levels themselves: no caller reads theirs)."""
        self.rules, self.request = rules, request
        hand = request.position.hand
        held = [k for k, n in enumerate(hand.concealed) if n]
        self.discards = held if hand.size(rules) == rules.hand_size else [None]
        self.seen, _, _, fetches = position_counts(rules, request.position, request.turns)
        self.top = request.turns + fetches  # the last level: every complete hand a play can end in
        self.budget = 0  # the next level
        self.found: tuple[int, dict] | None = None
        self.why: str | None = None
        self.waits: float | None = None  # the deadline a level was hopeless at (nothing spent: a later one retries)
        self.last: tuple[int, float] | None = None  # the last level's complete hands and seconds
        self.first: tuple[int, float] | None = None  # ... and the first's
        self.top_list = None  # the last level's complete hands, once listed (False: too many to look at)
        self.states = 0  # visited by the levels finished
        # the levels over the first min(SHORT, turns - 1) draws alone (a lower bound: later draws only add wins)
        self.short = Deepening(rules, replace(request, turns=min(SHORT, request.turns - 1)), short=False) \
            if short and request.turns > 1 else None

    @property
    def optimal(self) -> bool:
        return self.found is not None and self.found[0] == self.top

    def deepen(self, deadline: float | None) -> None:
        """The next levels while the deadline lasts; a level that passes it or a limit ends the deepening (with less
        time later it would not finish either; one judged hopeless before it starts is tried again by a call with a
        later deadline, as with_other's second). Past SHORT draws with a clock, the short levels first, and those of
        every draw on what they leave up to FULL_TURNS draws alone (at 4 draws with two そら held the least level of
        every draw takes 25 s, with one 2-5 s); with no clock, or within SHORT draws, the short levels (over one draw
        fewer) where these stop (QA: at 3 draws with two そら and a room, where the levels of every draw stopped at 2
        exchanges, the best row's value over 2 draws was 7.37 % against 4.02 %)."""
        if self.short is not None and deadline is not None and self.request.turns > SHORT:
            if not self.optimal:
                self.short.deepen(deadline)
            if self.request.turns > FULL_TURNS:
                return
        while self.step(deadline):
            pass
        if self.short is not None and not self.optimal:
            self.short.deepen(deadline)

    def levels(self) -> list[Deepening]:
        """The deepenings whose found levels are lower bounds of the request's rows: the short one first."""
        return [self] if self.short is None or self.optimal else [self.short, self]

    def step(self, deadline: float | None) -> bool:
        """The next level with complete hands in it; False where none is left, the deadline has passed or the
        deepening has ended."""
        from solver.planning.fetch_win import fetch_win

        position, turns = self.request.position, self.request.turns
        if self.waits is not None and (deadline is None or deadline > self.waits):
            self.why = self.waits = None
        while self.why is None and self.budget <= self.top:
            if past(deadline):
                return False
            try:
                jump = self.jumps(deadline)
                if jump:
                    self.budget = self.top
                listed = self.listed(self.budget, deadline)
                if not listed.counts:
                    self.budget += 1
                    continue
                if not jump and self.hopeless(len(listed.counts), deadline):
                    self.why = (f"the complete hands at most {self.budget} exchanges from the hand "
                                f"({len(listed.counts):,}) would take the search with every fetch past its time budget")
                    self.waits = deadline
                    cut_by_clock()  # (the clock decided what was searched)
                    return False
                start = time.monotonic()
                until = deadline if deadline is None or self.found else start + FIRST * (deadline - start)
                # (the last level's list is the search with every fetch's own: sized up front as it always was)
                moves, states = fetch_win(self.rules, position, turns, self.discards,
                                          state_limit=self.request.limits.max_states, deadline=until, listed=listed,
                                          guess=self.budget == self.top)
            except TooLarge as exc:  # (OutOfTime too: the levels done stand)
                reached = "" if self.found is None else f" (done up to {self.found[0]} exchanges from the hand)"
                self.why = f"{exc}{reached}"
                return False
            self.found = (self.budget, dict(zip(self.discards, moves)))
            self.last = (len(listed.counts), time.monotonic() - start)
            self.first = self.first or self.last
            self.states += states
            self.budget += 1
            return True
        if self.found is None and self.why is None:  # no complete hand within reach at all: no play wins
            self.found = (self.top, {d: (Fraction(0), Fraction(0), None) for d in self.discards})
            return True
        return False

    def listed(self, budget: int, deadline: float | None, limit: int = TARGET_LIMIT):
        """The complete hands at most `budget` exchanges from the hand (the waiting room's copies in play)."""
        if budget == self.top and self.top_list:
            return self.top_list
        position = self.request.position
        got = enumerate_targets(self.rules, position.hand, self.seen, budget, position.favourite, limit, deadline)
        if budget == self.top:
            self.top_list = got
        return got

    def jumps(self, deadline: float | None) -> bool:
        """Whether to go from here straight to the last level: the first level's time grown by the lists' ratio to
        the TOP power, with its MARGIN, fits in the time left. It decides what to search, never a value."""
        if deadline is None or self.first is None or self.budget >= self.top or self.top_list is False:
            return False
        if self.top_list is None:  # (a short look: a list past TOP_LIST hands is never searched in a budget's time)
            try:
                self.listed(self.top, part_of(deadline, 0.1), TOP_LIST)
            except TooLarge:  # (OutOfTime too)
                self.top_list = False
                return False
        hands, seconds = self.first
        top = len(self.top_list.counts)
        return time.monotonic() + MARGIN * seconds * (top / hands) ** TOP <= deadline

    def hopeless(self, hands: int, deadline: float | None) -> bool:
        """Whether a level over `hands` complete hands plainly cannot finish by the deadline: the last level's time
        grown by the lists' ratio to the power STEP, or LAST_STEP for the last level, so its time goes to the bracket
        instead. It decides what to search, never a value."""
        if deadline is None or self.last is None:
            return False
        done, seconds = self.last
        grows = LAST_STEP if self.budget == self.top else STEP
        return time.monotonic() + seconds * (hands / done) ** grows > deadline


def fetch_within(rules: RuleSet, request: PlanRequest, rows: tuple, deadline: float | None,
                 deep: Deepening | None = None) -> tuple[tuple, list[str]]:
    """The rows with each one's P(win) raised to the deepest level's value where higher, deepened further while the
    deadline lasts (`deep`: the levels the optimal step reached; the bracket ranks the rows after), and the labels'
    notes of the rows raised (past SHORT draws the short levels' too: Deepening.deepen)."""
    if not applies(rules, request):
        return rows, []
    deep = deep or Deepening(rules, request)
    deep.deepen(deadline)
    hand = request.position.hand
    by = {}  # discard -> the levels whose value it shows: (draws, B)
    for level in deep.levels():
        if level.found is None:
            continue
        budget, moves = level.found
        out = []
        for row in rows:
            value, wait, take = moves[row.tile]
            if proves_more(value, row.win_probability, row.win_interval):
                advice = first_advice(value, wait, take) if holds_sora(rules, hand, row.tile) else None
                row = replace(row, win_probability=value, win_interval=None, sora=advice)
                by[row.tile] = (level.request.turns, budget)
            out.append(row)
        rows = tuple(out)
    notes = []
    for (turns, budget), n in sorted(Counter(by.values()).items()):
        label = LABEL if turns == request.turns else SHORT_LABEL
        notes.append(label.format(n=n, of=len(rows), b=count(budget, "exchange"), s=turns))
    return rows, notes


def deepened(rules: RuleSet, request: PlanRequest, found, deadline: float | None, deep: Deepening | None = None):
    """A P(win) plan of a class (the column beside E[score]) with each row raised to the deepening's value where
    higher, within the deadline (`deep`: levels found already), and labelled so."""
    rows, notes = fetch_within(rules, request, found.discards, deadline, deep)
    if not notes:
        return found
    label = found.policy_class["win_probability"] + "".join(notes)
    return replace(found, discards=rows, policy_class=dict(found.policy_class, win_probability=label))
