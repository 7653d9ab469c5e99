"""Turn analysis (docs/rules.md section 6), exact: exchanges, per-discard acceptance, waits, calls, そら.

Everything here is built on two exact primitives (enumerate.py): the distinct optimal exchanges of
a hand, and the kinds whose draw lowers h. A discarded tile counts as seen afterwards (it lies in
the waiting room), so it is never its own acceptance (D9 in docs/formulation.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from solver.core.search import fast
from solver.core.distance import exchange_distance
from solver.core.enumerate import accepted_with_witnesses, distinct_exchanges
from solver.core.exchanges import listed_exchanges
from solver.core.hand import COPIES, Hand, Situation, check_discard, check_hand, check_room, check_situation
from solver.core.model import DistanceModel
from solver.core.present import UnitsPresent, units_present
from solver.core.results import Exchange, ScoreResult
from solver.core.rules import RuleSet
from solver.core.score import best_score


FAST = True  # h and acceptance from the combinatorial search (False: every answer from CP-SAT, for tests)


def _accepted(dm: DistanceModel, hand: Hand, seen: tuple[int, ...], seeds=(), kept_bound: int | None = None
              ) -> tuple[int | None, list[int], list[tuple[int, ...]]]:
    if FAST:
        h, kinds, targets = fast.accepted(dm, hand, seen, seeds)
        return h, kinds, [] if dm.wildcard else targets  # wildcard targets need their そら slots
    return accepted_with_witnesses(dm, hand, seen, seeds, kept_bound)


def _h(dm: DistanceModel, hand: Hand, seen: tuple[int, ...]) -> int | None:
    if FAST:
        check_hand(hand, dm.rules, seen=seen)
        return fast.search_for(dm.rules).h(hand, seen)
    return exchange_distance(dm, hand, seen).h


def _exchanges(dm: DistanceModel, hand: Hand, seen: tuple[int, ...], limit: int,
               known: list[tuple[int, ...]] | tuple = ()) -> tuple[int | None, list[Exchange], bool]:
    """(h, the distinct optimal exchanges up to `limit`, whether all are listed): the search's walk,
    or the CP-SAT enumeration past the walk's work limit (and for tests, FAST = False)."""
    if FAST:
        listed = listed_exchanges(fast.search_for(dm.rules), dm.rules, hand, seen, limit)
        if listed is not None:
            return listed
    return distinct_exchanges(dm, hand, seen, limit, known)


def _win_totals(rules: RuleSet, full: Hand, tile: int, favourite: int | None) -> tuple[int | None, int | None]:
    """Scores of the win by tsumo and by ron on `tile` (None: no win), as best_score gives them. Each call first
    checks the analysis' time budget (TileSearch.within): the scorer reads no clock, and a house of 10,000 units
    takes 0.3 s a wait (QA: 53 waits ran 15 s past a budget of 1 s)."""
    fast.search_for(rules).passed()
    tsumo, ron = Situation("tsumo", favourite=favourite), Situation("ron", tile, favourite)
    wild_ron = rules.sora_mode == "wildcard" and tile == rules.tiles.sora and rules.spec.ron_minus_member
    if not FAST or wild_ron:  # the edge cases (an undefined score raises) stay with best_score
        ron_score = best_score(full, rules, ron)
        return best_score(full, rules, tsumo).total, ron_score.total if ron_score.won else None
    check_hand(full, rules)
    check_situation(full, rules, ron)
    scorer = fast.scorer_for(rules)
    no_ron = tile == rules.tiles.shika and not rules.spec.ron_on_shika  # D2
    total = scorer.total(full, tsumo)
    if no_ron or total is None:
        return total, None
    # without a ron deduction the ron tile's unit costs nothing: the same decompositions, the same best
    return total, scorer.total(full, ron) if rules.spec.ron_minus_member else total


@dataclass(frozen=True)
class Accept:
    tile: int
    live: int  # copies still unseen: 3 - in hand - in calls - seen


@dataclass(frozen=True)
class Wait:
    tile: int
    live: int  # 0: a dead wait, every copy visible (D3)
    tsumo: int | None  # score of the win by self-draw
    ron: int | None  # score of the win on a discard; None where ron is not a win (詩花)


@dataclass(frozen=True)
class DiscardRow:
    tile: int  # the discard (for a 12-tile hand's draw table: -1)
    h: int | None
    accept: tuple[Accept, ...]
    waits: tuple[Wait, ...] = ()  # when h == 1 after this discard

    @property
    def live(self) -> int:
        return sum(a.live for a in self.accept)


