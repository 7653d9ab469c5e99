"""Check other engines' answers ("claims") against the exact solver. Pure functions, no printing.

One claim is one JSON object (docs/checker.md): a hand, its situation (rules, favourite, win, seen)
and any of the claim fields (context.py). ``check_claim`` returns a JSON-ready dict:

    {"line": 3, "id": "pub-w-pres-0000", "rules": "hitori-jong-2.1", "verdict": "wrong",
     "fields": {"waits": {"verdict": "wrong", "exact": [...],
                          "reasons": [{"code": "fourth_copy", "text": "needs a 4th 春香 ..."}]}}}

Running many claims over worker processes, and their summary, is solver/checking/batch.py.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from solver.checking.context import (
    _EVALUATORS,
    CLAIM_FIELDS,
    KNOWN_FIELDS,
    LABELS,
    VERDICTS,
    Context,
    InvalidValue,
    evaluator,
    make_reason,
    validate_rules,
)
from solver.checking.fields import CHECKS
from solver.core.errors import MjError
from solver.core.rules import DEFAULT_RULES

__all__ = ["CLAIM_FIELDS", "LABELS", "VERDICTS", "check_claim", "evaluator", "validate_rules", "_EVALUATORS"]


# --- one claim ---------------------------------------------------------------------------------


def _invalid(line_no: int, claim_id: Any, code: str, text: str) -> dict[str, Any]:
    return {"line": line_no, "id": claim_id if claim_id is not None else line_no, "verdict": "invalid",
            "error": make_reason(code, text)}


def check_claim(claim: dict[str, Any] | str | bytes, line_no: int = 0,
                default_rules: str = DEFAULT_RULES) -> dict[str, Any]:
    """Check one claim (a dict, or its JSON line). Never raises for bad input: the verdict says invalid."""
    if isinstance(claim, bytes):
        try:
            claim = claim.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _invalid(line_no, None, "bad_encoding",
                            f"line {line_no}: not UTF-8 ({exc.reason} at byte {exc.start})")
    if isinstance(claim, str):
        try:
            claim = json.loads(claim.lstrip("\ufeff"))
        except json.JSONDecodeError as exc:
            return _invalid(line_no, None, "bad_json", f"line {line_no}: bad JSON: {exc}")
    if not isinstance(claim, dict):
        return _invalid(line_no, None, "not_an_object", f"line {line_no}: a claim is a JSON object, "
                                                        f"not {type(claim).__name__}")
    claim_id = claim.get("id")
    result: dict[str, Any] = {"line": line_no, "id": claim_id if claim_id is not None else line_no,
                              "rules": claim.get("rules", default_rules), "verdict": None}
    try:
        return _check(claim, result, default_rules)
    except Exception as exc:  # a bug or an unproven solve must not stop a batch; it is reported
        code = "bad_context" if isinstance(exc, MjError) else "internal_error"
        return {**result, "verdict": "invalid", "error": make_reason(code, f"{type(exc).__name__}: {exc}")}


def _check(claim: dict[str, Any], result: dict[str, Any], default_rules: str) -> dict[str, Any]:
    unknown = [k for k in claim if k not in KNOWN_FIELDS]
    asked = [k for k in CLAIM_FIELDS if k in claim]
    try:
        ctx = Context(claim, default_rules)
    except MjError as exc:
        return {**result, "verdict": "invalid", "error": make_reason("bad_context", str(exc), exc)}
    fields: dict[str, Any] = {}
    for name in asked:
        try:
            fields[name] = CHECKS[name](ctx, claim[name])
        except InvalidValue as exc:
            fields[name] = {"verdict": "invalid", "reasons": [make_reason("bad_value", str(exc))]}
        except MjError as exc:
            fields[name] = {"verdict": "invalid", "reasons": [make_reason("bad_value", str(exc), exc)]}
    result["fields"] = fields
    problems = []
    for key in unknown:
        close = difflib.get_close_matches(key, KNOWN_FIELDS, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        problems.append(make_reason("unknown_field", f"unknown field '{key}'{hint}"))
    if not asked:
        problems.append(make_reason("no_claim", f"nothing to check: give one of {', '.join(CLAIM_FIELDS)}"))
    if problems:
        result["problems"] = problems
    verdicts = {f["verdict"] for f in fields.values()}
    result["verdict"] = "invalid" if problems or "invalid" in verdicts else "wrong" if "wrong" in verdicts \
        else "correct"
    return result
