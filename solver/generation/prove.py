"""The exact core proves each constructed answer and, where one is promised, its uniqueness.

Each proof either returns the proven answer or None (the position is dropped: not the question it
was built to be). A disagreement between two exact paths is a bug and raises.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.analysis.turn import DiscardRow, Wait, discard_table, waits
from solver.api import Evaluator
from solver.core.distance import exchange_distance
from solver.core.enumerate import distinct_exchanges
from solver.core.hand import COPIES, Hand, Situation
from solver.core.results import Exchange
from solver.core.score import best_score, is_complete


def prove_waits(ev: Evaluator, hand: Hand, favourite: int | None, seen: tuple[int, ...] = ()) -> tuple[Wait, ...]:
    """Every wait of a 12-tile hand with its scores (empty: the hand is not one tile from winning).

    The waits come from the enumeration of accepted kinds (its last solve proves no kind is left);
    then every other kind that still has a copy is added to the hand and proven not to complete it.
    """
    rules = ev.rules
    found = waits(ev.distance_model, hand, seen, favourite)
    listed = {w.tile for w in found}
    held = hand.totals(rules)
    for kind in range(len(rules.tiles)):
        if kind not in listed and held[kind] < COPIES and is_complete(hand.add(kind), rules):
            raise AssertionError(f"kind {kind} completes the hand but the enumeration missed it")
    return found


def fourth_copy_decoys(ev: Evaluator, hand: Hand, favourite: int | None) -> dict[int, int]:
    """Kinds held 3 times whose 4th copy would complete the hand, with the tsumo score it would give:
    what an engine that ignores the 3-copy limit lists as waits."""
    held = hand.totals(ev.rules)
    decoys = {}
    for kind in range(len(ev.tiles)):
        if held[kind] == COPIES:
            result = best_score(hand.add(kind), ev.rules, Situation("tsumo", favourite=favourite), copies=COPIES + 1)
            if result.won:
                decoys[kind] = result.total
    return decoys


def prove_exchanges(ev: Evaluator, hand: Hand, limit: int, seen: tuple[int, ...] = ()
                    ) -> tuple[int, list[Exchange]] | None:
    """h and every distinct optimal exchange (None: more than `limit`, or no complete hand reachable).

    Proven twice: the enumeration ends on an infeasible solve, and a second run that excludes every
    listed exchange finds none left.
    """
    dm = ev.distance_model
    h, found, complete = distinct_exchanges(dm, hand, seen, limit)
    if h is None or not complete:
        return None
    _, left, _ = distinct_exchanges(dm, hand, seen, 1, exclude=[(e.out, e.into) for e in found])
    if left:
        raise AssertionError("an optimal exchange was left out of the enumeration")
    return h, found


@dataclass(frozen=True)
class DiscardProof:
    best: DiscardRow
    runner_up: DiscardRow
    margin: int  # live acceptance of the best minus the runner-up's (0 for a discard that leaves a higher h)
    tied: int  # discards that keep the best h


def prove_discard(ev: Evaluator, hand: Hand, seen: tuple[int, ...] = ()) -> DiscardProof | None:
    """The best discard of a 13-tile hand (lowest h, then most live acceptance) and its margin over the
    runner-up, from the exact discard table. None if the hand is complete or has a single kind."""
    dm = ev.distance_model
    if exchange_distance(dm, hand, seen).h in (0, None):
        return None
    rows = discard_table(dm, hand, seen, None)
    if len(rows) < 2 or rows[0].h is None:
        return None
    best, runner = rows[0], rows[1]
    runner_live = runner.live if runner.h == best.h else 0
    return DiscardProof(best, runner, best.live - runner_live, sum(1 for r in rows if r.h == best.h))
