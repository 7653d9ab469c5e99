"""The planner's entry point: per discard (or for a 12-tile hand as it stands) P(win) and E[score] over the
draws left, the recommended play and the そら advice (docs/formulation.md section 8). The default is the true
optimum (every way of playing) where it finishes within the request's limits, else a certified bracket per
discard (bounds.py); the classes "nearest" and "detour" stay as options.
"""

from __future__ import annotations

from dataclasses import replace

from solver.core.hand import Hand
from solver.core.rules import RuleSet
from solver.planning import clock as share
from solver.planning.answer import DiscardPlan, Plan, Progress, first_advice, holds_sora, ranked
from solver.planning.bracket import bracket, label_of, sora_slack, within
from solver.planning.clock import Clock
from solver.planning.counted_upper import counted_at_end, with_counted_uppers
from solver.planning.fetch_within import Deepening, applies as deepens, deepened
from solver.planning.prepare import Prepared, about, fetch_could_follow, position_counts, prepare, root_states, \
    rough_states
from solver.planning.recursion import ADVICE, STATE_LIMIT
from solver.planning.request import DEFAULT_GAMES, Limits, PlanRequest, Position
from solver.planning.sampled_upper import settled
from solver.planning.score_short import shortened
from solver.planning.search_plan import estimate_plan, exact_plan, finish
from solver.planning.targets import OutOfTime, TooLarge, clock_cut
from solver.planning.win_short import win_shortened


RELIST_TURNS = 5  # draws up to which the bracket lists the complete hands for its proved upper bound alone, where the
# optimum is not started (5 draws: 30,000-190,000 hands in 0.2-1.2 s; at 6 most real hands pass the 200,000 limit)


def plan(rules: RuleSet, request: PlanRequest | Hand, progress: Progress | None = None, **legacy) -> Plan:
    """The plan the request asks for (solver/planning/request.py). "optimal": the exact optimum if it finishes
    within the limits (method "optimal"), else per discard a real policy's value below and a proved upper bound
    above (method "bounds"), or past every exact search the estimate asked for (method "estimate"). A class
    ("nearest", "detour"): exact within it (method "class"), past the limits its estimate or TooLarge.

    The keyword form of before the request (`plan(rules, hand, turns=..., detour=..., state_limit=...)`) is
    kept for callers written against it (bench/bench_planner.py): it means what it meant, the class nearest
    unless a detour is given, no clock (the state limit alone stops it, so answers are reproducible)."""
    if not isinstance(request, PlanRequest):
        request = legacy_request(request, **legacy)
    clock_cut(reset=True)
    try:
        found = planned(rules, request, progress)
    finally:
        cut = clock_cut(reset=True)
    return replace(found, clocked=cut)


