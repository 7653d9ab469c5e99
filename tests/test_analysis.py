"""Turn analysis against docs/rules.md section 6 and seed 000, and against a per-draw recomputation."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from typer.testing import CliRunner

import cli
from solver import Evaluator, Hand
from solver.analysis.turn import analyze, call_options, sora_advice
from solver.core.distance import exchange_distance

SEED_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
# docs/rules.md section 6 (in ⇔ out)
SEED_EXCHANGES = {("のり子", "星梨花"), ("やよい", "奈緒"), ("志保", "奈緒"), ("可奈", "奈緒"), ("詩花", "奈緒"),
                  ("やよい", "紗代子"), ("志保", "紗代子"), ("可奈", "紗代子"), ("詩花", "紗代子"),
                  ("亜利沙", "可奈"), ("美奈子", "可奈")}
PUZZLE_BASE = "詩花 詩花 詩花 百合子 桃子 このみ やよい 真 伊織"


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


def names(ev: Evaluator, kinds) -> list[str]:
    return [ev.tiles.name(k) for k in kinds]


def test_seed_hand_has_exactly_the_eleven_exchanges(ev):
    result = analyze(ev.distance_model, ev.hand(SEED_HAND))
    assert result.h == 1 and result.exchanges_complete
    got = {(names(ev, e.into)[0], names(ev, e.out)[0]) for e in result.exchanges}
    assert got == SEED_EXCHANGES
    for e in result.exchanges:  # each reaches a complete hand made of the units it names
        full = ev.hand(SEED_HAND).remove(e.out[0]).add(e.into[0])
        members = sorted(k for u in e.target for k in ev.rules.units[u].members)
        assert members == full.tiles()


def test_seed_hand_discards_keep_four_two_one_in_tiles(ev):
    result = analyze(ev.distance_model, ev.hand(SEED_HAND))
    rows = {ev.tiles.name(r.tile): r for r in result.discards}
    assert {n for n, r in rows.items() if r.h == 1} == {"奈緒", "紗代子", "可奈", "星梨花"}
    assert set(names(ev, [a.tile for a in rows["奈緒"].accept])) == {"やよい", "志保", "可奈", "詩花"}
    assert set(names(ev, [a.tile for a in rows["紗代子"].accept])) == {"やよい", "志保", "可奈", "詩花"}
    assert set(names(ev, [a.tile for a in rows["可奈"].accept])) == {"亜利沙", "美奈子"}
    assert set(names(ev, [a.tile for a in rows["星梨花"].accept])) == {"のり子"}
    assert all(r.h == 2 for n, r in rows.items() if n not in {"奈緒", "紗代子", "可奈", "星梨花"})
    # sorted the way a player decides: lowest h, then most live tiles
    keys = [(r.h, -r.live) for r in result.discards]
    assert keys == sorted(keys)
    # live = 3 - in hand - seen (the hand holds one 可奈; after discarding 奈緒 none is seen)
    live = {ev.tiles.name(a.tile): a.live for a in rows["奈緒"].accept}
    assert live == {"やよい": 3, "志保": 3, "可奈": 2, "詩花": 3}


@pytest.mark.parametrize("extra, waits", [
    ("未来 春香 千早", {"静香", "春香", "雪歩", "貴音"}),
    ("春香 千早 静香", {"千早", "未来", "ジュリア"}),
    ("春香 未来 静香", {"千早", "未来", "ジュリア"}),
    ("千早 未来 静香", {"静香", "春香", "雪歩", "貴音"}),
])
def test_wait_puzzle(ev, extra, waits):
    result = analyze(ev.distance_model, ev.hand(f"{PUZZLE_BASE} {extra}"))
    assert result.h == 1
    assert set(names(ev, [w.tile for w in result.waits])) == waits
    for w in result.waits:  # every wait really completes the hand, with a positive tsumo score
        assert ev.is_complete(ev.hand(f"{PUZZLE_BASE} {extra}").add(w.tile))
        assert w.tsumo and w.tsumo > 0


def test_puzzle_needs_kachou_fuugetsu(ev):
    """花鳥風月 is not a unit under hitori-jong-2.1, so 貴音 is no wait there."""
    hj = Evaluator("hitori-jong-2.1")
    result = analyze(hj.distance_model, hj.hand(f"{PUZZLE_BASE} 未来 春香 千早"))
    assert set(names(hj, [w.tile for w in result.waits])) == {"静香", "春香", "雪歩"}


def test_acceptance_disappears_when_all_copies_are_seen(ev):
    hand = ev.hand(f"{PUZZLE_BASE} 未来 春香 千早")
    seen = ev.seen("静香 静香 静香")
    result = analyze(ev.distance_model, hand, seen=seen)
    accept = names(ev, [a.tile for a in result.discards[0].accept])
    assert "静香" not in accept and set(accept) == {"春香", "雪歩", "貴音"}
    # ... but the wait is still shown, as dead (D3)
    dead = {ev.tiles.name(w.tile): w.live for w in result.waits}
    assert dead["静香"] == 0 and dead["雪歩"] == 3


def test_wait_on_a_fourth_copy_does_not_exist(ev):
    # 3 詩花 held: a 4th 詩花 would complete 詩花×4 + ..., but there are only three copies
    hand = ev.hand("詩花 詩花 詩花 春香 未来 千早 静香 翼 杏奈 百合子 桃子 このみ")
    result = analyze(ev.distance_model, hand)
    assert ev.tiles.shika not in [w.tile for w in result.waits]


def test_ron_on_shika_is_no_win_but_tsumo_is(ev):
    # ミリオンシグナル + Fate of the World + トライスタービジョン + FleurS: 12 tiles, waits on 詩花
    hand = ev.hand("未来 静香 翼 春香 千早 美希 琴葉 恵美 エレナ 百合子 桃子 このみ")
    result = analyze(ev.distance_model, hand)
    shika = next(w for w in result.waits if w.tile == ev.tiles.shika)
    assert shika.ron is None and shika.tsumo is not None


def test_calls_that_do_not_lower_h_are_marked(ev):
    # 12 tiles; 未来 discarded by another player: ミリオンシグナル [未来 静香 翼] can be called
    hand = ev.hand("静香 翼 春香 千早 美希 百合子 海美 琴葉 エレナ 美也 伊織 紬")
    options = call_options(ev.distance_model, hand, ev.tile("未来"), ())
    assert options and all(ev.rules.units[o.unit].size >= 3 for o in options)
    assert any(ev.rules.units[o.unit].name == "ミリオンシグナル" for o in options)
    h_now = exchange_distance(ev.distance_model, hand).h
    for o in options:
        called = Hand(tuple(c - (k in ev.rules.units[o.unit].members and k != ev.tile("未来"))
                            for k, c in enumerate(hand.concealed)), (o.unit,)).remove(o.discard)
        seen = tuple(1 if k == o.discard else 0 for k in range(54))
        assert o.h == exchange_distance(ev.distance_model, called, seen).h
        assert o.lowers == (o.h < h_now)


def test_two_member_units_cannot_be_called(ev):
    hand = ev.hand("春香 千早 美希 百合子 海美 琴葉 エレナ 美也 伊織 紬 翼 静香")
    # 未来 + 春香 is ハルカナミライ (2 members): not callable; 3+ member units only
    for o in call_options(ev.distance_model, hand, ev.tile("未来"), ()):
        assert ev.rules.units[o.unit].size >= 3


def test_sora_fetch_lowers_h_with_the_right_tile(ev):
    # そら + a hand one tile from complete: taking the missing tile from the waiting room wins
    hand = ev.hand("そら 詩花 詩花 百合子 桃子 このみ やよい 真 伊織 未来 春香 千早")
    advice = sora_advice(ev.distance_model, hand, [ev.tile("静香"), ev.tile("紬")], ())
    assert advice.use_now and ev.tiles.name(advice.options[0].take) == "静香"
    assert advice.options[0].h < advice.h_now
    none = sora_advice(ev.distance_model, hand, [ev.tile("紬")], ())
    assert not none.use_now


def test_sora_advice_only_where_a_fetch_can_be_made():
    """QA: under hitori-jong-2.1 (そら dead) and 2019-10 (a wildcard) analyze advised a fetch; and on a 13-tile
    hand it advised "use そら now" although a fetch comes before a draw, with 12 tiles (plan said otherwise)."""
    twelve = "そら 詩花 詩花 百合子 桃子 このみ やよい 真 伊織 未来 春香 千早"
    for name in ("hitori-jong-2.1", "2019-10"):
        assert Evaluator(name).analyze(twelve, waiting_room="静香").sora is None
    ev = Evaluator("2019-12")
    assert ev.analyze(twelve, waiting_room="静香").sora.use_now
    thirteen = ev.analyze(twelve + " 紬", waiting_room="静香")
    assert thirteen.sora is None and any("12 tiles after a discard" in n for n in thirteen.notes)


QA_HAND = "千早 まつり エミリー 風花 ジュリア 美希 紗代子 朋花 千鶴 昴"


def test_a_fetch_never_lets_a_target_hold_a_fourth_copy(ev):
    """QA: the advice took the fetched kind off the seen tiles, so a target could hold a seen copy as a 4th: "take
    詩花, h 2 -> 1", where the hand after the fetch has h 2."""
    advice = ev.analyze("そら 詩花 " + QA_HAND, seen="詩花", waiting_room="詩花").sora
    after = ev.h("詩花 詩花 " + QA_HAND, seen="詩花").h
    assert after == 2 and not advice.use_now and [o.h for o in advice.options] == [after]


