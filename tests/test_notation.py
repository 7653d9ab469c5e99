"""Tile names and hand notation: every name form, separators, called units in brackets, and the errors."""

from __future__ import annotations

import unicodedata

import pytest

from catalogue import load_catalogue
from solver import Evaluator
from solver.core.errors import MjError
from solver.core.hand import check_hand
from solver.core.notation import parse_hand, parse_hand_in_order, parse_tiles
from solver.core.rules import build_rules

CAT = load_catalogue()
IDOLS = CAT.idols
SEED_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
SEED_IDS = ["makoto", "yukiho", "azusa", "kana", "ayumu", "mirai", "matsuri", "miya", "sayoko", "umi", "nao",
            "minako", "serika"]


@pytest.fixture(scope="module")
def rules():
    return build_rules(CAT, "2019-12")


@pytest.fixture(scope="module")
def index(rules):
    return {i.id: n for n, i in enumerate(rules.tiles.idols)}


def katakana(text: str) -> str:
    return "".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in text)


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def counts_of(ids: list[str], index: dict[str, int]) -> tuple[int, ...]:
    counts = [0] * 54
    for i in ids:
        counts[index[i]] += 1
    return tuple(counts)


def unit_index(rules, *ids: str) -> int:
    wanted = frozenset(rules.tiles.index[i] for i in ids)
    [unit] = [u for u in rules.units if frozenset(u.members) == wanted]
    return unit.index


# --- tile names --------------------------------------------------------------------------------


def test_helpers_are_sound():
    assert katakana("はるか") == "ハルカ"
    assert katakana("えみりー") == "エミリー"
    assert full_width("HARUKA") == "ＨＡＲＵＫＡ"


@pytest.mark.parametrize("n", range(len(IDOLS)), ids=[i.id for i in IDOLS])
def test_every_kind_resolves_by_every_name(rules, n):
    idol = IDOLS[n]
    resolve = rules.tiles.resolve
    assert rules.tiles.ids[n] == idol.id
    forms = {
        "id": idol.id,
        "short name": idol.name,
        "full name": idol.full_name,
        "kana": idol.kana,
        "katakana": katakana(idol.kana),
        "full kana": idol.full_kana,
        "full kana in katakana": katakana(idol.full_kana),
        "upper-case romaji": idol.id.upper(),
        "capitalised romaji": idol.id.capitalize(),
        "full-width upper-case romaji": full_width(idol.id.upper()),
        "full-width romaji": full_width(idol.id),
        "padded": f" {idol.name}\u3000",
        "half-width katakana": unicodedata.normalize("NFKC", katakana(idol.kana)).translate(_HALF_WIDTH),
    }
    for m, alias in enumerate(idol.romaji):
        forms[f"romaji alias {m}"] = alias
        forms[f"romaji alias {m}, upper"] = alias.upper()
        forms[f"romaji alias {m}, full-width"] = full_width(alias.upper())
    for m, other in enumerate(idol.other_names):
        forms[f"other name {m}"] = other
    for what, form in forms.items():
        assert resolve(form) == n, (what, form)


# A few full-width katakana to their half-width forms; NFKC must bring them back.
_HALF_WIDTH = str.maketrans({"ハ": "ﾊ", "ル": "ﾙ", "カ": "ｶ", "ミ": "ﾐ", "キ": "ｷ", "ラ": "ﾗ", "イ": "ｲ"})


def test_hand_written_examples(rules, index):
    resolve = rules.tiles.resolve
    assert resolve("ＨＡＲＵＫＡ") == index["haruka"]
    assert resolve("ハルカ") == index["haruka"]
    assert resolve("ﾊﾙｶ") == index["haruka"]
    assert resolve("天海春香") == index["haruka"]
    assert resolve("tihaya") == index["chihaya"]
    assert resolve("Tsubasa") == index["tsubasa"]
    assert resolve("シイカ") == index["shika"]
    assert resolve("早坂そら") == index["sora"]
    assert resolve("エミリー・スチュアート") == index["emily"]
    assert resolve("伴田路子") == index["roco"]
    # 真 and 真美 are different kinds; so are 亜美 and 真美
    assert resolve("真") == index["makoto"] and resolve("真美") == index["mami"] and resolve("亜美") == index["ami"]


