"""solver/planning/needs.py (the relaxation's needs as short sorted tile lists) against plain Python on random
count rows: the lists (in C and in numpy), each hand's missing tiles over a pool, the wall's limit, a tile taken
out (and a そら put in), and the codes that make distinct needs a sort of integers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.planning.needs import Needs, codes, digits_of, lists_of, needed, within, without
from solver.planning.targets import planc_built

rows_of = st.integers(1, 7).flatmap(lambda n: st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                                                       min_size=0, max_size=12).map(lambda r: (n, r)))


def plain_list(row):
    """A count row as (kind, copy index) per tile, ascending."""
    return [(k, c) for k, count in enumerate(row) for c in range(count)]


@pytest.mark.parametrize("native", [True, False])
@settings(max_examples=60, deadline=None)
@given(case=rows_of)
def test_lists_hold_each_copy_with_its_rank(native, case):
    if native and not planc_built(None):
        pytest.skip("_planc not built")
    n, rows = case
    lists = lists_of(np.array(rows, dtype=np.int16).reshape(-1, n), native=native)
    assert len(lists) == len(rows) and lists.kinds == n
    for i, row in enumerate(rows):
        got = [(int(k), int(c)) for k, c in zip(lists.tiles[i], lists.rank[i]) if k < n]
        assert got == plain_list(row)
        assert all(k == n for k in lists.tiles[i][len(got):])


@settings(max_examples=80, deadline=None)
@given(case=rows_of, data=st.data())
def test_needed_is_each_hands_missing_tiles(case, data):
    n, rows = case
    pool = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    wall = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    most = data.draw(st.integers(0, 6))
    never = data.draw(st.none() | st.integers(0, n - 1))
    near, needs = needed(lists_of(np.array(rows, dtype=np.int16).reshape(-1, n)), pool, most, never)
    want = {}
    for i, row in enumerate(rows):
        need = [0 if k == never else max(0, row[k] - pool[k]) for k in range(n)]
        if sum(need) <= most:
            want[i] = need
    assert near.tolist() == list(want)
    assert needs.dense().tolist() == list(want.values())
    assert [d for d in needs.digits.tolist()] == [sorted(k + 1 for k, c in enumerate(m) for _ in range(c)) +
                                                  [0] * (needs.digits.shape[1] - sum(m)) for m in want.values()]
    held = within(needs, wall).tolist()
    assert held == [all(m[k] <= wall[k] for k in range(n)) for m in want.values()]
    if len(needs):  # distinct needs, distinct codes
        keys = codes(needs).tolist()
        assert len(set(keys)) == len({tuple(m) for m in want.values()})


@settings(max_examples=80, deadline=None)
@given(case=rows_of, data=st.data())
def test_a_tile_taken_out_and_another_put_in(case, data):
    n, rows = case
    rows = [r for r in rows if sum(r)]
    if not rows:
        return
    needs = digits_of(np.array(rows, dtype=np.int16).reshape(-1, n))
    picked = [data.draw(st.sampled_from([k for k in range(n) if r[k]])) for r in rows]
    add = data.draw(st.none() | st.integers(0, n - 1))
    got = without(needs, np.arange(len(rows)), np.array(picked), add).dense().tolist()
    for row, k, after in zip(rows, picked, got):
        want = list(row)
        want[k] -= 1
        if add is not None:
            want[add] += 1
        assert after == want


def test_an_empty_list_and_a_need_of_no_tile():
    empty = lists_of(np.zeros((0, 3), dtype=np.int16))
    assert len(empty) == 0
    near, needs = needed(lists_of(np.array([[1, 0, 2]], dtype=np.int16)), (1, 0, 2), 2)
    assert near.tolist() == [0] and isinstance(needs, Needs) and not needs.digits.any()