def planned(rules: RuleSet, request: PlanRequest, progress: Progress | None) -> Plan:
    """plan() but whether the clock cut a step."""
    limits = request.limits
    clock = Clock(limits.seconds)
    due = clock.end  # (the answer's end: at 4 draws E[score]'s relaxation is counted last, on time kept for it)
    if counted_at_end(rules, request):
        clock = Clock(None, share.keeping(due, share.COUNT, share.COUNT_MOST))
    share.HELD.clear()  # (the last plan's, on this one's clock)
    if request.play != "optimal":
        try:
            # (with an estimate to answer past it, the exact class leaves that a share of the budget)
            return exact_plan(rules, request, progress, clock.optimum() if limits.estimate else clock.end)
        except TooLarge as exc:
            if limits.estimate is None and isinstance(exc, OutOfTime) and "--estimate" not in str(exc):
                raise OutOfTime(f"{exc}; raise --seconds, or ask for an estimate past it (--estimate GAMES), or "
                                "drop the class for the optimum's answer") from None  # (QA: no hint had been given)
            if limits.estimate is None:
                raise
            return estimate_plan(rules, request, progress, clock.end)
    single = replace(request, both=False)  # the other objective after it, never at its expense (with_other)
    stopped, listed, slack, relist, deep = None, None, None, False, None
    try:
        # (turns 5 of a real hand passes the default; a small --max-states does not skip a short horizon's listing,
        # which the relaxation's upper bound uses; up to RELIST_TURNS the bracket lists the hands for it alone)
        guess = rough_states(rules, request.position, request.turns, request.turns - 2)
        if guess > max(limits.max_states, STATE_LIMIT):
            relist = request.turns <= RELIST_TURNS
            raise TooLarge(f"the exact optimum would visit about {about(guess)} states, past --max-states "
                           f"{limits.max_states:,}")
        deadline = clock.optimum()
        listed = prepare(rules, request.position, turns=request.turns, objectives=(request.objective,),
                         play="optimal", state_limit=limits.max_states, deadline=deadline)
        share.hold(listed)
        # (P(win)'s search with every fetch leaves time to the no-fetch optimum, but with a そら held its levels take it
        # all, the bracket going on from them; E[score]'s fallback, a class, is quick)
        deep = Deepening(rules, single) if deepens(rules, single) else None  # (a そら held: P(win) by levels)
        share.hold(deep)
        found = score_plan(rules, single, listed, progress, deadline if request.objective == "score" or deep else
                           share.keeping(deadline, share.NO_FETCH, 1 - share.FETCH), deep)
        if found is None:  # (the search with every fetch stopped: the planner's own, on what is left)
            found = exact_plan(rules, single, progress, deadline, listed, pace=True)  # (hopeless: the bracket's time)
        if found.policy_class[label_of(request.objective)] == "all play":
            rows = [replace(r, upper=r.win_probability, score_upper=r.expected_score) for r in found.discards]
            best = replace(found, discards=tuple(rows), method="optimal")  # (separated: reranked says it)
            return reranked(with_counted_uppers(rules, request, with_other(rules, request, best, progress, clock),
                                                due) if request.both else best, rules, request)
        lower = found  # every win listed, but a named class (a drawn そら discarded at once): a real policy
        if listed.fetch_unsearched and listed.sora is None and request.objective == "win":
            slack = sora_slack(listed, request.turns, rules.tiles.sora)  # no そら held: the no-fetch optimum, plus that
    except TooLarge as exc:
        stopped, lower = str(exc).replace(ADVICE, ""), None  # (the bracket answers: no advice to ask for one)
        relist = relist or (listed is None and clock.end is None and request.turns <= RELIST_TURNS)  # (QA: past the
        # listing's limit, unclocked, the relaxation lists up to its own, larger one: 8 s where every bound was 1)
    sample = lower is None  # the lower side is the class nearest: the estimate's policy may do better
    early = other_nearest(rules, request, clock) if sample and request.both else None
    try:
        if lower is None:
            nearest = replace(single, play="nearest", detour=None)
            try:
                lower = exact_plan(rules, nearest, progress, clock.share(share.NEAREST), pace=True)
            except TooLarge:  # every input is answered: past nearest's limits too, its estimate (labelled)
                games = limits.estimate or DEFAULT_GAMES
                lower = estimate_plan(rules, replace(nearest, limits=replace(limits, estimate=games)), progress,
                                      clock.share(share.ESTIMATE))
        if early is not None:
            early.settle()  # (done already: the bracket's own sample may take the second core)
        reached(progress, lower)
        result = bracket(request, lower, stopped, listed, rules, slack, exact_plan, sample,
                         clock.part(share.BRACKET if early is None else share.BRACKET_BESIDE) if request.both
                         else clock, relist, deep)
        reached(progress, result)
        result = with_other(rules, request, result, progress, clock, early) if request.both else result
    finally:
        if early is not None:
            early.close()
    return reranked(settled(with_counted_uppers(rules, request, result, due)), rules, request)


