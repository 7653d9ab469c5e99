"""The bracket past the optimum's budget (docs/formulation.md section 8, "Bounds past the budget"): per row the
lower plan's value (raised by a one-step lookahead where it finishes, lookahead.py) and a proved upper bound of
the optimal P(win): the perfect-information relaxation (bounds.py), or where a fetch could follow with no そら held,
the no-fetch optimum plus the chance of drawing a そら in time."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import numpy as np

from solver.core.rules import RuleSet
from solver.planning import clock as share
from solver.planning.answer import Plan, ranked
from solver.planning.clock import Clock
from solver.planning.needs import lists_of
from solver.planning.prepare import Prepared, fetch_could_follow, position_counts
from solver.planning.request import PlanRequest
from solver.planning.targets import TARGET_LIMIT, OutOfTime, TooLarge, complete_matrix, cut_by_clock

RELIST_LIMIT = 1_000_000  # hands the relaxation lists for itself (as matrices: 52 MB of counts at most; 5 draws at
# h = 1 lists 190,000-450,000)

UPPER = ("perfect-information relaxation: the chance that the coming draws hold the missing tiles of some complete "
         "hand within reach (with a fetch-mode そら, less the waiting room's copies, one a そら held or drawn; with "
         "one held, the discard itself lies in the room to be fetched back, so every row may share one bound), "
         "computed exactly")

def label_of(objective: str) -> str:
    return "win_probability" if objective == "win" else "expected_score"


def sora_slack(prep: Prepared, turns: int, sora: int) -> Fraction:
    """P(a そら among the first turns - 1 draws): with none held, a play that fetches differs from one that does
    not only on those walls, so the optimum is at most the no-fetch optimum plus this (docs section 8)."""
    live, W, t = prep.wall[sora], prep.W0, turns - 1
    none = Fraction(1)
    for i in range(t):
        none *= Fraction(W - live - i, W - i)
    return 1 - none


def bracket(request: PlanRequest, lower: Plan, stopped: str | None, listed: Prepared | None,
            rules: RuleSet | None = None, slack: Fraction | None = None, exact_plan: Callable | None = None,
            sample: bool = False, clock: Clock | None = None, relist: bool = False, deep=None) -> Plan:
    """The lower plan's rows, raised by a one-step lookahead where it finishes (lookahead.py) and, with `sample`
    (the lower plan is the class nearest), by the estimate's policy's sampled value where higher (sampled_lower.py),
    with a proved upper bound of the optimal P(win) each (bounds.py). `clock`: the request's (clock.py); each step
    takes its share of what is left. `deep`: the optimal step's levels with every fetch (fetch_within.py)."""
    from solver.planning.lookahead import LABEL
    from solver.planning.sampled_upper import LABEL as SAMPLED_UPPER, SAMPLED_FIELDS, with_sampled_uppers
    from solver.planning.side import Beside
    from solver.planning.score_bounds import UPPER as SCORE_UPPER, with_score_uppers

    clock = clock or Clock(None)
    context = None  # per row the relaxation's bound of E[score] where it was counted (score_bounds.py)
    cache: dict = {}  # the relaxation's inputs and each row's needs, for its second count
    cut, reached = False, None  # the relaxation stopped by its share of the clock; the rows it reached then
    if slack is not None:  # (the rows are the no-fetch optimum's values)
        uppers = {r.tile: min(Fraction(1), r.win_probability + slack) for r in lower.discards}
        note = (f"the no-fetch optimum (every win listed, a drawn そら discarded at once) plus the chance "
                f"{float(slack):.4f} that a そら is drawn before the last draw")
        # each row the lesser of that and the relaxation, both proved (QA: on a 4-draw hand holding two そら the
        # relaxation was tighter on 10 of 11 rows, 0.0126 against 0.0675)
        relaxed, more, context, _ = relaxed_uppers(request, lower, stopped, listed, rules, clock.share(share.UPPER),
                                                   deep=deep, cache=cache)
        if any(relaxed[t] < u for t, u in uppers.items()):
            uppers = {t: min(u, relaxed[t]) for t, u in uppers.items()}
            note = f"per discard the lesser of {note} and the {more}"
    else:
        deadline = clock.share(share.RELIST if relist else share.FETCH_UPPER if deep is not None else share.UPPER)
        short = relist and deadline is not None and deadline - time.monotonic() < share.RELIST_LEAST
        if short:
            cut_by_clock()
        why = "too little of the time budget was left to list them" if short else stopped  # (QA: not the optimum's)
        uppers, note, context, reached = relaxed_uppers(request, lower, why, listed, rules, deadline,
                                                        relist and not short, deep, cache=cache)
        cut = reached is not None or short  # (a listing not started for want of time: tried again too)
    rows = tuple(replace(r, upper=uppers[r.tile], upper_own=reached is None or r.tile in reached)
                 for r in lower.discards)
    if rules is not None:  # E[score] <= N + (S - N) U, or the relaxation's mean (score_bounds.py)
        rows = with_score_uppers(rules, request.position, request.turns, rows, context)
    if lower.games is not None:  # a policy's value is at most the optimum: a sample above the proved bound is noise
        rows = tuple(within(r) for r in rows)
    # where only 1 is proved, the relaxation's own value sampled beside it (an estimate; sampled_upper.py), on the
    # second core while this one raises the lower side (neither reads what the other writes)
    deadline, before = clock.share(share.UPPER), rows
    sampling = None if rules is None else Beside(lambda: with_sampled_uppers(rules, request, before, deadline))
    try:
        rows, raised, looked, games, fetched, notes = raised_lower(request, lower, rows, rules, slack, exact_plan,
                                                                   sample, clock, deep)
    except BaseException:
        if sampling is not None:
            sampling.close()
        raise
    estimated = walls = 0
    if sampling is not None:
        sampled, estimated, walls = sampling.value()
        found = {r.tile: r for r in sampled}
        rows = tuple(replace(r, **{f: getattr(found[r.tile], f) for f in SAMPLED_FIELDS}) for r in rows)
    if cut and clock.end is not None and time.monotonic() < clock.end:
        rows, note = relaxed_again(request, lower, rows, stopped, listed, rules, clock, deep, context, note,
                                   reached or frozenset(), cache)
        estimated = sum(1 for r in rows if r.upper_estimate is not None)
    rows = tuple(ranked(rows, request.objective))  # (equal lower bounds: the larger upper bound first)
    interval = "win_interval" if request.objective == "win" else "score_interval"
    # (an estimate whose every row was raised to an exact value, fetch_within's, is bounds)
    method = "estimate" if lower.games is not None and any(getattr(r, interval) for r in rows) else "bounds"
    what = "estimated (sampled) value" if lower.games is not None else "exact value"
    labels = {key: f"bounds: lower = the {what} of the class {value}" for key, value in lower.policy_class.items()}
    if looked:
        labels["win_probability"] += LABEL.format(n=looked, of=len(rows))
    for key, extra in notes.items():
        labels[key] += "".join(extra)
    if fetched:
        from solver.planning.fetch_first import LABEL as FETCHED

        labels[label_of(request.objective)] += FETCHED.format(n=fetched, of=len(rows))
    if raised:
        from solver.planning.estimate import POLICY
        from solver.planning.sampled_lower import LABEL as SAMPLED

        labels[label_of(request.objective)] += SAMPLED.format(n=raised, of=len(rows), policy=POLICY, games=games)
    upper_note = f"; upper = {note}" + (SAMPLED_UPPER.format(n=estimated, of=len(rows), games=walls) if estimated
                                        else "")
    labels["win_probability"] += upper_note
    labels["expected_score"] += f"; upper = {SCORE_UPPER}" if rules is not None else "; no upper bound computed"
    # (rows raised by the estimate's policy, or by a sampled fetch: their walls said)
    games = lower.games or (games if raised or any(getattr(r, interval) for r in rows) else None) or None
    return replace(lower, discards=rows, policy_class=labels, method=method, stopped=stopped,
                   games=games, upper_note=upper_note)


