"""The hand classes the search benches time (bench_fast.py, bench_native.py share them): seeded random deals
of each class, and the small timing helpers both print with."""

from __future__ import annotations

import random
import time

from timing import COPIES, random_deals


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def hands_of_class(ev, name: str, n: int, rng: random.Random):
    """(hand, seen) pairs of one class, built from seeded random deals."""
    from solver import Hand

    rules = ev.rules
    K, sora = len(rules.tiles), rules.tiles.sora
    out = []
    while len(out) < n:
        counts = random_deals(rng.random(), 1, K, rules.hand_size)[0]
        called, seen = (), ()
        if name == "called":
            unit = rng.choice([u for u in rules.units if 3 <= u.size <= 5])
            counts = [0] * K
            for k in unit.members:
                counts[k] += 1
            wall = [k for k in range(K) for _ in range(COPIES - counts[k])]
            counts = [0] * K
            for k in rng.sample(wall, rules.hand_size - unit.size):
                counts[k] += 1
            called = (unit.index,)
        if name in ("sora", ) and sora is not None:
            if counts[sora] == 0:
                k = rng.choice([k for k, c in enumerate(counts) if c and k != sora])
                counts[k] -= 1
                counts[sora] += 1
        if name == "seen":
            seen_l = [0] * K
            for k in rng.sample(range(K), 12):
                if counts[k] + seen_l[k] < COPIES:
                    seen_l[k] += 1
            seen = tuple(seen_l)
        if name in ("complete", "complete+そら"):
            counts = complete_counts(rules, rng)
        if name == "complete+そら":  # wildcard: そら stands in for 2-3 of its tiles, still complete
            for _ in range(rng.choice((2, 3))):
                counts[rng.choice([k for k, c in enumerate(counts) if c and k != sora])] -= 1
                counts[sora] += 1
        hand = Hand(tuple(counts), called)
        if name == "h>=5" and ev.h(hand).h < 5:
            continue
        out.append((hand, seen))
    return out


def complete_counts(rules, rng: random.Random) -> list[int]:
    """Random units while they fit (within 3 copies), until exactly hand_size tiles."""
    K = len(rules.tiles)
    while True:
        counts, room = [0] * K, rules.hand_size
        while room:
            options = [u for u in rules.units if u.size <= room and all(counts[k] < COPIES for k in u.members)]
            if not options:
                break
            unit = rng.choice(options)
            for k in unit.members:
                counts[k] += 1
            room -= unit.size
        if not room:
            return counts


def analysis_view(a):
    exchanges = sorted((e.out, e.into) for e in a.exchanges) if a.exchanges_complete else len(a.exchanges)
    return (a.h, a.score, a.discards, a.waits, exchanges)