def test_names_of_different_kinds_never_collide(rules):
    resolve = rules.tiles.resolve
    for n, idol in enumerate(IDOLS):
        for form in (idol.id, idol.name, idol.kana, idol.full_name, idol.full_kana, *idol.romaji, *idol.other_names):
            assert resolve(form) == n, (idol.id, form)


@pytest.mark.parametrize("typo, nearest", [("harka", "春香"), ("HARKA", "春香"), ("chihya", "千早"),
                                           ("tsubsa", "翼"), ("みらぃ", "未来")])
def test_unknown_name_suggests_the_nearest(rules, typo, nearest):
    with pytest.raises(MjError) as err:
        rules.tiles.resolve(typo)
    assert err.value.code == "ERR_UNKNOWN_TILE"
    message = str(err.value)
    assert typo in message
    assert "did you mean" in message
    assert nearest in message


def test_unknown_name_without_neighbour(rules):
    with pytest.raises(MjError) as err:
        rules.tiles.resolve("zzzzzzzz")
    assert err.value.code == "ERR_UNKNOWN_TILE"
    assert "zzzzzzzz" in str(err.value)


def test_a_name_of_punctuation_alone_is_said_so(rules):
    """QA: '-' was called "an empty name"."""
    for name, said in (("-", "unknown tile '-' (no letters or kana in it)"), ("", "unknown tile '' (an empty name)")):
        with pytest.raises(MjError, match=f"^{said}$".replace("(", "\\(").replace(")", "\\)")):
            rules.tiles.resolve(name)


def test_a_one_member_unit_called_is_named_once(rules):
    """QA: "called group [詩花] ((詩花)) has 1 members"."""
    with pytest.raises(MjError, match=r"^called group \[詩花\] has 1 member; only units of 3 or more can be called$"):
        parse_hand("[詩花] 春香", rules)


# --- hands -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    SEED_HAND,
    "  " + SEED_HAND.replace(" ", "   ") + "  ",
    SEED_HAND.replace(" ", ","),
    SEED_HAND.replace(" ", ", "),
    SEED_HAND.replace(" ", "、"),
    SEED_HAND.replace(" ", "\u3000"),
    "真,雪歩、あずさ 可奈 ,歩、 未来\u3000まつり,,美也\t紗代子\n海美、、奈緒 美奈子,星梨花",
    "makoto yukiho azusa kana ayumu mirai matsuri miya sayoko umi nao minako serika",
    "まこと、ユキホ、三浦あずさ、KANA、歩、未来、まつり、美也、紗代子、海美、奈緒、美奈子、せりか",
    # as Japanese players write lists (QA): ・ between names, slashes, a full stop, a full name with a space
    SEED_HAND.replace(" ", "・"),
    SEED_HAND.replace(" ", "／").replace("美奈子／", "美奈子/") + "。",
    SEED_HAND.replace("真 ", "菊地\u3000真 ").replace("美也 ", "宮尾 美也 "),
])
def test_separators(rules, index, text):
    hand = parse_hand(text, rules)
    assert hand.concealed == counts_of(SEED_IDS, index)
    assert hand.called == ()
    assert sum(hand.concealed) == 13
    check_hand(hand, rules)


def test_a_middle_dot_inside_a_name_stays_and_a_bad_part_is_named(rules, index):
    hand = parse_hand("エミリー・スチュアート エミリー･スチュアート 真・雪歩", rules)
    assert hand.concealed == counts_of(["emily", "emily", "makoto", "yukiho"], index)
    with pytest.raises(MjError, match="unknown tile '真・ゆきほx'"):
        parse_hand("真・ゆきほx あずさ", rules)
    with pytest.raises(MjError, match="unknown tile '天海'"):  # (joined only where the two make a name)
        parse_hand("天海 真", rules)
    # a full name in pieces (QA): with a space, with ・ and the next name after it
    assert parse_hand("エミリー スチュアート えみりー　すちゅあーと エミリー・スチュアート・星梨花 天海 春香・星梨花", rules) \
        .concealed == counts_of(["emily", "emily", "emily", "serika", "haruka", "serika"], index)
    for text in ("・・ 真", "真 ・・", "真 - 雪歩"):  # punctuation is no piece of a name, nor joined to one
        with pytest.raises(MjError, match="no letters or kana in it"):
            parse_hand(text, rules)