def reranked(done: Plan, rules: RuleSet, request: PlanRequest) -> Plan:
    """Ties on the objective ordered (answer.ranked) once every column is in, and `separated` said on that order:
    the rows were ranked before the other objective's column was filled, after the take-back's shared lower bounds
    (fetch_first.same_as_sora). `method` is then the objective
    column's own, read from its numbers (QA: a bracket with one sampled row said "bounds", `methods` "estimate")."""
    from solver.planning.bounds import separated  # (numpy: not at start-up)
    from solver.planning.fetch_first import COLUMNS, TAKEN_BACK, same_as_sora, sampled_recounted

    rows, raised = same_as_sora(rules, request, done.discards)
    labels = {field: label + (TAKEN_BACK.format(n=raised[field], of=len(rows)) if raised[field] else "")
              for field, label in done.policy_class.items()}
    for field, interval, _ in COLUMNS:
        if raised.get(field) and field in labels:
            labels[field] = sampled_recounted(labels[field], done.discards, rows, field, interval)
    rows = ranked(rows, done.objective, keep_sora(rules, request.position.hand))
    done = replace(done, discards=tuple(rows), separated=separated(rows, done.objective),  # (on the final order)
                   policy_class=labels)
    read = done.methods[label_of(done.objective)]  # (a bracket that closed on every row still says "bounds")
    return done if read in (None, "optimal") else replace(done, method=read)


def keep_sora(rules: RuleSet, hand: Hand) -> int | None:
    """The fetch-mode そら's kind where the hand holds one: among rows tied on every proved number its discard ranks
    last (QA: rows tied at a shallow level of the deepening went to the other objective's sample, a policy that never
    fetches, which favours discarding そら; its row was the least of the 13 by the optimum on the QA's hands)."""
    return rules.tiles.sora if holds_sora(rules, hand, None) else None


def reached(progress: Progress | None, done: Plan) -> None:
    """A step of the bracket done: said to the progress callback (its steps report nothing inside)."""
    if progress:
        progress(len(done.discards), len(done.discards), done.states)


def other_nearest(rules: RuleSet, request: PlanRequest, clock: Clock):
    """Both objectives past the optimum: the other objective's class nearest started at once on the second core
    (paced, on OTHER_NEAREST of the time left), while this process brackets the first; the Plan, or the text of
    why it stopped. None where no child can be forked: with_other then runs it after the first, as it always did."""
    from solver.planning.side import Beside, can_split

    if not can_split():
        return None
    other = "score" if request.objective == "win" else "win"
    asked = replace(request, objective=other, both=False, play="nearest", detour=None)
    deadline = clock.share(share.OTHER_NEAREST)

    def run():
        try:
            found = exact_plan(rules, asked, None, deadline, pace=True)
        except TooLarge as exc:
            return str(exc)
        return shortened(rules, asked, found, deadline) if other == "score" else found  # (with_other's, done here)
    return Beside(run)


