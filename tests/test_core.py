"""Hand-written edge cases on the real catalogue.

Every expected value below is derived by hand from the rules (the derivation is in the comment or
docstring next to it), not by running the solver. Unit names refer to catalogue/units.toml.

Scoring reminder (2019-12 / hitori-jong-2.1 / 2019-10 all use min 1000, member 2000):
points(n_eff) = max(1000, 2000 * (n_eff - 1)): n_eff 1 or 2 -> 1000 / 2000, 3 -> 4000, 4 -> 6000,
5 -> 8000.
"""

from __future__ import annotations

from collections import Counter

import pytest

from solver import Evaluator, Hand, MjError

try:  # may still be changing; only used lightly
    from solver.core.enumerate import accepted_kinds
except ImportError:  # pragma: no cover
    accepted_kinds = None


@pytest.fixture(scope="module")
def ev() -> Evaluator:
    return Evaluator("2019-12")


@pytest.fixture(scope="module")
def ev_hitori() -> Evaluator:
    return Evaluator("hitori-jong-2.1")


@pytest.fixture(scope="module")
def ev_wild() -> Evaluator:
    return Evaluator("2019-10")


def kinds(ev: Evaluator, names: str) -> list[int]:
    return [ev.tiles.resolve(n) for n in names.split()]


def unit_id(ev: Evaluator, su) -> str:
    return ev.rules.units[su.unit].id


# Thirteen tiles that split exactly: BIRTH (雪歩 真 あずさ 歩 可奈) + BRAVE STAR (春香 千早 貴音 律子)
# + マイティセーラーズ (翼 百合子 海美) + (詩花). All four units exist in the three real rule sets.
COMPLETE = "雪歩 真 あずさ 歩 可奈 春香 千早 貴音 律子 翼 百合子 海美 詩花"
# The same with one tile replaced by そら: 12 real tiles that, with 詩花 for the そら, are COMPLETE.
ONE_SORA = "雪歩 真 あずさ 歩 可奈 春香 千早 貴音 律子 翼 百合子 海美 そら"
WILD_ONE_SORA = "雪歩 真 あずさ 歩 そら 春香 千早 貴音 律子 翼 百合子 海美 詩花"  # そら for 可奈 in BIRTH
THREE_SORA = "雪歩 真 あずさ 歩 そら 春香 千早 貴音 そら 百合子 海美 そら 詩花"  # そら for 可奈, 律子, 翼


# --------------------------------------------------------------------------------------------------
# docs/rules.md worked examples
# --------------------------------------------------------------------------------------------------

def test_worked_example_ron(ev):
    """[静香 百合子 昴] called (ウィルゴ, 3 members, called minus_member: n_eff 2 -> 2000);
    真 雪歩 あずさ 可奈 歩 = BIRTH (5 -> 8000); 可奈 志保 = メリー(デュオ) (2 -> 2000); 詩花 (1000);
    エレナ 美也 = Cleasky holding the ron tile 美也 (n_eff 1 -> 1000); 可奈 favourite -> bonus 2000.
    The split is forced (the two 可奈 must go one to BIRTH, one to メリー(デュオ)). Total 16000."""
    r = ev.score("[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也", "ron", "美也", "可奈")
    assert r.won and r.complete
    assert r.total == 16000
    assert r.bonus == 2000
    got = Counter((unit_id(ev, su), su.points, su.called, su.holds_ron) for su in r.units)
    assert got == Counter({("birth", 8000, False, False): 1, ("virgo", 2000, True, False): 1,
                           ("merry-duo", 2000, False, False): 1, ("shika", 1000, False, False): 1,
                           ("cleasky", 1000, False, True): 1})
    assert sum(su.points for su in r.units) + r.bonus == r.total


def test_worked_example_not_won(ev):
    """12 tiles, no win (no_win minus_member): Clover called (4 - 1 - 1 = 2 -> 2000), りるきゃん called
    (3 - 1 - 1 = 1 -> 1000), BRAVE STAR concealed (4 - 1 = 3 -> 4000), 百合子 left over. The favourite
    百合子 is in no scoring unit: bonus 0. Total 7000."""
    r = ev.score("[可奈 志保 星梨花 海美] [翼 可憐 茜] 春香 千早 貴音 律子 百合子", "none", favourite="百合子")
    assert not r.won
    assert r.total == 7000
    assert r.bonus == 0
    assert r.leftover == (ev.tiles.resolve("百合子"),)