@dataclass(frozen=True)
class CallOption:
    unit: int
    discard: int
    h: int | None  # h after calling and discarding
    lowers: bool  # False: the call is a mistake (seed 000 step 3)


@dataclass(frozen=True)
class SoraOption:
    take: int
    h: int | None


@dataclass(frozen=True)
class SoraAdvice:
    h_now: int | None
    options: tuple[SoraOption, ...]  # best first

    @property
    def use_now(self) -> bool:
        return bool(self.options) and self.h_now is not None and self.options[0].h is not None \
            and self.options[0].h < self.h_now


@dataclass(frozen=True)
class Analysis:
    size: int
    present: UnitsPresent
    complete: bool
    h: int | None
    score: ScoreResult | None
    exchanges: tuple[Exchange, ...]
    exchanges_complete: bool
    discards: tuple[DiscardRow, ...]  # 13 tiles: per discard; 12 tiles: one row for the next draw
    waits: tuple[Wait, ...]
    calls: tuple[CallOption, ...] = ()
    call_tile: int | None = None
    ron_on_call_tile: Wait | None = None
    sora: SoraAdvice | None = None
    notes: tuple[str, ...] = field(default=())
    callable: tuple = ()  # 12 tiles: every tile another player could discard that can be called or won on (calls.py)


def seen_plus(seen: tuple[int, ...], kind: int, size: int) -> tuple[int, ...]:
    """Seen counts with one more `kind` (e.g. a discard, which lies in the waiting room: D9)."""
    counts = list(seen) if seen else [0] * size
    counts[kind] += 1
    return tuple(counts)


# The tables' orders, where they are built and where the waiting room's copies are taken out again (_room_out)
def accept_order(a: Accept) -> tuple:
    return -a.live, a.tile


def wait_order(w: Wait) -> tuple:
    return -w.live, -(w.tsumo or 0), w.tile


def row_order(r: DiscardRow) -> tuple:
    return r.h if r.h is not None else 99, -r.live, r.tile


def live_count(hand: Hand, rules: RuleSet, seen: tuple[int, ...], kind: int) -> int:
    called = hand.called_counts(rules)[kind]
    return max(0, COPIES - hand.concealed[kind] - called - (seen[kind] if seen else 0))


def acceptance(dm: DistanceModel, hand: Hand, seen: tuple[int, ...], pool: list[tuple[int, ...]] | None = None,
               kept_bound: int | None = None) -> tuple[int | None, tuple[Accept, ...]]:
    """h of a 12-tile hand and the draws that lower it, most live copies first.

    `pool` holds optimal targets of related hands: offered as witnesses (each re-verified for this
    hand), and grown with this hand's own; `kept_bound` bounds the tiles a target can keep.
    """
    h, kinds, targets = _accepted(dm, hand, seen, pool or (), kept_bound)
    if pool is not None:
        pool.extend(targets)
    rows = [Accept(t, live_count(hand, dm.rules, seen, t)) for t in kinds]
    return h, tuple(sorted(rows, key=accept_order))


def waits(dm: DistanceModel, hand: Hand, seen: tuple[int, ...], favourite: int | None,
          unseen: tuple[int | None, list[int]] | None = None) -> tuple[Wait, ...]:
    """Every tile that completes a hand one tile from winning, with tsumo and ron scores.

    Waits are found without the seen tiles (physics only) so a wait whose copies are all visible is
    shown as dead (live 0), not hidden (D3). `unseen`: (h, accepted kinds) already found without seen tiles.
    """
    rules = dm.rules
    h, kinds = unseen if unseen is not None else _accepted(dm, hand, ())[:2]
    if h != 1:
        return ()
    found = []
    for t in kinds:
        tsumo, ron = _win_totals(rules, hand.add(t), t, favourite)
        found.append(Wait(t, live_count(hand, rules, seen, t), tsumo, ron))
    return tuple(sorted(found, key=wait_order))


