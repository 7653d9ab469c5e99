"""Independent brute-force reference ("oracle") for Milli-Jong hand evaluation: complete targets, exchange
distance and waits; scoring in oracle_score.py, whose docstring states the conventions both share.

Plain Python 3.11, standard library only. Nothing here imports the project's ``solver`` or ``catalogue``
packages: the tests compare the project against these functions, written to be obviously correct first.
"""

from __future__ import annotations

from typing import Iterator, Sequence

# re-exported: the tests call oracle.best_score and the others through this module
from oracle_score import best_score, enumerate_splits, unit_copy_points  # noqa: F401

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