def with_other(rules: RuleSet, request: PlanRequest, result: Plan, progress: Progress | None, clock: Clock,
               early=None) -> Plan:
    """The other objective's numbers beside the chosen one's: all play within the limits (a share of the time
    left), else the class nearest (the rest of it; `early`: that class already running beside, other_nearest),
    else the estimate of nearest's policy (its least walls), each labelled in policy_class."""
    other = "score" if request.objective == "win" else "win"
    asked, beside = replace(request, objective=other, both=False), False  # (beside: early's Plan, shortened there)
    why: list[str] = []  # (why this column's optimum stopped, for `stopped` where the first column's did not)
    deep = Deepening(rules, asked) if other == "win" and deepens(rules, asked) else None  # (a そら held: by levels)
    share.hold(deep)
    try:
        if result.method != "optimal":  # all play did not finish for the first objective: over the same states,
            raise TooLarge(result.stopped or "all play passed the limits")  # it would not for the other either
        deadline = clock.share(share.OTHER_OPTIMUM)
        found = score_plan(rules, asked, None, progress, deadline, deep, why) or \
            exact_plan(rules, replace(asked, play="optimal"), progress, deadline, pace=True)  # (gives up early)
    except TooLarge as exc:
        why.append(str(exc))
        # past nearest's limits for the first objective, the estimate's games valued both: nearest for this one is
        # paced on a share of the budget, and where it gives up, the sampled values stay (labelled as such)
        sampled = result.method == "estimate" and all(r.score_interval is not None for r in result.discards)
        try:
            found = early.value() if early is not None else None
            beside = isinstance(found, Plan)
            if isinstance(found, str) and sampled:  # (it gave up beside: the sample's values stay)
                raise TooLarge(found)
            if not isinstance(found, Plan):  # (where the first objective was exact, the whole clock, as ever)
                found = exact_plan(rules, replace(asked, play="nearest"), progress,
                                   clock.share(share.OTHER_NEAREST) if sampled else clock.end, pace=sampled)
        except TooLarge:
            if sampled and other != "win":
                return result
            if sampled:  # (the sample's P(win) stays, raised below where a そら held gives levels)
                found = replace(result, states=0)
            else:  # no column left empty: nearest's policy sampled for this objective (its least walls at least)
                try:
                    games = replace(request.limits, estimate=request.limits.estimate or DEFAULT_GAMES)
                    found = estimate_plan(rules, replace(asked, play="nearest", limits=games), progress, clock.end)
                except TooLarge:
                    labels = dict(result.policy_class, **{label_of(other): f"not computed: {exc}"})
                    return replace(result, policy_class=labels)
    if other == "win" and found.policy_class["win_probability"] != "all play":  # (a そら held: its levels, exact;
        found = win_shortened(rules, asked, found, lambda sub, end: exact_plan(rules, sub, None, end, pace=True),
                              clock.share(share.OTHER_NEAREST))  # and the exact value over fewer draws)
        found = deepened(rules, asked, found, clock.share(share.OTHER_NEAREST), deep)
    elif other == "score" and found.policy_class["expected_score"] != "all play" and not beside:  # (over 3 draws)
        found = shortened(rules, asked, found, clock.share(share.LOWER))
    field = label_of(other)
    interval = "win_interval" if other == "win" else "score_interval"  # (None where the value is exact)
    values = {r.tile: (getattr(r, field), getattr(r, interval)) for r in found.discards}
    optimal_win = other == "win" and found.policy_class[field] == "all play"
    # (within: a P(win) sampled above the bracket's proved bound is noise, brought down to it)
    rows = tuple(within(replace(r, **{field: values[r.tile][0], interval: values[r.tile][1]},
                                **({"upper": values[r.tile][0]} if optimal_win else {}))) for r in result.discards)
    kept = result.upper_note if field == "win_probability" and not optimal_win else None  # (QA: the bracket's
    if kept and kept in found.policy_class[field]:  # (said there already: not twice, QA)
        kept = None
    labels = dict(result.policy_class, **{field: found.policy_class[field] + (kept or "")})  # bounds said, kept)
    if field == "expected_score" and labels[field] == "all play":
        rows = tuple(replace(r, score_upper=r.expected_score) for r in rows)
    elif field == "expected_score":  # a lower bound: beside the bracket's upper bound, or where P(win) is over
        from solver.planning.score_bounds import UPPER, with_score_uppers  # all play, its optimum is the bound's U

        if all(r.score_upper is None for r in rows):
            rows = with_score_uppers(rules, request.position, request.turns, rows)
        if any(r.score_upper is not None for r in rows):
            labels[field] += f"; upper = {UPPER}"
    elif optimal_win and any(r.score_upper is not None for r in rows):  # P(win)'s optimum: a U as tight as any
        from solver.planning.score_bounds import with_score_uppers

        rows = with_score_uppers(rules, request.position, request.turns, rows, {r.tile: r.score_upper for r in rows})
    drawn = any(getattr(r, interval) is not None for r in rows)  # (a sampled column's walls said, as the chosen
    games = min((g for g in (result.games, found.games if drawn else None) if g), default=None)  # objective's:
    # `method` speaks of that one alone; the fewer where both columns are sampled, each label giving its own)
    stopped = result.stopped
    if stopped is None and why and not labels[field].startswith("all play"):  # (QA: null where only this one stopped)
        stopped = f"{'P(win)' if other == 'win' else 'E[score]'} over all play: {why[-1].replace(ADVICE, '')}"
    return replace(result, discards=rows, policy_class=labels, states=result.states + found.states,
                   games=games, stopped=stopped)


