"""The relaxation's needs (bounds.py) as short sorted tile lists instead of count rows over every kind.

A complete hand holds 14 tiles of some 50 kinds, and a need at t draws at most t tiles: as counts, a 5-draw hand's
480,000 listed hands are 480,000 x 54 numbers, and each step over them (the need, its filter, each distinct need
once, the dominated ones) passed over all of them. As lists they are 480,000 x 14, and the needs 480,000 x 5, each
coded as one int64 (digits: kind + 1, ascending, 0 past the end), so the distinct ones are a sort of integers.
The same needs, the same values: only their representation changes (tests/test_needs.py, test_relaxation_count.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.planning.targets import _planc, planc_built

NEVER = 1 << 14  # a pool count no copy's rank reaches: the kind is never needed


@dataclass(frozen=True)
class Lists:
    """Hands as tile lists: `tiles[i, j]` the kind of hand i's j-th copy (ascending; `kinds` past its end) and
    `rank[i, j]` that copy's index among the hand's copies of its kind (0, 1, 2)."""
    tiles: np.ndarray
    rank: np.ndarray
    kinds: int

    def __len__(self) -> int:
        return len(self.tiles)


@dataclass(frozen=True)
class Needs:
    """Needs as digits: a row each, kind + 1 per tile, ascending, 0 past its end."""
    digits: np.ndarray
    kinds: int

    def __len__(self) -> int:
        return len(self.digits)

    def dense(self) -> np.ndarray:
        """The needs as count rows over every kind."""
        at, col = np.nonzero(self.digits)
        flat = np.bincount(at * self.kinds + self.digits[at, col].astype(np.int64) - 1,
                           minlength=len(self.digits) * self.kinds)
        return flat.reshape(len(self.digits), self.kinds).astype(np.int16)


def lists_of(counts: np.ndarray, native: bool | None = None) -> Lists:
    """Count rows (a hand each) as tile lists: in C where built, else a pass per kind and copy."""
    counts = np.ascontiguousarray(counts, dtype=np.int16)
    N, n = counts.shape
    width = int(counts.sum(1).max()) if N else 0
    if planc_built(native) and N and n:
        tiles, ranks = _planc.tile_lists(counts.tobytes(), N, n, width)
        return Lists(np.frombuffer(tiles, dtype=np.int16).reshape(N, width),
                     np.frombuffer(ranks, dtype=np.int16).reshape(N, width), n)
    tiles, ranks = np.full((N, width), n, dtype=np.int16), np.zeros((N, width), dtype=np.int16)
    fill, start = np.zeros(N, dtype=np.int64), np.arange(N, dtype=np.int64) * width
    columns = np.asfortranarray(counts)
    for k in range(n):
        for copy in range(int(columns[:, k].max(initial=0))):
            rows = np.flatnonzero(columns[:, k] > copy)
            at = start[rows] + fill[rows]
            tiles.ravel()[at], ranks.ravel()[at] = k, copy
            fill[rows] += 1
    return Lists(tiles, ranks, n)


def needed(lists: Lists, pool, most: int, never: int | None = None) -> tuple[np.ndarray, Needs]:
    """Per hand its missing tiles over `pool` (counts per kind), for the hands missing at most `most`: (their
    indices, their needs). `never`: a kind never needed (the そら of a fetch, whose copies a fetch replaces)."""
    have = np.append(np.asarray(pool, dtype=np.int16), NEVER)
    if never is not None:
        have[never] = NEVER
    missing = lists.rank >= have[lists.tiles]
    size = missing.sum(1)
    near = np.flatnonzero(size <= most)
    return near, compact(missing[near], size[near], lists.tiles[near], most, lists.kinds)


def compact(missing: np.ndarray, size: np.ndarray, tiles: np.ndarray, width: int, kinds: int) -> Needs:
    """The tiles flagged in each row (`size` of them), moved to its front as digits (the row's order kept:
    ascending)."""
    digits = np.zeros((len(missing), width), dtype=np.int16)
    at, col = np.nonzero(missing)  # (row by row, in order: a flag's place is its index less its row's start)
    place = np.arange(len(at)) - np.repeat(np.cumsum(size) - size, size)
    digits[at, place] = tiles[at, col] + 1
    return Needs(digits, kinds)


def digits_of(counts: np.ndarray) -> Needs:
    """Count rows (each summing to at most a few tiles) as needs."""
    lists = lists_of(counts)
    return Needs(np.where(lists.tiles < lists.kinds, lists.tiles + 1, 0).astype(np.int16), lists.kinds)


def row_keys(rows: np.ndarray, base: int) -> np.ndarray:
    """Each row (numbers below `base`) as one key np.unique sorts: an int64 in base `base` where that fits (exact),
    else its bytes."""
    width = rows.shape[1]
    if base ** width < 1 << 63:
        return rows.astype(np.int64) @ (base ** np.arange(width, dtype=np.int64))
    rows = np.ascontiguousarray(rows)
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * width))).ravel()


def codes(needs: Needs) -> np.ndarray:
    """Each need as one key, exactly (row_keys)."""
    return row_keys(needs.digits, needs.kinds + 1)


def sizes(needs: Needs) -> np.ndarray:
    """Each need's number of tiles."""
    return (needs.digits > 0).sum(1)


def within(needs: Needs, wall) -> np.ndarray:
    """Per need whether the wall holds it: no kind asked for more copies than the wall has."""
    d = needs.digits
    copies = np.append(0, np.asarray(wall, dtype=np.int16))[d]  # (digit 0: no tile, nothing asked)
    ok = np.ones(len(d), dtype=bool)
    before = np.zeros(len(d), dtype=np.int16)  # (equal digits just before: the digits ascend, so they are a run)
    for j in range(d.shape[1]):  # (the j-th tile is copy number before + 1 of its kind)
        if j:
            before = np.where(d[:, j] == d[:, j - 1], before + 1, 0)
        ok &= (d[:, j] == 0) | (before < copies[:, j])
    return ok


def without(needs: Needs, rows: np.ndarray, kind: np.ndarray, add: int | None) -> Needs:
    """Row `rows[i]` of the needs with one tile of `kind[i]` (which it holds) taken out, and a tile of kind `add`
    put in where given (ascending again)."""
    d = needs.digits[rows]
    hit = d == (kind + 1)[:, None]
    last = d.shape[1] - 1 - np.argmax(hit[:, ::-1], 1)  # (the last copy: the order stays ascending)
    col = np.arange(d.shape[1])
    shifted = np.concatenate([d[:, 1:], np.zeros((len(d), 1), dtype=d.dtype)], 1)
    d = np.where(col < last[:, None], d, shifted)
    if add is not None:
        d[:, -1] = add + 1  # (the freed last place: one tile out, one in)
        d = np.sort(np.where(d == 0, np.iinfo(d.dtype).max, d), 1)
        d[d == np.iinfo(d.dtype).max] = 0
    return Needs(d, needs.kinds)
