"""The catalogue: the 54 tile kinds, the units, the rule sets (user files and their checker:
test_catalogue_files.py).

Expected values come from docs/rules.md (sections 1, 3, 4), reference/unit-variants.json and the
published facts about the idols, not from the project's own output.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import date

import pytest

from catalogue import load_catalogue
from solver import Evaluator
from solver.core.errors import MjError
from solver.core.rules import build_rules

@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


@pytest.fixture(scope="module")
def ids(cat):
    return {i.id: n for n, i in enumerate(cat.idols)}


def member_sets(rules) -> set[frozenset[str]]:
    ids = rules.tiles.ids
    return {frozenset(ids[k] for k in u.members) for u in rules.units}


def fs(*names: str) -> frozenset[str]:
    return frozenset(names)


# --- the 54 kinds ------------------------------------------------------------------------------

# The game's colour attributes (THE iDOLM@STER MILLION LIVE!), 詩花 Extra and そら Sora (docs/rules.md 1).
PRINCESS = {"haruka", "yukiho", "makoto", "hibiki", "mirai", "kotoha", "minako", "matsuri", "yuriko",
            "sayoko", "arisa", "umi", "iku", "emily", "kana", "nao", "noriko"}
FAIRY = {"chihaya", "iori", "takane", "ritsuko", "shizuka", "megumi", "roco", "tomoka", "shiho", "ayumu",
         "chizuru", "mizuki", "rio", "subaru", "momoko", "julia", "tsumugi"}
ANGEL = {"miki", "yayoi", "azusa", "ami", "mami", "tsubasa", "elena", "serika", "akane", "anna", "hinata",
         "konomi", "tamaki", "fuka", "miya", "karen", "reika", "kaori"}


def test_54_kinds_with_unique_ids(cat):
    assert len(cat.idols) == 54
    ids = [i.id for i in cat.idols]
    assert len(set(ids)) == 54
    assert all(i.id and i.id.isascii() and i.id == i.id.lower() for i in cat.idols)
    # the short names are unique too: a player types them
    assert len({i.name for i in cat.idols}) == 54


def test_attributes(cat):
    by_name = {i.name: i.attribute for i in cat.idols}
    assert by_name["詩花"] == "Extra"
    assert by_name["そら"] == "Sora"
    others = [i for i in cat.idols if i.name not in ("詩花", "そら")]
    assert len(others) == 52
    assert {i.attribute for i in others} <= {"Princess", "Fairy", "Angel"}
    assert Counter(i.attribute for i in cat.idols) == {"Princess": 17, "Fairy": 17, "Angel": 18,
                                                       "Extra": 1, "Sora": 1}


def test_attribute_of_every_idol(cat):
    expected = {**{i: "Princess" for i in PRINCESS}, **{i: "Fairy" for i in FAIRY},
                **{i: "Angel" for i in ANGEL}, "shika": "Extra", "sora": "Sora"}
    assert {i.id: i.attribute for i in cat.idols} == expected


def test_idol_names_are_consistent(cat):
    by_id = {i.id: i for i in cat.idols}
    assert (by_id["haruka"].name, by_id["haruka"].kana, by_id["haruka"].full_name) == ("春香", "はるか", "天海春香")
    assert (by_id["shika"].name, by_id["sora"].name, by_id["sora"].full_name) == ("詩花", "そら", "早坂そら")
    for idol in cat.idols:
        # the full name contains the short name (エミリー's given name comes first)
        assert idol.name in idol.full_name, idol



@pytest.mark.parametrize("idol_id, full_kana", [
    ("haruka", "あまみはるか"),
    ("kotoha", "たなかことは"),
    ("emily", "えみりーすちゅあーと"),
    ("sora", "はやさかそら"),
    ("umi", "こうさかうみ"),
    ("mizuki", "まかべみずき"),
    ("subaru", "ながよしすばる"),
])
def test_full_kana_facts(cat, idol_id, full_kana):
    idol = next(i for i in cat.idols if i.id == idol_id)
    assert idol.full_kana == full_kana
    assert idol.kana in idol.full_kana


# --- unit counts per rule set ------------------------------------------------------------------


# sha256 of Hitori-Jong 2.1.0's 155 member sets (short names, each set sorted, one per line, lines
# sorted), computed once from the engine's shipped unit list of 2019-11-24 when the catalogue was authored.
HITORI_JONG_21_DIGEST = "da0a1f9ec987cccd9b84914016638c06d5cbf3ebe978b81ca42aab14cd662dc5"


def test_hitori_jong_has_exactly_155(cat):
    rules = build_rules(cat, "hitori-jong-2.1")
    assert len(rules.units) == 155
    assert len(member_sets(rules)) == 155


def test_hitori_jong_member_sets_are_the_reference_list(cat):
    rules = build_rules(cat, "hitori-jong-2.1")
    canon = "\n".join(sorted(" ".join(sorted(rules.tiles.name(k) for k in u.members)) for u in rules.units))
    assert hashlib.sha256(canon.encode()).hexdigest() == HITORI_JONG_21_DIGEST


def test_2019_12_is_hitori_jong_plus_two(cat):
    hj = member_sets(build_rules(cat, "hitori-jong-2.1"))
    rules = build_rules(cat, "2019-12")
    assert len(rules.units) == 157
    seed = member_sets(rules)
    assert hj <= seed
    assert seed - hj == {fs("chihaya", "takane"), fs("ami", "azusa", "iori")}
    names = {u.name for u in rules.units if frozenset(rules.tiles.ids[k] for k in u.members)
             in (fs("chihaya", "takane"), fs("ami", "azusa", "iori"))}
    assert any("花鳥風月" in n for n in names)
    assert any("竜宮小町" in n for n in names)


def test_default_rule_set_is_2019_12():
    assert len(Evaluator().rules.units) == 157
    assert Evaluator().rules.name == "2019-12"


SHERRY = fs("konomi", "rio")


def test_2019_10_lacks_sherry_n_cherry(cat):
    rules = build_rules(cat, "2019-10")
    assert len(rules.units) == 156
    assert SHERRY not in member_sets(rules)
    assert member_sets(rules) == member_sets(build_rules(cat, "2019-12")) - {SHERRY}


@pytest.mark.parametrize("day, present", [(date(2019, 11, 14), False), (date(2019, 11, 15), True),
                                          (date(2019, 12, 12), True), (date(2019, 10, 8), False)])
def test_as_of_cutoff_for_sherry_n_cherry(cat, day, present):
    rules = build_rules(cat, "2019-12", as_of=day)
    assert (SHERRY in member_sets(rules)) is present
    assert len(rules.units) == (157 if present else 156)


def test_as_of_overrides_the_rule_sets_own_date(cat):
    # 2019-10 is dated 2019-10-08; --as-of moves that day
    assert SHERRY in member_sets(build_rules(cat, "2019-10", as_of=date(2019, 11, 15)))


def test_unknown_rule_set(cat):
    with pytest.raises(MjError) as err:
        build_rules(cat, "2019-13")
    assert err.value.code == "ERR_UNKNOWN_RULES"
    with pytest.raises(MjError) as err:
        Evaluator(rules="house")
    assert err.value.code == "ERR_UNKNOWN_RULES"


def test_unit_indices_are_positions(cat):
    for name in ("2019-12", "2019-10", "hitori-jong-2.1"):
        rules = build_rules(cat, name)
        assert [u.index for u in rules.units] == list(range(len(rules.units)))
        assert all(list(u.members) == sorted(set(u.members)) for u in rules.units)
        assert len({u.id for u in rules.units}) == len(rules.units)


# --- what counts as a unit ---------------------------------------------------------------------


def test_one_member_set_is_one_unit(cat):
    sets = [frozenset(u.members) for u in cat.units]
    twins = [s for s, n in Counter(sets).items() if n > 1]
    assert twins == []
    ids = [u.id for u in cat.units]
    assert len(set(ids)) == len(ids)


def test_double_ace_is_also_kami_summer(cat):
    [unit] = [u for u in cat.units if frozenset(u.members) == fs("nao", "minako")]
    names = {unit.name, *unit.aliases}
    assert "ダブルエース" in names
    assert "神SUMMER!!(カバー)" in names
    for name in ("2019-12", "hitori-jong-2.1"):
        rules = build_rules(cat, name)
        assert sum(1 for u in rules.units if frozenset(rules.tiles.ids[k] for k in u.members)
                   == fs("nao", "minako")) == 1


def test_shika_only_in_her_one_member_unit(cat):
    with_shika = [u for u in cat.units if "shika" in u.members]
    assert len(with_shika) == 1
    assert with_shika[0].members == ("shika",)
    assert [u for u in cat.units if len(u.members) == 1] == with_shika


def test_sora_in_no_unit(cat):
    assert not [u for u in cat.units if "sora" in u.members]


def test_unit_sizes_and_members(cat, ids):
    for unit in cat.units:
        assert 1 <= len(unit.members) <= 13, unit
        assert len(set(unit.members)) == len(unit.members), unit
        assert set(unit.members) <= set(ids), unit
    sizes = {len(u.members) for u in cat.units}
    assert 1 in sizes and 13 in sizes


@pytest.mark.parametrize("members", [
    # seed 000's exceptions that count without a song (docs/rules.md 3)
    fs("yuriko", "momoko", "konomi"),                       # FleurS
    fs("shiho", "umi", "arisa", "kotoha"),                  # スコーピオ with 琴葉
    fs("yuriko", "umi", "tsubasa"),                         # マイティセーラーズ with 百合子
    fs("haruka", "yukiho", "hibiki"),                       # SprouT
    fs("chihaya", "takane"),                                # 花鳥風月
    fs("mami", "yayoi"),                                    # わんつ→ているず
    fs("haruka", "chihaya", "miki", "makoto", "yayoi"),     # メリー
    fs("ami", "azusa", "iori"),                             # 竜宮小町 (3)
    fs("ami", "azusa", "iori", "ritsuko"),                  # 竜宮小町 (4)
    fs("konomi", "rio"),                                    # Sherry'n Cherry, from 2019-11-15
])
def test_seed_000_exceptions_count(cat, members):
    assert members in member_sets(build_rules(cat, "2019-12"))


@pytest.mark.parametrize("members", [fs("yukiho", "iori"), fs("haruka", "azusa"),
                                     fs("haruka", "yayoi", "makoto")])
def test_units_removed_by_hitori_jong_1_6_do_not_count(cat, members):
    for name in ("2019-12", "2019-10", "hitori-jong-2.1"):
        assert members not in member_sets(build_rules(cat, name))


def test_thirteen_member_stars_without_allstars(cat, ids):
    rules = build_rules(cat, "2019-12")
    by_attr = {"Princess": PRINCESS - {"haruka", "yukiho", "makoto", "hibiki"},
               "Fairy": FAIRY - {"chihaya", "iori", "takane", "ritsuko"},
               "Angel": ANGEL - {"miki", "yayoi", "azusa", "ami", "mami"}}
    sets = member_sets(rules)
    for members in by_attr.values():
        assert len(members) == 13
        assert frozenset(members) in sets


def test_every_idol_but_kaori_has_a_duet_partner(cat):
    # docs/rules.md 5: "every idol but 歌織 has a duet partner"
    rules = build_rules(cat, "2019-12")
    in_duets = {rules.tiles.ids[k] for u in rules.units if u.size == 2 for k in u.members}
    assert {i.id for i in cat.idols} - in_duets == {"kaori", "shika", "sora"}


def test_the_units_hitori_jong_removed_on_2019_10_13_are_one_list():
    """QA (facts audit): Hitori-Jong 1.6.0 removed four units, 花鳥風月 among them (seed 000 keeps it); the list
    `hitori-jong-1.5` held only three, so a house taking it lost 花鳥風月 without a word."""
    removed = {u.name for u in load_catalogue().units if "hitori-jong-1.5" in u.lists}
    assert removed == {"D・LOVE", "BLACK PRINCESS", "パーフェクトサン", "花鳥風月"}


def test_the_idol_lists_own_spellings_still_name_their_idols():
    """QA (facts audit): three full readings are corrected from the idol list's typos; typed as that list has them
    they were unknown tiles. They name the same idols."""
    ev = Evaluator()
    for written, idol in (("こうさかうみみ", "海美"), ("まかべみづき", "瑞希"), ("ながたにすばる", "昴")):
        assert ev.tile(written) == ev.tile(idol), written