def discard_table(dm: DistanceModel, hand: Hand, seen: tuple[int, ...], favourite: int | None,
                  known: tuple[int | None, list[tuple[int, ...]]] | None = None) -> tuple[DiscardRow, ...]:
    """For a 13-tile hand: each distinct discard, the h after it and the draws that lower that h.

    Optimal targets of the full hand are optimal after any discard (those that drop the discarded
    tile keep h; if h rises by one, all of them), so they seed every row's witnesses. `known` is the
    full hand's (h, verified optimal targets) when the caller has them.
    """
    size = len(hand.concealed)
    if known is None:
        h13, _, targets = _accepted(dm, hand, seen)
    else:
        h13, targets = known
    pool = list(targets)
    # a discard never lets a target keep more tiles than the full hand's optimum did
    slots = dm.rules.concealed_slots(hand.called)
    bound = None if h13 is None else slots - h13
    rows = []
    for kind in sorted({k for k, n in enumerate(hand.concealed) if n}):
        rest, after = hand.remove(kind), seen_plus(seen, kind, size)
        h, accept = acceptance(dm, rest, after, pool, bound)
        rows.append(DiscardRow(kind, h, accept, waits(dm, rest, after, favourite) if h == 1 else ()))
    return tuple(sorted(rows, key=row_order))


def call_options(dm: DistanceModel, hand: Hand, tile: int, seen: tuple[int, ...]) -> tuple[CallOption, ...]:
    """For a 12-tile hand and another player's discard: every unit it can be called into (3+ members,
    every other member held), each discard afterwards, and whether that lowers h."""
    rules = dm.rules
    h_now = _h(dm, hand, seen)
    options = []
    for u in rules.units_of_kind[tile]:
        unit = rules.units[u]
        others = [k for k in unit.members if k != tile]
        if unit.size < 3 or any(hand.concealed[k] == 0 for k in others):
            continue
        concealed = list(hand.concealed)
        for k in others:
            concealed[k] -= 1
        called = Hand(tuple(concealed), tuple(sorted(hand.called + (u,))))
        for kind in sorted({k for k, n in enumerate(concealed) if n}):
            rest = called.remove(kind)
            h_after = _h(dm, rest, seen_plus(seen, kind, len(concealed)))
            lowers = h_after is not None and (h_now is None or h_after < h_now)
            options.append(CallOption(u, kind, h_after, lowers))
    return tuple(sorted(options, key=lambda o: (o.h if o.h is not None else 99, o.unit, o.discard)))


def sora_advice(dm: DistanceModel, hand: Hand, room: list[int], seen: tuple[int, ...]) -> SoraAdvice | None:
    """Whether sending そら to the waiting room now and taking one of its tiles lowers h, and which."""
    sora = dm.rules.tiles.sora
    if sora is None or hand.concealed[sora] == 0:
        return None
    h_now = _h(dm, hand, seen)
    options = []
    for kind in sorted(set(room) - {sora}):
        taken = hand.remove(sora).add(kind)
        if taken.totals(dm.rules)[kind] > COPIES:
            continue
        # そら goes to the waiting room; the taken tile leaves it (the room is not in `seen`: a seen copy stays seen,
        # QA: taking one off had let a target hold a 4th copy)
        h_after = _h(dm, taken, seen_plus(seen, sora, len(hand.concealed)))
        options.append(SoraOption(kind, h_after))
    options.sort(key=lambda o: (o.h if o.h is not None else 99, o.take))
    return SoraAdvice(h_now, tuple(options))


def exchanges_from_table(dm: DistanceModel, hand: Hand, rows: tuple[DiscardRow, ...]) -> list[Exchange]:
    """At h = 1 the optimal exchanges are exactly (out d, in t) for t accepted after discarding d;
    each reaches its best-scoring decomposition."""
    rules = dm.rules
    found = []
    for row in rows:
        if row.h != 1:
            continue
        for accept in row.accept:
            fast.search_for(rules).passed()  # (as _win_totals: a score a row, no clock inside)
            full = hand.remove(row.tile).add(accept.tile)
            best = best_score(full, rules, Situation("tsumo"))
            target = tuple(sorted(su.unit for su in best.units if not su.called))
            found.append(Exchange((row.tile,), (accept.tile,), target))
    return sorted(found, key=lambda e: (e.out, e.into))


