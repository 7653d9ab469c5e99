"""What every root of a plan shares (docs/formulation.md section 8): the targets within the budget the play
allows, the positions, one search per objective, the start, and the labels of the class of play."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter

from solver.core.errors import HAND_SIZE, MjError
from solver.core.hand import COPIES, Hand, Situation, check_hand, check_room, check_situation
from solver.core.rules import RuleSet
from solver.core.wording import count
from solver.core.search.fast import search_for
from solver.planning import clock as share
from solver.planning.recursion import STATE_LIMIT, Search
from solver.planning.request import Position
from solver.planning.targets import LIST_UNITS, NoWinScore, Targets, enumerate_targets


def wall_counts(rules: RuleSet, hand: Hand, unseen_elsewhere: tuple[int, ...]) -> list[int]:
    totals = hand.totals(rules)
    return [COPIES - totals[k] - (unseen_elsewhere[k] if unseen_elsewhere else 0) for k in range(len(totals))]


NEAREST = ("nearest: of the complete hands within h exchanges of the starting hand, only those at the lowest "
           "h stay in play (a drawn tile is kept only when it lowers h, a discard keeps h at its lowest, a hand "
           "that falls behind is dropped for good; so a ready hand keeps its wait)")


def class_labels(rules: RuleSet, budget: int, detour: int | None, lossless: bool, sora_note: str) -> dict[str, str]:
    if lossless:  # every win within the turns is listed and every discard is tried
        narrow = f"targets within {count(budget, 'exchange')} (every win within the turns){sora_note}"
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
    # a fetch could bring back a waiting-room copy (a そら held, or one live with two draws left): the listed hands
    # leave the room out and a drawn そら is discarded at once, so neither the class nor the relaxation is all play
    fetch_unsearched: bool = False

    @property
    def nr(self) -> int:
        return len(self.targets.relevant)


def position_counts(rules: RuleSet, position: Position, turns: int):
    """The position over all kinds: (seen, waiting room, live wall, the fetches the そら held can make in the turns)."""
    hand, kinds = position.hand, len(position.hand.concealed)
    seen = tuple(position.seen[k] if position.seen else 0 for k in range(kinds))
    room = [0] * kinds
    for k in position.waiting_room:
        room[k] += 1
    check_room(hand, rules, seen, tuple(room))  # (said with the waiting room, which check_hand would call seen)
    wall = wall_counts(rules, hand, tuple(s + r for s, r in zip(seen, room)))
    sora = rules.tiles.sora
    fetches = min(hand.concealed[sora], turns) if rules.sora_mode == "fetch" and sora is not None else 0
    return seen, tuple(room), tuple(wall), fetches


def fetch_could_follow(rules: RuleSet, wall, fetches: int, turns: int) -> bool:
    """A fetch could follow in the turns (fetch mode): a そら held, or one live with two draws left (one to draw it,
    a later one to fetch before)."""
    sora = rules.tiles.sora
    return rules.sora_mode == "fetch" and sora is not None and (fetches > 0 or (wall[sora] > 0 and turns >= 2))


def about(count: int) -> str:
    """A rough count as a person reads it: digits grouped, or past a billion its order of magnitude."""
    if count < 10 ** 9:
        return f"{count:,}"
    exponent = int(count.bit_length() * 0.30103)  # log10 2: within one of the digits, set right below
    while count >= 10 ** exponent:  # (not through float, nor str past Python's 4,300 digits: e.g. --turns 3000)
        exponent += 1
    while count < 10 ** (exponent - 1):
        exponent -= 1
    leading = count // 10 ** (exponent - 2)
    return f"{leading // 10}.{leading % 10} x 10^{exponent - 1}"


def check_turns(turns: int, unseen: int) -> None:
    if unseen == 0:
        raise MjError("no tile is left to draw: every copy is in the hand, seen or in the waiting room")
    if not 1 <= turns <= unseen:
        raise MjError(f"turns must be between 1 and the {unseen} unseen tiles, not {turns}")


def rough_states(rules: RuleSet, position: Position, turns: int, depth: int) -> int:
    """A rough count of an exact search's states, (roots) x (live kinds)^depth, so that a search that would plainly
    pass --max-states is not started (its budget then goes to the bracket): it decides whether to search, never a
    value. The searches measured (bench/README.md) stay within a few times it at their depth."""
    _, _, wall, _ = position_counts(rules, position, turns)
    check_turns(turns, sum(wall))
    hand = position.hand
    roots = sum(1 for n in hand.concealed if n) if hand.size(rules) == rules.hand_size else 1
    return roots * sum(1 for n in wall if n) ** max(0, depth)


def reach_with_room(rules: RuleSet, position: Position, turns: int, deadline: float | None = None) -> Targets:
    """Every complete hand a play with every fetch can end in: the waiting room's copies available (only the seen
    tiles out), within the draws plus the fetches of the そら held (a fetch replaces a そら, held or drawn)."""
    seen, _, _, fetches = position_counts(rules, position, turns)
    return enumerate_targets(rules, position.hand, seen, turns + fetches, position.favourite, deadline=deadline)


def prepare(rules: RuleSet, position: Position, *, turns: int, objectives: tuple[str, ...], play: str = "optimal",
            detour: int | None = None, state_limit: int = STATE_LIMIT, deadline: float | None = None) -> Prepared:
    """`play`: "optimal" (every win within the turns listed, every discard tried), "nearest" or "detour"
    (targets within h + `detour`). `deadline`: time.monotonic() past which the searches stop (OutOfTime)."""
    hand, favourite = position.hand, position.favourite
    if rules.sora_mode == "wildcard" and rules.tiles.sora is not None:
        raise MjError(f"the planner does not model そら as a wildcard yet (rule set {rules.name}: a そら held or drawn "
                      "stands in for any idol), so it plans under the other rule sets only")
    if len(rules.units) > LIST_UNITS:  # (QA: a house catalogue of 6,796 units ended in planc_list.c's ValueError)
        raise MjError(f"the planner lists complete hands over at most {LIST_UNITS:,} units; rule set {rules.name} has "
                      f"{len(rules.units):,}")
    kinds = len(hand.concealed)
    seen, room, wall, fetch_extra = position_counts(rules, position, turns)
    out_of_wall = tuple(s + r for s, r in zip(seen, room))
    check_hand(hand, rules, seen=out_of_wall)
    check_situation(hand, rules, Situation(favourite=favourite))
    size = hand.size(rules)
    if size not in (rules.hand_size - 1, rules.hand_size):
        raise MjError(f"a hand holds {rules.hand_size - 1} or {rules.hand_size} tiles", HAND_SIZE)
    wall = list(wall)
    W0 = sum(wall)
    check_turns(turns, W0)

    sora = rules.tiles.sora
    fetch = fetch_extra > 0
    h0 = distance(rules, hand, out_of_wall)
    need = turns + fetch_extra  # exchanges a win within the turns can use: draws plus fetches
    if play == "optimal":
        detour = need  # every win within the turns is listed (budget = need) and every discard tried
    elif play == "nearest":
        detour = None
    budget = need if h0 is None else min(need, h0 + (detour or 0))  # "nearest": the targets at h
    targets = enumerate_targets(rules, hand, out_of_wall, budget, favourite, deadline=deadline)
    live_sora = sora is not None and rules.sora_mode == "fetch" and wall[sora] > 0
    fetch_unsearched = fetch_could_follow(rules, wall, fetch_extra, turns)
    sora_note = "; drawn そら discarded at once" if live_sora and (fetch or turns >= 2) else ""
    if fetch_unsearched:
        sora_note += "; a fetch of a waiting-room copy is tried only for the hands listed without the room"
    if fetch and detour is None:  # the recursion narrows play only where no fetch can follow
        sora_note += "; while そら can fetch from the waiting room, every listed hand within reach stays in play"
    lossless = budget >= need and (detour is not None or turns == 1)
    labels = class_labels(rules, budget, detour, lossless, sora_note)

    positions = list(targets.relevant) + [k for k in range(kinds) if hand.concealed[k] and k not in targets.relevant]
    sora_pos = positions.index(sora) if fetch else None
    share.affordable(deadline, len(targets.counts) * len(objectives), "the exact plan")
    pick = picker(targets.relevant)
    compact = {pick(t): s for t, s in targets.counts.items()}
    nowin = NoWinScore(rules, hand.called, favourite)
    searches = {obj: Search(positions=positions, n_relevant=len(targets.relevant), targets=compact, nowin=nowin,
                            kinds=kinds, objective=obj, sora_pos=sora_pos,
                            slack=None if lossless else (detour or 0), state_limit=state_limit,
                            nearest=detour is None and not lossless) for obj in objectives}
    for search in searches.values():
        search.deadline = deadline
    share.check(deadline, "the exact plan")  # (the builds above take seconds on a long list, reading no clock)
    start = tuple(hand.concealed[k] for k in positions) + (0,)  # the last slot: collapsed junk
    return Prepared(targets, positions, searches, start, wall, tuple(wall[k] for k in targets.relevant),
                    tuple(room[k] for k in targets.relevant), W0, h0, budget, labels, sora_pos, fetch_unsearched)



def picker(kinds) -> Callable[[tuple], tuple]:
    """A function giving a tuple's entries at `kinds` as a tuple (itemgetter, 2x a generator on 50,000 listed hands,
    where one kind alone would give a bare entry)."""
    kinds = tuple(kinds)
    if len(kinds) >= 2:
        return itemgetter(*kinds)
    return lambda row: tuple(row[k] for k in kinds)


ACCEPT_WORK = 200_000  # nodes of the exact search per row's acceptance (a few ms; past it the row shows none)


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
    kinds = [k for k, n in enumerate(held) if n]
    costs = {}
    for t in targets.counts:  # the cost is the sum of the target's counts less the held copies it covers
        costs[t] = sum(t) - sum(min(t[k], held[k]) for k in kinds)
    if not costs:
        return None, None
    h = min(costs.values())
    if h > budget:
        return None, None
    kinds = {k for t, c in costs.items() if c == h for k, n in enumerate(t) if n > held[k]}
    return h, sum(wall[k] for k in kinds)


def acceptances(targets: Targets, hands: list[Hand], wall: list[int], budget: int) -> list[tuple[int | None, int | None]]:
    """acceptance of each hand, by one matrix of the targets' counts (the same numbers, in one pass each)."""
    import numpy as np

    if not targets.counts:
        return [(None, None)] * len(hands)
    matrix = np.array(list(targets.counts), dtype=np.int16)
    sizes = matrix.sum(1)
    live = np.array(wall)
    out = []
    for hand in hands:
        held = np.array(hand.concealed, dtype=np.int16)
        costs = sizes - np.minimum(matrix, held).sum(1)
        h = int(costs.min())
        if h > budget:
            out.append((None, None))
            continue
        lowering = (matrix[costs == h] > held).any(0)
        out.append((h, int(live[lowering].sum())))
    return out


def searched_acceptance(rules: RuleSet, hand: Hand, out_of_wall: tuple[int, ...],
                        wall: list[int]) -> tuple[int | None, int | None]:
    """(h, live acceptance) of a 12-tile hand that the listed targets do not reach (a class lists only those near
    the start: a discard that raises h leaves them), from the exact search (tile_search.py); None past its work."""
    got = search_for(rules).accepted(hand, out_of_wall, limit=ACCEPT_WORK, witnesses=False)
    if got is None or got[0] is None:
        return None, None
    return got[0], sum(wall[k] for k in got[1])


def root_states(prep: Prepared, rules: RuleSet, position: Position) -> tuple[list, list]:
    """The first moves (a discard's position, or None for a 12-tile hand as it stands) and the (hand, room)
    each leaves, in the searches' positions."""
    start = prep.start
    thirteen = position.hand.size(rules) == rules.hand_size
    choices = [i for i, n in enumerate(start) if n] if thirteen else [None]
    search = next(iter(prep.searches.values()))
    roots = [search.discarded(start, prep.room_r, c) if c is not None else (start, prep.room_r) for c in choices]
    return choices, roots
