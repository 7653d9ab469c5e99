"""Independent checks of a played game, from its log alone (used by tests/test_game*.py).

Each rule is re-checked here in plain Python from the log's events (the wall as dealt, the turn order, the
units), not by asking the engine's own transitions; completeness and scores are compared against the exact
core (`Evaluator`) and against the brute-force oracle (tests/oracle.py).
"""

from __future__ import annotations

from collections import Counter

import oracle

from game.log import replay
from game.state import Table


def oracle_rules(ev) -> dict:
    spec = ev.rules.spec
    return dict(min_points=spec.min_points, member_points=spec.member_points, called=spec.called,
                ron_minus_member=spec.ron_minus_member, no_win=spec.no_win, favourite=spec.favourite,
                favourite_bonus=spec.favourite_bonus, sora_mode=spec.sora, ron_on_shika=spec.ron_on_shika,
                shika=ev.rules.tiles.shika, hand_size=spec.hand_size)


def oracle_complete(ev, concealed, called) -> bool:
    units = [u.members for u in ev.rules.units]
    counts = list(concealed)
    sora = ev.rules.tiles.sora
    soras = 0
    if sora is not None:
        if counts[sora] and ev.rules.sora_mode != "wildcard":
            return False
        soras, counts[sora] = counts[sora], 0
    size = sum(concealed) + sum(len(units[u]) for u in called)
    if size != ev.rules.hand_size:
        return False
    return next(oracle.enumerate_splits(units, counts, soras, exact=True), None) is not None


def tiles_everywhere(state, rules) -> Counter:
    total = Counter()
    for seat in state.seats:
        total.update({k: n for k, n in enumerate(seat.concealed) if n})
        for u in seat.called:
            total.update(rules.units[u].members)
        total.update(seat.room)
    total.update(state.wall[state.drawn:])
    return total


def check_game(ev, events: list[dict], final=None, oracle_scores: bool = False) -> dict:
    """Every invariant of docs/game.md on one log; returns a few facts for the caller's statistics."""
    rules = ev.rules
    table = Table(rules)
    states = replay(events, table)
    if final is not None:
        assert states[-1] == final, "the replay does not reach the engine's final state"
    start, kyoku = events[0], events[1]
    n = len(kyoku["tehais"])
    wall = kyoku["wall"]
    assert all(len(h) == 12 for h in kyoku["tehais"])
    assert Counter(t for h in kyoku["tehais"] for t in h) + Counter(wall) == Counter({name: 3 for name in table.names})
    draws = 0
    expected = kyoku["oya"]  # the seat that must draw next
    pending = None  # (discarder, tile) of a discard not yet answered
    sora_this_turn = False
    facts = Counter()
    by_members = {frozenset(u.members): u for u in rules.units}
    for i, (event, state) in enumerate(zip(events[2:], states[2:]), 2):
        kind = event["type"]
        facts[kind] += 1
        assert tiles_everywhere(state, rules) == Counter({k: 3 for k in range(len(table.names))}), f"event {i}"
        sizes = [s.size(rules) for s in state.seats]
        if state.phase == "discard":
            assert sizes[state.turn] == 13 and all(sizes[s] == 12 for s in range(n) if s != state.turn)
        elif state.phase in ("draw", "claim"):
            assert sizes == [12] * n, f"event {i}: {sizes}"
        if kind in ("tsumo", "sora"):
            if pending is not None:
                expected, pending, sora_this_turn = (pending[0] + 1) % n, None, False
            assert event["actor"] == expected, f"event {i}: out of turn"
        if kind == "sora":
            assert not sora_this_turn and ev.rules.tiles.sora is not None
            sora_this_turn = True
        elif kind == "tsumo":
            assert event["pai"] == wall[draws], f"event {i}: not the next wall tile"
            draws += 1
        elif kind == "dahai":
            pending = (event["actor"], event["pai"])
        elif kind == "chi":
            assert pending is not None and event["target"] == pending[0] and event["pai"] == pending[1]
            if start.get("calls") == "previous":
                assert event["actor"] == (pending[0] + 1) % n
            unit = by_members.get(frozenset(table.kind(t) for t in event["consumed"] + [event["pai"]]))
            assert unit is not None and unit.size >= 3 and unit.name == event["unit"]
            assert len(event["consumed"]) == unit.size - 1
            expected, pending, sora_this_turn = event["actor"], None, False
            facts["calls"] += 1
        elif kind == "hora":
            check_win(ev, event, state, pending, oracle_scores)
        elif kind == "ryukyoku":
            assert draws == len(wall)
    end = events[-1]
    assert end["type"] == "end_game"
    final_state = states[-1]
    for seat in range(n):
        win = next((w for w in final_state.wins if w.seat == seat), None)
        if win is None:
            expected_score = ev.score(final_state.seats[seat].hand(), "none", None,
                                      final_state.favourites[seat]).total if rules.scores_no_win else None
            assert end["scores"][seat] == expected_score
            if oracle_scores and rules.scores_no_win:
                hand = final_state.seats[seat]
                assert expected_score == oracle.best_score([u.members for u in rules.units], list(hand.concealed),
                                                           list(hand.called), won=False, ron_tile=None,
                                                           favourite=final_state.favourites[seat],
                                                           rules=oracle_rules(ev), sora=rules.tiles.sora)
        else:
            assert end["scores"][seat] == win.score
    return facts


def check_win(ev, event, state, pending, oracle_scores: bool) -> None:
    from game.state import winning_hand

    rules = ev.rules
    table = Table(rules)
    win = state.wins[-1]
    assert win.seat == event["actor"]
    hand = winning_hand(state, win)
    tsumo = event["actor"] == event["target"]
    if not tsumo:
        assert pending == (event["target"], event["pai"]), "a ron on something else than the latest discard"
        assert not (table.kind(event["pai"]) == rules.tiles.shika and not rules.spec.ron_on_shika), "ron on 詩花"
    assert ev.is_complete(hand), "a win on an incomplete hand (exact core)"
    assert oracle_complete(ev, hand.concealed, hand.called), "a win on an incomplete hand (oracle)"
    favourite = state.favourites[win.seat]
    how = "tsumo" if tsumo else "ron"
    expected = ev.score(hand, how, None if tsumo else table.kind(event["pai"]), favourite).total
    assert event["score"] == expected
    if oracle_scores:
        assert expected == oracle.best_score([u.members for u in rules.units], list(hand.concealed), list(hand.called),
                                             won=True, ron_tile=None if tsumo else table.kind(event["pai"]),
                                             favourite=favourite, rules=oracle_rules(ev), sora=rules.tiles.sora)
