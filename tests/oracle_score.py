"""Independent brute-force reference ("oracle") for Milli-Jong hand evaluation: split enumeration and scoring.

Plain Python 3.11, standard library only.  Nothing here imports the project's
``solver`` or ``catalogue`` packages: the tests compare the CP-SAT solver against
these functions, so they are written to be obviously correct first and
reasonably fast second.

Conventions (shared by every function)
--------------------------------------
* ``units``: list of tuples of distinct kind indices (the catalogue).  A
  decomposition may use the same unit several times.
* ``concealed``: list of length K, count of concealed tiles per kind.
* ``called``: list of indices into ``units``; locked, exposed unit copies.
* ``sora``: index of the kind そら, or None.  Sora is never a member of a unit.
* A "copy" produced by the split enumerator is a pair ``(unit_index, sora_slots)``
  where ``sora_slots`` is a sorted tuple of the members of that unit that are
  stood in for by a wildcard sora (always ``()`` unless the sora mode is
  "wildcard").  The remaining members are real tiles of their own kind.

Interpretation notes (where the brief left room)
------------------------------------------------
* Wildcard sora: each sora stands in for any ONE member slot of any unit copy.
  Nothing forbids a copy in which *every* member is a sora; such copies are
  allowed (by best_score, waits, complete_targets and both exchange-distance
  functions alike).
* A unit copy "holds" the ron tile ``r`` when ``r`` is one of its members filled
  by a real tile (a sora standing in for ``r`` is not an ``r`` tile); if the ron
  tile is the sora itself, the copies holding it are those with at least one
  sora slot.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator, Sequence

__all__ = ["unit_copy_points", "enumerate_splits", "best_score"]


# ---------------------------------------------------------------------------
# Split enumeration (exact covers and packings)
# ---------------------------------------------------------------------------

def enumerate_splits(
    units: Sequence[tuple[int, ...]],
    counts: Sequence[int],
    soras: int = 0,
    *,
    exact: bool,
) -> Iterator[tuple[tuple[int, tuple[int, ...]], ...]]:
    """Yield every multiset of unit copies drawn from the given tiles, each once.

    ``counts[k]`` is the number of real tiles of kind k available (the caller
    must have zeroed the sora kind and passes the number of wildcard soras in
    ``soras``; pass ``soras=0`` when sora is not a wildcard).

    * ``exact=True``: the copies use every real tile and every sora exactly once
      (exact cover).
    * ``exact=False``: packings; any tiles (and soras) may be left over.  The
      empty packing is yielded too.

    Each yielded value is a tuple of copies ``(unit_index, sora_slots)``.

    Canonical form (why each multiset comes out once): a copy with at least one
    real tile is placed while processing its lowest real member kind ``k`` (all
    lower kinds are exhausted by then, so it cannot be placed earlier or later);
    within one kind, copies are placed in non-decreasing ``(unit, sora_slots)``
    order; for packings the number of left-over tiles of kind ``k`` is chosen
    once, before covering ``k``.  Copies made only of soras are chosen last, as
    a multiset in non-decreasing unit order.
    """
    K = len(counts)
    cnt = list(counts)
    by_kind: list[list[int]] = [[] for _ in range(K)]
    for ui, u in enumerate(units):
        for m in u:
            if 0 <= m < K:
                by_kind[m].append(ui)
    copies: list[tuple[int, tuple[int, ...]]] = []
    s_left = [soras]

    def all_sora(start: int, remaining: int) -> Iterator[tuple]:
        # Multisets (non-decreasing unit index) of all-sora copies.
        if remaining == 0 or not exact:
            if not exact or remaining == 0:
                yield tuple(copies)
        for ui in range(start, len(units)):
            n = len(units[ui])
            if 0 < n <= remaining:
                copies.append((ui, tuple(sorted(units[ui]))))
                yield from all_sora(ui, remaining - n)
                copies.pop()

    def step(k0: int) -> Iterator[tuple]:
        k = k0
        while k < K and cnt[k] == 0:
            k += 1
        if k == K:
            yield from all_sora(0, s_left[0])
            return
        have = cnt[k]
        for left in range(0, (0 if exact else have) + 1):
            cnt[k] = have - left
            yield from cover(k, (-1, ()))
            cnt[k] = have

    def cover(k: int, min_key: tuple[int, tuple[int, ...]]) -> Iterator[tuple]:
        if cnt[k] == 0:
            yield from step(k + 1)
            return
        for ui in by_kind[k]:
            if ui < min_key[0]:
                continue
            u = units[ui]
            others = sorted(m for m in u if m != k)
            for r in range(0, min(s_left[0], len(others)) + 1):
                for slots in combinations(others, r):
                    key = (ui, slots)
                    if key < min_key:
                        continue
                    real = [m for m in u if m not in slots]
                    if any(cnt[m] <= 0 for m in real):
                        continue
                    for m in real:
                        cnt[m] -= 1
                    s_left[0] -= r
                    copies.append(key)
                    yield from cover(k, key)
                    copies.pop()
                    s_left[0] += r
                    for m in real:
                        cnt[m] += 1

    yield from step(0)


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------

def unit_copy_points(
    n: int,
    rules: dict,
    *,
    won: bool,
    is_called: bool,
    holds_ron: bool,
    has_favourite: bool,
) -> int:
    """Points of one unit copy of size ``n``.

    n_eff = n - a - b - c with a = (not won and no_win == "minus_member"),
    b = (called copy and called == "minus_member"), c = holds_ron (the caller
    passes True only for the ONE copy chosen to hold the ron tile when the hand
    won by ron and ron_minus_member is on).  points = max(min_points,
    member_points * (n_eff - 1)); halved (floor) for a called copy when
    called == "half"; doubled when favourite == "double" and the unit has the
    favourite as a member (``has_favourite``).
    """
    a = 1 if (not won and rules["no_win"] == "minus_member") else 0
    b = 1 if (is_called and rules["called"] == "minus_member") else 0
    c = 1 if holds_ron else 0
    n_eff = n - a - b - c
    pts = max(rules["min_points"], rules["member_points"] * (n_eff - 1))
    if is_called and rules["called"] == "half":
        pts //= 2
    if rules["favourite"] == "double" and has_favourite:
        pts *= 2
    return pts


def _sora_mode(rules: dict) -> str:
    mode = rules.get("sora_mode")
    if mode is None and isinstance(rules.get("sora"), str):
        mode = rules["sora"]
    return mode if mode is not None else "fetch"


def best_score(
    units: Sequence[tuple[int, ...]],
    concealed: Sequence[int],
    called: Sequence[int],
    *,
    won: bool,
    ron_tile: int | None,
    favourite: int | None,
    rules: dict,
    sora: int | None,
) -> int | None:
    """Best total points of the hand under ``rules``; None when it has no score.

    ``rules`` keys: min_points, member_points, called, ron_minus_member, no_win,
    favourite, favourite_bonus, sora_mode (or "sora" holding the mode string),
    ron_on_shika, shika, and optionally hand_size (default 13).

    won=True: every concealed tile (wildcard soras included) must be used
    exactly once; maximise over all exact splits and, for a ron with
    ron_minus_member, over the choice of the single copy holding the ron tile.
    None if: the hand does not hold exactly hand_size tiles; the win is a ron on
    shika and ron_on_shika is off; ron_minus_member is on and the ron tile is
    not concealed; a concealed sora in mode "fetch"/"dead"; no exact split.

    won=False: None when no_win == "none"; otherwise maximise over all packings
    of disjoint unit copies among the concealed tiles (tiles may be left over),
    called units always included.  Returns 0 when there is nothing to score.
    """
    K = len(concealed)
    mode = _sora_mode(rules)
    hand_size = rules.get("hand_size", 13)
    wild = mode == "wildcard" and sora is not None
    ron = won and ron_tile is not None
    ron_mm = ron and bool(rules["ron_minus_member"])

    if not won and rules["no_win"] == "none":
        return None
    if won:
        total_tiles = sum(concealed) + sum(len(units[c]) for c in called)
        if total_tiles != hand_size:
            return None
        shika = rules.get("shika")
        if ron and shika is not None and ron_tile == shika and not rules["ron_on_shika"]:
            return None
        if ron_mm and concealed[ron_tile] <= 0:
            return None

    counts = list(concealed)
    n_sora = 0
    if sora is not None and 0 <= sora < K:
        n_sora = counts[sora]
        counts[sora] = 0
        if not wild:
            if won and n_sora > 0:
                return None  # a fetch/dead sora cannot be part of any unit
            n_sora = 0  # left over in a packing

    def has_fav(ui: int) -> bool:
        return favourite is not None and favourite in units[ui]

    called_pts = sum(
        unit_copy_points(len(units[c]), rules, won=won, is_called=True,
                         holds_ron=False, has_favourite=has_fav(c))
        for c in called
    )
    called_fav = any(has_fav(c) for c in called)

    def holds(copy: tuple[int, tuple[int, ...]]) -> bool:
        ui, slots = copy
        if ron_tile == sora and wild:
            return len(slots) > 0
        return ron_tile in units[ui] and ron_tile not in slots

    best: int | None = None
    for split in enumerate_splits(units, counts, n_sora, exact=won):
        base = [
            unit_copy_points(len(units[ui]), rules, won=won, is_called=False,
                             holds_ron=False, has_favourite=has_fav(ui))
            for ui, _ in split
        ]
        fav_any = called_fav or any(has_fav(ui) for ui, _ in split)
        bonus = rules["favourite_bonus"] if (
            rules["favourite"] == "bonus" and favourite is not None and fav_any) else 0
        if ron_mm:
            candidates = []
            for i, cp in enumerate(split):
                if holds(cp):
                    with_ron = unit_copy_points(
                        len(units[cp[0]]), rules, won=won, is_called=False,
                        holds_ron=True, has_favourite=has_fav(cp[0]))
                    candidates.append(sum(base) - base[i] + with_ron)
            if not candidates:
                continue  # cannot happen for an exact split, kept for safety
            total = max(candidates) + called_pts + bonus
        else:
            total = sum(base) + called_pts + bonus
        if best is None or total > best:
            best = total
    return best
