"""The claim checker (solver/check.py, `mj check`): right, wrong and invalid claims of every field kind,
malformed lines, streaming, workers, and interrupted runs (the command itself: test_check_cli.py).

The fixtures in tests/data/claims_*.jsonl are the project's own. Expected values come from docs/rules.md
(the worked examples of 4.1, seed 000's hand, exchanges, discards and puzzle in section 6) or are
derived by hand in each line's "note"; each wrong claim's note lists the reason codes it must get.
"""

from __future__ import annotations

import io
import itertools
import json
import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue import Catalogue, Idol, RuleSpec, Unit
from solver import Evaluator
from solver.analysis.turn import waits as exact_waits
from solver.checking.batch import CHUNK_SIZES, Summary, check_lines, record
from solver.checking.check import CLAIM_FIELDS, LABELS, check_claim

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
RIGHT, WRONG, INVALID = (DATA / f"claims_{name}.jsonl" for name in ("right", "wrong", "invalid"))


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def run(path: Path, workers: int = 1) -> list[dict]:
    with open(path, "rb") as source:
        return list(check_lines(source, workers=workers))


def codes(result: dict) -> set[str]:
    """Every reason of a result as field:code (claim-level problems as claim:code)."""
    found = {f"claim:{result['error']['code']}"} if "error" in result else set()
    found |= {f"claim:{p['code']}" for p in result.get("problems", ())}
    found |= {f"{name}:{r['code']}" for name, d in result.get("fields", {}).items() for r in d.get("reasons", ())}
    return found


def expected(note: str) -> set[str]:
    """'expect h:h_value waits:fourth_copy (...)' -> {'h:h_value', 'waits:fourth_copy'}; 'expect correct' -> {}."""
    words = note.split("expect ", 1)[1].split(";")[0].split("(")[0].split()
    return {w for w in words if ":" in w}


def texts(result: dict, field: str) -> list[str]:
    return [r["text"] for r in result["fields"][field].get("reasons", ())]


@pytest.fixture(scope="module")
def right() -> dict[str, dict]:
    return {r["id"]: r for r in run(RIGHT)}


@pytest.fixture(scope="module")
def wrong() -> dict[str, dict]:
    return {r["id"]: r for r in run(WRONG)}


@pytest.fixture(scope="module")
def invalid() -> list[dict]:
    return run(INVALID)


# --- right claims --------------------------------------------------------------------------------


def test_right_claims_are_correct(right):
    assert len(right) == 12
    for result in right.values():
        assert result["verdict"] == "correct", result
        assert all(d["verdict"] == "correct" and "reasons" not in d for d in result["fields"].values())


def test_right_claims_cover_every_field_kind(right):
    covered = {name for r in right.values() for name in r["fields"]}
    assert covered == set(CLAIM_FIELDS)


def test_right_claims_report_exact_values(right):
    # docs/rules.md 4.1 example 1: 16000; example 2: 7000 for a 12-tile hand that did not win
    assert right["right-example-1"]["fields"]["score"] == {"verdict": "correct", "claimed": 16000, "exact": 16000,
                                                           "win": "ron"}
    assert right["right-example-2"]["fields"]["score"]["win"] == "none"
    assert right["right-example-2"]["fields"]["score"]["exact"] == 7000
    # seed 000's hand: h = 1; the claim lists all 11 exchanges, so none is missing
    assert right["right-seed-exchanges"]["fields"]["h"]["exact"] == 1
    assert right["right-seed-exchanges"]["fields"]["exchanges"]["exact"]["missing"] == []
    # discarding 奈緒 keeps 4 in-tiles (docs/rules.md 6)
    accept = right["right-seed-discard-nao"]["fields"]["discard"]["exact"]["accept"]
    assert {a["tile"] for a in accept} == {"yayoi", "shiho", "kana", "shika"}
    # a dead wait is still a wait, with live 0
    waits = {w["tile"]: w for w in right["right-dead-wait"]["fields"]["waits"]["exact"]}
    assert waits["shika"]["live"] == 0 and waits["shika"]["ron"] is None


def test_corpus_format_is_read_as_is(right):
    # engine + favorite + waits as {"tile", "score"} with the tsumo score, as in Hitori-Jong's claims
    result = right["right-corpus-style"]
    assert result["rules"] == "hitori-jong-2.1" and result["verdict"] == "correct"


# --- wrong claims --------------------------------------------------------------------------------


def test_wrong_claims_get_their_reasons(wrong):
    notes = {json.loads(line)["id"]: json.loads(line)["note"] for line in lines_of(WRONG)}
    assert len(wrong) == len(notes) == 22
    for claim_id, result in wrong.items():
        assert result["verdict"] == "wrong", result
        assert codes(result) == expected(notes[claim_id]), (claim_id, result)
        assert all(code.split(":")[1] in LABELS for code in codes(result))


