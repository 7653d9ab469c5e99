"""Independent brute-force reference ("oracle") for Milli-Jong hand evaluation.

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

__all__ = [
    "unit_copy_points",
    "enumerate_splits",
    "best_score",
    "complete_targets",
    "exchange_distance",
    "exchange_distance_bruteforce",
    "optimal_exchanges",
    "waits",
]


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


# ---------------------------------------------------------------------------
# Complete targets and exchange distance (brute force)
# ---------------------------------------------------------------------------

def _unit_multisets(units, N: int) -> Iterator[list[int]]:
    """Every multiset of unit indices (as a demand vector builder) of total size N."""
    chosen: list[int] = []

    def rec(start: int, remaining: int):
        if remaining == 0:
            yield list(chosen)
            return
        for ui in range(start, len(units)):
            n = len(units[ui])
            if 0 < n <= remaining:
                chosen.append(ui)
                yield from rec(ui, remaining - n)
                chosen.pop()

    yield from rec(0, N)


def complete_targets(
    units: Sequence[tuple[int, ...]],
    called: Sequence[int],
    *,
    cap: Sequence[int],
    hand_size: int,
    sora: int | None,
    sora_mode: str,
) -> Iterator[tuple[int, ...]]:
    """Yield each distinct concealed-part count vector Tc of a complete target once.

    The concealed part is any multiset of unit copies of total size
    N = hand_size - (sizes of called units), with Tc[k] <= cap[k] for every
    kind.  In "wildcard" mode any member slot may instead hold a sora: such a
    slot does not count toward Tc[j] of its kind j, and Tc[sora] (the number of
    sora slots) must be <= cap[sora].  Tiny catalogues only (plain enumeration).
    """
    K = len(cap)
    N = hand_size - sum(len(units[c]) for c in called)
    if N < 0:
        return
    wild = sora_mode == "wildcard" and sora is not None
    seen: set[tuple[int, ...]] = set()
    for ms in _unit_multisets(units, N):
        D = [0] * K
        for ui in ms:
            for m in units[ui]:
                D[m] += 1
        if not wild:
            if all(D[k] <= cap[k] for k in range(K)):
                t = tuple(D)
                if t not in seen:
                    seen.add(t)
                    yield t
            continue
        # wildcard: choose x[k] sora slots among the D[k] slots of kind k
        kinds = [k for k in range(K) if D[k] > 0]

        def rec(i: int, T: list[int], nsora: int):
            if nsora > cap[sora]:
                return
            if i == len(kinds):
                T2 = list(T)
                T2[sora] += nsora
                t = tuple(T2)
                if t not in seen:
                    seen.add(t)
                    yield t
                return
            k = kinds[i]
            for x in range(0, D[k] + 1):
                if D[k] - x <= cap[k]:
                    T[k] = D[k] - x
                    yield from rec(i + 1, T, nsora + x)
            T[k] = 0

        yield from rec(0, [0] * K, 0)


def exchange_distance_bruteforce(
    units: Sequence[tuple[int, ...]],
    concealed: Sequence[int],
    called: Sequence[int],
    *,
    cap: Sequence[int],
    hand_size: int,
    sora: int | None,
    sora_mode: str,
) -> int | None:
    """h by plain enumeration of every complete target (tiny catalogues only).

    h = hand_size - max_T (called size + sum_k min(concealed[k], Tc[k])), with Tc
    ranging over complete_targets(...).  None when no complete target exists.
    (Outside wildcard mode Tc[sora] is always 0, so a concealed sora is never
    kept; in wildcard mode Tc[sora] is the number of soras in T.)
    """
    called_size = sum(len(units[c]) for c in called)
    best = None
    for Tc in complete_targets(units, called, cap=cap, hand_size=hand_size,
                               sora=sora, sora_mode=sora_mode):
        kept = sum(min(concealed[k], Tc[k]) for k in range(len(Tc)))
        if best is None or kept > best:
            best = kept
    if best is None:
        return None
    return hand_size - called_size - best


def optimal_exchanges(
    units: Sequence[tuple[int, ...]],
    concealed: Sequence[int],
    called: Sequence[int],
    *,
    cap: Sequence[int],
    hand_size: int,
    sora: int | None,
    sora_mode: str,
) -> tuple[int | None, set[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """(h, every distinct optimal exchange as (sorted out-tiles, sorted in-tiles)) by plain enumeration
    of complete_targets (tiny catalogues only); (None, set()) when no complete target exists."""
    targets = list(complete_targets(units, called, cap=cap, hand_size=hand_size, sora=sora, sora_mode=sora_mode))
    if not targets:
        return None, set()
    kept = [sum(min(c, t) for c, t in zip(concealed, tc)) for tc in targets]
    best = max(kept)
    found = set()
    for tc, k in zip(targets, kept):
        if k == best:
            out = tuple(i for i, (c, t) in enumerate(zip(concealed, tc)) for _ in range(c - t))
            into = tuple(i for i, (c, t) in enumerate(zip(concealed, tc)) for _ in range(t - c))
            found.add((out, into))
    return hand_size - sum(len(units[j]) for j in called) - best, found


# ---------------------------------------------------------------------------
# Exchange distance (exact branch and bound)
# ---------------------------------------------------------------------------

class _Found(Exception):
    pass


def exchange_distance(
    units: Sequence[tuple[int, ...]],
    concealed: Sequence[int],
    called: Sequence[int],
    *,
    cap: Sequence[int],
    hand_size: int,
    sora: int | None,
    sora_mode: str,
) -> int | None:
    """Exact h = hand_size - max over complete targets T of |hand ∩ T|.

    Same definition and answer as exchange_distance_bruteforce, computed by an
    exact branch and bound.  Returns None when no complete target exists.

    Reformulation (provably equivalent).  Let a target's concealed part be a
    multiset of unit copies with per-kind demand D[k] (slots of kind k).
    Write e[k] = min(concealed[k], cap[k]) for real kinds (0 for the sora kind)
    and A(D) = sum_k min(e[k], D[k]).
      * Not wildcard: T is feasible iff D <= cap; then kept = A(D).
      * Wildcard: slots of kind k beyond cap[k] must hold soras ("overflow");
        T is feasible iff sum_k max(0, D[k] - cap[k]) <= cap[sora], and the best
        kept is A(D) + min(concealed[sora], cap[sora], N - A(D)): soras can
        replace any unmatched slot, replacing a matched slot never helps.
    So we maximise A over feasible unit multisets of total size N (the final
    value is monotone in A).

    Search.  For an optimal T take a minimal sub-multiset U with A(U) = A(T);
    the rest F = T - U is some multiset of the remaining size fitting in the
    residual caps/overflow budget.  A is submodular (concave of additive), so
    each copy of a minimal U adds >= 1 to A whatever subset precedes it.  The
    DFS therefore enumerates multisets U (non-decreasing order of a fixed unit
    ordering, each multiset once), adding only copies that raise A by >= 1,
    and at each U asks an exact DFS whether the remaining slots can be filled
    (only when A(U) would beat the incumbent).  Every value recorded is
    achieved by a real T (kept(U+F) >= A(U)), and the optimum is reached at the
    minimal U of an optimal T, so the result is exact.  Pruning uses the upper
    bound A(final) <= A(U) + min(remaining slots, remaining need over kinds
    still reachable by units later in the ordering) - each slot adds <= 1.
    """
    K = len(concealed)
    called_size = sum(len(units[c]) for c in called)
    N = hand_size - called_size
    if N < 0:
        return None
    wild = sora_mode == "wildcard" and sora is not None
    capl = [max(0, c) for c in cap]
    budget0 = capl[sora] if wild else 0
    cs = min(concealed[sora], capl[sora]) if wild else 0
    e = [min(concealed[k], capl[k]) if concealed[k] > 0 else 0 for k in range(K)]
    if sora is not None and 0 <= sora < K:
        e[sora] = 0
    all_units = [tuple(u) for u in units if 0 < len(u) <= N]

    # ---- exact filler feasibility -------------------------------------
    reach = [False] * (N + 1)  # sizes reachable ignoring caps (necessary)
    reach[0] = True
    for r in range(1, N + 1):
        reach[r] = any(len(u) <= r and reach[r - len(u)] for u in all_units)
    fill_units = sorted(all_units, key=len, reverse=True)
    nf = len(fill_units)
    memo: dict = {}

    def can_fill(R: int, D: list[int], budget: int) -> bool:
        """Is there a multiset of units of total size R with residual caps?"""
        # residual per-kind capacity; in wildcard mode slots beyond it use the
        # overflow budget (soras), already charged for the copies in D.
        rem = [max(0, capl[k] - D[k]) for k in range(K)]
        key0 = (R, budget, tuple(rem))
        if key0 in memo:
            return memo[key0]
        local: dict = {}

        def rec(R: int, start: int, budget: int) -> bool:
            if R == 0:
                return True
            if not reach[R] or sum(r for r in rem if r > 0) + budget < R:
                return False
            key = (R, start, budget, tuple(rem))
            if key in local:
                return local[key]
            ok = False
            for i in range(start, nf):
                u = fill_units[i]
                if len(u) > R:
                    continue
                over = 0
                for m in u:
                    if rem[m] <= 0:
                        over += 1
                if over > budget:
                    continue
                for m in u:
                    rem[m] -= 1
                ok = rec(R - len(u), i, budget - over)
                for m in u:
                    rem[m] += 1
                if ok:
                    break
            local[key] = ok
            return ok

        res = rec(R, 0, budget)
        memo[key0] = res
        return res

    D0 = [0] * K
    if not can_fill(N, D0, budget0):
        return None

    # ---- branch and bound over useful units ---------------------------
    hand_kinds = [k for k in range(K) if e[k] > 0]
    useful = [u for u in all_units if any(e[m] > 0 for m in u)]
    # order: fewest unmatched slots first (w.r.t. the empty target), then larger
    useful.sort(key=lambda u: (len(u) - sum(1 for m in u if e[m] > 0), -len(u)))
    nu = len(useful)
    # suffix reachability: kinds appearing in useful[i:]
    suffix_kinds: list[frozenset[int]] = [frozenset()] * (nu + 1)
    acc: set[int] = set()
    for i in range(nu - 1, -1, -1):
        acc.update(m for m in useful[i] if e[m] > 0)
        suffix_kinds[i] = frozenset(acc)

    D = [0] * K
    best = [min(cs, N)]  # U = empty is feasible (checked above)
    if best[0] == N:
        return hand_size - called_size - N

    def dfs(start: int, R: int, A: int, budget: int) -> None:
        obj = min(A + cs, N)
        if obj > best[0] and can_fill(R, D, budget):
            best[0] = obj
            if obj == N:
                raise _Found
        sk = suffix_kinds[start]
        need = 0
        for k in hand_kinds:
            if D[k] < e[k] and k in sk:
                need += e[k] - D[k]
        if min(A + min(R, need) + cs, N) <= best[0]:
            return
        for i in range(start, nu):
            u = useful[i]
            n = len(u)
            if n > R:
                continue
            gain = 0
            over = 0
            for m in u:
                d = D[m]
                if d < e[m]:
                    gain += 1
                if d >= capl[m]:
                    over += 1
            if gain == 0 or over > budget:
                continue
            if min(A + gain + min(R - n, need - gain) + cs, N) <= best[0]:
                # even this child cannot beat the incumbent; its subtree's bound
                # is no larger (suffix need only shrinks), so skip it safely.
                continue
            for m in u:
                D[m] += 1
            dfs(i, R - n, A + gain, budget - over)
            for m in u:
                D[m] -= 1

    try:
        dfs(0, N, 0, budget0)
    except _Found:
        pass
    return hand_size - called_size - best[0]


# ---------------------------------------------------------------------------
# Waits
# ---------------------------------------------------------------------------

def waits(
    units: Sequence[tuple[int, ...]],
    concealed: Sequence[int],
    called: Sequence[int],
    *,
    cap: Sequence[int],
    hand_size: int,
    sora: int | None,
    sora_mode: str,
) -> set[int]:
    """Kinds t whose addition makes the hand an exact split (tsumo-like).

    The hand must hold hand_size - 1 tiles (concealed + called members);
    otherwise the empty set is returned.  A kind t is a wait when
    concealed[t] + 1 <= cap[t] and concealed + one t splits exactly into unit
    copies (wildcard soras standing in for members in "wildcard" mode; a sora
    in "fetch"/"dead" mode never completes a hand).  Ron rules are ignored.
    """
    K = len(concealed)
    called_size = sum(len(units[c]) for c in called)
    if sum(concealed) + called_size != hand_size - 1:
        return set()
    wild = sora_mode == "wildcard" and sora is not None
    out: set[int] = set()
    for t in range(K):
        if concealed[t] + 1 > cap[t]:
            continue
        counts = list(concealed)
        counts[t] += 1
        n_sora = 0
        if sora is not None and 0 <= sora < K:
            n_sora = counts[sora]
            counts[sora] = 0
            if not wild and n_sora > 0:
                continue
        for _ in enumerate_splits(units, counts, n_sora, exact=True):
            out.add(t)
            break
    return out


# ---------------------------------------------------------------------------
# Self-check
# ---------------------------------------------------------------------------

def _self_check() -> None:
    import random
    import time

    units = [(0,), (1, 2), (2, 3, 4), (1, 3), (4, 5)]
    K = 6
    R = dict(min_points=1000, member_points=2000, called="minus_member",
             ron_minus_member=True, no_win="minus_member", favourite="bonus",
             favourite_bonus=2000, sora_mode="fetch", ron_on_shika=False,
             shika=None, hand_size=5)

    def h(*ks):
        c = [0] * K
        for k in ks:
            c[k] += 1
        return c

    # --- enumerate_splits -------------------------------------------------
    # {1,2,3,4}: (1,2)+? 3,4 no unit; (1,3)+? 2,4 no unit -> no exact split
    assert list(enumerate_splits(units, h(1, 2, 3, 4), exact=True)) == []
    # {1,2,3,4,5}: (1,3)+(2,3,4)? 3 used twice -> no; (1,2)+... 3,4,5 no.
    assert list(enumerate_splits(units, h(1, 2, 3, 4, 5), exact=True)) == []
    # {0,1,2,3,4}: (0)+(1,3)+... 2,4 no;  (0)+(1,2)+ 3,4 no -> none
    assert list(enumerate_splits(units, h(0, 1, 2, 3, 4), exact=True)) == []
    # {0,1,1,2,3}: (0)+(1,2)+(1,3): unique
    sp = list(enumerate_splits(units, h(0, 1, 1, 2, 3), exact=True))
    assert sp == [((0, ()), (1, ()), (3, ()))], sp
    # packings of {1,2,3}: {}, {(1,2)}, {(1,3)} -> 3 packings
    assert len(list(enumerate_splits(units, h(1, 2, 3), exact=False))) == 3
    # packings of {0,0}: {}, {(0)}, {(0),(0)}
    assert len(list(enumerate_splits(units, h(0, 0), exact=False))) == 3

    # --- best_score ---------------------------------------------------------
    # hand {0,1,1,2,3} (5 tiles), tsumo: (0)=1000, (1,2)=2000, (1,3)=2000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 5000
    # favourite 0 bonus: +2000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=None,
                      favourite=0, rules=R, sora=None) == 7000
    # ron on 2 with ron_minus_member: (1,2) -> n_eff 1 -> 1000 => 4000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=2,
                      favourite=None, rules=R, sora=None) == 4000
    # ron on 0: (0) n_eff 0 -> max(1000, -2000) = 1000 => 5000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=0,
                      favourite=None, rules=R, sora=None) == 5000
    # ron tile not held -> None
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=5,
                      favourite=None, rules=R, sora=None) is None
    # wrong size -> None
    assert best_score(units, h(1, 2), [], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=None) is None
    # hand {2,3,4} + called (1,3) [size 2] = 5 tiles, tsumo:
    #   (2,3,4)=4000; called (1,3) minus_member: n_eff 1 -> 1000 => 5000
    assert best_score(units, h(2, 3, 4), [3], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 5000
    # called "half": (1,3) = 2000//2 = 1000 -> 5000; favourite double on 4:
    R2 = dict(R, called="half", favourite="double", ron_minus_member=False)
    assert best_score(units, h(2, 3, 4), [3], won=True, ron_tile=None,
                      favourite=4, rules=R2, sora=None) == 9000
    # favourite 1 (in the called unit only), bonus mode: 5000 + 2000
    assert best_score(units, h(2, 3, 4), [3], won=True, ron_tile=None,
                      favourite=1, rules=R, sora=None) == 7000
    # not won, minus_member: packing of {1,2,3,4,5}: best (2,3,4)->n_eff 2
    #   -> 2000, plus... (1,?) 1 left with 5? (4,5) uses 4. Options:
    #   (2,3,4)=2000 alone; (1,2)+(4,5)=1000+1000=2000; (1,3)+(4,5)=2000;
    #   (1,2)+... -> best 2000
    assert best_score(units, h(1, 2, 3, 4, 5), [], won=False, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 2000
    # same, no_win "same": (1,2)+(4,5)=4000 vs (2,3,4)=4000 vs (1,3)+(4,5)=4000
    R3 = dict(R, no_win="same")
    assert best_score(units, h(1, 2, 3, 4, 5), [], won=False, ron_tile=None,
                      favourite=None, rules=R3, sora=None) == 4000
    assert best_score(units, h(1, 2, 3, 4, 5), [], won=False, ron_tile=None,
                      favourite=None, rules=dict(R, no_win="none"),
                      sora=None) is None
    # nothing to score -> 0
    assert best_score(units, h(5), [], won=False, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 0
    # shika rule: kind 0 is shika; ron on it with ron_on_shika False -> None
    RS = dict(R, shika=0)
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=0,
                      favourite=None, rules=RS, sora=None) is None
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=0,
                      favourite=None, rules=dict(RS, ron_on_shika=True),
                      sora=None) == 5000
    # --- sora (kind 5 used as sora with a catalogue that excludes it) -----
    us = [(0,), (1, 2), (2, 3, 4), (1, 3)]
    # hand {0,1,2,3,S}: fetch -> None; wildcard: S stands for 4 in (2,3,4):
    #   (0)+(2,3,4)+? 1 left alone -> no. (0)+(1,2)+(3,S as 1) = 1000+2000+2000
    #   (0)+(1,3)+(2,S as 1)=5000; (0)+(1,2)? ... (1,S)+(2,3,4)? no 4.
    #   (0)+(1,?)...(2,3,S)=4000 + (0)=1000 + 1 alone -> no. So 5000.
    RW = dict(R, sora_mode="wildcard", ron_minus_member=False)
    assert best_score(us, h(0, 1, 2, 3, 5), [], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=5) is None
    assert best_score(us, h(0, 1, 2, 3, 5), [], won=True, ron_tile=None,
                      favourite=None, rules=RW, sora=5) == 5000
    # sora as 0 in (0): {S,1,2,3,4}? (S=0)+(1,?)... (2,3,4)+(1,S as 3)=4000+2000
    assert best_score(us, h(1, 2, 3, 4, 5), [], won=True, ron_tile=None,
                      favourite=None, rules=RW, sora=5) == 6000

    # --- exchange distance -----------------------------------------------
    cap = [3] * K
    kw = dict(cap=cap, hand_size=5, sora=None, sora_mode="fetch")
    # complete hand -> 0
    assert exchange_distance(units, h(0, 1, 1, 2, 3), [], **kw) == 0
    # {1,2,3,4,5}: best target e.g. (1,3)+(2,3,4)? -> keeps 1,3,2,4 = 4 -> h=1
    assert exchange_distance(units, h(1, 2, 3, 4, 5), [], **kw) == 1
    # 4-tile hand {0,1,2,3}: (0)+(1,2)+(1,3) keeps 4 of 5 -> h=1
    assert exchange_distance(units, h(0, 1, 2, 3), [], **kw) == 1
    # caps: forbid 1 entirely; hand {1,1,1,5,5}: targets from (0),(2,3,4),(4,5)
    cap2 = [3, 0, 3, 3, 3, 3]
    # best keeps the two 5s? (4,5)+(4,5)+(0) keeps 2 -> h=3
    assert exchange_distance(units, h(1, 1, 1, 5, 5), [], cap=cap2, hand_size=5,
                             sora=None, sora_mode="fetch") == 3
    # no target: only size-2 units, odd N
    assert exchange_distance([(0, 1)], h(0), [], cap=cap, hand_size=3,
                             sora=None, sora_mode="fetch") is None
    # wildcard: units [(0,1)], cap 0 of kind 1, sora kind 5 with cap 1
    # hand {0,5}: target (0,S) keeps both -> h=0
    cap3 = [3, 0, 3, 3, 3, 1]
    assert exchange_distance([(0, 1)], h(0, 5), [], cap=cap3, hand_size=2,
                             sora=5, sora_mode="wildcard") == 0
    assert exchange_distance([(0, 1)], h(0, 5), [], cap=cap3, hand_size=2,
                             sora=5, sora_mode="fetch") is None
    # --- waits ------------------------------------------------------------
    # {0,1,2,3} + ? : +1 -> (0)(1,2)(1,3); +0? {0,0,1,2,3} no. -> {1}
    assert waits(units, h(0, 1, 2, 3), [], **kw) == {1}
    # {1,2,1,3} + 0 -> yes; + others? {1,1,2,3,x}: x=0 only -> {0}
    assert waits(units, h(1, 1, 2, 3), [], **kw) == {0}

    # --- random cross-checks on tiny catalogues ---------------------------
    rng = random.Random(12345)
    for trial in range(300):
        Kt = rng.randint(4, 7)
        wildm = rng.random() < 0.4
        sora_k = Kt - 1 if (wildm or rng.random() < 0.3) else None
        real = [k for k in range(Kt) if k != sora_k]
        ut = []
        for _ in range(rng.randint(1, 5)):
            n = rng.randint(1, min(3, len(real)))
            ut.append(tuple(sorted(rng.sample(real, n))))
        ut = list(dict.fromkeys(ut))
        hs = rng.randint(2, 6)
        capt = [rng.choice([0, 1, 2, 3, 3, 3]) for _ in range(Kt)]
        conc = [0] * Kt
        for _ in range(rng.randint(0, hs)):
            conc[rng.randrange(Kt)] += 1
        conc = [min(c, 3) for c in conc]
        calledt = []
        if rng.random() < 0.3:
            calledt = [rng.randrange(len(ut))]
        mode = "wildcard" if wildm else rng.choice(["fetch", "dead"])
        kwt = dict(cap=capt, hand_size=hs, sora=sora_k, sora_mode=mode)
        a = exchange_distance(ut, conc, calledt, **kwt)
        b = exchange_distance_bruteforce(ut, conc, calledt, **kwt)
        assert a == b, (ut, conc, calledt, kwt, a, b)
        # enumerate_splits gives each multiset once
        for ex in (True, False):
            cc = list(conc)
            ns = 0
            if sora_k is not None:
                ns = cc[sora_k] if wildm else 0
                cc[sora_k] = 0
            sps = [tuple(sorted(s)) for s in enumerate_splits(ut, cc, ns, exact=ex)]
            assert len(sps) == len(set(sps)), (ut, conc, ex)
            for s in sps:  # validity
                use = [0] * Kt
                us_ = 0
                for ui, sl in s:
                    us_ += len(sl)
                    for m in ut[ui]:
                        if m not in sl:
                            use[m] += 1
                assert all(use[k] <= cc[k] for k in range(Kt)) and us_ <= ns
                if ex:
                    assert use == cc and us_ == ns

    # --- timing on a synthetic catalogue ------------------------------------
    rng = random.Random(2024)
    Kr = 54
    ur = [(0,)] + [tuple(sorted(rng.sample(range(1, Kr), rng.randint(2, 5))))
                   for _ in range(150)]
    times = []
    for _ in range(20):
        wall = [k for k in range(Kr) for _ in range(3)]
        hand = rng.sample(wall, 13)
        conc = [0] * Kr
        for k in hand:
            conc[k] += 1
        t0 = time.perf_counter()
        exchange_distance(ur, conc, [], cap=[3] * Kr, hand_size=13, sora=None,
                          sora_mode="fetch")
        times.append(time.perf_counter() - t0)
    times.sort()
    print(f"exchange_distance synthetic K=54, 151 units: median "
          f"{times[len(times) // 2]:.3f}s, max {times[-1]:.3f}s")
    print("oracle self-check OK")


if __name__ == "__main__":
    _self_check()
