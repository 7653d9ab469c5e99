"""A better lower bound past the optimum's budget with a fetch-mode そら held (docs/formulation.md section 8, "Bounds
past the budget"): fetch at once.

The lower side there is a class that fetches only toward the hands listed without the waiting room (nearest) or
never (the estimate's policy), so a room tile that a win needs was worth nothing to it, and discarding the そら
could look best (QA of 2026-11-27: 5.9 % recommended where discarding 奈緒 and fetching wins 18.5 %). For a row
(discard d of the hand H, a そら kept) and each room tile r (the discard joins the room), the policy "discard d,
send そら to the room for r before the next draw, then play the class nearest of the 12 tiles H - d - そら + r" is a
real way of playing, valued exactly (the class's plan of that position, the room's tiles then out of play: no
later fetch, so the plan stays quick with a second そら held); the row is raised to the best of them where
that is higher, and its そら advice says to fetch r now. Best rows first, while the clock lasts; a fetch whose plan
passes its limits is skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning.answer import SoraMove
from solver.planning.request import PlanRequest
from solver.planning.targets import TooLarge, past

LABEL = ("; for {n} of {of} discards a fetch at once does better (そら to the waiting room for its best tile before "
         "the next draw, then the class nearest of those 12 tiles; exact)")
FIELDS = {"win": ("win_probability", "win_interval"), "score": ("expected_score", "score_interval")}


def applies(rules: RuleSet, request: PlanRequest) -> bool:
    sora = rules.tiles.sora
    return (rules.sora_mode == "fetch" and sora is not None and request.position.hand.concealed[sora] > 0
            and bool(request.position.waiting_room) and request.turns >= 1)


def fetch_first(rules: RuleSet, request: PlanRequest, rows: tuple, solve: Callable, deadline: float | None
                ) -> tuple[tuple, int]:
    """The rows with each one's lower bound raised to its best fetch at once where higher (see the module doc; the
    bracket ranks them after), and how many were raised."""
    if not applies(rules, request):
        return rows, 0
    field, interval = FIELDS[request.objective]
    position, sora = request.position, rules.tiles.sora
    out, raised = list(rows), 0
    for i, row in enumerate(rows):
        if past(deadline):
            break
        kept = position.hand if row.tile is None else position.hand.remove(row.tile)
        if not kept.concealed[sora]:
            continue
        room = list(position.waiting_room) + ([] if row.tile is None else [row.tile])
        best = None
        for take in sorted(set(room) - {sora}):
            left = list(room)
            left.remove(take)
            # (the room's tiles then out of play: nearest never fetches again, quick with a second そら held)
            after = replace(position.seeing(left + [sora]), hand=kept.remove(sora).add(take), waiting_room=())
            try:
                got = solve(replace(request, position=after, play="nearest", detour=None, both=False), deadline)
            except TooLarge:
                continue
            value = getattr(got.recommended, field)
            if value is not None and (best is None or value > best[0]):
                best = (value, take)
        now = getattr(row, field)
        if best is not None and (now is None or best[0] > now):
            waiting = row.sora.value_if_waiting if row.sora is not None else now
            out[i] = replace(row, **{field: best[0], interval: None},
                             sora=SoraMove(True, best[1], best[0], waiting if waiting is not None else best[0]))
            raised += 1
    return tuple(out), raised