def raised_lower(request: PlanRequest, lower: Plan, rows: tuple, rules: RuleSet | None, slack: Fraction | None,
                 exact_plan: Callable | None, sample: bool, clock: Clock,
                 deep=None) -> tuple[tuple, int, int, int, int, dict]:
    """The rows' lower side raised, on one share of the clock, with a そら held first by the optimum with every
    fetch toward the nearer complete hands (fetch_within.py), E[score] at 4-5 draws by its optimum over 3 draws
    (score_short.py) or P(win) at 2-5 draws by its exact value over fewer (win_short.py), then by the estimate's
    policy's sample (`sample`: the lower plan is the class nearest), the one-step lookahead, and with a そら held a
    fetch at once; (rows, rows raised, rows looked ahead, games, rows raised by a fetch, the labels' notes of
    fetch_within, win_within and score_within)."""
    from solver.planning.fetch_first import fetch_first
    from solver.planning.fetch_within import fetch_within
    from solver.planning.lookahead import improve
    from solver.planning.sampled_lower import raise_rows
    from solver.planning.score_short import score_within
    from solver.planning.win_short import win_within

    raised = looked = games = fetched = 0
    notes = {"win_probability": [], "expected_score": []}
    lower_end = clock.share(share.LOWER)
    if rules is not None and exact_plan is not None and slack is None and request.objective == "win":  # (slack:
        # the rows are the no-fetch optimum over every draw already, at least its value over fewer)
        rows, note = win_within(rules, request, rows, lambda sub, end: exact_plan(rules, sub, None, end, pace=True),
                                lower_end)
        notes["win_probability"].append(note)
    if rules is not None and slack is None:  # (its search is the quickest and, with a そら held, the strongest)
        rows, more = fetch_within(rules, request, rows, lower_end, deep)
        notes["win_probability"] += more
    if rules is not None and request.objective == "score":  # (exact, and past the class at 4-5 draws)
        rows, note = score_within(rules, request, rows, lower_end)
        notes["expected_score"].append(note)
    if sample and rules is not None and lower.games is None:
        rows, raised, games = raise_rows(rules, request, rows, lower_end)
    # (an estimate's rows are sampled: kept as they are; the no-fetch optimum is more than a lookahead on nearest;
    # where the estimate's policy already beats nearest on the best row, one step on nearest rarely catches up)
    if rules is not None and exact_plan is not None and lower.games is None and slack is None and \
            rows[0].win_interval is None:
        solve = lambda sub, deadline: exact_plan(rules, sub, None, deadline)  # noqa: E731
        rows, looked = improve(rules, request, rows, solve, lower_end)
    if rules is not None and exact_plan is not None and slack is None:  # (the no-fetch optimum's rows: no そら held)
        from solver.planning.search_plan import estimate_plan

        rows, fetched, fetch_drawn = fetch_first(rules, request, rows,
                                                 lambda sub, end: exact_plan(rules, sub, None, end), lower_end,
                                                 lambda sub, end: estimate_plan(rules, sub, None, end), clock.end)
        if fetch_drawn:
            from solver.planning.fetch_first import SAMPLED as FETCH_SAMPLED
            from solver.planning.sampled_lower import GAMES

            notes[label_of(request.objective)].append(FETCH_SAMPLED.format(n=fetch_drawn, of=len(rows)))
            games = games or request.limits.estimate or GAMES  # (said beside the sampled rows)
    return rows, raised, looked, games, fetched, notes


