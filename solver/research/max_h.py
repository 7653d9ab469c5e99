"""The largest exchange distance h over all hands of a rule set, proved by exhaustive search (docs/max-h.md).

h(H) = N - K(H), K(H) = max over complete targets T of |H ∩ T| (multisets). The method rests on:

- K is monotone: a sub-multiset P of H has K(P) <= K(H), since |P ∩ T| <= |H ∩ T| for every T;
- tiles of kinds in no unit (そら outside wildcard mode) are never kept, so a hand with h >= g holds at
  least r0 = N - 3 x (kinds in no unit) real tiles, and any r0 of them form a multiset R with K(R) <= N - g;
- so "some hand has h >= g" iff "some multiset R of r0 real tiles (<= 3 a kind) has K(R) <= N - g".

The search enumerates such multisets in one canonical order (kinds in a fixed order, each multiset once,
grown one tile at a time) and drops a prefix P as soon as K(P) > N - g: by monotonicity every multiset
grown from it has K > N - g too. Each drop is certified here by an explicit target (the search's units,
completed to N tiles, checked for size and copies), so the ordinary search only proposes them. A multiset
of r0 tiles that survives, padded with dead tiles, is a hand with h >= g (checked by the ordinary h).
Goals rise from a first witness until one goal's search finishes with no survivor: that proves the maximum.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from solver.core.errors import MjError
from solver.core.hand import COPIES, Hand

COMPLETION_NODES = 200_000  # per completion search of a certificate (a failure is an error, never a silent prune)
PROGRESS_EVERY = 1_024  # checks between progress reports (each rate-limits itself by time)
RECENT = 16  # certified targets tried on a prefix before the search: siblings are often kept by one of them


@dataclass(frozen=True)
class Game:
    """What the question depends on: kinds, units (sorted member tuples) and the hand size."""

    kinds: int
    units: tuple[tuple[int, ...], ...]
    hand_size: int
    copies: int = COPIES
    wild: int | None = None  # the wildcard そら's kind (2019-10): in no hand searched (docs/max-h.md, Lemma 4)

    @property
    def dead(self) -> tuple[int, ...]:
        """Kinds in no unit (そら outside wildcard mode): never kept by any target."""
        live = {k for u in self.units for k in u}
        return tuple(k for k in range(self.kinds) if k not in live and k != self.wild)

    @property
    def stand_ins(self) -> int:
        """Slots of a target そら may fill beyond a kind's copies (wildcard: the 3 そら; else none)."""
        return 0 if self.wild is None else self.copies

    @classmethod
    def of(cls, rules) -> "Game":
        wild = rules.tiles.sora if rules.sora_mode == "wildcard" else None
        return cls(len(rules.tiles), tuple(tuple(u.members) for u in rules.units), rules.hand_size, wild=wild)


@dataclass
class Progress:
    """Where the method stands, for a progress line."""

    goal: int  # the search looks for a hand with h >= goal
    lower: int  # the largest h of a hand found so far (the witness's)
    checks: int  # prefixes measured in this goal's search
    dropped: int  # of them dropped (K above N - goal, certified)
    done: float  # share of the first-level branches finished, 0..1
    seconds: float


@dataclass
class MaxH:
    """The answer: proved=True only when the search at goal max_h + 1 finished with no survivor."""

    max_h: int  # the largest h found (the witness's); the maximum itself when proved
    proved: bool
    upper: Optional[int]  # a proven upper bound (== max_h when proved); None when the last search did not finish
    witness: tuple[int, ...]  # per-kind counts of a hand with h = max_h (checked by the ordinary h)
    witness_target: tuple[int, ...]  # unit indices of one of its best targets
    real_tiles: int  # r0: real tiles every hand holds at least
    checks: int  # prefixes measured in all goals' searches
    proof_checks: int  # of them in the last goal's search (the proof when proved)
    certificates: int  # distinct completed targets that certified a drop
    seconds: float
    stopped: str = ""  # why it stopped short of a proof, with how far it got
    survivors: dict = field(default_factory=dict)  # last goal's search: size -> prefixes kept (K <= N - goal)
    timeline: list = field(default_factory=list)  # (seconds, goal, outcome) per goal


