"""The certificate of `mj research max-h` (docs/max-h.md): the answer, its witness re-checked two ways, the method
and its counts, as the JSON the command writes."""

from __future__ import annotations

from solver.research.max_h import check_witness


def certificate(ev, result, rules: str) -> dict:
    """The certificate: the answer, the witness re-checked by the ordinary h search, the method and its counts."""
    names = [ev.tiles.name(k) for k, n in enumerate(result.witness) for _ in range(n)]
    checked, by_cpsat = check_witness(ev, result.witness)  # the ordinary search again, and CP-SAT
    if checked != result.max_h or by_cpsat != result.max_h:
        raise AssertionError(f"the witness has h = {checked} (search), {by_cpsat} (CP-SAT), not {result.max_h}")
    return {
        "rules": rules,
        "max_h": result.max_h,
        "proved": result.proved,
        "upper": result.upper,
        "witness": names,
        "witness_h": checked,
        "witness_h_cpsat": by_cpsat,
        "witness_target": [ev.rules.units[u].name for u in result.witness_target],
        "method": "exhaustive: every multiset of r0 real tiles in one canonical order, a prefix dropped when a "
                  "complete target (checked) keeps more than N - goal of it (K is monotone); docs/max-h.md",
        "real_tiles": result.real_tiles,
        "checks": result.checks,
        "proof_checks": result.proof_checks,
        "certificates": result.certificates,
        "survivors_by_size": {str(k): v for k, v in result.survivors.items()},
        "timeline": [{"seconds": s, "goal": g, "outcome": o} for s, g, o in result.timeline],
        "stopped": result.stopped or None,
        "seconds": round(result.seconds, 2),
    }
