"""The puzzle kinds: `waits`, `exchanges` and `discard`. Each builder makes one attempt from a
constructed hand and returns a proven position, or None when the attempt is dropped (not proven
unique, or outside the difficulty asked for)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from solver.api import Evaluator
from solver.core.hand import COPIES, Hand, Situation
from solver.core.score import best_score
from solver.generation.construct import Built, complete_hand, random_favourite, replace_tiles
from solver.generation.difficulty import REPLACED_MOST, Difficulty, wait_depth
from solver.generation.prove import fourth_copy_decoys, prove_discard, prove_exchanges, prove_waits
from solver.generation.position_line import discard_json, exchanges_json, position, waits_json

EXCHANGE_LIMIT = 24  # an `exchanges` puzzle lists at most this many (more is not a quiz)


def tenpai(rng: random.Random, built: Built) -> tuple[Hand, int]:
    """The constructed complete hand less one random concealed tile (which is then a wait)."""
    removed = rng.choice(built.hand.tiles())
    return built.hand.remove(removed), removed


def decoy_tenpai(rng: random.Random, ev: Evaluator) -> tuple[Built, Hand, int] | None:
    """A 12-tile hand holding some kind three times whose 4th copy would complete it (a decoy wait), and
    one real wait by construction: three units holding that kind, filled up to a complete hand, less one
    tile chosen so that the 4th copy completes what is left."""
    rules = ev.rules
    kinds = [k for k in range(len(rules.tiles)) if rules.units_of_kind[k]]
    x = rng.choice(kinds)
    start = tuple(rng.choice(rules.units_of_kind[x]) for _ in range(COPIES))
    if sum(rules.units[u].size for u in start) > rules.hand_size:
        return None
    built = complete_hand(rng, rules, start=start)
    if built is None or any(n > COPIES for n in built.hand.concealed):
        return None
    others = sorted(set(built.hand.tiles()) - {x})
    rng.shuffle(others)
    for y in others:
        hand = built.hand.remove(y)
        if best_score(hand.add(x), rules, Situation("tsumo"), copies=COPIES + 1).won:
            return built, hand, y
    return None


def wait_features(ev: Evaluator, hand: Hand, found, built: Built, removed: int, decoys: int) -> dict[str, int]:
    """waits, hidden (waits no decomposition shows without breaking a unit of the construction), depth
    (the most units a wait needs broken), dead (waits with no live copy), decoys (4th-copy non-waits)."""
    rules = ev.rules
    options = [tuple(v for i, v in enumerate(built.units) if i != built.units.index(b))
               for b in sorted(set(built.units)) if removed in rules.units[b].members]
    counts = Counter({k: n for k, n in enumerate(hand.concealed) if n})
    depths = []
    for w in found:
        completed = counts + Counter([w.tile])
        depths.append(min(wait_depth(rules, completed, kept) or 0 for kept in options))
    return {"waits": len(found), "hidden": sum(1 for d in depths if d), "depth": max(depths, default=0),
            "dead": sum(1 for w in found if w.live == 0), "decoys": decoys}


def kill_a_wait(rng: random.Random, ev: Evaluator, hand: Hand, found) -> tuple[int, ...]:
    """Seen tiles that leave one wait with no live copy (a dead wait: still a wait, D3)."""
    live = [w for w in found if w.live > 0]
    if not live:
        return ()
    wait = rng.choice(sorted(live, key=lambda w: w.tile))
    seen = [0] * len(ev.tiles)
    seen[wait.tile] = wait.live
    return tuple(seen)


def build_waits(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    rules = ev.rules
    if (level.wants("decoys")[0] or 0) >= 1:
        made = decoy_tenpai(rng, ev)
        if made is None:
            return None
        built, hand, removed = made
    else:
        built = complete_hand(rng, rules)
        if built is None:
            return None
        hand, removed = tenpai(rng, built)
    favourite = random_favourite(rng, rules, hand)
    found = prove_waits(ev, hand, favourite)
    if not found:
        return None
    seen: tuple[int, ...] = ()
    least_dead, most_dead = level.wants("dead")
    if (least_dead or 0) >= 1 or (most_dead is None and rng.random() < 0.2):
        seen = kill_a_wait(rng, ev, hand, found)
        found = prove_waits(ev, hand, favourite, seen)
    decoys = fourth_copy_decoys(ev, hand, favourite)
    features = wait_features(ev, hand, found, built, removed, len(decoys))
    if not level.admits(features):
        return None
    return position("waits", rules, hand, {"waits": waits_json(found, rules)}, {"level": level.label, **features},
                    favourite=favourite, seen=seen)


def perturbed(rng: random.Random, ev: Evaluator, level: Difficulty) -> Hand | None:
    """A complete hand with 1 to 3 tiles replaced (as many as the difficulty's h allows)."""
    built = complete_hand(rng, ev.rules)
    if built is None:
        return None
    least, most = level.wants("h")
    low = max(1, least or 1)
    high = min(REPLACED_MOST, most if most is not None else max(2, low))  # h <= tiles replaced
    if low > high:
        return None
    n = rng.randint(low, high)
    return replace_tiles(rng, ev.rules, built.hand, n)


def build_exchanges(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    hand = perturbed(rng, ev, level)
    proven = prove_exchanges(ev, hand, EXCHANGE_LIMIT) if hand is not None else None
    if proven is None or proven[0] == 0:
        return None
    h, found = proven
    features = {"h": h, "exchanges": len(found), "in_kinds": len({k for e in found for k in e.into}),
                "out_kinds": len({k for e in found for k in e.out})}
    if not level.admits(features):
        return None
    claims = {"h": h, "exchanges": exchanges_json(found, ev.rules)}
    return position("exchanges", ev.rules, hand, claims, {"level": level.label, **features})


def build_discard(rng: random.Random, ev: Evaluator, level: Difficulty) -> dict[str, Any] | None:
    hand = perturbed(rng, ev, level)
    proof = prove_discard(ev, hand) if hand is not None else None
    if proof is None or proof.margin < 1:  # the best discard must be unique
        return None
    features = {"h": proof.best.h, "discards": proof.tied, "accept": proof.best.live, "margin": proof.margin,
                "runner_up": ev.tiles.ids[proof.runner_up.tile]}
    if not level.admits(features):
        return None
    return position("discard", ev.rules, hand, {"discard": discard_json(proof.best, ev.rules)},
                    {"level": level.label, **features})
