"""The planner's entry point: per discard (or for a 12-tile hand as it stands) the exact P(win) and
E[score] over the draws left, the recommended play and the そら advice (docs/formulation.md section 8).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from solver.core.errors import HAND_SIZE, MjError
from solver.core.search.fast import search_for
from solver.core.hand import COPIES, Hand, check_hand, check_situation, Situation
from solver.core.rules import RuleSet
from solver.planning.recursion import STATE_LIMIT, Search, check_probability
from solver.planning.targets import NoWinScore, Targets, TooLarge, enumerate_targets

OBJECTIVES = ("win", "score")
DEFAULT_DETOUR = None  # None: the class "nearest" (fast at every depth); a number: targets within h + d
MAX_GAMES = 1_000_000  # sampled walls per discard for an estimate
MODEL = ("solo (docs/formulation.md section 8): the wall is every unseen copy, each equally likely; "
         "discards never return to the wall; no win after the last draw, the 12 tiles score as a hand that did not win")

Progress = Callable[[int, int, int], None]  # (roots done, roots in all, states visited)


@dataclass(frozen=True)
class SoraMove:
    use_now: bool  # send そら to the waiting room before the next draw
    take: int | None  # the tile to take from the waiting room
    value_if_used: Fraction | None  # the objective's value when using it now (best tile)
    value_if_waiting: Fraction  # the value when drawing without using it


@dataclass(frozen=True)
class DiscardPlan:
    tile: int | None  # the discard; None for a 12-tile hand as it stands
    win_probability: Fraction | None  # None when not computed (plan(both=False))
    expected_score: Fraction | None
    h: int | None  # exchange distance after the discard (None: no complete hand within the budget)
    live: int | None  # live copies of the kinds that lower h (None: not all such targets within the budget)
    sora: SoraMove | None = None  # fetch mode, a そら held: its use before the next draw (chosen objective)
    win_interval: tuple[float, float] | None = None  # an estimate's 95 % interval (None: the value is exact)
    score_interval: tuple[float, float] | None = None


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

    @property
    def method(self) -> str:
        return "exact" if self.games is None else "estimate"

    @property
    def recommended(self) -> DiscardPlan:
        return self.discards[0]


def wall_counts(rules: RuleSet, hand: Hand, unseen_elsewhere: tuple[int, ...]) -> list[int]:
    totals = hand.totals(rules)
    return [COPIES - totals[k] - (unseen_elsewhere[k] if unseen_elsewhere else 0) for k in range(len(totals))]


NEAREST = ("nearest: of the complete hands within h exchanges of the starting hand, only those at the lowest "
           "h stay in play (a drawn tile is kept only when it lowers h, a discard keeps h at its lowest, a hand "
           "that falls behind is dropped for good; so a ready hand keeps its wait)")


def class_labels(rules: RuleSet, budget: int, detour: int | None, lossless: bool, sora_note: str) -> dict[str, str]:
    if lossless:  # every win within the turns is listed and every discard is tried
        narrow = f"targets within {budget} exchanges (every win within the turns){sora_note}"
    elif detour is None:
        narrow = NEAREST + sora_note
    else:
        narrow = (f"targets within {budget} exchanges (h+{detour}); drawn tiles of other kinds discarded at once; "
                  f"discards keep h within {detour} of the lowest{sora_note}")
    win = "all play" if lossless and not sora_note else narrow
    if win == "all play" and not rules.scores_no_win:
        score = "all play"
    else:
        score = narrow + "; while junk is held only junk is discarded; once no target is within reach the hand is kept as it is"
    return {"win_probability": win, "expected_score": score}


@dataclass
class Prepared:
    """Everything a plan's roots share: targets, positions, the searches (one per objective) and the start."""

    targets: Targets
    positions: list[int]
    searches: dict[str, Search]
    start: tuple[int, ...]  # the hand over positions, plus the collapsed-junk slot
    wall: list[int]  # live copies per kind
    wall_r: tuple[int, ...]  # ... over the relevant kinds
    room_r: tuple[int, ...]
    W0: int
    h0: int | None
    budget: int
    labels: dict[str, str]
    sora: int | None  # position of そら when fetch mode applies

    @property
    def nr(self) -> int:
        return len(self.targets.relevant)


