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

A row that keeps a そら can also fetch its own discard back: the hand and room of discarding the そら (with one held).
So every column's lower bound of such a row is at least the そら row's, and the そら row's is at least a value that
a take-back proved (same_as_sora).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning.answer import SoraMove, proves_more
from solver.planning.request import PlanRequest
from solver.planning.targets import TooLarge, past

LABEL = ("; for {n} of {of} discards a fetch at once does better (そら to the waiting room for its best tile before "
         "the next draw, then the class nearest of those 12 tiles; exact)")
FIELDS = {"win": ("win_probability", "win_interval"), "score": ("expected_score", "score_interval")}


def applies(rules: RuleSet, request: PlanRequest) -> bool:
    sora = rules.tiles.sora
    return (rules.sora_mode == "fetch" and sora is not None and request.position.hand.concealed[sora] > 0
            and bool(request.position.waiting_room) and request.turns >= 1)


def fetch_first(rules: RuleSet, request: PlanRequest, rows: tuple, solve: Callable, deadline: float | None,
                sample: Callable | None = None, sample_end: float | None = None) -> tuple[tuple, int, int]:
    """The rows with each one's lower bound raised to its best fetch at once where higher (see the module doc; the
    bracket ranks them after), and how many were raised by an exact value and by a sample (`sample(request,
    deadline)`: the estimate's plan, asked where no fetch's exact value came, sampled_fetch, until `sample_end`:
    a few hundredths of a second a row, so it may use the whole answer's budget)."""
    if not applies(rules, request):
        return rows, 0, 0
    field, interval = FIELDS[request.objective]
    position, sora = request.position, rules.tiles.sora
    out, raised, drawn = list(rows), 0, 0
    for i, row in enumerate(rows):
        if past(deadline) and (sample is None or past(sample_end)):
            break
        kept = position.hand if row.tile is None else position.hand.remove(row.tile)
        if not kept.concealed[sora]:
            continue
        room = list(position.waiting_room) + ([] if row.tile is None else [row.tile])
        best = None
        for take in sorted(set(room) - {sora}) if not past(deadline) else ():
            after = fetched(position, kept, room, take, sora)
            try:
                got = solve(replace(request, position=after, play="nearest", detour=None, both=False), deadline)
            except TooLarge:
                continue
            value = getattr(got.recommended, field)
            if value is not None and (best is None or value > best[0]):
                best = (value, take)
        now, got = getattr(row, field), None
        if best is not None:
            got = replace(row, **{field: best[0], interval: None})
        elif sample is not None and not past(sample_end):
            got = sampled_fetch(rules, request, kept, room, sample, sample_end)
        column = next(c for c in COLUMNS if c[:2] == (field, interval))
        if got is not None and higher(got, row, *column):
            value, take = getattr(got, field), best[1] if best is not None else got.tile
            waiting = row.sora.value_if_waiting if row.sora is not None else now
            out[i] = replace(row, **{field: value, interval: getattr(got, interval)},
                             sora=SoraMove(True, take, value, waiting if waiting is not None else value))
            raised, drawn = (raised + 1, drawn) if best is not None else (raised, drawn + 1)
    return tuple(out), raised, drawn


def fetched(position, kept, room: list, take: int, sora: int):
    """The position after sending そら to the room for `take` (the hand `kept`, the room `room`): the room's tiles
    then out of play (the policies valued after it never fetch again, so a plan stays quick with a second そら held)."""
    left = list(room)
    left.remove(take)
    return replace(position.seeing(left + [sora]), hand=kept.remove(sora).add(take), waiting_room=())


SAMPLED = ("; for {n} of {of} discards a fetch at once does better by a sample (そら to the waiting room for the tile "
           "leaving the lowest h, then the most live tiles, before the next draw, then the estimate's policy of those "
           "12 tiles, with its 95 % interval)")


def sampled_fetch(rules: RuleSet, request: PlanRequest, kept, room: list, sample: Callable, deadline: float | None):
    """Where no fetch's exact value came (past the class's limits at long horizons), the policy "fetch the room tile
    whose 12 tiles have the lowest h, then the most live tiles that lower it, then the estimate's policy" sampled:
    the tile is chosen by that rule, not by the samples (the best of several samples would lean high). A DiscardPlan
    whose `tile` is the tile fetched, or None. (QA: a review graded passing a call while holding そら by a policy
    that never fetched, 27.7 %, where fetching the room's 亜美 was worth at least 53 %.)"""
    from collections import Counter

    from solver.planning.prepare import position_counts, searched_acceptance
    from solver.planning.sampled_lower import GAMES

    sora, position = rules.tiles.sora, request.position
    seen, _, wall, _ = position_counts(rules, position, request.turns)
    chosen = None
    for take in sorted(set(room) - {sora}):
        left = Counter(room) - Counter([take]) + Counter([sora])
        h, live = searched_acceptance(rules, kept.remove(sora).add(take),
                                      tuple(n + left[k] for k, n in enumerate(seen)), wall)
        if h is not None and (chosen is None or (h, -live) < chosen[0]):
            chosen = ((h, -live), take)
    if chosen is None:
        return None
    take = chosen[1]
    after = fetched(position, kept, room, take, sora)
    limits = replace(request.limits, estimate=request.limits.estimate or GAMES)
    try:
        got = sample(replace(request, position=after, play="nearest", detour=None, both=False, limits=limits),
                     deadline)
    except TooLarge:
        return None
    return replace(got.recommended, tile=take) if got.games else None


