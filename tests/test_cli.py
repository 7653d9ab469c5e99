"""The mj command line: seed 000's step 1, docs/rules.md's worked examples, help texts and every error path.

Expected values come from docs/rules.md (sections 4.1 and 6) and the catalogue's facts, not from mj's output.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

import cli
from catalogue import load_catalogue
from solver.core.rules import build_rules

SEED_HAND = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
SEED_IDS = {"makoto", "yukiho", "azusa", "kana", "ayumu", "mirai", "matsuri", "miya", "sayoko", "umi", "nao",
            "minako", "serika"}
SEED_COMPLETE = {"BIRTH", "タウラス", "Dreaming!(カバー)", "Smiling Crescent", "Melody in scape", "Beat the World!!",
                 "ダブルエース", "Do-Dai(カバー)", "LEMONADE"}
EXAMPLE_1 = "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也"
EXAMPLE_2 = "[可奈 志保 星梨花 海美] [翼 可憐 茜] 春香 千早 貴音 律子 百合子"

runner = CliRunner()


def mj(*args: str):
    return runner.invoke(cli.app, list(args))


def mj_json(*args: str):
    result = mj(*args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def rules_2019_12():
    return build_rules(load_catalogue(), "2019-12")


# --- seed 000, step 1 ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seed_units():
    return mj_json("units", SEED_HAND, "--json")


def test_seed_000_complete_units(seed_units):
    assert seed_units["rules"] == "2019-12"
    names = [u["name"] for u in seed_units["complete"]]
    assert len(names) == 9
    assert set(names) == SEED_COMPLETE
    for unit in seed_units["complete"]:
        assert unit["missing"] == []
        assert set(unit["members"]) <= SEED_IDS


def test_seed_000_one_short(seed_units):
    one_short = seed_units["one_short"]
    assert len(one_short) == 24
    not_shika = [u for u in one_short if u["id"] != "shika"]
    assert len(not_shika) == 23
    [shika] = [u for u in one_short if u["id"] == "shika"]
    assert shika["members"] == ["shika"] and shika["missing"] == ["shika"]


def test_seed_000_entries_are_right(seed_units):
    for key, n in (("complete", 0), ("one_short", 1), ("two_short", 2)):
        for unit in seed_units[key]:
            missing = set(unit["members"]) - SEED_IDS
            assert sorted(missing) == sorted(unit["missing"]), unit
            assert len(unit["missing"]) == n, unit
            # a unit of n members or fewer is listed only when it has something in hand (詩花 aside)
            assert len(unit["members"]) > n or unit["id"] == "shika", unit


def test_seed_000_matches_a_direct_count(seed_units, rules_2019_12):
    """Every unit of 2019-12 with at most two members missing is listed, once, in the right list."""
    ids = rules_2019_12.tiles.ids
    expected: dict[int, set[frozenset[str]]] = {0: set(), 1: set(), 2: set()}
    for unit in rules_2019_12.units:
        members = frozenset(ids[k] for k in unit.members)
        missing = len(members - SEED_IDS)
        if missing <= 2 and (missing < len(members) or len(members) == 1):
            expected[missing].add(members)
    for key, n in (("complete", 0), ("one_short", 1), ("two_short", 2)):
        got = [frozenset(u["members"]) for u in seed_units[key]]
        assert len(got) == len(set(got)), key
        assert set(got) == expected[n], key
    assert len(expected[0]) == 9 and len(expected[1]) == 24


def test_seed_000_sorted_by_missing_then_size(seed_units):
    rows = seed_units["complete"] + seed_units["one_short"] + seed_units["two_short"]
    keys = [(len(u["missing"]), -len(u["members"])) for u in rows]
    assert keys == sorted(keys)
    # the biggest complete unit comes first
    assert seed_units["complete"][0]["name"] == "BIRTH"


def test_units_table_output():
    result = mj("units", SEED_HAND)
    assert result.exit_code == 0
    assert "BIRTH" in result.stdout and "ダブルエース" in result.stdout


def test_units_as_of_on_the_command_line():
    hand = "このみ 莉緒 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美"

    def has_sherry(*extra: str) -> bool:
        payload = mj_json("units", hand, "--json", *extra)
        return any(set(u["members"]) == {"konomi", "rio"} for u in payload["complete"])

    assert has_sherry()
    assert has_sherry("--as-of", "2019-11-15")
    assert not has_sherry("--as-of", "2019-11-14")
    assert not has_sherry("--rules", "2019-10")
    assert has_sherry("--rules", "hitori-jong-2.1")


def test_catalogue_units_counts():
    for name, n in (("2019-12", 157), ("2019-10", 156), ("hitori-jong-2.1", 155)):
        assert len(mj_json("catalogue", "units", "--rules", name, "--json")["units"]) == n
    assert len(mj_json("catalogue", "units", "--as-of", "2019-11-14", "--json")["units"]) == 156
    assert len(mj_json("catalogue", "idols", "--json")) == 54


# --- scores: docs/rules.md 4.1 worked examples --------------------------------------------------------


def by_members(payload) -> Counter:
    return Counter((frozenset(u["members"]), u["points"], u["called"]) for u in payload["units"])


def test_worked_example_1():
    payload = mj_json("score", EXAMPLE_1, "--ron", "美也", "--favorite", "可奈", "--json")
    assert payload["total"] == 16000
    assert payload["won"] is True
    assert payload["bonus"] == 2000
    assert by_members(payload) == Counter({
        (frozenset({"makoto", "yukiho", "azusa", "kana", "ayumu"}), 8000, False): 1,   # BIRTH
        (frozenset({"shizuka", "yuriko", "subaru"}), 2000, True): 1,                     # ウィルゴ, called
        (frozenset({"kana", "shiho"}), 2000, False): 1,                                  # メリー
        (frozenset({"shika"}), 1000, False): 1,                                          # 詩花
        (frozenset({"elena", "miya"}), 1000, False): 1,                                  # Cleasky, ron
    })
    [ron] = [u for u in payload["units"] if u["holds_ron"]]
    assert set(ron["members"]) == {"elena", "miya"}


def test_worked_example_2():
    payload = mj_json("score", EXAMPLE_2, "--no-win", "--favorite", "百合子", "--json")
    assert payload["total"] == 7000
    assert payload["won"] is False
    assert payload["bonus"] == 0
    assert by_members(payload) == Counter({
        (frozenset({"haruka", "chihaya", "takane", "ritsuko"}), 4000, False): 1,  # BRAVE STAR
        (frozenset({"kana", "shiho", "serika", "umi"}), 2000, True): 1,           # Clover, called
        (frozenset({"tsubasa", "karen", "akane"}), 1000, True): 1,                # りるきゃん, called
    })
    assert payload["leftover"] == ["yuriko"]


def test_worked_example_1_with_the_british_spelling():
    payload = mj_json("score", EXAMPLE_1, "--ron", "miya", "--favourite", "kana", "--json")
    assert payload["total"] == 16000


# --- h and the example ---------------------------------------------------------------------------

# docs/rules.md 6: the example hand's 11 optimal exchanges (in, out)
SEED_EXCHANGES = {("noriko", "serika"), ("yayoi", "nao"), ("shiho", "nao"), ("kana", "nao"), ("shika", "nao"),
                  ("yayoi", "sayoko"), ("shiho", "sayoko"), ("kana", "sayoko"), ("shika", "sayoko"),
                  ("arisa", "kana"), ("minako", "kana")}


def test_h_of_the_seed_hand():
    payload = mj_json("h", SEED_HAND, "--json")
    assert payload["h"] == 1
    exchange = payload["exchange"]
    assert len(exchange["in"]) == len(exchange["out"]) == 1
    assert (exchange["in"][0], exchange["out"][0]) in SEED_EXCHANGES
    reached = Counter(SEED_IDS) - Counter(exchange["out"]) + Counter(exchange["in"])
    assert Counter(m for u in exchange["target"] for m in u["members"]) == reached


def test_example():
    result = mj("example")
    assert result.exit_code == 0, result.stderr
    assert "h = 1" in result.stdout
    assert "BIRTH" in result.stdout


def test_example_json():
    result = mj("example", "--json")
    assert result.exit_code == 0
    analysis = json.loads(result.stdout)
    assert {u["name"] for u in analysis["complete"]} == SEED_COMPLETE
    assert analysis["h"] == 1 and len(analysis["exchanges"]) == 11


# --- help ----------------------------------------------------------------------------------------


def command_paths() -> list[tuple[str, ...]]:
    def name(info) -> str:
        return info.name or info.callback.__name__.replace("_", "-")

    paths = [(name(c),) for c in cli.app.registered_commands]
    for group in cli.app.registered_groups:
        paths += [(group.name, name(c)) for c in group.typer_instance.registered_commands]
    return paths


def test_every_command_is_found():
    paths = set(command_paths())
    assert {("units",), ("score",), ("h",), ("example",), ("catalogue", "idols"), ("catalogue", "units"),
            ("catalogue", "rules"), ("catalogue", "check")} <= paths


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_help_has_an_example(path):
    result = mj(*path, "--help")
    assert result.exit_code == 0, result.output
    assert "Example:" in result.stdout
    assert "Example: mj " + " ".join(path) in result.stdout


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_help_names_types_as_click_does(path):
    """QA: typer 0.29 printed Python's names (`--seed <int>`, `HAND <str>`) beside every parameter."""
    text = mj(*path, "--help").stdout
    assert not re.search(r"<(str|int|float|bool|list)", text), text
    assert not re.search(r"^  [A-Z][A-Z.=]* +(TEXT|INTEGER)", text, re.M), text  # (an argument: its name alone)


