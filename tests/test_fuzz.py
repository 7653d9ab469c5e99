"""Fuzz the command line and the claims reader: whatever comes in, an answer or one error line.

Asserted for every generated input: no traceback, exit code 0, 1 or 2, stdout valid JSON under --json,
error lines single-line and bounded, and under `mj check` one result per non-blank line. The CI profile
is small and derandomized; `MJ_FUZZ_EXAMPLES=N python bench/fuzz_long.py` runs the same tests longer.
"""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hardening import IDS, SEED_HAND, run_mj

EXAMPLES = int(os.environ.get("MJ_FUZZ_EXAMPLES", "0"))
fuzz = settings(max_examples=EXAMPLES or 60, deadline=None, derandomize=not EXAMPLES, database=None,
                suppress_health_check=list(HealthCheck))

NAMES = IDS + ["春香", "はるか", "ハルカ", "天海春香", "そら", "詩花", "harka", "[", "]", "【", "、", ","]
nasty_text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=30)
tile_text = st.lists(st.sampled_from(NAMES) | nasty_text, max_size=16).map(" ".join)
json_scalar = (st.none() | st.booleans() | st.integers(-10**6, 10**50) | st.floats(allow_nan=False)
               | nasty_text | st.sampled_from(NAMES))
json_value = st.recursive(json_scalar, lambda inner: st.lists(inner, max_size=5)
                          | st.dictionaries(st.sampled_from(["tile", "out", "in", "live", "h", "x"]) | nasty_text,
                                            inner, max_size=4), max_leaves=12)
FIELDS = ["id", "hand", "rules", "favorite", "win", "winning_tile", "seen", "complete", "h", "score", "units",
          "exchanges", "waits", "discard", "wiats"]
claim = st.fixed_dictionaries({"hand": st.sampled_from([SEED_HAND]) | tile_text | st.lists(st.sampled_from(NAMES),
                                                                                         max_size=14)},
                              optional={f: json_value | tile_text for f in FIELDS if f != "hand"})
raw_line = st.sampled_from(["NaN", "1e999", '{"h": Infinity}', "[" * 40, '{"h": ' + "9" * 60 + "}", "\ufeff{}",
                            '{"id": "\\ud800"}']) | nasty_text


def assert_error_line(err: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and len(lines[0]) <= 600, err[:2000]


@fuzz
@given(command=st.sampled_from(["units", "h", "score", "analyze"]), hand=st.sampled_from([SEED_HAND]) | tile_text,
       options=st.lists(st.sampled_from([("--rules", "2019-10"), ("--rules", "hitori-jong-2.1"), ("--tsumo",),
                                         ("--as-of", "2019-10-01"), ("--json",), ("--favorite", "可奈")])
                        | st.tuples(st.sampled_from(["--rules", "--as-of", "--seen", "--favorite", "--ron",
                                                     "--discard", "--waiting-room"]), tile_text | nasty_text),
                        max_size=3))
def test_commands_answer_or_say_one_error_line(command, hand, options):
    args = [command, hand] + [part for option in options for part in option]
    if command == "score" and not any(a in args for a in ("--ron", "--no-win")):
        args.append("--tsumo")
    code, out, err = run_mj(*args)
    assert code in (0, 1, 2), (code, err)
    assert "Traceback" not in err and "Traceback" not in out
    if code == 2:
        assert_error_line(err)
    elif "--json" in args:
        json.loads(out)


@fuzz
@given(lines=st.lists(claim.map(lambda c: json.dumps(c, ensure_ascii=False)) | raw_line, min_size=1, max_size=4),
       json_out=st.booleans())
def test_check_gives_every_line_a_verdict(tmp_path_factory, lines, json_out):
    path = tmp_path_factory.mktemp("fuzz") / "claims.jsonl"
    path.write_bytes("".join(line.replace("\n", " ").replace("\r", " ") + "\n" for line in lines)
                     .encode("utf-8", "surrogatepass"))
    code, out, err = run_mj("check", str(path), "--workers", "1", *(["--json"] if json_out else []))
    assert code in (0, 1), (code, err)
    assert "Traceback" not in err
    if json_out:
        report = json.loads(out)
        blank = sum(1 for line in path.read_bytes().split(b"\n")[:-1] if not line.strip())
        assert report["summary"]["claims"] == len(lines) - blank
        assert report["summary"]["verdicts"]["error"] == 0, [c for c in report["claims"] if c["verdict"] == "error"]
    else:
        assert all(len(line) <= 2100 for line in out.splitlines() if line.startswith("line "))