WHOLE = object()  # relaxed_uppers' key of the 13 tiles before the discard
WHOLE_NOTE = ("; for the {n} discards it did not reach ({exc}), the relaxation of the 13 tiles before the discard, "
              "at least each discard's (the discard held rather than in the waiting room)")


def relaxed_again(request: PlanRequest, lower: Plan, rows: tuple, stopped: str | None, listed: Prepared | None,
                  rules: RuleSet | None, clock: Clock, deep, context: dict | None, note: str,
                  done: frozenset, cache: dict) -> tuple[tuple, str]:
    """The relaxation once more where its share of the clock stopped it and the lower side left time (a slower run
    of the README's hand at 4 draws: every upper bound 1, the answer 1.1 s early): the rows with each bound the
    lesser of the two counts, E[score]'s recomputed from them, and the sampled estimate of a bound dropped where a
    bound below 1 is now proved; and the upper bounds' note (`note` where none is lower). `done`: the rows the first
    count reached, not counted twice; `cache`: the first count's inputs and needs."""
    from solver.planning.sampled_upper import SAMPLED_FIELDS
    from solver.planning.score_bounds import with_score_uppers

    deadline = clock.share(share.UPPER_AGAIN)
    relist = listed is None and ("inputs" in cache or deadline - time.monotonic() >= share.RELIST_LEAST)
    # (with no list given, the first count's own, else listed again if time allows)
    left = max((r.upper for r in rows if r.tile not in done), default=Fraction(1))  # (the 13 tiles' bound, if the
    whole = True if left >= 1 else left  # first counted it: not counted again, still given to the rows left)
    uppers, again, more, reached = relaxed_uppers(request, lower, stopped, listed, rules, deadline, relist, deep, done,
                                                  whole, cache)
    if all(uppers.get(r.tile, 1) >= r.upper for r in rows):
        return rows, note
    # (reached None: every row counted now, or before; else those the second count reached, and the first's)
    own = {r.tile for r in rows if r.upper_own or reached is None or r.tile in reached}
    rows = tuple(within(replace(r, upper=min(r.upper, uppers.get(r.tile, 1)), upper_own=r.tile in own)) for r in rows)
    if rules is not None:
        rows = with_score_uppers(rules, request.position, request.turns, rows, {**(context or {}), **(more or {})})
    empty = dict.fromkeys(SAMPLED_FIELDS)
    return tuple(r if r.upper >= 1 else replace(r, **empty) for r in rows), again