def analyze(dm: DistanceModel, hand: Hand, *, seen: tuple[int, ...] = (), favourite: int | None = None,
            call_tile: int | None = None, waiting_room: list[int] | None = None,
            exchange_limit: int = 20) -> Analysis:
    """Everything a player asks at their turn, exactly. The waiting room's tiles are out of the wall (D9): no live
    count includes them (list them once, not also in `seen`); outside fetch mode they are seen like any visible
    tile, while in fetch mode h still reaches them where a そら can (one held, or a copy still live), so only the
    live counts leave them out."""
    rules = dm.rules
    fetching = False
    if waiting_room:
        kinds = len(hand.concealed)
        check_room(hand, rules, seen, tuple(waiting_room.count(k) for k in range(kinds)))
        fetching = _can_fetch(rules, hand, seen, waiting_room)
        if call_tile is not None:
            check_discard(hand, rules, seen, waiting_room.count(call_tile), call_tile)
    if waiting_room and not fetching:
        for kind in waiting_room:
            seen = seen_plus(seen, kind, len(hand.concealed))
    check_hand(hand, rules, seen=seen)
    size = hand.size(rules)
    notes = []
    if size == rules.hand_size:
        h, _, targets = _accepted(dm, hand, seen)
        discards = discard_table(dm, hand, seen, favourite, (h, targets))
        if h == 1 and not _stand_ins_held(dm, hand):
            exchanges, all_listed = exchanges_from_table(dm, hand, discards), True
        else:
            h, exchanges, all_listed = _exchanges(dm, hand, seen, exchange_limit, targets)
        tenpai = next((r for r in discards if r.h == 1), None)
        top_waits = tenpai.waits if tenpai else ()
    else:
        h12, accept = acceptance(dm, hand, seen)
        discards = (DiscardRow(-1, h12, accept),)
        # with no tile seen, the acceptance just found is the physics-only one the waits need
        top_waits = waits(dm, hand, seen, favourite, None if seen else (h12, [a.tile for a in accept]))
        h, exchanges, all_listed = _exchanges(dm, hand, seen, exchange_limit)
    if not all_listed:
        notes.append(f"more than {exchange_limit} distinct optimal exchanges: the first {exchange_limit} are listed; "
                     "grouped by discard, the table below is complete")
    complete = h == 0
    if complete:
        score = best_score(hand, rules, Situation("tsumo", favourite=favourite))
    else:
        score = best_score(hand, rules, Situation("none", favourite=favourite)) if rules.scores_no_win else None
    calls: tuple[CallOption, ...] = ()
    ron_wait = None
    if call_tile is not None:
        if size != rules.hand_size - 1:
            notes.append("calls are answered for a 12-tile hand (between turns)")
        else:
            calls = call_options(dm, hand, call_tile, seen)
            ron_wait = next((w for w in top_waits if w.tile == call_tile), None)
    sora = None  # (a fetch-mode そら goes to the waiting room before a draw: between turns, 12 tiles; D7)
    if waiting_room is not None and rules.sora_mode == "fetch":
        if size == rules.hand_size - 1:
            sora = sora_advice(dm, hand, waiting_room, seen)
        elif rules.tiles.sora is not None and hand.concealed[rules.tiles.sora]:
            notes.append("そら is sent to the waiting room before a draw: whether to, for the 12 tiles after a discard")
    if fetching:
        discards, top_waits, ron_wait = _room_out(waiting_room, discards, top_waits, ron_wait)
    return Analysis(size, units_present(hand, rules), complete, h, score, tuple(exchanges), all_listed, discards,
                    top_waits, calls, call_tile, ron_wait, sora, tuple(notes))


def _can_fetch(rules: RuleSet, hand: Hand, seen: tuple[int, ...], room: list[int]) -> bool:
    """Fetch mode and a そら held, or a copy of it still live (QA: with every そら seen, h reached the room's tiles)."""
    sora = rules.tiles.sora
    if rules.sora_mode != "fetch" or sora is None:
        return False
    return hand.concealed[sora] > 0 or COPIES - (seen[sora] if seen else 0) - room.count(sora) > 0


def _room_out(room: list[int], discards: tuple[DiscardRow, ...], top_waits: tuple[Wait, ...], ron_wait: Wait | None):
    """The live counts less the waiting room's copies, every table re-sorted as it was built."""
    def less(item):
        return replace(item, live=max(0, item.live - room.count(item.tile)))

    def waits_of(found):
        return tuple(sorted(map(less, found), key=wait_order))
    rows = [replace(r, accept=tuple(sorted(map(less, r.accept), key=accept_order)), waits=waits_of(r.waits))
            for r in discards]
    return tuple(sorted(rows, key=row_order)), waits_of(top_waits), None if ron_wait is None else less(ron_wait)


def _stand_ins_held(dm: DistanceModel, hand: Hand) -> bool:
    """Wildcard そら held: a target's tiles differ from its units' members, which the table's exchanges
    (a discard and a draw, reaching a scored decomposition) do not show; the search lists them instead."""
    return dm.wildcard and hand.concealed[dm.rules.tiles.sora] > 0