def test_seed_000_hand_is_one_away(ev):
    assert ev.h("真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花").h == 1


def test_complete_hand_has_h_zero(ev, ev_hitori):
    assert ev.is_complete(COMPLETE)
    assert ev.h(COMPLETE).h == 0
    assert ev_hitori.h(COMPLETE).h == 0
    r = ev.h("[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也")
    assert r.h == 0 and r.exchange.out == () and r.exchange.into == ()


# --------------------------------------------------------------------------------------------------
# 詩花
# --------------------------------------------------------------------------------------------------

HAND_WITH_SHIKA = "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也"


def test_ron_on_shika_is_not_a_win(ev, ev_hitori):
    for e in (ev, ev_hitori):
        r = e.score(HAND_WITH_SHIKA, "ron", "詩花")
        assert r.won is False
        assert r.total is None
        assert r.complete is True  # the tiles do split; only the win kind is not allowed


def test_tsumo_on_the_same_hand_wins(ev):
    """Same split as the worked example, no ron: BIRTH 8000 + ウィルゴ 2000 + メリー(デュオ) 2000 +
    詩花 1000 + Cleasky 2000 = 15000 (no favourite)."""
    r = ev.score(HAND_WITH_SHIKA, "tsumo")
    assert r.won and r.total == 15000
    # ron on another tile of the same hand is a win: Cleasky with 美也 loses one member (2000 -> 1000)
    assert ev.score(HAND_WITH_SHIKA, "ron", "美也").total == 14000


# 3 x FleurS (百合子 このみ 桃子) + 3 x 詩花. FleurS contains no smaller unit and no 4-member unit
# contains FleurS; 詩花 is only in (詩花).
FLEURS3 = "百合子 百合子 百合子 このみ このみ このみ 桃子 桃子 桃子"


def test_only_wait_is_a_fourth_copy(ev):
    """12 tiles: 詩花 x3 + FleurS x3. A 13th tile Y completes it only if Y = 詩花 (a 4th copy): Y
    cannot be 百合子/このみ/桃子 (4th copies); the copy holding Y has its other members among FleurS's,
    and what is left of 3 x FleurS must split into FleurS copies, so Y's copy takes none of them ({Y}
    is a unit only for Y = 詩花) or all three (no 4-member unit contains FleurS). So no target keeps
    all 12 tiles: h >= 2, and keeping 11 works (drop a 詩花, draw 翼 + 海美 = マイティセーラーズ(2人)),
    so h == 2."""
    hand = "詩花 詩花 詩花 " + FLEURS3
    r = ev.h(hand)
    assert r.h == 2
    assert len(r.exchange.into) == 2
    for kind in range(len(ev.tiles)):
        if ev.tiles.name(kind) in ("詩花", "百合子", "このみ", "桃子"):
            continue
        assert not ev.is_complete(ev.hand(hand).add(kind)), ev.tiles.name(kind)
    with pytest.raises(MjError):
        ev.is_complete(hand + " 詩花")
    if accepted_kinds is not None:
        h, acc = accepted_kinds(ev.distance_model, ev.hand(hand), ())
        assert h == 2
        assert ev.tiles.resolve("詩花") not in acc  # no copy of 詩花 left to draw


def test_fourth_copy_is_rejected(ev):
    with pytest.raises(MjError) as info:
        ev.score("詩花 詩花 詩花 詩花 " + FLEURS3)
    assert info.value.code == "ERR_FOURTH_COPY"
    with pytest.raises(MjError):
        ev.h("詩花 詩花 " + FLEURS3 + " 亜美", seen="亜美 亜美 亜美")


# --------------------------------------------------------------------------------------------------
# Called units are locked
# --------------------------------------------------------------------------------------------------

def test_called_unit_is_not_resplit(ev):
    """[翼 百合子 海美] called + 杏奈 + BIRTH + BRAVE STAR. Re-split, 翼 海美 (マイティセーラーズ(2人)) +
    杏奈 百合子 (成長Chu→LOVER!!) would complete it, and the all-concealed hand is complete. With the
    call locked, 杏奈 needs a unit among the concealed kinds {杏奈, BIRTH's, BRAVE STAR's}: 杏奈's units
    all need a kind not held (百合子, 星梨花, 莉緒, ...), so the hand is not complete."""
    called = "[翼 百合子 海美] 杏奈 雪歩 真 あずさ 歩 可奈 春香 千早 貴音 律子"
    concealed = "翼 百合子 海美 杏奈 雪歩 真 あずさ 歩 可奈 春香 千早 貴音 律子"
    assert ev.is_complete(concealed)
    assert not ev.is_complete(called)
    r = ev.score(called, "tsumo")
    assert r.won is False and r.total is None
    assert ev.h(concealed).h == 0
    assert ev.h(called).h >= 1


