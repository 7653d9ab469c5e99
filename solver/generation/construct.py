"""Hands built from units, so that an answer is known by construction before the solver proves it.

Seed 004's idea (a Shanghai board is built solvable by playing a relaxed board first, then
assigning faces): here a complete hand is drawn as a multiset of units, then perturbed (a tile
removed, replaced, or a unit called). Every draw comes from the caller's ``random.Random``; the
global generator is never used, and every choice is made over a sorted list, so a seed fixes the
output.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from solver.core.hand import COPIES, Hand
from solver.core.rules import RuleSet


@dataclass(frozen=True)
class Built:
    """A hand with the units it was built from (the construction's own decomposition)."""

    hand: Hand
    units: tuple[int, ...]  # unit indices of the concealed part, sorted (a multiset)


def counts_of(rules: RuleSet, units: list[int] | tuple[int, ...]) -> Counter:
    return Counter(k for u in units for k in rules.units[u].members)


def complete_hand(rng: random.Random, rules: RuleSet, slots: int | None = None, copies: int = COPIES,
                  start: tuple[int, ...] = (), called: tuple[int, ...] = (), tries: int = 50) -> Built | None:
    """A multiset of units filling `slots` tiles (a complete hand), each kind at most `copies` times
    counting the called units. `start` units are included first. None if the draws found none.

    `copies` = 4 builds a hand one tile past the limit on purpose (the 3-copy traps remove one).
    """
    slots = rules.concealed_slots(called) if slots is None else slots
    held_called = counts_of(rules, called)
    for _ in range(tries):
        chosen = list(start)
        counts = counts_of(rules, chosen) + held_called
        left = slots - sum(rules.units[u].size for u in chosen)
        while left > 0:
            fits = [u.index for u in rules.units if u.size <= left
                    and all(counts[k] < copies for k in u.members)]
            if not fits:
                break
            pick = rng.choice(fits)
            chosen.append(pick)
            counts.update(rules.units[pick].members)
            left -= rules.units[pick].size
        if left == 0:
            concealed = [0] * len(rules.tiles)
            for k, n in counts_of(rules, chosen).items():
                concealed[k] = n
            return Built(Hand(tuple(concealed), tuple(sorted(called))), tuple(sorted(chosen)))
    return None


def held_kinds(hand: Hand) -> list[int]:
    return [k for k, n in enumerate(hand.concealed) if n]


def replace_tiles(rng: random.Random, rules: RuleSet, hand: Hand, n: int, avoid: set[int] = frozenset()) -> Hand:
    """`n` concealed tiles swapped for random other kinds (never そら, never past 3 copies, never `avoid`)."""
    sora = rules.tiles.sora
    for _ in range(n):
        out = rng.choice(hand.tiles())
        hand = hand.remove(out)
        totals = hand.totals(rules)
        options = [k for k in range(len(rules.tiles)) if k != sora and k != out and k not in avoid
                   and totals[k] < COPIES]
        hand = hand.add(rng.choice(options))
    return hand


def random_favourite(rng: random.Random, rules: RuleSet, hand: Hand) -> int:
    """A favourite among the kinds the hand holds (so that the bonus matters), never そら."""
    return rng.choice([k for k in held_kinds(hand) if k != rules.tiles.sora])
