"""The summary of a ``mj check`` run, and what a worker sends back per claim for it.

A worker turns each result into a ``Checked`` pair: its JSON line, made once where the claim was checked
(the public format, docs/checker.md), and the few facts the summary counts. The parent then writes
the line and counts the facts: it neither serializes nor walks result dicts, so it leaves the cores to
the workers.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from solver.checking.context import CLAIM_FIELDS, LABELS, VERDICTS
from solver.serialize import dumps

Facts = tuple  # (verdict, id, ((field, its verdict), ...), ((field, reason code, reason text), ...))


def facts_of(result: dict[str, Any]) -> Facts:
    """What the summary counts of one result: reasons in the order their first examples are taken."""
    reasons = [("claim", r["code"], r["text"]) for r in ([result["error"]] if "error" in result else [])]
    reasons += [("claim", r["code"], r["text"]) for r in result.get("problems", ())]
    fields = []
    for name, detail in result.get("fields", {}).items():
        fields.append((name, detail["verdict"]))
        reasons += [(name, r["code"], r["text"]) for r in detail.get("reasons", ())]
    return result["verdict"], result.get("id"), tuple(fields), tuple(reasons)


Checked = tuple  # (its JSON line, its Facts): a plain tuple, which pickles 2-4x faster than a class's


def checked(result: dict[str, Any]) -> Checked:
    """One result as the parent of a batch needs it: its JSON line and its summary facts."""
    return dumps(result), facts_of(result)


class Summary:
    """Counts by verdict, by field and verdict, and by field and reason code (with a first example)."""

    def __init__(self) -> None:
        self.claims = 0
        self.verdicts: Counter[str] = Counter()
        self.fields: dict[str, Counter[str]] = {}
        self.reasons: dict[tuple[str, str], dict[str, Any]] = {}

    def add(self, result: dict[str, Any]) -> dict[str, Any]:
        self.count(facts_of(result))
        return result

    def count(self, facts: Facts) -> None:
        verdict, claim_id, fields, reasons = facts
        self.claims += 1
        self.verdicts[verdict] += 1
        for name, field_verdict in fields:
            if name not in self.fields:
                self.fields[name] = Counter()
            self.fields[name][field_verdict] += 1
        for field, code, text in reasons:
            row = self.reasons.get((field, code))
            if row is None:
                row = self.reasons[field, code] = {"field": field, "code": code, "label": LABELS.get(code, code),
                                                   "count": 0, "example": {"id": claim_id, "text": text}}
            row["count"] += 1

    @property
    def all_correct(self) -> bool:
        return self.claims == self.verdicts["correct"]

    def reason_rows(self) -> list[dict[str, Any]]:
        order = {name: n for n, name in enumerate(("claim",) + CLAIM_FIELDS)}
        return sorted(self.reasons.values(), key=lambda r: (order.get(r["field"], 99), -r["count"], r["code"]))

    def to_dict(self) -> dict[str, Any]:
        return {"claims": self.claims, "verdicts": {v: self.verdicts[v] for v in VERDICTS},
                "fields": {name: {v: c[v] for v in VERDICTS} for name, c in
                           sorted(self.fields.items(), key=lambda kv: CLAIM_FIELDS.index(kv[0]))},
                "reasons": self.reason_rows()}