# --------------------------------------------------------------------------------------------------
# そら
# --------------------------------------------------------------------------------------------------

def test_sora_fetch_counts_in_h(ev):
    """fetch: そら is in no unit, so it must go (h >= 1); the other 12 tiles + 詩花 = COMPLETE (h = 1).
    Keeping all 12 real tiles, the one tile out is the そら, and it is reported as a そら exchange."""
    sora = ev.tiles.resolve("そら")
    assert not ev.is_complete(ONE_SORA)
    assert ev.score(ONE_SORA, "tsumo").won is False
    r = ev.h(ONE_SORA)
    assert r.h == 1
    assert r.exchange.out == (sora,)
    assert r.sora_exchanges == 1


def test_sora_dead_same_h_no_sora_exchange(ev_hitori):
    sora = ev_hitori.tiles.resolve("そら")
    assert not ev_hitori.is_complete(ONE_SORA)
    r = ev_hitori.h(ONE_SORA)
    assert r.h == 1
    assert r.exchange.out == (sora,)
    assert r.sora_exchanges == 0


def test_sora_wildcard_completes_a_unit(ev, ev_wild):
    """2019-10 (wildcard): そら stands for 可奈 in BIRTH -> BIRTH + BRAVE STAR + マイティセーラーズ + (詩花)."""
    assert ev_wild.is_complete(WILD_ONE_SORA)
    r = ev_wild.score(WILD_ONE_SORA, "tsumo")
    assert r.won and r.complete
    # 2019-10 scores 8000 + 6000 + 4000 + 1000 for that split; the best split is at least that
    assert r.total >= 19000
    assert ev_wild.h(WILD_ONE_SORA).h == 0
    # the same そら is dead weight under the other modes
    assert not ev.is_complete(WILD_ONE_SORA)


def test_three_soras(ev, ev_hitori, ev_wild):
    """Three そら standing for 可奈 (BIRTH), 律子 (BRAVE STAR) and 翼 (マイティセーラーズ)."""
    sora = ev.tiles.resolve("そら")
    # wildcard: complete
    assert ev_wild.is_complete(THREE_SORA)
    assert ev_wild.score(THREE_SORA, "tsumo").won
    assert ev_wild.h(THREE_SORA).h == 0
    # fetch: all three must go, and drawing 可奈 律子 翼 completes it: h = 3, all three are そら exchanges
    # (other draws may complete it too, so only the tiles out are forced)
    r = ev.h(THREE_SORA)
    assert r.h == 3 and r.exchange.out == (sora, sora, sora) and r.sora_exchanges == 3
    assert ev.is_complete(Hand(tuple(c + (k in kinds(ev, "可奈 律子 翼")) - 3 * (k == sora)
                                     for k, c in enumerate(ev.hand(THREE_SORA).concealed))))
    assert ev.score(THREE_SORA, "tsumo").won is False
    # dead: same h, no そら exchanges
    r = ev_hitori.h(THREE_SORA)
    assert r.h == 3 and r.sora_exchanges == 0


def test_ron_on_sora_under_fetch_is_not_a_win(ev):
    """fetch: a hand holding そら cannot split, so a ron on it is simply not a win (regression: this
    once raised ERR_UNDEFINED_SCORE, meant only for a wildcard そら with ron_minus_member)."""
    r = ev.score(ONE_SORA, "ron", "そら")
    assert r.won is False and r.total is None


def test_not_won_leftover_lists_sora(ev):
    """Worked example 2 with そら for 百合子: same 7000, and the そら is the left-over tile
    (regression: under fetch/dead the そら was once missing from the leftover)."""
    r = ev.score("[可奈 志保 星梨花 海美] [翼 可憐 茜] 春香 千早 貴音 律子 そら", "none")
    assert r.total == 7000
    assert r.leftover == (ev.tiles.resolve("そら"),)