def test_wrong_claims_cover_every_field_kind(wrong):
    assert {name for r in wrong.values() for name, d in r["fields"].items() if d["verdict"] == "wrong"} \
        == set(CLAIM_FIELDS)


def test_fourth_copy_waits(wrong):
    [text] = texts(wrong["wrong-waits-fourth-shika"], "waits")
    assert text.startswith("needs a 4th 詩花")
    # with a 4th 春香: ハルカナミライ 2000 + CRIMSON LOVERS 2000 + そして僕らは旅にでる 6000 + Legend Girls!! 8000
    # + favourite 未来 2000 = 20000, the score the claim gives: the engine ignored the 3-copy limit
    [text] = texts(wrong["wrong-waits-fourth-haruka"], "waits")
    assert text.startswith("needs a 4th 春香") and "20000" in text and "= the claimed score" in text


def test_wait_reasons(wrong):
    assert texts(wrong["wrong-waits-missing"], "waits") == ["misses wait 貴音"]
    assert texts(wrong["wrong-waits-not-a-wait"], "waits") == ["美希 does not complete the hand"]
    assert texts(wrong["wrong-waits-scores"], "waits") == ["score of wait 美也: claimed 16000, exact 17000",
                                                          "ron score of wait 美希: claimed 17000, exact 16000"]
    exact = {w["tile"] for w in wrong["wrong-waits-missing"]["fields"]["waits"]["exact"]}
    assert exact == {"shizuka", "haruka", "yukiho", "takane"}  # docs/rules.md 6, seed 000's puzzle


def test_h_reasons(wrong):
    h = wrong["wrong-h"]["fields"]["h"]
    assert (h["claimed"], h["exact"]) == (2, 1)
    h = wrong["wrong-h-fourth-shika"]["fields"]["h"]
    assert (h["claimed"], h["exact"]) == (1, 2)
    assert h["reasons"][0]["text"].startswith("ignores the 3-copy limit: h would be 1 with a 4th 詩花")


def test_units_and_score_reasons(wrong):
    [text] = texts(wrong["wrong-units-not-highest"], "units")
    assert text.startswith("decomposition valid but not the highest: it scores 17000, the best 19000")
    assert wrong["wrong-units-not-highest"]["fields"]["units"]["claimed_total"] == 17000
    assert wrong["wrong-score"]["fields"]["score"]["exact"] == 19000
    assert wrong["wrong-score-no-win"]["fields"]["score"]["exact"] is None


def test_exchange_reasons(wrong):
    # 2 of the 11 exchanges of seed 000's hand are claimed: 9 are missing, all listed
    exact = wrong["wrong-exchanges-missing"]["fields"]["exchanges"]["exact"]
    assert exact["h"] == 1 and len(exact["missing"]) == 9 and exact["all_missing_listed"]
    assert {"out": ["sayoko"], "in": ["yayoi"]} in exact["missing"]
    [copies, _] = texts(wrong["wrong-exchanges-fourth"], "exchanges")
    assert copies == "歌織 → 詩花: needs a 4th 詩花"


def test_two_missing_explanation():
    """An engine that only builds targets from units missing at most two members of the hand.

    Units A = k0..k4, B = k5 k6, C = k5 k6 k11; 7-tile hands. Hand k0 k1 k5 k6 k9 k9 k9: A + B keeps
    k0 k1 k5 k6, h = 3. Without A (3 members missing) the best is B + B + C (keeps k5 k6), h = 5.
    """
    idols = tuple(Idol(id=f"k{k}", name=f"k{k}", kana=f"k{k}", full_name=f"kind {k}", full_kana=f"kind {k}",
                       attribute="Princess") for k in range(12))
    units = tuple(Unit(id=f"u{j}", name=f"u{j}", members=tuple(f"k{m}" for m in members), lists=("syn",))
                  for j, members in enumerate([(0, 1, 2, 3, 4), (5, 6), (5, 6, 11)]))
    spec = RuleSpec(name="syn-two-missing", description="", source="tests", unit_lists=("syn",), min_points=1000,
                    member_points=2000, called="minus_member", ron_minus_member=False, no_win="same",
                    favourite="bonus", favourite_bonus=2000, sora="dead", ron_on_shika=False, hand_size=7)
    catalogue = Catalogue(idols=idols, units=units, rules={spec.name: spec})
    from solver import api

    api._SHARED[(spec.name, ())] = Evaluator(spec.name, catalogue=catalogue)  # (the process's one per rule set)
    try:
        claim = {"rules": spec.name, "hand": "k0 k1 k5 k6 k9 k9 k9"}
        assert check_claim({**claim, "h": 3})["verdict"] == "correct"
        result = check_claim({**claim, "h": 5})
        assert codes(result) == {"h:h_two_missing"}
        assert codes(check_claim({**claim, "h": 4})) == {"h:h_value"}
    finally:
        del api._SHARED[(spec.name, ())]