class _Stop(Exception):
    pass


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during the search: ``result`` is what it reached (not proved, ``stopped`` says where)."""

    def __init__(self, result: MaxH, exit_code: int = 130):
        super().__init__(result.stopped)
        self.result, self.exit_code = result, exit_code


# --------------------------------------------------------------------------------------------------
# Complete targets
# --------------------------------------------------------------------------------------------------

def target_counts(game: Game, units) -> tuple[int, ...]:
    counts = [0] * game.kinds
    for j in units:
        for k in game.units[j]:
            counts[k] += 1
    return tuple(counts)


def copy_bits(counts, copies: int) -> int:
    """Bit k * copies + c set where counts[k] > c (c < copies): for multisets of at most `copies` a kind,
    |A ∩ B| = sum_k min(a_k, b_k) is the popcount of their bits' AND."""
    bits = 0
    for k, n in enumerate(counts):
        if n:
            bits |= ((1 << min(n, copies)) - 1) << (k * copies)
    return bits


def filling_order(game: Game) -> list[int]:
    """Units, larger first: few of them fill a target's room (complete's order)."""
    return sorted(range(len(game.units)), key=lambda j: -len(game.units[j]))


def complete(game: Game, partial: tuple[int, ...], nodes: int = COMPLETION_NODES,
             order: list[int] | None = None) -> Optional[tuple[int, ...]]:
    """Units (indices, a sorted multiset) of total size N - len(partial) that fit beside `partial` (at most
    `copies` of a kind in all, in wildcard mode beyond that as many slots as there are そら to stand in), or None
    when none is found within `nodes` steps. `order`: filling_order(game), where the caller keeps it."""
    used = list(target_counts(game, partial))
    over = [sum(n - game.copies for n in used if n > game.copies)]  # slots only そら can fill
    if over[0] > game.stand_ins:
        return None
    room = game.hand_size - sum(len(game.units[j]) for j in partial)
    if room < 0:
        return None
    order = order or filling_order(game)
    chosen: list[int] = []
    budget = [nodes]

    def extra(j: int) -> int:  # the slots of unit j past the copies (a unit's members are distinct)
        return sum(1 for k in game.units[j] if used[k] >= game.copies)

    def rec(start: int, left: int) -> bool:
        if left == 0:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for pos in range(start, len(order)):
            j = order[pos]
            more = extra(j)
            if len(game.units[j]) <= left and over[0] + more <= game.stand_ins:
                for k in game.units[j]:
                    used[k] += 1
                chosen.append(j)
                over[0] += more
                if rec(pos, left - len(game.units[j])):
                    return True
                over[0] -= more
                chosen.pop()
                for k in game.units[j]:
                    used[k] -= 1
        return False

    return tuple(sorted(partial + tuple(chosen))) if rec(0, room) else None

# --------------------------------------------------------------------------------------------------
# The exhaustive search
# --------------------------------------------------------------------------------------------------

def kind_order(game: Game) -> list[int]:
    """Real kinds, those in the fewest small units first: hands that keep little hold them, so witnesses
    come early (the set of multisets searched does not depend on the order)."""
    small = [0] * game.kinds
    member = [0] * game.kinds
    for unit in game.units:
        for k in unit:
            member[k] += 1
            small[k] += len(unit) <= 2
    dead = set(game.dead) | {game.wild}
    return sorted((k for k in range(game.kinds) if k not in dead), key=lambda k: (small[k], member[k], k))