def score_plan(rules: RuleSet, request: PlanRequest, prep: Prepared | None, progress: Progress | None,
               deadline: float | None, deep: Deepening | None = None, why: list[str] | None = None) -> Plan | None:
    """The request's objective over all play with every fetch where it finishes within the limits (the deadline
    and the state cap), else None: the class answers as before (P(win) with a そら held: TooLarge, so the bracket
    answers). E[score] always (score_optimum.py, over full counts); P(win) only where a fetch could follow
    (fetch_win.py; elsewhere the planner's own search is all play, and faster), with a そら held by deepening where
    `deep` is given (fetch_within.py: the levels it reaches are the bracket's lower side). `why` gets the reason
    where it stops."""
    from solver.planning.fetch_win import fetch_win
    from solver.planning.score_optimum import score_optimum

    limits, objective = request.limits, request.objective
    if objective == "win":  # (before any listing: where no fetch can follow, the planner's own search answers)
        _, _, wall, fetches = position_counts(rules, request.position, request.turns)
        if not fetch_could_follow(rules, wall, fetches, request.turns):
            return None
    try:
        if prep is None:
            prep = prepare(rules, request.position, turns=request.turns, objectives=(objective,), play="optimal",
                           state_limit=limits.max_states, deadline=deadline)
        choices, _ = root_states(prep, rules, request.position)
        tiles = [None if c is None else prep.positions[c] for c in choices]
        tick = (lambda states: progress(0, len(tiles), states)) if progress else None
        listed = None if request.position.waiting_room else prep.targets  # (without a room given, prepare's list
        # is the searches' own) the compact search (fetch_win.py), by levels where a そら is held (fetch_within.py)
        if objective == "win" and deep is not None:
            deep.deepen(deadline)
            if not deep.optimal:
                raise TooLarge(deep.why or "the exact search with every fetch passed its time budget")
            moves, states = [deep.found[1][t] for t in tiles], deep.states
        elif objective == "win":
            moves, states = fetch_win(rules, request.position, request.turns, tiles, state_limit=limits.max_states,
                                      deadline=deadline, tick=tick, listed=listed)
        else:
            moves, states = score_optimum(rules, request.position, request.turns, tiles,
                                          state_limit=limits.max_states, deadline=deadline, tick=tick, listed=listed)
    except TooLarge as exc:
        if objective == "win" and prep is not None and prep.sora is not None:
            raise  # with a そら held the no-fetch class keeps the waiting room too and is no faster: the bracket
        if why is not None:
            why.append(str(exc))
        return None
    win = objective == "win"
    rows = [DiscardPlan(tile, value if win else None, None if win else value, None, None,
                        first_advice(value, wait, take) if holds_sora(rules, request.position.hand, tile) else None)
            for tile, (value, wait, take) in zip(tiles, moves)]
    labels = dict(prep.labels, **{label_of(objective): "all play"})
    found = finish(prep, rules, request, choices, rows, labels, None)
    return replace(found, states=states)


def legacy_request(hand: Hand, *, turns: int, objective: str = "win", seen: tuple[int, ...] = (),
                   waiting_room: tuple[int, ...] = (), favourite: int | None = None, detour: int | None = None,
                   state_limit: int = STATE_LIMIT, both: bool = True, estimate: int | None = None,
                   seed: int = 0) -> PlanRequest:
    return PlanRequest(Position(hand, tuple(seen), tuple(waiting_room), favourite), turns, objective,
                       "nearest" if detour is None else "detour", detour, both,
                       Limits(state_limit, None, estimate, seed))