def prepare(rules: RuleSet, hand: Hand, *, turns: int, objectives: tuple[str, ...], seen: tuple[int, ...] = (),
            waiting_room: tuple[int, ...] = (), favourite: int | None = None, detour: int | None = DEFAULT_DETOUR,
            state_limit: int = STATE_LIMIT) -> Prepared:
    if any(obj not in OBJECTIVES for obj in objectives):
        raise MjError(f"objective must be win or score, not {objectives[0]!r}")
    if rules.sora_mode == "wildcard" and rules.tiles.sora is not None:
        raise MjError(f"the planner does not model そら as a wildcard (rule set {rules.name}) yet")
    if detour is not None and detour < 0:
        raise MjError("--detour must be 0 or more")
    kinds = len(hand.concealed)
    room = [0] * kinds
    for k in waiting_room:
        room[k] += 1
    out_of_wall = tuple((seen[k] if seen else 0) + room[k] for k in range(kinds))
    check_hand(hand, rules, seen=out_of_wall)
    check_situation(hand, rules, Situation(favourite=favourite))
    size = hand.size(rules)
    if size not in (rules.hand_size - 1, rules.hand_size):
        raise MjError(f"a hand holds {rules.hand_size - 1} or {rules.hand_size} tiles", HAND_SIZE)
    wall = wall_counts(rules, hand, out_of_wall)
    W0 = sum(wall)
    if not 1 <= turns <= W0:
        raise MjError(f"--turns must be between 1 and the {W0} unseen tiles, not {turns}")

    sora = rules.tiles.sora
    fetch = rules.sora_mode == "fetch" and sora is not None and hand.concealed[sora] > 0
    fetch_extra = min(hand.concealed[sora], turns) if fetch else 0
    h0 = distance(rules, hand, out_of_wall)
    need = turns + fetch_extra  # exchanges a win within the turns can use: draws plus fetches
    budget = need if h0 is None else min(need, h0 + (detour or 0))  # "nearest": the targets at h
    targets = enumerate_targets(rules, hand, out_of_wall, budget, favourite)
    live_sora = fetch and wall[sora] > 0
    sora_note = "; drawn そら discarded at once" if live_sora else ""
    if fetch and detour is None:  # the recursion narrows play only where no fetch can follow
        sora_note += "; while そら can fetch from the waiting room, every listed hand within reach stays in play"
    lossless = budget >= need and (detour is not None or turns == 1)
    labels = class_labels(rules, budget, detour, lossless, sora_note)

    positions = list(targets.relevant) + [k for k in range(kinds) if hand.concealed[k] and k not in targets.relevant]
    sora_pos = positions.index(sora) if fetch else None
    compact = {tuple(t[k] for k in targets.relevant): s for t, s in targets.counts.items()}
    nowin = NoWinScore(rules, hand.called, favourite)
    searches = {obj: Search(positions=positions, n_relevant=len(targets.relevant), targets=compact, nowin=nowin,
                            kinds=kinds, objective=obj, sora_pos=sora_pos,
                            slack=None if lossless else (detour or 0), state_limit=state_limit,
                            nearest=detour is None and not lossless) for obj in objectives}
    start = tuple(hand.concealed[k] for k in positions) + (0,)  # the last slot: collapsed junk
    return Prepared(targets, positions, searches, start, wall, tuple(wall[k] for k in targets.relevant),
                    tuple(room[k] for k in targets.relevant), W0, h0, budget, labels, sora_pos)


def plan(rules: RuleSet, hand: Hand, *, turns: int, objective: str = "win", seen: tuple[int, ...] = (),
         waiting_room: tuple[int, ...] = (), favourite: int | None = None, detour: int | None = DEFAULT_DETOUR,
         state_limit: int = STATE_LIMIT, progress: Progress | None = None, both: bool = True,
         estimate: int | None = None, seed: int = 0) -> Plan:
    """Exact values for the model of docs/formulation.md section 8 within the class it names.

    `both`: also compute the other objective's number (else it is None). `estimate`: when the exact
    plan passes `state_limit`, play the named policy of solver/planning/estimate.py in this many
    sampled walls instead (the plan says so: method "estimate", 95 % intervals); None: stop.
    """
    computed = OBJECTIVES if both else (objective,)
    if objective not in OBJECTIVES:
        raise MjError(f"objective must be win or score, not {objective!r}")
    if estimate is not None and not 2 <= estimate <= MAX_GAMES:
        raise MjError(f"--estimate must be between 2 and {MAX_GAMES} games, not {estimate}")
    prep = prepare(rules, hand, turns=turns, objectives=computed, seen=seen, waiting_room=waiting_room,
                   favourite=favourite, detour=detour, state_limit=state_limit)
    start, nr = prep.start, prep.nr
    thirteen = hand.size(rules) == rules.hand_size
    choices = [i for i, n in enumerate(start) if n] if thirteen else [None]
    search = prep.searches[objective]
    roots = [search.discarded(start, prep.room_r, c) if c is not None else (start, prep.room_r) for c in choices]
    try:
        rows, labels, games = exact_rows(prep, objective, choices, roots, turns, progress), prep.labels, None
    except TooLarge:
        if estimate is None:
            raise
        rows, labels, games = estimated_rows(prep, objective, choices, roots, turns, estimate, seed, progress), \
            estimate_labels(estimate), estimate
    for i, (row, choice) in enumerate(zip(rows, choices)):
        kept = hand if choice is None else hand.remove(prep.positions[choice])
        h_after, live = acceptance(prep.targets, kept, prep.wall, prep.budget)
        rows[i] = replace(row, h=h_after, live=live)
    first, second = ("win_probability", "expected_score") if objective == "win" else \
        ("expected_score", "win_probability")

    def key(row: DiscardPlan) -> tuple:
        other = getattr(row, second)
        return getattr(row, first), -1 if other is None else other
    rows.sort(key=key, reverse=True)
    complete = thirteen and not any(start[nr:]) and start[:nr] in search.scores
    tsumo = search.scores.get(start[:nr]) if complete else None
    return Plan(turns, objective, prep.budget, prep.h0, complete, tsumo, tuple(rows), labels,
                sum(s.visited for s in prep.searches.values()), prep.W0, games)