class _Search:
    """One rule set's searches; `search` is the ordinary exact search (solver.core.search.fast.search_for)."""

    def __init__(self, ev, game: Game, deadline: float | None, report: Callable[[Progress], None], start: float):
        from solver.core.search.fast import search_for

        self.ev, self.game, self.deadline, self.report, self.start = ev, game, deadline, report, start
        self.search = search_for(ev.rules)
        self.order = kind_order(game)
        self.real = max(0, game.hand_size - game.copies * len(game.dead))
        self.completions: dict[tuple[int, ...], tuple[int, bool]] = {}  # placed units -> (copy bits, completed)
        self.filling = filling_order(game)
        # the last certificates' placed units (each checked complete) as copy bits: a prefix that one of them keeps
        # more than the limit of is dropped on it, without a search
        self.recent: list[int] = []
        self.checks = 0
        self.survivors: dict[int, int] = {}
        self.lower = 0
        self.at: tuple[int, list[int], list[int]] | None = None  # the goal searched, its branch and counts

    def reached(self) -> str:
        """How far the search got, for a stop (budget or Ctrl-C)."""
        if self.at is None:
            return "before the first goal's search"
        goal, top, stats = self.at
        return f"goal {goal}: {top[0]} of {len(self.order)} first-level branches finished, {stats[0]} prefixes measured"

    def certified(self, counts: list[int], bits: int, limit: int) -> bool:
        """True when K(counts) > limit, proved by a complete target this function checks itself (`bits`: the
        counts as copy_bits). A recent certificate is tried first; else the ordinary search proposes one."""
        for target in self.recent:
            if (bits & target).bit_count() > limit:
                return True
        leaf = self.search.plain_leaf(counts)
        if leaf is None:
            raise MjError("no complete hand exists in this rule set: h is undefined")
        if leaf.kept <= limit:
            return False
        placed = tuple(sorted(leaf.placed))
        known = self.completions.get(placed)
        if known is None:  # (recounted here from the units, and completed to a whole target)
            known = self.completions[placed] = (copy_bits(target_counts(self.game, placed), self.game.copies),
                                                complete(self.game, placed, order=self.filling) is not None)
        target, ok = known
        if (bits & target).bit_count() <= limit or not ok:
            raise AssertionError(f"the search's target {placed} does not certify its kept count {leaf.kept}")
        self.recent.insert(0, target)
        del self.recent[RECENT:]
        return True

    def survivor(self, goal: int) -> tuple[Optional[tuple[int, ...]], int, int]:
        """(a multiset of r0 real tiles with K <= N - goal or None, checks, drops); _Stop at the deadline.
        self.survivors[size] counts the prefixes kept, for the record."""
        game, order, limit = self.game, self.order, game_limit(self.game, goal)
        counts = [0] * game.kinds
        bits = [0]  # counts as copy_bits
        stats = [0, 0]  # checks, drops
        kept = self.survivors = {}
        top = [0]
        self.at = (goal, top, stats)

        def tick() -> None:
            self.report(Progress(goal, self.lower, stats[0], stats[1], top[0] / max(1, len(order)),
                                 time.monotonic() - self.start))

        deadline = self.deadline if self.deadline is not None else float("inf")

        def rec(pos: int, size: int) -> bool:
            if size == self.real:
                return True
            for i in range(pos, len(order)):
                if size == 0:
                    top[0] = i
                k = order[i]
                if counts[k] == game.copies:
                    continue
                counts[k] += 1
                bit = 1 << (k * game.copies + counts[k] - 1)
                bits[0] |= bit
                if size + 1 > limit:
                    stats[0] += 1
                    if stats[0] % PROGRESS_EVERY == 0:
                        tick()
                    if time.monotonic() > deadline:  # (every check: one can take a while, QA)
                        raise _Stop(self.reached())
                    if self.certified(counts, bits[0], limit):
                        stats[1] += 1
                        counts[k] -= 1
                        bits[0] ^= bit
                        continue
                kept[size + 1] = kept.get(size + 1, 0) + 1
                if rec(i, size + 1):
                    return True
                counts[k] -= 1
                bits[0] ^= bit
            return False

        found = rec(0, 0)
        top[0] = len(order)
        return (tuple(counts) if found else None), stats[0], stats[1]

    def hand_of(self, real: tuple[int, ...]) -> tuple[int, ...]:
        """The real tiles padded with dead tiles to N."""
        counts = list(real)
        left = self.game.hand_size - sum(counts)
        for k in self.game.dead:
            counts[k] = min(self.game.copies, left)
            left -= counts[k]
        assert left == 0
        return tuple(counts)