def relaxed_uppers(request: PlanRequest, lower: Plan, stopped: str | None, listed: Prepared | None,
                   rules: RuleSet | None, deadline: float | None = None, relist: bool = False,
                   deep=None, skip: frozenset = frozenset(), whole: bool | Fraction = True, cache: dict | None = None
                   ) -> tuple[dict, str, dict | None, frozenset | None]:
    """Per row the perfect-information relaxation (bounds.py) over the listed hands, or 1 where it is not computed;
    and with `rules`, per row the same relaxation of E[score] (score_bounds.py; None where not computed). The rows
    are taken best first (by the deepening's values where `deep` has some, fetch_within.py): past the clock, those
    done keep their bound and the rest get 1. `relist`: with no list given (the optimum was not started), the hands
    are listed here, within the deadline (kept in `cache` with each row's needs, for a second count). `skip`: rows
    counted already (given 1 here). Past one row, with `whole` True, the 13 tiles before the discard are counted
    first: a bound of every row (the discard held beats the discard in the room, its pool holding each row's), given
    to the rows the clock leaves (`whole` a Fraction: that bound, known already). Last, the rows counted where the
    clock stopped it (else None)."""
    from solver.planning.bounds import fetch_needs, win_upper
    from solver.planning.score_bounds import caps

    position, note, reached = request.position, UPPER, None
    uppers: dict = {}
    context: dict | None = {}
    try:
        if listed is None and not (relist and rules is not None):
            raise TooLarge("the complete hands within reach were not listed" + (f" ({stopped})" if stopped else ""))
        cache = {} if cache is None else cache
        if "inputs" not in cache:
            cache["inputs"] = relaxation_inputs(request, listed, rules, deadline)
        relevant, targets, scores, wall_r, room_r, W, fetch, sora = cache["inputs"]
        # one count per hand and room (without a そら's column, per their sum: rows alike share it), at the row's own
        # no-win cap N (no end without a win scores more than N)
        rows, counted = [r for r in lower.discards if r.tile not in skip], {}
        if deep is not None and deep.found is not None:
            rows = sorted(rows, key=lambda row: deep.found[1][row.tile][0], reverse=True)
        counts = [(row.tile, row.tile) for row in rows]  # (the key in uppers, the discard)
        if len(rows) > 1 and rows[0].tile is not None and whole is True:  # (first: the rows the clock leaves get it)
            counts.insert(0, (WHOLE, None))
        for tile, discard in counts:
            kept = position.hand if discard is None else position.hand.remove(discard)
            hand = tuple(kept.concealed[k] for k in relevant)
            room = list(room_r) if fetch else [0] * len(relevant)
            if fetch and discard is not None and discard in relevant:
                room[relevant.index(discard)] += 1  # the discard lies in the waiting room
            floor = None if rules is None else 0 if tile is WHOLE else caps(rules, position, request.turns, tile)[1]
            key = ((hand, tuple(room)) if sora is not None else tuple(h + r for h, r in zip(hand, room)), floor)
            if key not in counted:
                if deadline is not None and time.monotonic() > deadline:  # (a count is not cut until its C part)
                    raise OutOfTime("the upper bound passed its time budget")
                if sora is None:
                    counted[key] = win_upper(targets, hand, wall_r, room, W, request.turns, deadline=deadline,
                                             **({} if rules is None else {"scores": scores, "floor": floor}))
                else:  # (the room's tiles only as far as the そら held or drawn can fetch them)
                    at = relevant.index(sora)
                    if key[0] not in cache:  # (kept: a second count cut short again need not redo them)
                        cache[key[0]] = fetch_needs(targets, hand, room, wall_r, request.turns, hand[at], at, scores)
                    needs, values = cache[key[0]]
                    empty = (0,) * len(relevant)
                    counted[key] = win_upper(needs, empty, wall_r, empty, W, request.turns, deadline=deadline,
                                             scores=values.tolist(), floor=floor)
            if rules is None:
                uppers[tile] = counted[key]
            else:
                uppers[tile], got = counted[key][:2]
                if tile is not WHOLE:
                    context[tile] = got
    except TooLarge as exc:  # too many complete hands within reach to list, or too many patterns: only 1 is proved
        spread = uppers.pop(WHOLE, Fraction(1) if whole is True else whole)  # (the 13 tiles' bound, else 1)
        reached = frozenset(uppers) if isinstance(exc, OutOfTime) else None
        if reached is None or not (uppers or spread < 1):
            uppers, context, spread = {}, None, Fraction(1)
            note = f"1 (the relaxation was not computed: {exc})"
        else:
            missed = sum(1 for r in lower.discards if r.tile not in uppers and r.tile not in skip)
            note += (f"; 1 for the {missed} discards it did not reach ({exc})" if spread >= 1 else
                     WHOLE_NOTE.format(n=missed, exc=exc))
        uppers = {row.tile: uppers.get(row.tile, spread) for row in lower.discards}
    else:
        uppers.pop(WHOLE, None)
    return uppers, note, context, reached


