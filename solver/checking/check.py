"""Check other engines' answers ("claims") against the exact solver. Pure functions, no printing.

One claim is one JSON object (docs/checker.md): a hand, its situation (rules, favourite, win, seen)
and any of the claim fields (context.py). ``check_claim`` returns a JSON-ready dict:

    {"line": 3, "id": "pub-w-pres-0000", "rules": "hitori-jong-2.1", "verdict": "wrong",
     "fields": {"waits": {"verdict": "wrong", "exact": [...],
                          "reasons": [{"code": "fourth_copy", "text": "needs a 4th 春香 ..."}]}}}

Running many claims over worker processes, and their summary, is solver/checking/batch.py.
"""

from __future__ import annotations

from typing import Any

from solver.checking.context import (
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
from solver.checking.intake import Rejected, echo_id, read_claim
from solver.core.errors import MjError, close_matches, shown
from solver.core.rules import DEFAULT_RULES

__all__ = ["CLAIM_FIELDS", "LABELS", "VERDICTS", "check_claim", "evaluator", "validate_rules"]


# --- one claim ---------------------------------------------------------------------------------


def failed(line_no: int, verdict: str, code: str, text: str) -> dict[str, Any]:
    """The result of a line that could not be checked: invalid (bad input) or error (the checker failed)."""
    return {"line": line_no, "id": line_no, "verdict": verdict, "error": make_reason(code, f"line {line_no}: {text}")}


def check_claim(claim: dict[str, Any] | str | bytes | int, line_no: int = 0,
                default_rules: str = DEFAULT_RULES, catalogue: tuple[str, ...] = ()) -> dict[str, Any]:
    """Check one claim (a dict, or its line as numbered_lines gives it). Never raises for bad input: the
    verdict says invalid; a failure of the checker itself is the verdict error, and the batch goes on."""
    try:
        claim = read_claim(claim)
    except Rejected as exc:
        return failed(line_no, "invalid", exc.code, str(exc))
    claim_id = echo_id(claim.get("id"))
    rules = claim.get("rules", default_rules)
    result: dict[str, Any] = {"line": line_no, "id": claim_id if claim_id is not None else line_no,
                              "rules": rules if isinstance(rules, str) and len(rules) <= 60 else shown(rules),
                              "verdict": None}
    try:
        return _check(claim, result, default_rules, catalogue)
    except MjError as exc:  # an unproven solve
        return {**result, "verdict": "invalid", "error": make_reason("bad_context", shown(str(exc), 400), exc)}
    except Exception as exc:  # a bug must not stop a batch: the claim is reported, the run goes on
        return {**result, "verdict": "error",
                "error": make_reason("internal_error", shown(f"{type(exc).__name__}: {exc}", 400))}


def _check(claim: dict[str, Any], result: dict[str, Any], default_rules: str,
           catalogue: tuple[str, ...]) -> dict[str, Any]:
    unknown = [k for k in claim if k not in KNOWN_FIELDS]
    asked = [k for k in CLAIM_FIELDS if k in claim]
    try:
        ctx = Context(claim, default_rules, catalogue)
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
        close = close_matches(key, list(KNOWN_FIELDS))
        hint = f" (did you mean {close[0]}?)" if close else ""
        problems.append(make_reason("unknown_field", f"unknown field '{shown(key)}'{hint}"))
    if not asked:
        problems.append(make_reason("no_claim", f"nothing to check: give one of {', '.join(CLAIM_FIELDS)}"))
    if problems:
        result["problems"] = problems
    verdicts = {f["verdict"] for f in fields.values()}
    result["verdict"] = "invalid" if problems or "invalid" in verdicts else "wrong" if "wrong" in verdicts \
        else "correct"
    return result
