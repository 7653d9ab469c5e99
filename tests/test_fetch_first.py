"""The bracket's lower side with a fetch-mode そら held (solver/planning/fetch_first.py, QA of 2026-11-27): a row is
raised to "fetch a room tile at once, then the class nearest", exactly, so discarding the そら is no longer
recommended where a room tile is what a win needs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver import Evaluator
from solver.planning.fetch_first import LABEL

HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 そら"
ROOM = "志保 やよい"


@pytest.fixture(scope="module")
def ev():
    return Evaluator("2019-12")


def test_a_fetch_at_once_raises_the_rows_to_real_values_below_the_optimum(ev):
    best = ev.plan(HAND, turns=2, waiting_room=ROOM, both=False, seconds=None)
    assert best.method == "optimal"
    optimum = {r.tile: r.win_probability for r in best.discards}
    bounded = ev.plan(HAND, turns=2, waiting_room=ROOM, both=False, seconds=None, max_states=1)  # (past the optimum)
    assert bounded.method in ("bounds", "estimate")
    assert LABEL.format(n=12, of=13)[2:40] in bounded.policy_class["win_probability"]
    sora = ev.tile("そら")
    assert bounded.recommended.tile != sora and bounded.recommended.sora.use_now
    request = ev.plan_request_of(HAND, 2, waiting_room=ROOM, both=False, seconds=None, nearest=True)
    raised = 0
    for row in bounded.discards:
        assert row.win_probability <= optimum[row.tile] <= row.upper
        if row.sora is None or not row.sora.use_now:
            continue
        raised += 1
        room = [ev.tile(t) for t in ROOM.split()] + [row.tile]
        room.remove(row.sora.take)
        hand = request.position.hand.remove(row.tile).remove(sora).add(row.sora.take)
        seen = tuple(room.count(k) + (k == sora) for k in range(len(hand.concealed)))  # (the room then out of play)
        alone = ev.plan_request(replace(request, position=replace(request.position, hand=hand, seen=seen,
                                                                  waiting_room=())))
        assert row.win_probability == alone.recommended.win_probability == row.sora.value_if_used
        assert row.win_interval is None  # (exact)
    assert raised == 12
    # the optimum's own best discards keep their place at the top
    assert optimum[bounded.recommended.tile] == max(optimum.values())


def test_no_fetch_no_change(ev):
    """Without a waiting room (or a そら) the rows are the bracket's as before: the step does not apply."""
    from solver.planning.fetch_first import applies, fetch_first

    request = ev.plan_request_of(HAND, 2, both=False)
    assert not applies(ev.rules, request)
    rows = ev.plan(HAND, turns=2, both=False, seconds=None, max_states=1).discards
    assert fetch_first(ev.rules, request, rows, None, None) == (rows, 0)