def relaxation_inputs(request: PlanRequest, listed: Prepared | None, rules: RuleSet | None, deadline: float | None):
    """What every count of the relaxation reads: (kinds, the listed hands' counts over them, their scores, wall,
    room, the wall's tiles, a fetch can follow, the そら's kind where it may fetch). Listed here where the optimum
    listed none or left out the hands a fetch completes (TooLarge where that takes `rules` and there are none)."""
    position = request.position
    if listed is None:  # (the optimum was not started: the hands listed for the relaxation alone)
        relevant, keys, scores, wall_r, room_r, fetch, W = fresh_listing(rules, request, deadline)
    elif listed.fetch_unsearched and rules is not None:  # the hands a fetch can complete listed too
        relevant, keys, scores, wall_r, room_r = fetch_relaxation(rules, request, deadline)
        fetch, W = True, listed.W0
    elif listed.fetch_unsearched:
        raise TooLarge("a そら could fetch a waiting-room copy that the listed hands leave out")
    else:
        relevant, wall_r, room_r, W = listed.targets.relevant, listed.wall_r, listed.room_r, listed.W0
        scored = listed.targets.counts  # (over every kind: no target holds a kind outside `relevant`)
        keys, scores = np.array(list(scored), dtype=np.int16), list(scored.values())
        fetch = listed.sora is not None
    relevant = list(relevant)
    targets = keys[:, relevant] if len(keys) else np.zeros((0, len(relevant)), dtype=np.int16)
    sora = rules.tiles.sora if fetch and rules is not None else None
    if sora is not None and sora not in relevant:  # (its column: a room tile in a win took a fetch, fetch_needs)
        relevant.append(sora)
        targets = np.concatenate([targets, np.zeros((len(targets), 1), dtype=targets.dtype)], 1)
        wall_r = tuple(wall_r) + (position_counts(rules, position, request.turns)[2][sora],)
        room_r = tuple(room_r) + (0,)
    return relevant, lists_of(targets), scores, wall_r, room_r, W, fetch, sora