def test_catalogue_group_help_has_an_example():
    result = mj("catalogue", "--help")
    assert result.exit_code == 0
    assert "Example:" in result.stdout


def test_top_level_help_lists_commands():
    result = mj("--help")
    assert result.exit_code == 0
    for name in ("units", "score", "h", "example", "catalogue"):
        assert name in result.stdout


# --- errors --------------------------------------------------------------------------------------

H11 = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒"
H14 = SEED_HAND + " 春香"
FOURTH = "春香 春香 春香 春香 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子"
FOURTH_CALLED = "[翼 可憐 茜] 翼 翼 翼 真 雪歩 あずさ 可奈 歩 未来 まつり"
BAD_BRACKET = "[翼 可憐 茜 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美"
NON_UNIT = "[春香 千早 真] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美"
SMALL_UNIT = "[春香 未来] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒"

ERROR_CASES = {
    "units: unknown tile": ("units", "harka " + SEED_HAND),
    "score: unknown tile": ("score", "harka " + SEED_HAND, "--tsumo"),
    "h: unknown tile": ("h", "harka " + SEED_HAND),
    "score: fourth copy": ("score", FOURTH, "--tsumo"),
    "score: fourth copy with a call": ("score", FOURTH_CALLED, "--tsumo"),
    "h: fourth copy": ("h", FOURTH),
    "h: fourth copy with a call": ("h", FOURTH_CALLED),
    "h: fourth copy with seen": ("h", SEED_HAND, "--seen", "真 真 真"),
    "h: four seen": ("h", SEED_HAND, "--seen", "春香 春香 春香 春香"),
    "units: fourth copy": ("units", FOURTH),
    "units: fourth copy with a call": ("units", FOURTH_CALLED),
    "score: 11 tiles": ("score", H11, "--no-win"),
    "score: 14 tiles": ("score", H14, "--tsumo"),
    "score: 12 tiles tsumo": ("score", SEED_HAND.replace(" 星梨花", ""), "--tsumo"),
    "h: 11 tiles": ("h", H11),
    "h: 14 tiles": ("h", H14),
    "units: 11 tiles": ("units", H11),
    "units: 14 tiles": ("units", H14),
    "units: bad bracket": ("units", BAD_BRACKET),
    "score: bad bracket": ("score", BAD_BRACKET, "--tsumo"),
    "h: bad bracket": ("h", BAD_BRACKET),
    "h: bracket in seen": ("h", SEED_HAND, "--seen", "[真]"),
    "units: called non-unit": ("units", NON_UNIT),
    "score: called non-unit": ("score", NON_UNIT, "--tsumo"),
    "h: called non-unit": ("h", NON_UNIT),
    "units: called 2-member unit": ("units", SMALL_UNIT),
    "units: unknown rule set": ("units", SEED_HAND, "--rules", "2019-13"),
    "score: unknown rule set": ("score", SEED_HAND, "--tsumo", "--rules", "2019-13"),
    "h: unknown rule set": ("h", SEED_HAND, "--rules", "house"),
    "catalogue units: unknown rule set": ("catalogue", "units", "--rules", "house"),
    "units: bad --as-of": ("units", SEED_HAND, "--as-of", "2019-13-45"),
    "units: --as-of not a date": ("units", SEED_HAND, "--as-of", "yesterday"),
    "score: bad --as-of": ("score", SEED_HAND, "--tsumo", "--as-of", "2019/11/15"),
    "h: bad --as-of": ("h", SEED_HAND, "--as-of", "15-11-2019"),
    "catalogue units: bad --as-of": ("catalogue", "units", "--as-of", "2019-02-30"),
    "score: favourite sora": ("score", SEED_HAND, "--tsumo", "--favorite", "そら"),
    "score: favourite sora by id": ("score", SEED_HAND, "--tsumo", "--favourite", "sora"),
    "score: unknown favourite": ("score", SEED_HAND, "--tsumo", "--favorite", "harka"),
    "score: ron tile not in hand": ("score", SEED_HAND, "--ron", "春香"),
    "score: ron tile only in a call": ("score", "[翼 可憐 茜] 真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美",
                                       "--ron", "翼"),
    "score: unknown ron tile": ("score", SEED_HAND, "--ron", "zzz"),
    "score: no win flag": ("score", SEED_HAND),
    "score: two win flags": ("score", SEED_HAND, "--tsumo", "--no-win"),
    "score: tsumo and ron": ("score", SEED_HAND, "--tsumo", "--ron", "真"),
    "score: --no-win under 2019-10": ("score", EXAMPLE_2, "--no-win", "--rules", "2019-10"),
    "h: unknown seen tile": ("h", SEED_HAND, "--seen", "harka"),
}