def test_two_names_are_never_read_as_one_or_as_others(rules):
    """Joining pieces is safe only if no two names written one after the other make a third: every pair of the
    idols' short names, and a sample of pairs of all their names (kana, full names, romaji), reads as the two."""
    import random

    names = {}
    for k, idol in enumerate(rules.tiles.idols):
        for name in (idol.name, idol.kana, idol.full_name, *idol.romaji):
            names.setdefault(name, k)
    short = [(idol.name, k) for k, idol in enumerate(rules.tiles.idols)]
    every = list(names.items())
    pairs = [(a, b) for a in short for b in short] + [tuple(random.Random(7).sample(every, 2)) for _ in range(3000)]
    for (a, ka), (b, kb) in pairs:
        for glue in (" ", "・", "\u3000"):
            assert parse_tiles(f"{a}{glue}{b}", rules) == [ka, kb], (a, b, glue)


def test_a_bracket_closed_by_another_kind_is_refused(rules):
    """QA: [翼 可憐 茜〕 was taken; a width's variant still closes its own kind ([ ］)."""
    with pytest.raises(MjError, match="a bracket \\[ closed by 〕"):
        parse_hand("[翼 可憐 茜〕 春香", rules)
    assert parse_hand("[翼 可憐 茜］ 春香", rules).called == parse_hand("［翼 可憐 茜] 春香", rules).called


@pytest.mark.parametrize("group", ["〔翼 可憐 茜〕", "【翼・可憐・茜】"])
def test_more_bracket_forms(rules, group):
    hand = parse_hand(f"{group} 春香 千早 貴音 律子 百合子 真 雪歩 あずさ 可奈 歩", rules)
    assert hand.called == (unit_index(rules, *LILYCAN),)


def test_copies_are_counted(rules, index):
    hand = parse_hand("詩花 詩花 詩花 百合子 桃子 このみ やよい 真 伊織 未来 春香 千早", rules)
    assert hand.concealed[index["shika"]] == 3
    assert sum(hand.concealed) == 12


LILYCAN = ("tsubasa", "karen", "akane")
CLOVER = ("kana", "shiho", "serika", "umi")


def test_lilycan_bracket(rules, index):
    hand = parse_hand("[翼 可憐 茜] 春香 千早 貴音 律子 百合子 真 雪歩 あずさ 可奈", rules)
    [u] = hand.called
    assert rules.units[u].id == "lilycan"
    assert "りるきゃん" in rules.units[u].name
    assert {rules.tiles.ids[k] for k in rules.units[u].members} == set(LILYCAN)
    # called tiles are not concealed
    assert hand.concealed == counts_of(["haruka", "chihaya", "takane", "ritsuko", "yuriko", "makoto", "yukiho",
                                        "azusa", "kana"], index)
    assert hand.size(rules) == 12
    check_hand(hand, rules)


@pytest.mark.parametrize("group", ["[翼 可憐 茜]", "[茜 翼 可憐]", "[翼,可憐,茜]", "[翼、可憐、茜]", "[ 翼 可憐 茜 ]",
                                   "[tsubasa karen akane]", "[ツバサ カレン アカネ]", "［翼 可憐 茜］"])
def test_bracket_forms(rules, group):
    hand = parse_hand(f"{group} 春香 千早 貴音 律子 百合子 真 雪歩 あずさ 可奈 歩", rules)
    assert hand.called == (unit_index(rules, *LILYCAN),)
    assert sum(hand.concealed) == 10


def test_bracket_anywhere(rules):
    a = parse_hand("春香 千早 [翼 可憐 茜] 貴音 律子 百合子", rules)
    b = parse_hand("[翼 可憐 茜] 春香 千早 貴音 律子 百合子", rules)
    c = parse_hand("春香 千早 貴音 律子 百合子 [翼 可憐 茜]", rules)
    assert a == b == c


def test_the_order_as_typed_comes_from_the_same_parse(rules, index):
    # the /api/hand route shows the concealed tiles as typed from the one parse that gives the Hand
    text = "真 [翼 可憐 茜] 春香 makoto 千早"
    hand, order = parse_hand_in_order(text, rules)
    assert hand == parse_hand(text, rules)
    assert order == [index[i] for i in ("makoto", "haruka", "makoto", "chihaya")]


