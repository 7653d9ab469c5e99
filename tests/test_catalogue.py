"""The catalogue: the 54 tile kinds, the units, the rule sets, and the checker for user files.

Expected values come from RULES.md (sections 1, 3, 4), reference/unit-variants.json and the
published facts about the idols, not from the project's own output.
"""

from __future__ import annotations

import hashlib
import json
import textwrap
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from catalogue import CatalogueError, check_file, load_catalogue
from solver import Evaluator
from solver.core.errors import MjError
from solver.core.rules import build_rules

ROOT = Path(__file__).resolve().parent.parent
SEED_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


@pytest.fixture(scope="module")
def ids(cat):
    return {i.id: n for n, i in enumerate(cat.idols)}


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def member_sets(rules) -> set[frozenset[str]]:
    ids = rules.tiles.ids
    return {frozenset(ids[k] for k in u.members) for u in rules.units}


def fs(*names: str) -> frozenset[str]:
    return frozenset(names)


# --- the 54 kinds ------------------------------------------------------------------------------

# The game's colour attributes (THE iDOLM@STER MILLION LIVE!), 詩花 Extra and そら Sora (RULES.md 1).
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
    # seed 000's exceptions that count without a song (RULES.md 3)
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
    # RULES.md 5: "every idol but 歌織 has a duet partner"
    rules = build_rules(cat, "2019-12")
    in_duets = {rules.tiles.ids[k] for u in rules.units if u.size == 2 for k in u.members}
    assert {i.id for i in cat.idols} - in_duets == {"kaori", "shika", "sora"}


# --- catalogue files: round trip ---------------------------------------------------------------


def test_builtin_files_check_clean(runner):
    files = [str(ROOT / "catalogue" / f) for f in ("idols.toml", "units.toml", "rules.toml")]
    result = runner.invoke(cli.app, ["catalogue", "check", *files])
    assert result.exit_code == 0, result.output
    for f in files:
        assert check_file(f) == []
    result = runner.invoke(cli.app, ["catalogue", "check", "--json", *files])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert [(r["ok"], r["problems"]) for r in report["files"]] == [(True, [])] * 3


RULE_SET = """
[rules."{name}"]
description = "a house"
unit_lists = {lists}
min_points = 1000
member_points = 2000
called = "minus_member"
ron_minus_member = true
no_win = "minus_member"
favourite = "bonus"
favourite_bonus = 2000
sora = {sora}
ron_on_shika = false
hand_size = 13
"""

NEW_UNIT = """
[[unit]]
id = "{id}"
name = "{name}"
members = {members}
lists = ["my-house"]
"""


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def house_file(tmp_path: Path) -> str:
    # 春香 + 琴葉 is no unit in the built-in data
    return write(tmp_path, NEW_UNIT.format(id="my-duo", name="マイデュオ", members='["haruka", "kotoha"]')
                 + RULE_SET.format(name="my-house", lists='["seed-000", "my-house"]', sora='"fetch"'))


