"""The game engine over many seeded games: every invariant of docs/game.md re-checked from the log alone
(tests/game_checks.py), the rule options, crafted deals whose outcome is known, and replay."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import pytest
from game_checks import check_game

from game import engine
from game.engine import Game, Setup
from game.log import dumps, read, replay
from game.players import fallback_player, make_player
from game.players.base import Player
from game.state import HAND, Options, Table
from solver.api import Evaluator
from solver.core.errors import MjError

MIXES = (("random",) * 4, ("greedy", "random", "seed000", "random"), ("seed000", "greedy", "greedy", "seed000"),
         ("random", "random"), ("greedy", "random", "random"))


@pytest.fixture(scope="module")
def ev():
    return Evaluator()


def play(ev, seed: int, specs, options: Options = Options(), dealer: int = 0, favourites=()) -> engine.Record:
    players = [make_player(s) for s in specs]
    return Game(ev, Setup(seed, len(specs), dealer, favourites, options), players, fallback_player).play()


def many(ev, games: int, oracle_every: int = 10) -> Counter:
    facts = Counter()
    for seed in range(games):
        specs = MIXES[seed % len(MIXES)]
        options = Options(calls="previous" if seed % 3 == 1 else "any", multiple_ron=seed % 4 == 2)
        record = play(ev, seed, specs, options, dealer=seed % len(specs))
        facts.update(check_game(ev, record.events, record.state, oracle_scores=seed % oracle_every == 0))
        facts["previous-calls"] += options.calls == "previous" and any(e["type"] == "chi" for e in record.events)
        facts["tsumo-wins"] += any(e["type"] == "hora" and e["actor"] == e["target"] for e in record.events)
        facts["ron-wins"] += any(e["type"] == "hora" and e["actor"] != e["target"] for e in record.events)
    return facts


def test_200_games_keep_every_rule(ev):
    facts = many(ev, 200)
    # the run exercised every kind of event, so the checks above were not vacuous
    for kind in ("sora", "chi", "ryukyoku", "tsumo-wins", "ron-wins", "previous-calls"):
        assert facts[kind] > 0, kind


@pytest.mark.slow
def test_1000_games_keep_every_rule(ev):
    facts = many(ev, 1000, oracle_every=5)
    assert facts["end_game"] == 1000
    assert facts["tsumo-wins"] + facts["ron-wins"] + facts["ryukyoku"] == 1000  # one way each game ended
    assert facts["hora"] > facts["tsumo-wins"] + facts["ron-wins"]  # --multiple-ron gave two winners somewhere


def test_same_seed_same_log_bytes(ev):
    from game.players.planner import PlannerPlayer

    def log(seed):  # the planner too: its budget is a cap on states, not the clock
        planner = PlannerPlayer(0.1)
        planner.safety = None  # (its clock's safety net alone could fire on a loaded machine: a greedy fallback)
        players = [make_player("greedy"), make_player("seed000"), make_player("random"), planner]
        record = Game(ev, Setup(seed), players, fallback_player).play()
        return "".join(dumps(e) + "\n" for e in record.events)
    first = log(11)
    assert first == log(11) and first != log(12)


def test_favourites_given_or_drawn_never_sora(ev):
    sora = ev.rules.tiles.sora
    drawn = [read(dumps(play(ev, seed, ("random",) * 4).events[0]))[0]["favourites"] for seed in range(30)]
    assert all(ev.tile(name) != sora for favs in drawn for name in favs)
    given = play(ev, 3, ("random",) * 4, favourites=((2, "可奈"),))
    plain = play(ev, 3, ("random",) * 4)
    assert given.events[0]["favourites"][2] == "可奈"
    assert given.events[1] == plain.events[1]  # the deal does not depend on the favourites


def test_replay_rejects_a_tampered_log(ev):
    events = play(ev, 5, ("greedy",) * 4).events
    table = Table(ev.rules)
    draw = next(i for i, e in enumerate(events) if e["type"] == "tsumo")
    wrong = json.loads(json.dumps(events))
    wrong[draw]["pai"] = next(n for n in table.names if n != events[draw]["pai"])
    with pytest.raises(MjError, match="next wall tile"):
        replay(wrong, table)
    out_of_turn = json.loads(json.dumps(events))
    out_of_turn[draw]["actor"] = (events[draw]["actor"] + 1) % 4
    with pytest.raises(MjError, match="out of turn"):
        replay(out_of_turn, table)


# --- crafted deals: positions whose outcome is known -------------------------------------------------------

READY = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子".split()  # + のり子: complete (docs/rules.md 6)


class Script(Player):
    """Plays a fixed first discard, then whatever is first among wins, calls and discards."""

    name = "script"

    def __init__(self, first: str | None = None, calls: bool = True):
        self.first, self.calls = first, calls

    def act(self, observation, possible_actions):
        wins = [a for a in possible_actions if a["type"] == "hora"]
        chis = [a for a in possible_actions if a["type"] == "chi" and self.calls]
        if wins or chis:
            return (wins or chis)[0]
        if self.first and any(a.get("pai") == self.first and a["type"] == "dahai" for a in possible_actions):
            first, self.first = self.first, None
            return {"type": "dahai", "actor": observation.seat, "pai": first}
        return next((a for a in possible_actions if a["type"] == "none"), possible_actions[-1])


def crafted(ev, monkeypatch, hands: list[list[str]], wall_front: list[str]):
    """Deal exactly these hands, the wall starting with `wall_front` and then every other tile."""
    table = Table(ev.rules)
    kinds = [[table.kind(t) for t in hand] for hand in hands]
    left = Counter({k: 3 for k in range(len(table.names))})
    for k in [k for hand in kinds for k in hand] + [table.kind(t) for t in wall_front]:
        left[k] -= 1
    assert min(left.values()) >= 0
    wall = [table.kind(t) for t in wall_front] + sorted(left.elements())

    def fake_deal(seed, rules, seats=4, dealer=0, favourites=None):
        return [sorted(h) for h in kinds], wall, [0] * len(kinds)
    monkeypatch.setattr(engine, "deal", fake_deal)


FILLER0 = "のり子 春香 千早 響 伊織 律子 亜美 真美 貴音 やよい 美希 翼".split()
FILLER3 = "静香 琴葉 恵美 エレナ 百合子 杏奈 ロコ 育 桃子 環 麗花 茜".split()


def test_tsumo_on_the_first_draw(ev, monkeypatch):
    crafted(ev, monkeypatch, [READY, FILLER0[1:] + ["瑞希"], FILLER3, FILLER3], ["のり子"])
    record = Game(ev, Setup(0), [Script() for _ in range(4)], fallback_player).play()
    hora = next(e for e in record.events if e["type"] == "hora")
    assert (hora["actor"], hora["target"], hora["pai"]) == (0, 0, "のり子")
    check_game(ev, record.events, record.state, oracle_scores=True)


@pytest.mark.parametrize("multiple", [False, True])
def test_ron_order_and_multiple_ron(ev, monkeypatch, multiple):
    # seats 1 and 2 both wait on のり子; seat 0 sends it at once
    crafted(ev, monkeypatch, [FILLER0, READY, READY, FILLER3], ["瑞希"])
    players = [Script("のり子")] + [Script() for _ in range(3)]
    record = Game(ev, Setup(0, options=Options(multiple_ron=multiple)), players, fallback_player).play()
    horas = [e for e in record.events if e["type"] == "hora"]
    assert [(h["actor"], h["target"], h["pai"]) for h in horas] == \
        ([(1, 0, "のり子"), (2, 0, "のり子")] if multiple else [(1, 0, "のり子")])
    assert horas[0]["score"] == horas[-1]["score"]  # the same hand, the same ron
    check_game(ev, record.events, record.state, oracle_scores=True)
    if multiple:  # the same log under one-winner rules is refused at its second win
        single = json.loads(json.dumps(record.events))
        single[0]["multiple_ron"] = False
        with pytest.raises(MjError, match="second ron"):
            replay(single, Table(ev.rules))


def test_ron_beats_an_earlier_call(ev, monkeypatch):
    # seat 1 could call HANABI-style units with のり子 (it holds 紗代子 海美 奈緒 美奈子) but seat 2 rons
    seat1 = "紗代子 海美 奈緒 美奈子 春香 千早 響 伊織 律子 亜美 真美 貴音".split()
    crafted(ev, monkeypatch, [FILLER0[:1] + "瑞希 やよい 美希 翼 星梨花 茜 麗花 環 桃子 育 ロコ".split(), seat1, READY,
                              FILLER3[:6] + "まつり 志保 朋花 千鶴 莉緒 風花".split()], ["エミリー"])
    players = [Script("のり子")] + [Script() for _ in range(3)]
    table = Table(ev.rules)
    from game.legal import claim_actions

    record = Game(ev, Setup(0), players, fallback_player).play()
    states = replay(record.events, table)
    discard = next(i for i, e in enumerate(record.events) if e["type"] == "dahai")
    offered = claim_actions(states[discard], table, 1, Options())
    assert any(a["type"] == "chi" for a in offered), "the position must offer seat 1 a call"
    hora = next(e for e in record.events if e["type"] == "hora")
    assert (hora["actor"], hora["target"]) == (2, 0)
    assert not any(e["type"] == "chi" for e in record.events[:discard + 2])


def test_no_call_that_would_leave_no_tile_to_discard(ev):
    """QA: a seat whose only concealed tiles were the other members of a unit was offered the call of the fourth,
    after which it had nothing to discard (docs/rules.md: a call, then a discard); `mj review` then crashed grading
    it. Such a call is not offered; with one more concealed tile it is."""
    from game.legal import claim_actions
    from game.state import GameState

    table = Table(ev.rules)
    record = Game(ev, Setup(3), [make_player("random") for _ in range(4)], fallback_player).play()
    states = replay(record.events, table)
    at = next(i for i, e in enumerate(record.events) if e["type"] == "dahai")
    state: GameState = states[at]
    discarder, tile = state.last
    unit = next(ev.rules.units[u] for u in ev.rules.units_of_kind[tile] if ev.rules.units[u].size >= 3)
    caller = (discarder + 1) % len(state.seats)
    for extra in (0, 1):
        held = [0] * len(ev.tiles)
        for k in unit.members:
            held[k] += k != tile
        held[next(k for k in range(len(held)) if k not in unit.members and k != ev.rules.tiles.sora)] += extra
        seats = list(state.seats)
        seats[caller] = replace(seats[caller], concealed=tuple(held))
        offered = claim_actions(replace(state, seats=tuple(seats)), table, caller, Options())
        calls = [a for a in offered if a["type"] == "chi" and a["unit"] == table.unit_names[unit.index]]
        assert len(calls) == extra, (extra, offered)


def test_calls_only_from_the_previous_seat(ev, monkeypatch):
    seat2 = "紗代子 海美 奈緒 美奈子 春香 千早 響 伊織 律子 亜美 真美 貴音".split()
    hands = [FILLER0[:1] + "瑞希 やよい 美希 翼 星梨花 茜 麗花 環 桃子 育 ロコ".split(),
             "静香 琴葉 恵美 エレナ 百合子 杏奈 まつり 志保 朋花 千鶴 莉緒 風花".split(), seat2,
             "未来 可奈 歩 雪歩 真 あずさ 美也 のり子 このみ 紬 歌織 ジュリア".split()]
    for calls, called in (("any", True), ("previous", False)):
        crafted(ev, monkeypatch, hands, ["エミリー"])
        players = [Script("のり子")] + [Script() for _ in range(3)]
        record = Game(ev, Setup(0, options=Options(calls=calls)), players, fallback_player).play()
        first = record.events[4] if len(record.events) > 4 else {}
        assert (first.get("type") == "chi" and first.get("actor") == 2) == called
        check_game(ev, record.events, record.state)


def test_seats_hold_twelve_after_the_deal(ev):
    record = play(ev, 9, ("random",) * 3)
    assert [len(h) for h in record.events[1]["tehais"]] == [HAND] * 3
    assert len(record.events[1]["wall"]) == 162 - 3 * HAND


@pytest.mark.parametrize("rules", ["2019-10", "hitori-jong-2.1"])
def test_other_rule_sets(rules):
    ev = Evaluator(rules)
    for seed in range(8):
        record = play(ev, seed, MIXES[seed % len(MIXES)])
        check_game(ev, record.events, record.state, oracle_scores=seed % 4 == 0)
        assert not any(e["type"] == "sora" for e in record.events)  # そら is fetched only in "fetch" mode
        assert record.events[0]["rules"] == rules
        if rules == "2019-10":  # no score for a hand that did not win: null, not invented
            winners = {e["actor"] for e in record.events if e["type"] == "hora"}
            assert all((s is None) == (i not in winners) for i, s in enumerate(record.events[-1]["scores"]))


def test_draws_left_per_seat_add_up_to_the_wall(ev):
    from game.log import first_state
    from game.observation import observe

    record = play(ev, 2, ("random",) * 4, dealer=1)
    table = Table(ev.rules)
    state = first_state(record.events, table)
    left = [observe(state, seat, table).turns_left for seat in range(4)]
    assert sum(left) == state.wall_left == 162 - 48
    assert left[1] == max(left) and left[0] == min(left)  # the dealer (seat 1) draws first, seat 0 last


def test_planner_plays_the_plans_recommendation(ev):
    """Far from the end its discard is the class nearest's best, near it the optimum's (mj plan's default)."""
    from game.observation import observe
    from game.players.planner import OPTIMUM_TURNS, PlannerPlayer
    from solver.planning.plan import plan

    players = [PlannerPlayer(0.4), make_player("greedy"), make_player("random")]
    record = Game(ev, Setup(2, 3), players, fallback_player).play()
    check_game(ev, record.events, record.state)
    table = Table(ev.rules)
    states = replay(record.events, table)
    mine = [(i, e) for i, e in enumerate(record.events) if e.get("actor") == 0 and e["type"] == "dahai"]
    assert all("refused" not in e.get("label", "") for _, e in mine)
    planned = [(i, e) for i, e in mine if "label" not in e]
    assert planned, "no decision of the planner came from a plan"
    i, event = planned[-1]
    obs = observe(states[i - 1], 0, table)
    elsewhere = list(obs.seen)
    for k in obs.room_tiles:
        elsewhere[k] -= 1
    best = plan(ev.rules, obs.hand, turns=obs.turns_left, seen=tuple(elsewhere), waiting_room=tuple(obs.room_tiles),
                favourite=obs.favourite, both=False).discards  # (the keyword form's class: nearest)
    top = max(d.win_probability for d in best)
    assert table.kind(event["pai"]) in {d.tile for d in best if d.win_probability == top}
    # near the end (games rarely get there: a win ends them first) it asks what mj plan answers by default
    late = replace(obs, turns_left=OPTIMUM_TURNS)
    want = ev.plan(obs.hand, turns=OPTIMUM_TURNS, seen=[ev.tiles.name(k) for k, n in enumerate(elsewhere)
                                                        for _ in range(n)],
                   waiting_room=[ev.tiles.name(k) for k in obs.room_tiles], favourite=ev.tiles.name(obs.favourite),
                   both=False, seconds=None)
    got = PlannerPlayer(0.4).plan(late)
    assert want.method == got.method == "optimal"
    assert [(d.tile, d.win_probability) for d in got.discards] == [(d.tile, d.win_probability) for d in want.discards]


def test_planner_past_its_states_plays_the_estimate(ev):
    """Far from the end, past the class nearest's states, the discard is the best of what `mj plan --nearest
    --estimate ESTIMATE_GAMES` answers (seeded walls: the same answer every time), not the greedy fallback."""
    from game.observation import observe
    from game.players.planner import ESTIMATE_GAMES, PlannerPlayer

    player = PlannerPlayer(0.4)
    player.states = 20  # (nearest passes it at once: every decision far from the end is the estimate's)
    record = Game(ev, Setup(2, 3), [player, make_player("greedy"), make_player("random")], fallback_player).play()
    table = Table(ev.rules)
    states = replay(record.events, table)
    mine = [(i, e) for i, e in enumerate(record.events) if e.get("actor") == 0 and e["type"] == "dahai"]
    assert mine and not any("label" in e for _, e in mine)
    i, event = mine[0]
    obs = observe(states[i - 1], 0, table)
    elsewhere = list(obs.seen)
    for k in obs.room_tiles:
        elsewhere[k] -= 1
    names = ev.tiles.name
    want = ev.plan(obs.hand, turns=obs.turns_left, seen=[names(k) for k, n in enumerate(elsewhere) for _ in range(n)],
                   waiting_room=[names(k) for k in obs.room_tiles], favourite=names(obs.favourite), both=False,
                   nearest=True, estimate=ESTIMATE_GAMES, max_states=20, seconds=None)
    assert want.method == "estimate"
    top = max(d.win_probability for d in want.discards)
    assert table.kind(event["pai"]) in {d.tile for d in want.discards if d.win_probability == top}


def test_planner_clock_plays_mj_plans_default_answer(ev):
    """`planner-clock` asks, at every discard, what `mj plan --seconds BUDGET` answers by default (the optimum,
    past it the bracket or the estimate) and plays its recommendation; the game stays legal."""
    from game.players.planner import ClockedPlannerPlayer

    calls = []

    class Recorded(ClockedPlannerPlayer):
        def plan(self, obs):
            self.made = super().plan(obs)
            return self.made

        def act(self, observation, possible_actions):
            self.made = None
            action = super().act(observation, possible_actions)
            if possible_actions[0]["type"] == "dahai" and self.made is not None:
                calls.append((self.request(observation), self.made, action))
            return action
    player = Recorded(0.2)
    assert make_player("planner-clock", planner_budget=0.2).name == player.name == "planner-clock"
    record = Game(ev, Setup(4, 3), [player, make_player("greedy"), make_player("random")], fallback_player).play()
    check_game(ev, record.events, record.state)
    table = Table(ev.rules)
    assert calls, "no discard of planner-clock came from a plan"
    for request, made, action in calls:
        assert request.play == "optimal" and request.limits.seconds == 0.2 and not request.both
        assert made.method in ("optimal", "bounds", "estimate")
        assert action["pai"] == table.names[made.recommended.tile]
    assert {made.method for _, made, _ in calls} & {"bounds", "estimate"}  # far from the end: past the optimum


def test_replay_refuses_illegal_decisions(ev):
    """A log that claims a win on an incomplete hand, a second ron without --multiple-ron, or a call from the
    wrong seat under calls=previous is refused, naming its line."""
    table = Table(ev.rules)
    events = play(ev, 6, ("greedy", "random", "random", "random")).events
    discard = next(i for i, e in enumerate(events) if e["type"] == "dahai")
    fake_win = [*events[:discard], {"type": "hora", "actor": events[discard]["actor"],
                                     "target": events[discard]["actor"], "pai": events[discard - 1]["pai"],
                                     "score": 1000}]
    with pytest.raises(MjError, match=f"line {discard + 1}: hora is not a legal action"):
        replay(fake_win, table)
    assert len(replay(fake_win, table, strict=False)) == len(fake_win)  # the transitions alone take it
    previous = json.loads(json.dumps(events))
    previous[0]["calls"] = "previous"
    far_call = next((i for i, e in enumerate(events) if e["type"] == "chi"
                     and e["actor"] != (e["target"] + 1) % 4), None)
    assert far_call is not None
    with pytest.raises(MjError, match=f"line {far_call + 1}"):
        replay(previous, table)


@pytest.mark.parametrize("make, said", [
    (lambda: Setup(seed="x"), "Setup's seed is a whole number, not the str 'x'"),
    (lambda: Setup(seats=5), "Setup: 2 to 4 seats"),
    (lambda: Setup(favourites={0: "春香"}), "Setup's favourites are a tuple of"),
])
def test_a_bad_setup_is_one_clear_error(make, said):
    """QA: Setup(seed="x") and Setup(favourites={0: "春香"}) raised TypeError deep inside play()."""
    from solver.core.errors import MjError

    with pytest.raises(MjError, match=re.escape(said)):
        make()


def test_a_rule_set_of_another_hand_size_is_refused_in_one_line():
    """QA: a house's hand_size 5 was dealt 12 tiles, never won and ended in an error with no log."""
    import itertools

    from synthetic import PARAMS, make_catalogue

    from game.players import fallback_player, make_player
    from solver import Evaluator, MjError

    trios = list(itertools.combinations(range(12), 3))
    small = Evaluator("syn", catalogue=make_catalogue(trios, 12, hand_size=5, params=PARAMS["2019-12"]))
    with pytest.raises(MjError, match="^games deal 12 tiles and win on 13: rule set syn has hands of 5"):
        Game(small, Setup(1, 2), [make_player("greedy"), make_player("greedy")], fallback_player)