def test_two_called_groups(rules, index):
    text = "[可奈 志保 星梨花 海美] [翼 可憐 茜] 春香 千早 貴音 律子 百合子"
    hand = parse_hand(text, rules)
    assert hand.called == tuple(sorted((unit_index(rules, *CLOVER), unit_index(rules, *LILYCAN))))
    assert hand.concealed == counts_of(["haruka", "chihaya", "takane", "ritsuko", "yuriko"], index)
    assert hand.size(rules) == 12
    check_hand(hand, rules)
    # the order of the groups does not matter
    assert parse_hand("[翼 可憐 茜] 春香 千早 貴音 律子 百合子 [可奈 志保 星梨花 海美]", rules) == hand


def test_same_unit_called_twice(rules):
    hand = parse_hand("[翼 可憐 茜] [翼 可憐 茜] 春香 千早 貴音 律子 百合子 真", rules)
    u = unit_index(rules, *LILYCAN)
    assert hand.called == (u, u)
    assert hand.size(rules) == 12
    check_hand(hand, rules)


def test_evaluator_hand_is_parse_hand(rules):
    assert Evaluator().hand(SEED_HAND) == parse_hand(SEED_HAND, rules)


# --- errors ------------------------------------------------------------------------------------


def code_of(fn) -> str:
    with pytest.raises(MjError) as err:
        fn()
    return err.value.code


@pytest.mark.parametrize("text", [
    "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒",                       # 11
    SEED_HAND + " 春香",                                                                   # 14
    "",                                                                                     # 0
    "[翼 可憐 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也",                               # 3 + 8
    "[翼 可憐 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒",              # 3 + 11
    "[可奈 志保 星梨花 海美] [翼 可憐 茜] 春香 千早 貴音 律子 百合子 真 雪歩",              # 4 + 3 + 7
])
def test_wrong_size(rules, text):
    hand = parse_hand(text, rules)
    assert code_of(lambda: check_hand(hand, rules)) == "ERR_HAND_SIZE"


@pytest.mark.parametrize("text", [SEED_HAND, SEED_HAND.replace(" 星梨花", ""),
                                  "[翼 可憐 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美"])
def test_right_sizes(rules, text):
    check_hand(parse_hand(text, rules), rules)


def test_fourth_copy_in_hand(rules):
    hand = parse_hand("春香 春香 春香 春香 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子", rules)
    assert code_of(lambda: check_hand(hand, rules)) == "ERR_FOURTH_COPY"
    # three is fine
    check_hand(parse_hand("春香 春香 春香 千早 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子", rules), rules)


def test_fourth_copy_with_a_called_unit(rules):
    hand = parse_hand("[翼 可憐 茜] 翼 翼 翼 真 雪歩 あずさ 可奈 歩 未来 まつり", rules)
    assert hand.size(rules) == 13
    assert code_of(lambda: check_hand(hand, rules)) == "ERR_FOURTH_COPY"
    # two in hand plus one called is three
    check_hand(parse_hand("[翼 可憐 茜] 翼 翼 春香 真 雪歩 あずさ 可奈 歩 未来 まつり", rules), rules)


def test_fourth_copy_across_two_calls(rules):
    # 翼 in three called units and once in hand
    hand = parse_hand("[翼 可憐 茜] [未来 静香 翼] [百合子 海美 翼] 翼 真 雪歩 あずさ", rules)
    assert hand.size(rules) == 13
    assert code_of(lambda: check_hand(hand, rules)) == "ERR_FOURTH_COPY"


def test_fourth_copy_with_seen(rules, index):
    hand = parse_hand(SEED_HAND, rules)
    seen = [0] * 54
    seen[index["makoto"]] = 2
    check_hand(hand, rules, seen=tuple(seen))
    seen[index["makoto"]] = 3
    assert code_of(lambda: check_hand(hand, rules, seen=tuple(seen))) == "ERR_FOURTH_COPY"
    # through the API too
    ev = Evaluator()
    assert code_of(lambda: ev.h(SEED_HAND, seen="真 真 真")) == "ERR_FOURTH_COPY"
    assert code_of(lambda: ev.h(SEED_HAND, seen="春香 春香 春香 春香")) == "ERR_FOURTH_COPY"