@pytest.mark.parametrize("args", list(ERROR_CASES.values()), ids=list(ERROR_CASES))
def test_error_is_one_line_and_exit_2(args):
    result = mj(*args)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error:"), result.stderr
    assert result.stdout == "", result.stdout


def test_unknown_tile_error_suggests():
    result = mj("units", "harka " + SEED_HAND)
    assert "春香" in result.stderr


def test_error_messages_say_what_is_wrong():
    assert "2019-13" in mj("units", SEED_HAND, "--rules", "2019-13").stderr
    assert "2019-13-45" in mj("units", SEED_HAND, "--as-of", "2019-13-45").stderr
    assert "そら" in mj("score", SEED_HAND, "--tsumo", "--favorite", "そら").stderr
    assert "春香" in mj("score", SEED_HAND, "--ron", "春香").stderr
    assert "春香" in mj("score", FOURTH, "--tsumo").stderr


@pytest.mark.parametrize("args", [("score", SEED_HAND, "--ron", "真\n"), ("units", SEED_HAND, "--rules", "2019-12\n")],
                         ids=["ron", "rules"])
def test_error_with_a_newline_in_the_value_is_one_line(args):
    result = mj(*args)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr


def test_a_valid_score_is_not_an_error():
    # guard for the error table: the same hands are fine when nothing is wrong
    result = mj("score", SEED_HAND, "--no-win", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    payload = json.loads(result.stdout)
    assert payload["won"] is False and payload["total"] is not None


def test_ron_on_a_tile_in_hand_is_fine():
    result = mj("score", SEED_HAND, "--ron", "真", "--json")
    assert result.stderr == ""
    assert result.exit_code in (0, 1)  # 1: the hand does not split into units, so no score
    assert json.loads(result.stdout)["rules"] == "2019-12"


# --- the console script itself (usage errors from typer are one line too) -------------------------


def run_script(*args: str) -> subprocess.CompletedProcess:
    code = "import sys, cli; sys.argv = ['mj', *sys.argv[1:]]; cli.main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [("h",), ("h", SEED_HAND, "--bogus"),
                                  ("analyze", SEED_HAND, "--max-exchanges", "0"), ("nosuchcommand",)])