def game_limit(game: Game, goal: int) -> int:
    """Largest kept count of a hand with h >= goal."""
    return game.hand_size - goal


def exact_h(ev, counts: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """(h, best target's units) by the ordinary search of the evaluator (it checks the hand)."""
    result = ev.h(Hand(tuple(counts), ()))
    if result.h is None:
        raise MjError("no complete hand exists in this rule set: h is undefined")
    return result.h, result.exchange.target


def max_h(ev, *, time_budget: float | None = None, progress: Callable[[Progress], None] | None = None) -> MaxH:
    """The largest h over all hands of ev's rule set (no calls, nothing seen); proved unless the budget ran out."""
    start = time.monotonic()
    game = Game.of(ev.rules)
    deadline = None if time_budget is None else start + time_budget
    run = _Search(ev, game, deadline, progress or (lambda _p: None), start)
    if run.real > len(run.order) * game.copies:
        raise MjError("the hand cannot be filled: too few kinds")
    witness = run.hand_of(_first_multiset(run.order, run.real, game.kinds, game.copies))
    lower, target = exact_h(ev, witness)
    run.lower = lower
    timeline: list = []
    goal_checks = 0

    def answer(proved: bool, stopped: str = "") -> MaxH:
        return MaxH(lower, proved, lower if proved else None, witness, tuple(target), run.real, run.checks,
                    goal_checks, len(run.completions), time.monotonic() - start, stopped=stopped, timeline=timeline,
                    survivors=dict(sorted(run.survivors.items())))

    try:
        while lower < game.hand_size:
            goal = lower + 1
            try:
                found, goal_checks, dropped = run.survivor(goal)
            except (_Stop, KeyboardInterrupt) as stop:  # (QA: the cut goal's prefixes were left out of checks only)
                goal_checks = run.at[2][0] if run.at is not None and run.at[0] == goal else 0
                run.checks += goal_checks
                if isinstance(stop, KeyboardInterrupt):
                    raise
                return answer(False, f"time budget: {stop}")
            run.checks += goal_checks
            if found is None:
                timeline.append((round(time.monotonic() - start, 2), goal, f"no hand ({goal_checks} checks)"))
                return answer(True)
            hand = run.hand_of(found)
            h, units = exact_h(ev, hand)
            if h < goal:
                raise AssertionError(f"a survivor of goal {goal} has h = {h} by the ordinary search")
            lower, witness, target = h, hand, units
            run.lower = lower
            timeline.append((round(time.monotonic() - start, 2), goal, f"h = {h} ({goal_checks} checks)"))
    except KeyboardInterrupt as exc:  # the witness so far and where the proof stood, not a bare stop
        raise Interrupted(answer(False, f"interrupted: {run.reached()}"), getattr(exc, "exit_code", 130)) from None
    return answer(True)  # h = N: nothing can be larger


def _first_multiset(order: list[int], size: int, kinds: int, copies: int) -> tuple[int, ...]:
    counts = [0] * kinds
    for k in order:
        take = min(copies, size)
        counts[k], size = take, size - take
    return tuple(counts)


def check_witness(ev, counts: tuple[int, ...]) -> tuple[int, int]:
    """The witness's h twice, independently: the ordinary search and the CP-SAT distance model (OPTIMAL)."""
    from solver.core.distance import exchange_distance

    hand = Hand(tuple(counts), ())
    return ev.h(hand).h, exchange_distance(ev.distance_model, hand).h
