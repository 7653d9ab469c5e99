"""Catalogue files of one's own: the built-in files check clean, a user file adds units and rule sets,
and each kind of problem in a file is reported (by `mj catalogue check`, and as one error line elsewhere)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from catalogue import CatalogueError, check_file, load_catalogue
from solver import Evaluator

ROOT = Path(__file__).resolve().parent.parent
SEED_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


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
    assert [(r["ok"], r["problems"], r["notes"]) for r in report["files"]] == [(True, [], [])] * 3


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


def house_text() -> str:
    """The README's house: a unit (春香 + 琴葉 is no unit in the built-in data) and a rule set that holds it."""
    return (NEW_UNIT.format(id="my-duo", name="マイデュオ", members='["haruka", "kotoha"]')
            + RULE_SET.format(name="my-house", lists='["seed-000", "my-house"]', sora='"fetch"'))


def house_file(tmp_path: Path) -> str:
    return write(tmp_path, house_text())


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
    "unknown member": (NEW_UNIT.format(id="u1", name="U", members='["haruka", "nobody"]'), ["bad.toml: ", "nobody"]),
    "misspelt member": (NEW_UNIT.format(id="u1", name="U", members='["haruka", "kotoah"]'),
                        ["bad.toml: unit 'u1'", "idol ids", "did you mean kotoha?"]),
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


def test_two_files_giving_one_unit_id_are_refused_together(tmp_path, runner):
    """QA: two house files, each sound, that gave the same unit id in other lists: the second silently took the
    first's place and a hand of the first's rule set scored as no win. Used together they are now refused, and
    `mj catalogue check` of both says so."""
    first = house_file(tmp_path)
    second = write(tmp_path, NEW_UNIT.format(id="my-duo", name="Other", members='["haruka", "emily"]'), "other.toml")
    with pytest.raises(CatalogueError) as err:
        load_catalogue([first, second])
    assert err.value.problems == ["other.toml: unit 'my-duo' is given in mine.toml too: two catalogue files may not "
                                  "give the same one (a built-in one may be replaced)"]
    result = runner.invoke(cli.app, ["catalogue", "check", "--json", first, second])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and all(r["ok"] for r in report["files"])
    assert report["together"] == {"problems": err.value.problems, "ok": False}
    assert json.loads(runner.invoke(cli.app, ["catalogue", "check", "--json", first]).stdout)["together"]["ok"]


def test_check_notes_a_unit_no_rule_set_takes_and_a_rule_set_of_no_unit(tmp_path):
    """QA: both were "ok" with nothing said: a unit whose list is misspelt never counts, and a rule set dated before
    all its units has no winning hand."""
    from catalogue import file_notes

    later = NEW_UNIT.format(id="my-trio", name="T", members='["haruka", "kotoha", "emily"]') + "since = 2020-01-01\n"
    stray = NEW_UNIT.format(id="my-duo", name="D", members='["haruka", "kotoha"]').replace('"my-house"', '"my-hosue"')
    dated = RULE_SET.format(name="my-house", lists='["my-house"]', sora='"fetch"') + "as_of = 2019-06-01\n"
    path = write(tmp_path, later + stray + dated, "a.toml")
    assert check_file(path) == [] and file_notes(path) == [
        "unit 'my-duo' is in list(s) my-hosue, which no rule set takes, so it never counts; did you mean my-house?",
        "rule set 'my-house' holds no unit as of 2019-06-01: no hand can win under it"]
    assert file_notes(house_file(tmp_path)) == []


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


def test_check_says_what_a_file_replaces(tmp_path, runner):
    """QA: a house unit with a built-in id silently replaced it (the README's hand went from 16000 to not a win);
    replacing is the merge's rule (a house's correction), so `mj catalogue check` now says so for each."""
    path = tmp_path / "house.toml"
    path.write_text('[[unit]]\nid = "birth"\nname = "Fake Birth"\nmembers = ["haruka", "kotoha", "miki"]\n'
                    'lists = ["seed-000"]\n', encoding="utf-8")
    result = runner.invoke(cli.app, ["catalogue", "check", str(path)])
    assert result.exit_code == 0 and "note: replaces the built-in unit 'birth' (BIRTH)" in result.stdout
    data = json.loads(runner.invoke(cli.app, ["catalogue", "check", "--json", str(path)]).stdout)
    assert data["files"][0]["notes"] == ["replaces the built-in unit 'birth' (BIRTH)"]