def test_console_script_usage_errors_are_one_line(args):
    result = run_script(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "Traceback" not in result.stderr


def test_a_bad_option_points_to_its_commands_help():
    """QA: `mj plan ... --objective foo` said "Value error, ..." (pydantic's words) and pointed to `mj --help`."""
    err = run_script("plan", SEED_HAND, "--turns", "2", "--objective", "foo").stderr.strip()
    assert err == "error: Invalid value for '--objective': 'foo' is not one of 'win', 'score'. (see mj plan --help)"
    assert run_script("nosuchcommand").stderr.strip().endswith("(see mj --help)")


def test_console_script_without_arguments_shows_help():
    result = run_script()
    assert result.returncode == 0 and "analyze" in result.stdout and not result.stderr


def test_the_score_table_says_why_each_unit_scores_what_it_does():
    """QA (the docs as tests): the README promised each unit's `why` beside the score, but only --json had it. The
    plain output works each one out under the table, as docs/rules.md's worked example 1 does (BIRTH, 5 members:
    2000 x 4 = 8000; the called ウィルゴ one less; Cleasky one less for holding the ron tile)."""
    result = mj("score", EXAMPLE_1, "--ron", "美也", "--favorite", "可奈")
    assert result.exit_code == 0, result.stderr
    why = result.stdout.split("why:\n", 1)[1].splitlines()
    assert "  BIRTH: 5 members: max(1000, 2000 × (5 − 1)) = 8000" in why
    assert "  ウィルゴ: 3 members − 1 (called) = 2: max(1000, 2000 × (2 − 1)) = 2000" in why
    assert "  Cleasky: 2 members − 1 (holds the ron tile) = 1: max(1000, 2000 × (1 − 1)) = 1000" in why
    assert len(why) == 5  # one line a unit, the favourite's bonus none