def sampled_recounted(label: str, before: tuple, after: tuple, field: str, interval: str) -> str:
    """`label` with its SAMPLED note counting only the rows whose value is still a sampled fetch after same_as_sora
    (`before` -> `after`, the same order), and without it where none is (QA: with two そら held the note stayed after
    the そら row's exact value had replaced every sample)."""
    note = re.compile(re.escape(SAMPLED).replace(r"\{n\}", r"\d+").replace(r"\{of\}", r"\d+"))
    if not note.search(label):
        return label
    left = sum(1 for b, a in zip(before, after) if getattr(b, interval) is not None and b.sora is not None and
               b.sora.use_now and (getattr(a, field), getattr(a, interval)) == (getattr(b, field), getattr(b, interval)))
    return note.sub(SAMPLED.format(n=left, of=len(after)) if left else "", label)


TAKEN_BACK = ("; for {n} of {of} discards the value of another row of the same position (a discard fetched back "
              "before the next draw leaves the hand and waiting room of discarding そら)")


def same_as_sora(rules: RuleSet, request: PlanRequest, rows: tuple) -> tuple[tuple, dict[str, int]]:
    """The rows with the lower bounds that the take-back shares (see the module doc), and per column how many rose:
    with one そら held, the そら row raised to the best value a row's take-back advice reached (the objective's
    column), then each row that keeps a そら raised to the そら row's value in each column, its advice the take-back
    where the objective's column rose (QA: every row proved 11276 by taking its discard back while the そら row, the
    same position, kept a sample of 11241). Not for a named class (its values are that class's)."""
    sora = rules.tiles.sora
    hand = request.position.hand
    raised = {name: 0 for name, _, _ in COLUMNS}
    if rules.sora_mode != "fetch" or sora is None or not hand.concealed[sora] or request.turns < 1 or \
            request.play != "optimal":
        return rows, raised
    at = next((i for i, r in enumerate(rows) if r.tile == sora), None)
    if at is None:
        return rows, raised
    out = list(rows)
    objective = next(c for c in COLUMNS if c[:2] == FIELDS[request.objective])
    if hand.concealed[sora] == 1:  # (with two, discarding one keeps the other: a take-back leaves another hand)
        for row in rows:
            if row.sora is not None and row.sora.use_now and row.sora.take == row.tile and \
                    higher(row, out[at], *objective):
                out[at] = replace(out[at], **{c: getattr(row, c) for c in objective[:2]})
                raised[objective[0]] = 1
    base = out[at]
    for i, row in enumerate(out):
        if i == at or not hand.remove(row.tile).concealed[sora]:
            continue
        for column in COLUMNS:
            if not higher(base, row, *column):
                continue
            name, drawn, _ = column
            changed = {name: getattr(base, name), drawn: getattr(base, drawn)}
            if column == objective:
                waiting = row.sora.value_if_waiting if row.sora is not None else getattr(row, name)
                changed["sora"] = SoraMove(True, row.tile, changed[name], changed[name] if waiting is None else waiting)
            row = out[i] = replace(row, **changed)
            raised[name] += 1
    return tuple(out), raised


COLUMNS = (("win_probability", "win_interval", "upper"), ("expected_score", "score_interval", "score_upper"))


def higher(source, row, field: str, interval: str, upper: str) -> bool:
    """Whether `source`'s value of a column raises `row`'s: never past the row's proved upper bound; an exact value
    as answer.proves_more, a sample over an exact value only where its interval lies above it (as answer.ranked),
    over a sample where higher."""
    value, drawn, now, ours, bound = (getattr(source, field), getattr(source, interval), getattr(row, field),
                                      getattr(row, interval), getattr(row, upper))
    if value is None or (bound is not None and value > bound):
        return False
    if now is None:
        return True
    if drawn is None:
        return proves_more(value, now, ours)
    return drawn[0] > now if ours is None else value > now
