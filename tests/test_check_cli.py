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
    assert "line 2 2: invalid: line 2: bad JSON" in result.stdout
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
