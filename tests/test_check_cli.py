"""`mj check` as a command: exit codes, the text table, the JSON report, stdin, --output and usage errors
(the checker itself: test_check.py)."""

from __future__ import annotations

import json

import pytest
from test_check import INVALID, RIGHT, WRONG, lines_of
from typer.testing import CliRunner

import cli

runner = CliRunner()


def test_cli_all_right_exits_0():
    result = runner.invoke(cli.app, ["check", str(RIGHT), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "12 claims: 12 correct, 0 wrong, 0 invalid" in result.stdout


def test_cli_json_report():
    result = runner.invoke(cli.app, ["check", str(WRONG), "--json", "--workers", "2"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [c["id"] for c in report["claims"]] == [json.loads(line)["id"] for line in lines_of(WRONG)]
    assert {c["verdict"] for c in report["claims"]} == {"wrong"}
    assert all("fields" in c for c in report["claims"])
    assert report["summary"]["verdicts"]["wrong"] == 22


def test_cli_table_lists_reasons_and_bad_lines():
    result = runner.invoke(cli.app, ["check", str(INVALID), "--workers", "1"])
    assert result.exit_code == 1
    assert "line 2: invalid: bad JSON" in result.stdout  # (the line said once: QA)
    assert "unknown field 'scroe'" in result.stdout
    assert "13 claims: 2 correct, 0 wrong, 11 invalid" in result.stdout


def test_cli_stdin_output_file_and_default_rules(tmp_path):
    out = tmp_path / "results.jsonl"
    claim = json.dumps({"id": "fourth", "hand": "未来 琴葉 星梨花 亜利沙 風花 美希 翼 麗花 ジュリア 詩花 詩花 詩花 歌織",
                        "h": 1}, ensure_ascii=False)
    result = runner.invoke(cli.app, ["check", "-", "--rules", "hitori-jong-2.1", "--output", str(out),
                                     "--workers", "1"], input=claim + "\n")
    assert result.exit_code == 1
    [line, last] = out.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["rules"] == "hitori-jong-2.1"
    assert json.loads(line)["fields"]["h"]["reasons"][0]["code"] == "h_copy_limit"
    assert json.loads(last)["summary"]["claims"] == 1


@pytest.mark.parametrize("args", [["check", "/nonexistent/claims.jsonl"], ["check", str(RIGHT), "--rules", "2019-13"]])
def test_cli_usage_errors(args):
    result = runner.invoke(cli.app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert result.stdout == ""


HAND = "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也"


def check_file(tmp_path, *lines: str, data: bytes | None = None, args: tuple[str, ...] = ()):
    path = tmp_path / "claims.jsonl"
    path.write_bytes(data if data is not None else "".join(line + "\n" for line in lines).encode("utf-8"))
    return runner.invoke(cli.app, ["check", str(path), "--workers", "1", *args])


def test_text_that_looks_like_markup_is_shown_as_typed(tmp_path):
    """QA: an id "[/bold]" crashed the summary table (rich markup), and the checker's own "[called]" vanished from
    it."""
    claim = {"id": "[/bold]", "hand": HAND, "win": "ron", "winning_tile": "美也", "favorite": "可奈", "score": 1}
    result = check_file(tmp_path, json.dumps(claim, ensure_ascii=False),
                        json.dumps({"id": "x", "hand": HAND, "h": 1, "[/red]": 1}, ensure_ascii=False))
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    table = result.stdout[result.stdout.index("Reasons"):]
    assert "[called]" in table and "[/red]" in table


def test_an_example_says_its_line_once(tmp_path):
    """QA: the reasons table showed "12: line 12: bad JSON"."""
    result = check_file(tmp_path, '{"hand": "x"')
    table = result.stdout[result.stdout.index("Reasons"):]
    assert "line 1: bad JSON" in table and "1: line 1" not in table


def test_the_copy_limit_names_the_kind_seen_three_times(tmp_path):
    """QA: "h would be 1 with a 4th  (千鶴 → 亜美)": the fourth copy came from the seen tiles, and its name was left
    out."""
    claim = {"id": "s17", "hand": "elena akane akane shiho chizuru chizuru konomi konomi fuka subaru momoko kaori "
                                  "shika", "h": 1, "seen": "ami ami ami"}
    result = check_file(tmp_path, json.dumps(claim), args=("--json",))
    reasons = json.loads(result.stdout)["claims"][0]["fields"]["h"]["reasons"]
    assert reasons[0]["code"] == "h_copy_limit" and "a 4th 亜美 (千鶴 → 亜美)" in reasons[0]["text"], reasons


def test_bad_json_names_its_column_and_a_bom_on_a_blank_line_is_blank(tmp_path):
    """QA: a line cut short was "column 1" (of the line break after it), and a BOM before a blank line made it bad
    JSON instead of skipped."""
    result = check_file(tmp_path, data='\ufeff\r\n{"id": "cut", "hand": \r\n'.encode("utf-8"), args=("--json",))
    claims = json.loads(result.stdout)["claims"]
    assert [(c["line"], c["verdict"]) for c in claims] == [(2, "invalid")]
    assert claims[0]["error"]["text"] == "line 2: bad JSON: Expecting value (column 23)", claims[0]
    only_bom = check_file(tmp_path, data=b"\xef\xbb\xbf")
    assert "no claims in" in only_bom.output


def test_resume_refuses_a_result_given_twice(tmp_path):
    """QA: a results file with one result repeated was resumed and counted twice."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"".join(line.rstrip(b"\n") + b"\n" for line in lines_of(RIGHT)[:4]))
    out = tmp_path / "out.jsonl"
    assert runner.invoke(cli.app, ["check", str(source), "-j", "1", "-o", str(out)]).exit_code == 0
    results = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(results[:3] + results[1:2]), encoding="utf-8")  # (the summary line dropped too)
    again = runner.invoke(cli.app, ["check", str(source), "-j", "1", "-o", str(out), "--resume"])
    assert again.exit_code == 2 and "answers input line 2 after line 3" in again.output, again.output


def test_diagnoses_speak_json(tmp_path):
    """QA: "a claim is a JSON object, not NoneType", "not [{'out': 'haruka'}]": Python's names for JSON input."""
    result = check_file(tmp_path, "null", "[1]", json.dumps({"id": "w", "hand": HAND, "win": [{"out": "haruka"}]}),
                        json.dumps({"id": "t", "hand": "", "h": 1, "seen": [""]}), args=("--json",))
    texts = [c["error"]["text"] for c in json.loads(result.stdout)["claims"]]
    assert texts[0].endswith("a claim is a JSON object, not null") and texts[1].endswith("not an array")
    assert texts[2].endswith('not [{"out": "haruka"}]'), texts[2]