# --- invalid input ---------------------------------------------------------------------------------


def test_malformed_lines_are_reported_and_the_run_continues(invalid):
    by_line = {r["line"]: r for r in invalid}
    assert 4 not in by_line  # the blank line is skipped but keeps its number
    assert sorted(by_line) == [1, 2, 3] + list(range(5, 15))
    assert by_line[1]["verdict"] == by_line[14]["verdict"] == "correct"
    assert by_line[2]["verdict"] == "invalid" and by_line[2]["id"] == 2
    assert by_line[2]["error"]["code"] == "bad_json" and by_line[2]["error"]["text"].startswith("line 2: bad JSON")
    assert by_line[3]["error"]["code"] == "not_an_object"


def test_invalid_claims_say_why(invalid):
    for result in invalid:
        if result["line"] in (2, 3):
            continue
        note = json.loads(lines_of(INVALID)[result["line"] - 1])["note"]
        if note == "expect correct":
            continue
        assert result["verdict"] == "invalid", result
        assert codes(result) == expected(note), result
        if "ERR_" in note:
            assert result["error"]["error_code"] == note.split()[-1]


def test_unknown_field_is_reported_not_ignored(invalid):
    [typo] = [r for r in invalid if r["id"] == "typo-field"]
    assert typo["verdict"] == "invalid"
    assert typo["problems"] == [{"code": "unknown_field", "text": "unknown field 'scroe' (did you mean score?)"}]
    assert typo["fields"]["h"]["verdict"] == "correct"  # the known fields are still checked


def test_text_bytes_and_dict_agree():
    line = lines_of(RIGHT)[0]
    as_dict = check_claim(json.loads(line), 1)
    assert check_claim(line, 1) == check_claim(line.decode(), 1) == as_dict
    assert as_dict["verdict"] == "correct"
    bad = check_claim(b'{"hand": "\xff"}', 9)
    assert bad["verdict"] == "invalid" and bad["error"]["code"] == "bad_encoding" and bad["line"] == 9


def test_default_rules_apply_to_claims_without_rules():
    claim = {"hand": "未来 琴葉 星梨花 亜利沙 風花 美希 翼 麗花 ジュリア 詩花 詩花 詩花 歌織", "h": 2}
    assert check_claim(claim, 1, "hitori-jong-2.1")["rules"] == "hitori-jong-2.1"
    assert check_claim({**claim, "rules": "2019-12"}, 1, "hitori-jong-2.1")["rules"] == "2019-12"


# --- summary -------------------------------------------------------------------------------------


def test_summary_counts_by_field_and_reason(wrong, invalid):
    summary = Summary()
    for result in [*wrong.values(), *invalid]:
        summary.add(result)
    report = summary.to_dict()
    assert report["claims"] == 22 + 13
    assert report["verdicts"] == {"correct": 2, "wrong": 22, "invalid": 11, "error": 0}
    assert report["fields"]["waits"]["wrong"] == 7 and report["fields"]["waits"]["invalid"] == 2
    rows = {(r["field"], r["code"]): r for r in report["reasons"]}
    assert rows[("waits", "fourth_copy")]["count"] == 2
    assert rows[("waits", "fourth_copy")]["example"]["id"] == "wrong-waits-fourth-haruka"
    assert rows[("claim", "bad_json")]["count"] == 1
    assert not summary.all_correct
    assert json.loads(json.dumps(report)) == report


# --- batches: workers, streaming, interruption -----------------------------------------------------


def test_workers_keep_input_order():
    lines = lines_of(WRONG)[:8] + lines_of(INVALID)
    one = list(check_lines(lines, workers=1))
    two = list(check_lines(lines, workers=2))
    assert two == one
    assert [r["line"] for r in two] == [n for n, line in enumerate(lines, 1) if line.strip()]


def test_stopping_the_consumer_keeps_what_was_produced():
    lines = lines_of(RIGHT) * 20
    results = check_lines(lines, workers=2)
    got = [next(results) for _ in range(3)]
    results.close()  # stops the workers
    assert [r["id"] for r in got] == [json.loads(line)["id"] for line in lines[:3]]
    assert all(r["verdict"] == "correct" for r in got)
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("workers", [1, 2])
def test_input_is_read_lazily(workers):
    consumed = 0

    def endless():
        nonlocal consumed
        for line in itertools.cycle(lines_of(INVALID)[:3]):  # cheap lines, for ever
            consumed += 1
            yield line

    results = check_lines(endless(), workers=workers)
    got = [next(results) for _ in range(5)]
    results.close()
    assert [r["line"] for r in got] == [1, 2, 3, 4, 5]
    window = (2 * workers if workers > 1 else 1) * max(CHUNK_SIZES)  # chunks in flight, at most this big
    assert consumed <= 5 + window + max(CHUNK_SIZES)  # the results plus a bounded window in flight