def test_mj_check_under_a_house_rule_set(tmp_path):
    """QA (a club organiser): mj check took only the built-in rule sets. With --catalogue its workers open the house's
    files; the claims are graded under its rule set, and a resume under an edited house is refused."""
    from test_hardening import assert_one_error_line, run_mj

    path = house_file(tmp_path)
    hand = "春香 琴葉 星梨花 可奈 美奈子 海美 まつり 歩 奈緒 紗代子 あずさ 真 雪歩"
    house_h = Evaluator(rules="my-house", catalogue_files=[path]).h(hand).h
    built_in_h = Evaluator().h(hand).h
    assert house_h != built_in_h  # (the house's duo matters here, or this test could not tell)
    claims = tmp_path / "claims.jsonl"
    claims.write_text(json.dumps({"id": "a", "hand": hand, "h": house_h}) + "\n"
                      + json.dumps({"id": "b", "hand": hand, "h": built_in_h, "rules": "2019-12"}) + "\n")
    out = tmp_path / "results.jsonl"
    args = ("check", str(claims), "-r", "my-house", "--workers", "1", "--output", str(out))
    code, stdout, err = run_mj(*args, "--catalogue", path)
    assert code == 0, (stdout, err)  # both right: each under its own rule set
    meta = json.loads(out.with_name("results.jsonl.meta").read_text())
    assert meta["catalogue"] == [path] and len(meta["rules_digest"]) == 16
    said = assert_one_error_line(*run_mj(*args, "--force"))
    assert "unknown rule set 'my-house'" in said and said.endswith("add --catalogue FILE\n")  # (QA: no hint)
    Path(path).write_text(house_text().replace("member_points = 2000", "member_points = 3000"), encoding="utf-8")
    assert "is not the same as then" in assert_one_error_line(*run_mj(*args, "--catalogue", path, "--resume"))


def test_mj_generate_under_a_house_rule_set_and_its_positions_checked_there(tmp_path):
    """Positions with proven answers for a house's engines: generated under its rule set (--catalogue), named so,
    and every one right when mj check grades it with the same files."""
    from test_hardening import run_mj

    path = house_file(tmp_path)
    out = tmp_path / "waits.jsonl"
    code, _, err = run_mj("generate", "waits", "-n", "3", "-r", "my-house", "--catalogue", path, "--workers", "1",
                          "--output", str(out))
    assert code == 0, err
    positions = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(positions) == 3 and {p["rules"] for p in positions} == {"my-house"}
    assert json.loads(out.with_name("waits.jsonl.meta").read_text())["catalogue"] == [path]
    code, stdout, err = run_mj("check", str(out), "--catalogue", path, "--workers", "1", "--json")
    assert code == 0, (stdout, err)
    assert json.loads(stdout)["summary"]["verdicts"]["correct"] == 3


def test_a_bad_files_other_problems_are_pointed_to(tmp_path):
    """QA: a one-line error ended "(and 1 more)" without saying where the rest is."""
    from test_hardening import assert_one_error_line, run_mj

    path = write(tmp_path, NEW_UNIT.format(id="x", name="x", members='["nobody", "haruka"]')
                 + NEW_UNIT.format(id="y", name="y", members='["nobody2"]'))
    said = assert_one_error_line(*run_mj("h", "真", "--catalogue", path))
    assert said.endswith("(and 1 more); mj catalogue check FILE lists them all\n")


def test_the_same_file_given_twice_is_read_once(tmp_path, monkeypatch):
    """QA: --catalogue house.toml twice was refused ("unit ... is given in house.toml too")."""
    path = house_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    catalogue = load_catalogue([path, "mine.toml", "./mine.toml"])
    assert catalogue.files == (path,) and "my-house" in catalogue.rules