def test_wildcard_six_shika_copies(ev_wild):
    """2019-10, favourite 詩花 (double): 詩花 x3 + そら x3 + BRAVE STAR + マイティセーラーズ.
    With n >= 2 units scoring 2000 (n - 1) and each (詩花) copy 1000 x 2 = 2000, any split scores
    2000 x (13 - number of non-詩花 units); the 7 real non-詩花 tiles need at least 2 units (no unit
    holds them all), so the best is 2000 x 11 = 22000: six (詩花) copies (three of them そら),
    BRAVE STAR 6000, マイティセーラーズ 4000. (Regression: unit copies were once capped at 3, giving
    20000.)"""
    r = ev_wild.score("詩花 詩花 詩花 そら そら そら 春香 千早 貴音 律子 翼 百合子 海美", "tsumo", favourite="詩花")
    assert r.won
    assert r.total == 22000


# --------------------------------------------------------------------------------------------------
# Seen tiles
# --------------------------------------------------------------------------------------------------

def test_seen_tiles_raise_h(ev):
    """詩花 x2 + FleurS x3 + 亜美 (12 tiles). 亜美's copy must lie within {亜美, FleurS kinds, Y}; the
    only such unit is Your HOME TOWN (亜美 ひなた), so the only wait is ひなた (詩花 as Y leaves 亜美
    alone): h = 1. With all three ひなた seen there is no wait: h >= 2, and keeping 11 (drop 亜美, draw
    翼 + 海美) gives h = 2."""
    hand = "詩花 詩花 " + FLEURS3 + " 亜美"
    hinata = ev.tiles.resolve("ひなた")
    r = ev.h(hand)
    assert r.h == 1 and r.exchange.into == (hinata,) and r.exchange.out == ()
    assert ev.h(hand, seen="ひなた ひなた").h == 1  # one copy left is enough
    r = ev.h(hand, seen="ひなた ひなた ひなた")
    assert r.h == 2
    assert hinata not in r.exchange.into
    assert ev.h(hand, seen=[hinata] * 3).h == 2  # seen as kind indices
    if accepted_kinds is not None:
        assert accepted_kinds(ev.distance_model, ev.hand(hand), ()) == (1, [hinata])
        counts = tuple(3 if k == hinata else 0 for k in range(len(ev.tiles)))
        h, acc = accepted_kinds(ev.distance_model, ev.hand(hand), counts)
        assert h == 2 and hinata not in acc


# --------------------------------------------------------------------------------------------------
# The wait puzzle
# --------------------------------------------------------------------------------------------------

def _waits_by_completion(ev: Evaluator, hand_text: str) -> set[str]:
    hand = ev.hand(hand_text)
    totals = hand.totals(ev.rules)
    return {ev.tiles.name(k) for k in range(len(ev.tiles)) if totals[k] < 3 and ev.is_complete(hand.add(k))}


@pytest.mark.parametrize("hand_text, expected", [
    ("詩花 詩花 詩花 百合子 桃子 このみ やよい 真 伊織 未来 春香 千早", {"静香", "春香", "雪歩", "貴音"}),
    ("詩花 詩花 詩花 百合子 桃子 このみ やよい 真 伊織 春香 千早 静香", {"千早", "未来", "ジュリア"}),
])
def test_wait_puzzle(ev, hand_text, expected):
    assert _waits_by_completion(ev, hand_text) == expected
    assert ev.h(hand_text).h == 1
    if accepted_kinds is not None:
        h, acc = accepted_kinds(ev.distance_model, ev.hand(hand_text), ())
        assert h == 1
        assert {ev.tiles.name(k) for k in acc} == expected


def test_wait_puzzle_scores(ev):
    """First puzzle + 静香 by tsumo: 3 x 詩花 (3000) + FleurS (4000) + 待ち受けプリンス (4000) +
    GO MY WAY!!(カバー) 未来 静香 (2000) + CRIMSON LOVERS 春香 千早 (2000) = 15000. The split is forced:
    FleurS and 待ち受けプリンス are the only units of 百合子/桃子/このみ and of やよい/真/伊織 among the
    held kinds, and 未来 春香 千早 静香 can also pair as 春香 未来 + 千早 静香 (same 4000)."""
    hand = "詩花 詩花 詩花 百合子 桃子 このみ やよい 真 伊織 未来 春香 千早 静香"
    assert ev.score(hand, "tsumo").total == 15000
    # ron on 静香 (ron_minus_member): 静香's copy is a 2-member unit, 2000 -> max(1000, 0) = 1000: 14000
    assert ev.score(hand, "ron", "静香").total == 14000
    # ron on 真 puts the ron tile in 待ち受けプリンス: 4000 -> 2000
    assert ev.score(hand, "ron", "真").total == 13000
    # ron on 詩花: not a win
    assert ev.score(hand, "ron", "詩花").won is False