def test_the_room_is_reached_only_where_a_sora_can_fetch(ev):
    """QA (D9): with every そら seen, h still reached the waiting room's tiles (h 1, a wait on a tile no one can
    get). With a そら live, it may."""
    hand = "詩花 詩花 " + QA_HAND
    assert ev.analyze(hand, seen="そら そら そら", waiting_room="詩花").h == ev.h(hand, seen="詩花").h == 2
    assert ev.analyze(hand, seen="そら そら", waiting_room="詩花").h == 1


def test_discard_table_matches_per_draw_recomputation(ev):
    """Acceptance after each discard equals {t : h(hand - d + t) < h(hand - d)} computed one by one."""
    rng = random.Random(11)
    wall = [k for k in range(54) for _ in range(3)]
    dm = ev.distance_model
    for _ in range(3):
        counts = [0] * 54
        for k in rng.sample(wall, 13):
            counts[k] += 1
        hand = Hand(tuple(counts))
        result = analyze(dm, hand, exchange_limit=5)
        for row in result.discards[:4]:
            rest = hand.remove(row.tile)
            seen = tuple(1 if k == row.tile else 0 for k in range(54))
            h12 = exchange_distance(dm, rest, seen).h
            assert row.h == h12
            expected = {t for t in range(54) if rest.concealed[t] + seen[t] < 3
                        and exchange_distance(dm, rest.add(t), seen).h < h12}
            assert {a.tile for a in row.accept} == expected