def fresh_listing(rules: RuleSet, request: PlanRequest, deadline: float | None):
    """The relaxation's hands where the optimum listed none, as matrices (up to RELIST_LIMIT of them, in C: no Python
    object per hand): fetch_relaxation's hands where a fetch can follow, else prepare's. (kinds, counts over every
    kind, scores, wall, room, a fetch can follow, the wall's tiles)."""
    seen, room, wall, fetches = position_counts(rules, request.position, request.turns)
    position = request.position
    if fetches or fetch_could_follow(rules, wall, fetches, request.turns):
        return (*fetch_relaxation(rules, request, deadline, RELIST_LIMIT), True, sum(wall))
    out_of_wall = tuple(s + r for s, r in zip(seen, room))
    keys, scores, kinds = complete_matrix(rules, position.hand, out_of_wall, request.turns, position.favourite,
                                          RELIST_LIMIT, deadline)
    return kinds, keys, scores, tuple(wall[k] for k in kinds), (0,) * len(kinds), False, sum(wall)


def fetch_relaxation(rules: RuleSet, request: PlanRequest, deadline: float | None, limit: int = TARGET_LIMIT):
    """Where a fetch could follow: every complete hand within the draws plus the そら held, with the waiting room's
    copies available (only the seen tiles out: reach_with_room's list, as matrices), over all kinds: (kinds, counts,
    scores, wall, room). A win's hand holds the start's tiles, drawn ones and fetched room tiles (a fetch replaces a
    そら held or drawn), so it is listed, and its tiles beyond the hand and the room lie among the draws: the
    relaxation stays an upper bound."""
    seen, room, wall, fetches = position_counts(rules, request.position, request.turns)
    position = request.position
    keys, scores, _ = complete_matrix(rules, position.hand, seen, request.turns + fetches, position.favourite, limit,
                                      deadline)
    return tuple(range(len(wall))), keys, scores, wall, room


def within(row):
    """A sampled row whose P(win) lies above its proved upper bound, brought down to it, and so is the top of its
    interval (as score_bounds.bounded does for E[score])."""
    if row.win_interval is None or row.upper is None:
        return row
    cap = float(row.upper)
    if row.win_probability > row.upper:
        row = replace(row, win_probability=row.upper)
    if row.win_interval[1] > cap:
        row = replace(row, win_interval=(min(row.win_interval[0], cap), cap))
    return row