def exact_rows(prep: Prepared, objective: str, choices, roots, turns: int, progress: Progress | None) -> list[DiscardPlan]:
    """Every root's first move for each objective computed; the second objective's search runs in a forked
    process beside this one where that is safe (side.py), else after the first."""
    from solver.planning.side import Side, SideLost, can_split, orphan_check

    searches, positions = prep.searches, prep.positions
    others = [obj for obj in searches if obj != objective]
    side = None
    if others and can_split():
        other, parent = searches[others[0]], os.getpid()

        def run_other():
            other.tick = orphan_check(parent)  # and no progress drawn: the terminal is the parent's
            return first_moves(prep, other, roots, turns, lambda: None), other.visited
        try:
            side = Side(run_other)
        except OSError:  # no process to be had: search here
            side = None
    try:
        done, total = [0], len(roots) * (1 if side else len(searches))

        def tick() -> None:
            done[0] += 1
            if progress:
                progress(done[0], total, sum(s.visited for s in searches.values()))
        for search in searches.values():
            search.tick = (lambda states: progress(done[0], total, states)) if progress else None
        moves = {objective: first_moves(prep, searches[objective], roots, turns, tick)}
        for obj in others:
            try:
                if side:
                    moves[obj], searches[obj].visited = side.result()
                    continue
            except SideLost:  # the child died: its search runs here, the same answer later
                pass
            moves[obj] = first_moves(prep, searches[obj], roots, turns, tick)
    finally:
        if side:
            side.close()
    rows = []
    for n, (choice, (hand12, _)) in enumerate(zip(choices, roots)):
        sora_move = None
        if prep.sora is not None and hand12[prep.sora]:
            move = moves[objective][n]
            sora_move = SoraMove(move.take is not None, None if move.take is None else positions[move.take],
                                 move.value if move.take is not None else None, move.wait_value)
        rows.append(DiscardPlan(None if choice is None else positions[choice],
                                check_probability(moves["win"][n].value) if "win" in moves else None,
                                moves["score"][n].value if "score" in moves else None, None, None, sora_move))
    return rows


def first_moves(prep: Prepared, search, roots, turns: int, tick) -> list:
    out = []
    for hand12, room12 in roots:
        out.append(search.first_move(hand12, prep.wall_r, room12, prep.W0, turns))
        tick()
    return out


def estimated_rows(prep: Prepared, objective: str, choices, roots, turns: int, games: int, seed: int,
                   progress: Progress | None) -> list[DiscardPlan]:
    from solver.planning.estimate import simulate

    search = prep.searches[objective]
    tick = (lambda done: progress(done, len(roots), games * done)) if progress else None
    sampled = simulate(search, [hand12 for hand12, _ in roots], prep.wall_r, prep.W0, turns, games, seed, tick)
    return [DiscardPlan(None if c is None else prep.positions[c], s.win_probability, s.expected_score, None, None,
                        win_interval=s.win_interval(), score_interval=s.score_interval())
            for c, s in zip(choices, sampled)]


def estimate_labels(games: int) -> dict[str, str]:
    from solver.planning.estimate import POLICY

    what = f"estimate past the exact frontier: Monte Carlo of the policy ({POLICY}) over {games} sampled walls"
    return {"win_probability": what + ", 95 % Wilson interval",
            "expected_score": what + ", 95 % normal interval"}


def distance(rules: RuleSet, hand: Hand, out_of_wall: tuple[int, ...]) -> int | None:
    """h with every tile out of the wall treated as seen (the exact search of solver/core/search/tile_search.py)."""
    return search_for(rules).h(hand, out_of_wall)


def acceptance(targets: Targets, hand: Hand, wall: list[int], budget: int) -> tuple[int | None, int | None]:
    """(h, live copies of the kinds that lower it) of a 12-tile hand, from the targets within the budget.

    A target costs no more from the starting hand than from this hand (one tile fewer), so when the
    least cost found is within the budget, every optimal target of this hand was enumerated and both
    numbers are exact; otherwise they are None rather than guessed.
    """
    held = hand.concealed
    costs = {t: sum(max(0, c - held[k]) for k, c in enumerate(t)) for t in targets.counts}
    if not costs:
        return None, None
    h = min(costs.values())
    if h > budget:
        return None, None
    kinds = {k for t, c in costs.items() if c == h for k, n in enumerate(t) if n > held[k]}
    return h, sum(wall[k] for k in kinds)