@pytest.mark.parametrize("text", [
    "[春香 千早 真] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",    # no unit
    "[翼 可憐] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",         # part of a unit
    "[翼 可憐 茜 春香] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子",      # a unit plus one
    "[翼 翼 可憐 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子",        # a member twice
    "[] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子",      # empty
    "[春香 やよい 真] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",   # パーフェクトサン: removed in 2019
])
def test_bracketed_non_unit(rules, text):
    assert code_of(lambda: parse_hand(text, rules)) == "ERR_NOT_A_UNIT"


@pytest.mark.parametrize("group", ["[春香 未来]", "[未来 春香]", "[奈緒 美奈子]", "[詩花]"])
def test_bracketed_small_unit_cannot_be_called(rules, group):
    # ハルカナミライ, ダブルエース and 詩花 are units, but of fewer than 3 members
    text = f"{group} 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美"
    with pytest.raises(MjError) as err:
        parse_hand(text, rules)
    assert err.value.code == "ERR_NOT_A_UNIT"


def test_called_unit_depends_on_the_rule_set():
    text = "[亜美 あずさ 伊織] 真 雪歩 可奈 歩 未来 まつり 美也 紗代子 海美"  # 竜宮小町 (3)
    assert parse_hand(text, build_rules(CAT, "2019-12")).called
    assert code_of(lambda: parse_hand(text, build_rules(CAT, "hitori-jong-2.1"))) == "ERR_NOT_A_UNIT"


@pytest.mark.parametrize("text", [
    "[翼 可憐 茜 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
    "翼 可憐 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
    "[[翼 可憐 茜]] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
    "[翼 [可憐] 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
    "[翼 [可憐 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
    "[[春香 未来]] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
    "[翼 可憐 茜]] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
    "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花 [",
    "] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花 [",
])
def test_bad_brackets(rules, text):
    assert code_of(lambda: parse_hand(text, rules)) == "ERR_BAD_BRACKET"


def test_unknown_tile_in_a_hand(rules):
    assert code_of(lambda: parse_hand("harka " + SEED_HAND, rules)) == "ERR_UNKNOWN_TILE"
    assert code_of(lambda: parse_hand("[翼 可憐 akan] 真 雪歩 あずさ 可奈 歩", rules)) == "ERR_UNKNOWN_TILE"


def test_unknown_rule_set():
    assert code_of(lambda: build_rules(CAT, "2019-13")) == "ERR_UNKNOWN_RULES"
    assert code_of(lambda: build_rules(CAT, "")) == "ERR_UNKNOWN_RULES"
    assert code_of(lambda: Evaluator(rules="hitori-jong-2.0")) == "ERR_UNKNOWN_RULES"


def test_a_rule_set_and_a_date_as_typed_with_a_japanese_ime():
    """QA: --rules ２０１９－１０ and --as-of ２０１９年１０月１日 were refused where tiles in full width were read."""
    import datetime as dt

    from solver.core.rules import parse_date

    for text in ("2019-10-01", "２０１９－１０－０１", "2019年10月1日", "２０１９年１０月０１日"):
        assert parse_date(text) == dt.date(2019, 10, 1)
    for text in ("2019年13月1日", "20191001", "2019-W01-1", "令和1年10月1日"):
        with pytest.raises(MjError, match="expected YYYY-MM-DD"):
            parse_date(text)
    assert Evaluator("２０１９－１０").rules.name == "2019-10"
    with pytest.raises(MjError, match="unknown rule set"):
        Evaluator("２０１９－１１")


@pytest.mark.parametrize("typed, kind", [("ふーか", "fuka"), ("ﾌｰｶ", "fuka"), ("こーさかうみ", "umi"),
                                         ("おーがみたまき", "tamaki"), ("しじょーたかね", "takane"),
                                         ("にかいどーちづる", "chizuru"), ("えみりい", "emily")])
def test_a_long_vowel_as_a_mark_or_as_kana(rules, index, typed, kind):
    """QA: ふーか was refused where ふうか was read (and so were こーさか, おーがみ)."""
    assert rules.tiles.resolve(typed) == index[kind]