def test_exchange_listing_is_cut_short_and_says_so(ev):
    result = analyze(ev.distance_model, ev.hand("春香 美希 響 翼 琴葉 茜 ロコ 育 歩 千鶴 環 昴 紬"), exchange_limit=3)
    assert len(result.exchanges) == 3 and not result.exchanges_complete
    assert any("first 3" in note for note in result.notes)


def test_analyze_json_shape():
    result = CliRunner().invoke(cli.app, ["analyze", SEED_HAND, "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for key in ("tiles", "complete", "h", "score", "exchanges", "discards", "waits"):
        assert key in data
    assert data["h"] == 1 and len(data["exchanges"]) == 11
    assert all(set(e) >= {"out", "in"} for e in data["exchanges"])
    assert all(set(d) >= {"tile", "h", "accept"} for d in data["discards"])
    assert all(set(a) == {"tile", "live"} for d in data["discards"] for a in d["accept"])
    assert all(set(w) >= {"tile", "tsumo", "ron"} for w in data["waits"])
    assert {e["in"][0] for e in data["exchanges"]} == {"noriko", "yayoi", "shiho", "kana", "shika", "arisa", "minako"}


def test_analyze_cli_with_discard_and_waiting_room():
    hand = "そら 詩花 詩花 百合子 桃子 このみ やよい 真 伊織 未来 春香 千早"
    result = CliRunner().invoke(cli.app, ["analyze", hand, "--discard", "静香", "--waiting-room", "静香 紬", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["call_tile"] == "shizuka" and data["sora"]["use_now"] is True
    assert data["sora"]["options"][0]["take"] == "shizuka"


ROOM_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 そら"


@pytest.mark.parametrize("room", ["のり子 のり子 のり子", "のり子 やよい", "紬"])
def test_the_waiting_rooms_copies_are_not_live(room):
    """They are out of the wall (D9), as the planner takes them: every live count leaves them out. In fetch mode h
    still reaches them (a そら fetches them); in the other modes they are seen like any visible tile."""
    ev = Evaluator("2019-12")
    plain, roomed = ev.analyze(ROOM_HAND), ev.analyze(ROOM_HAND, waiting_room=room)
    copies = ev.seen(room)

    def lives(a):
        return ({(r.tile, x.tile): x.live for r in a.discards for x in r.accept},
                {(r.tile, w.tile): w.live for r in a.discards for w in r.waits}, {w.tile: w.live for w in a.waits})
    assert [(r.tile, r.h) for r in sorted(roomed.discards, key=lambda r: r.tile)] == \
        [(r.tile, r.h) for r in sorted(plain.discards, key=lambda r: r.tile)]
    for before, after in zip(lives(plain), lives(roomed)):
        assert after == {key: max(0, n - copies[key[-1] if isinstance(key, tuple) else key]) for key, n in before.items()}
    assert ("のり子" in room) == (lives(roomed) != lives(plain))  # (のり子 completes the hand; 紬 lowers no h)
    dead = Evaluator("hitori-jong-2.1")
    assert replace(dead.analyze(ROOM_HAND, waiting_room=room), sora=None) == dead.analyze(ROOM_HAND, seen=room)


@pytest.mark.parametrize("rules", ["2019-12", "hitori-jong-2.1", "2019-10"])
def test_discard_rows_with_calls_seen_and_sora_match_recomputation(rules):
    """As above, with a called unit, そら in hand (fetch, dead, wildcard) and tiles seen elsewhere."""
    ev = Evaluator(rules)
    dm, table = ev.distance_model, ev.rules
    rng = random.Random(rules)
    called = rng.choice([u for u in table.units if 3 <= u.size <= 4])
    wall = [k for k in range(54) for _ in range(3)]
    for k in called.members:
        wall.remove(k)
    wall.remove(ev.tiles.sora)
    counts = [0] * 54
    counts[ev.tiles.sora] = 1
    for k in rng.sample(wall, 12 - called.size):
        counts[k] += 1
    hand = Hand(tuple(counts), (called.index,))
    totals = hand.totals(table)
    seen = [0] * 54
    for k in rng.sample([k for k in range(54) if totals[k] < 3], 5):
        seen[k] = 3 - totals[k] if rng.random() < 0.4 else 1  # some kinds fully seen
    result = analyze(dm, hand, seen=tuple(seen), exchange_limit=3)
    for row in result.discards[:3]:
        rest = hand.remove(row.tile)
        after = list(seen)
        after[row.tile] += 1
        after = tuple(after)
        h12 = exchange_distance(dm, rest, after).h
        assert row.h == h12
        expected = {t for t in range(54) if rest.totals(table)[t] + after[t] < 3
                    and exchange_distance(dm, rest.add(t), after).h < h12}
        assert {a.tile for a in row.accept} == expected


def test_the_call_table_lists_every_live_kind_that_can_be_called_or_won_on(ev):
    """12 tiles, no discard typed: each row's units and best discards equal the per-kind call options (h after
    each call recomputed here with the plain exchange distance), and its ron equals the hand's waits."""
    from solver.analysis.calls import call_table

    hand = ev.hand("静香 翼 春香 千早 美希 百合子 海美 琴葉 エレナ 美也 伊織 紬")
    seen = ev.seen("美也 千早 千早")
    rows = {r.tile: r for r in call_table(ev.distance_model, hand, seen, ev.analyze(hand, "美也 千早 千早").waits)}
    for kind in range(len(ev.tiles)):
        live = 3 - hand.concealed[kind] - seen[kind]
        if live == 0:  # no copy left for another player to discard
            assert kind not in rows
            continue
        best: dict[int, tuple[int, set[int]]] = {}
        for u in ev.rules.units_of_kind[kind]:
            others = [k for k in ev.rules.units[u].members if k != kind]
            if ev.rules.units[u].size < 3 or any(hand.concealed[k] == 0 for k in others):
                continue
            left = Hand(tuple(c - (k in others) for k, c in enumerate(hand.concealed)), (u,))
            for out in {k for k, c in enumerate(left.concealed) if c}:
                after = tuple(s + (k == out) for k, s in enumerate(seen))
                h = exchange_distance(ev.distance_model, left.remove(out), after).h
                low, outs = best.get(u, (99, set()))
                best[u] = (h, {out}) if h < low else (low, outs | {out} if h == low else outs)
        if not best:
            assert kind not in rows or rows[kind].ron is not None
            continue
        row = rows[kind]
        assert row.live == live
        assert {c.unit: (c.h, set(c.discards)) for c in row.units} == best
    h_now = exchange_distance(ev.distance_model, hand, seen).h
    assert all(c.lowers == (c.h < h_now) for r in rows.values() for c in r.units)


def test_analyze_of_twelve_tiles_prints_the_call_table():
    result = CliRunner().invoke(cli.app, ["analyze", "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 海美 奈緒 美奈子 星梨花"])
    assert result.exit_code == 0 and "Any discard: ron on it, or a call into a unit" in result.stdout
    payload = json.loads(CliRunner().invoke(cli.app, ["analyze", "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 海美 奈緒 美奈子 星梨花",
                                                      "--json"]).stdout)
    ron = {r["tile"] for r in payload["callable"] if r["ron"] and r["ron"]["ron"] is not None}
    assert ron == {w["tile"] for w in payload["waits"] if w["live"] and w["ron"] is not None}


@pytest.mark.parametrize("options", [["--nearest"], ["--estimate", "50", "--max-states", "3"], ["--detour", "1"]])
def test_plan_options_without_turns_are_refused_not_ignored(options):
    result = CliRunner().invoke(cli.app, ["analyze", ROOM_HAND, *options])
    assert result.exit_code == 2 and "with --turns" in result.stderr and len(result.stderr.splitlines()) == 1


def test_seconds_without_turns_is_the_analysis_budget():
    """--seconds went with --turns only; it is the analysis' own budget now (tests/test_h_budget.py: past it)."""
    assert CliRunner().invoke(cli.app, ["analyze", ROOM_HAND, "--seconds", "2"]).exit_code == 0
