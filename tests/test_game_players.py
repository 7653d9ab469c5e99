"""The built-in COMs on positions whose answer is known: seed 000's example hand (docs/rules.md section 6),
seed000's kept mistakes (tiles in view ignored), its そら timing, and calls taken only when they lower h."""

from __future__ import annotations

import pytest

from game.observation import Observation
from game.players.seed000 import Seed000Player
from game.players.simple import GreedyPlayer, RandomPlayer
from game.state import Table
from solver.api import Evaluator
from solver.core.hand import Hand

EXAMPLE = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"  # h = 1, send 奈緒 or 紗代子
READY = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子"  # waits on のり子 only


@pytest.fixture(scope="module")
def ev():
    return Evaluator()


def observation(ev, hand: str, phase: str = "discard", rooms=((), (), (), ()), seen: str = "", last=None):
    table = Table(ev.rules)
    parsed = ev.hand(hand)
    counts = [0] * len(table.names)
    for k in [k for room in rooms for k in room] + [ev.tile(t) for t in seen.split()]:
        counts[k] += 1
    size = parsed.size(ev.rules)
    return Observation(0, phase, parsed, tuple(tuple(r) for r in rooms), ((),) * 4, (size, 12, 12, 12), 80, 20,
                       ev.tile("可奈"), tuple(counts), last, ev.rules, table)


def discards(ev, hand: Hand) -> list[dict]:
    return [{"type": "dahai", "actor": 0, "pai": ev.rules.tiles.name(k)} for k, n in enumerate(hand.concealed) if n]


def chi_actions(ev, hand: Hand, tile: int) -> list[dict]:
    table = Table(ev.rules)
    found = []
    for u in ev.rules.units_of_kind[tile]:
        unit = ev.rules.units[u]
        others = [k for k in unit.members if k != tile]
        if unit.size >= 3 and all(hand.concealed[k] for k in others):
            found.append({"type": "chi", "actor": 0, "target": 1, "pai": table.names[tile],
                          "consumed": [table.names[k] for k in others], "unit": unit.name})
    return found


@pytest.mark.parametrize("player", [GreedyPlayer, Seed000Player])
def test_seed_example_sends_nao_or_sayoko(ev, player):
    obs = observation(ev, EXAMPLE)
    assert player().act(obs, discards(ev, obs.hand))["pai"] in ("奈緒", "紗代子")


def test_seed000_ignores_tiles_in_view_greedy_does_not(ev):
    # every copy of the tiles that 奈緒 / 紗代子 would wait on is in view: greedy turns to 可奈 (亜利沙 and
    # 美奈子 live), seed000 keeps its kept mistake (it counts dead in-tiles as if they could come)
    seen = "やよい やよい やよい 志保 志保 志保 詩花 詩花 詩花 可奈 可奈"
    obs = observation(ev, EXAMPLE, seen=seen)
    actions = discards(ev, obs.hand)
    assert GreedyPlayer().act(obs, actions)["pai"] == "可奈"
    assert Seed000Player().act(obs, actions)["pai"] in ("奈緒", "紗代子")


def sora_actions(ev, rooms) -> list[dict]:
    return [{"type": "sora", "actor": 0, "target": seat, "pai": ev.rules.tiles.name(k)}
            for seat, room in enumerate(rooms) for k in sorted(set(room))] + [{"type": "none"}]


def test_seed000_uses_sora_at_h2_with_one_and_takes_the_wanted_tile(ev):
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 美奈子 そら"
    assert ev.h(hand).h == 2
    rooms = ((), (ev.tile("春香"), ev.tile("のり子")), (ev.tile("響"),), ())
    obs = observation(ev, hand, "draw", rooms)
    chosen = Seed000Player().act(obs, sora_actions(ev, rooms))
    assert chosen["type"] == "sora" and chosen["pai"] in {ev.rules.tiles.name(k) for k in wanted(ev, hand)}
    useless = next(k for k in range(len(ev.rules.tiles)) if k not in wanted(ev, hand) and k != ev.rules.tiles.sora)
    nothing_wanted = ((), (useless,), (), ())
    assert Seed000Player().act(observation(ev, hand, "draw", nothing_wanted),
                               sora_actions(ev, nothing_wanted))["type"] == "none"


def wanted(ev, hand: str) -> set[int]:
    """Kinds whose draw lowers h (each is an in-tile of some optimal exchange)."""
    parsed = ev.hand(hand)
    h = ev.h(parsed).h
    return {k for k in range(len(parsed.concealed)) if parsed.totals(ev.rules)[k] < 3
            and ev.h(parsed.add(k).remove(ev.rules.tiles.sora)).h < h}


def test_seed000_keeps_sora_at_h3_with_one_uses_it_with_two(ev):
    hand = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 響 歌織 千鶴 そら"
    assert ev.h(hand).h == 3
    rooms = ((), tuple(sorted(wanted(ev, hand))), (), ())
    assert Seed000Player().act(observation(ev, hand, "draw", rooms), sora_actions(ev, rooms))["type"] == "none"
    two = hand.replace("千鶴", "そら")  # two そら: from h = 3 on
    assert ev.h(two).h == 3
    rooms = ((), tuple(sorted(wanted(ev, two))), (), ())
    assert Seed000Player().act(observation(ev, two, "draw", rooms), sora_actions(ev, rooms))["type"] == "sora"


@pytest.mark.parametrize("player", [GreedyPlayer, Seed000Player])
def test_calls_only_when_they_lower_h(ev, player):
    # 歩 completes BIRTH [真 雪歩 あずさ 可奈 歩]: calling it and sending 春香 leaves a wait on のり子 (h 2 -> 1)
    hand = "真 雪歩 あずさ 可奈 未来 まつり 美也 紗代子 海美 奈緒 美奈子 春香"
    obs = observation(ev, hand, "claim", last=(1, ev.tile("歩")))
    calls = chi_actions(ev, obs.hand, ev.tile("歩"))
    assert calls and ev.h(hand).h == 2
    assert player().act(obs, calls + [{"type": "none"}])["type"] == "chi"
    # a ready hand: no call can lower h below 1, so every call offered is declined
    ready = ev.hand(READY)
    tried = 0
    for kind in range(len(ready.concealed)):
        calls = chi_actions(ev, ready, kind)
        if calls and kind != ev.tile("のり子") and ready.totals(ev.rules)[kind] < 3:
            tried += 1
            obs = observation(ev, READY, "claim", last=(1, kind))
            assert player().act(obs, calls + [{"type": "none"}]) == {"type": "none"}
    assert tried > 0


def test_random_takes_every_win(ev):
    player = RandomPlayer()
    player.start(0, 1)
    win = {"type": "hora", "actor": 0, "target": 0, "pai": "のり子"}
    for _ in range(20):
        assert player.act(None, [{"type": "dahai", "actor": 0, "pai": "春香"}, win]) == win


def test_a_human_without_its_class_is_said_so():
    """QA: make_player("human") without `human=` said "unknown player human: one of ..., or human"."""
    from game.players import make_player
    from solver.core.errors import MjError

    with pytest.raises(MjError, match=r"^a human player needs its class: make_player\('human', human=\.\.\.\)"):
        make_player("human")