def test_record_writes_one_flushed_line_per_result():
    sink = io.StringIO()
    results = list(record(check_lines(lines_of(INVALID), workers=1), sink))
    written = sink.getvalue().splitlines()
    assert [json.loads(line) for line in written] == results


KILL_SCRIPT = """
import sys
from solver.checking.batch import check_lines, record
if __name__ == "__main__":
    with open(sys.argv[1], "rb") as source, open(sys.argv[2], "w", encoding="utf-8") as sink:
        for _ in record(check_lines(source, workers=1), sink):
            pass
"""


def wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError(f"fewer than {n} lines after {timeout} s")


def assert_complete_prefix(path: Path, source: list[bytes], total: int) -> None:
    written = path.read_bytes()
    assert written.endswith(b"\n")
    results = [json.loads(line) for line in written.splitlines()]
    results = [r for r in results if "summary" not in r]
    assert 3 <= len(results) < total  # interrupted, and what was checked is there
    assert [r["id"] for r in results] == [json.loads(line)["id"] for line in source[:len(results)]]


@pytest.mark.parametrize("how", ["library", "cli"])
def test_killed_run_keeps_complete_lines(tmp_path, how):
    """A run killed midway (library loop or `mj check --output`) leaves only complete lines, in order."""
    source = lines_of(RIGHT) * 2000  # long enough that the kill lands mid-run
    claims, out = tmp_path / "claims.jsonl", tmp_path / "out.jsonl"
    claims.write_bytes(b"".join(source))
    command = ([sys.executable, "-c", KILL_SCRIPT, str(claims), str(out)] if how == "library" else
               [sys.executable, str(ROOT / "cli.py"), "check", str(claims), "--workers", "1", "--output", str(out)])
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_lines(out, 3, proc)
    finally:
        proc.kill()
        proc.wait()
    assert_complete_prefix(out, source, len(source))


# --- round trip: the checker accepts the project's own answers and rejects perturbed ones -----------

ROUND_TRIP = Evaluator("hitori-jong-2.1")


def _tenpai_hand(rng) -> list[str] | None:
    """12 tiles one short of units picked at random (so the hand is usually one tile from winning)."""
    rules, tiles = ROUND_TRIP.rules, []
    while len(tiles) < 13:
        unit = rng.choice([u for u in rules.units if u.size <= 13 - len(tiles)])
        tiles += list(unit.members)
    if any(tiles.count(k) > 3 for k in tiles):
        return None
    tiles.remove(rng.choice(tiles))
    return [ROUND_TRIP.tiles.ids[k] for k in tiles]


@settings(deadline=None, derandomize=True, max_examples=12)
@given(st.randoms(use_true_random=False))
def test_round_trip_h_and_waits(rng):
    hand = _tenpai_hand(rng)
    if hand is None:
        return
    parsed = ROUND_TRIP.hand(" ".join(hand))
    h = ROUND_TRIP.h(parsed).h
    found = exact_waits(ROUND_TRIP.distance_model, parsed, (), None)
    claim = {"rules": "hitori-jong-2.1", "hand": hand, "h": h,
             "waits": [{"tile": ROUND_TRIP.tiles.ids[w.tile], "score": w.tsumo} for w in found]}
    assert check_claim(claim)["verdict"] == "correct"
    wrong_h = check_claim({**claim, "h": h + 1})
    assert wrong_h["verdict"] == "wrong" and wrong_h["fields"]["h"]["reasons"][0]["code"].startswith("h_")
    if found:
        fewer = check_claim({**claim, "waits": claim["waits"][1:]})
        assert [r["code"] for r in fewer["fields"]["waits"]["reasons"]] == ["misses_wait"]
        off = [dict(w) for w in claim["waits"]]
        off[0]["score"] += 1000
        assert [r["code"] for r in check_claim({**claim, "waits": off})["fields"]["waits"]["reasons"]] == ["wait_score"]


def test_a_key_given_twice_or_an_h_below_0_is_invalid_not_judged():
    """`{"h": 1, "h": 2}` had been judged on its last value, and `"h": -1` judged wrong: neither is an answer."""
    hand = '"真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"'
    lines = [f'{{"hand": {hand}, "h": 1, "h": 2}}', f'{{"hand": {hand}, "h": -1}}',
             f'{{"hand": {hand}, "discard": {{"tile": "海美", "h": -2}}}}', f'{{"hand": {hand}, "h": 1}}']
    verdicts = [r["verdict"] for r in check_lines(lines, workers=1)]
    assert verdicts == ["invalid", "invalid", "invalid", "correct"]