def test_user_file_adds_a_unit_and_a_rule_set(tmp_path, runner):
    path = house_file(tmp_path)
    assert check_file(path) == []
    result = runner.invoke(cli.app, ["catalogue", "check", path])
    assert result.exit_code == 0, result.output

    ev = Evaluator(rules="my-house", catalogue_files=[path])
    assert len(ev.rules.units) == 158
    new = [u for u in ev.rules.units if u.id == "my-duo"]
    assert len(new) == 1
    assert {ev.tiles.ids[k] for k in new[0].members} == {"haruka", "kotoha"}
    # the built-in rule sets do not take the house's list
    assert "my-duo" not in {u.id for u in Evaluator(rules="2019-12", catalogue_files=[path]).rules.units}

    hand = "春香 琴葉 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美"
    result = runner.invoke(cli.app, ["units", hand, "--catalogue", path, "--rules", "my-house", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    complete = {u["id"]: u for u in payload["complete"]}
    assert "my-duo" in complete
    assert sorted(complete["my-duo"]["members"]) == ["haruka", "kotoha"]
    assert complete["my-duo"]["missing"] == []

    result = runner.invoke(cli.app, ["units", hand, "--catalogue", path, "--json"])
    assert result.exit_code == 0
    assert "my-duo" not in {u["id"] for u in json.loads(result.stdout)["complete"]}


def test_user_file_rules_listed(tmp_path, runner):
    path = house_file(tmp_path)
    result = runner.invoke(cli.app, ["catalogue", "rules", "--json", "--catalogue", path])
    assert result.exit_code == 0, result.output
    assert {r["name"] for r in json.loads(result.stdout)} == {"2019-12", "2019-10", "hitori-jong-2.1", "my-house"}


# --- catalogue files: problems -----------------------------------------------------------------

FOURTEEN = '["haruka", "chihaya", "miki", "yukiho", "yayoi", "makoto", "iori", "takane", "ritsuko", "azusa", ' \
           '"ami", "mami", "hibiki", "mirai"]'

BAD_FILES = {
    "unknown member": (NEW_UNIT.format(id="u1", name="U", members='["haruka", "nobody"]'), ["nobody"]),
    "duplicate unit id": (NEW_UNIT.format(id="u1", name="U", members='["haruka", "kotoha"]')
                          + NEW_UNIT.format(id="u1", name="V", members='["haruka", "emily"]'),
                          ["duplicate", "u1"]),
    "same member set": (NEW_UNIT.format(id="u1", name="U", members='["mirai", "haruka"]'), ["harukanamirai"]),
    "sora in a unit": (NEW_UNIT.format(id="u1", name="U", members='["sora", "haruka"]'), ["そら"]),
    "shika in a multi-member unit": (NEW_UNIT.format(id="u1", name="U", members='["shika", "haruka"]'),
                                     ["詩花"]),
    "no members": (NEW_UNIT.format(id="u1", name="U", members="[]"), [" 0 "]),
    "fourteen members": (NEW_UNIT.format(id="u1", name="U", members=FOURTEEN), [" 14 "]),
    "unknown field": (NEW_UNIT.format(id="u1", name="U", members='["haruka", "kotoha"]') + 'colour = "red"\n',
                      ["unknown field", "colour"]),
    "malformed toml": ('[[unit]\nid = "u1"\n', ["TOML"]),
    "bad sora mode": (NEW_UNIT.format(id="u1", name="U", members='["haruka", "kotoha"]')
                      + RULE_SET.format(name="bad-sora", lists='["my-house"]', sora='"joker"'), ["sora", "joker"]),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_check_reports_each_problem(tmp_path, runner, kind):
    text, words = BAD_FILES[kind]
    path = write(tmp_path, text, "bad.toml")
    problems = check_file(path)
    assert problems, kind
    joined = "\n".join(problems)
    for word in words:
        assert word in joined, (kind, problems)

    result = runner.invoke(cli.app, ["catalogue", "check", path])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    result = runner.invoke(cli.app, ["catalogue", "check", "--json", path])
    assert result.exit_code == 1
    [report] = json.loads(result.stdout)["files"]
    assert report["ok"] is False and report["problems"] == problems

    with pytest.raises(CatalogueError) as err:
        load_catalogue([path])
    assert err.value.problems


def test_check_several_files_reports_each(tmp_path, runner):
    good = house_file(tmp_path)
    bad = write(tmp_path, BAD_FILES["unknown member"][0], "bad.toml")
    result = runner.invoke(cli.app, ["catalogue", "check", "--json", good, bad])
    assert result.exit_code == 1
    report = {r["file"]: r for r in json.loads(result.stdout)["files"]}
    assert report[good]["ok"] is True and report[bad]["ok"] is False


def test_check_missing_file(tmp_path, runner):
    """A file that is not there is bad input (exit 2, one line), not a catalogue with problems (exit 1)."""
    result = runner.invoke(cli.app, ["catalogue", "check", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "nope.toml" in lines[0]


def test_replacing_a_builtin_unit_id_is_allowed(tmp_path):
    # a unit whose id exists replaces the built-in one (loader docstring); members are then its own
    path = write(tmp_path, NEW_UNIT.format(id="harukanamirai", name="ハルカナミライ", members='["haruka", "kotoha"]'))
    assert check_file(path) == []


@pytest.mark.parametrize("kind", ["unknown member", "malformed toml", "bad sora mode", "same member set"])
def test_units_with_bad_catalogue_is_one_error_line(tmp_path, runner, kind):
    path = write(tmp_path, BAD_FILES[kind][0], "bad.toml")
    result = runner.invoke(cli.app, ["units", SEED_HAND, "--catalogue", path])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert "Traceback" not in result.output


def test_units_with_missing_catalogue_is_one_error_line(tmp_path, runner):
    result = runner.invoke(cli.app, ["units", SEED_HAND, "--catalogue", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")


def test_check_top_level_unit_not_a_list(tmp_path, runner):
    path = write(tmp_path, "unit = 5\n", "bad.toml")
    result = runner.invoke(cli.app, ["catalogue", "check", path])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "bad.toml" in result.stdout


def test_since_must_be_a_date_not_a_datetime(tmp_path, runner):
    path = write(tmp_path, NEW_UNIT.format(id="u1", name="U", members='["haruka", "kotoha"]')
                 .replace('lists = ["my-house"]', 'lists = ["seed-000"]\nsince = 2019-11-15T10:00:00'))
    problems = check_file(path)
    result = runner.invoke(cli.app, ["units", SEED_HAND, "--catalogue", path, "--as-of", "2019-12-01"])
    # either the checker rejects it, or the unit works as of a day: never a crash
    assert problems or result.exit_code == 0, problems
    assert result.exit_code in (0, 2) and "Traceback" not in result.output
