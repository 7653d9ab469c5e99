"""The Plan of the planner's own search (recursion.py): exact values within the class the request's play names
(the optimum, labelled "all play", where no fetch can follow), or past its limits the estimate of its policy
(estimate.py); each row with its exchange distance and live copies (finish). plan.py decides which to ask for."""

from __future__ import annotations

import os
import time
from dataclasses import replace

from solver.core.rules import RuleSet
from solver.planning import clock as share
from solver.planning.answer import DiscardPlan, Plan, Progress, SoraMove, ranked
from solver.planning.estimate import estimate_labels, estimated_rows
from solver.planning.prepare import Prepared, acceptances, position_counts, prepare, root_states, searched_acceptance
from solver.planning.recursion import check_probability
from solver.planning.request import OBJECTIVES, PlanRequest
from solver.planning.restart import restarted
from solver.planning.targets import OutOfTime


def computed_of(request: PlanRequest) -> tuple[str, ...]:
    return OBJECTIVES if request.both else (request.objective,)


def exact_plan(rules: RuleSet, request: PlanRequest, progress: Progress | None, deadline: float | None,
               prep: Prepared | None = None, pace: bool = False) -> Plan:
    """Exact values within the class the request's play names (the optimum under "all play" labels). `pace`:
    give up (OutOfTime) as soon as the discards valued so far show the rest will not finish by the deadline."""
    objective, turns, position = request.objective, request.turns, request.position
    if prep is None:
        prep = prepare(rules, position, turns=turns, objectives=computed_of(request), play=request.play,
                       detour=request.detour, state_limit=request.limits.max_states, deadline=deadline)
    choices, roots = root_states(prep, rules, position)
    rows = exact_rows(prep, objective, choices, roots, turns, progress, deadline if pace else None)
    done = finish(prep, rules, request, choices, rows, prep.labels, None)
    if done.complete and request.play == "nearest":  # (its lowest h is 0: the class restarted after each discard)
        return restarted(rules, request, done, lambda alone: exact_plan(rules, alone, None, deadline, pace=pace))
    return done


def estimate_plan(rules: RuleSet, request: PlanRequest, progress: Progress | None,
                  deadline: float | None = None) -> Plan:
    """The estimate's policy played in sampled walls (estimate.py), over the targets of the request's class; past
    the deadline it stops at the walls played (at least LEAST_GAMES), and says so."""
    prep = prepare(rules, request.position, turns=request.turns, objectives=(request.objective,), play=request.play,
                   detour=request.detour, state_limit=request.limits.max_states)
    choices, roots = root_states(prep, rules, request.position)
    asked = request.limits.estimate
    rows, games = estimated_rows(prep, request.objective, choices, roots, request.turns, asked,
                                 request.limits.seed, progress, deadline)
    labels = estimate_labels(games, asked)
    done = replace(finish(prep, rules, request, choices, rows, labels, games), method="estimate")
    if done.complete and request.play == "nearest":  # (as exact_plan's)
        return restarted(rules, request, done, lambda alone: estimate_plan(rules, alone, None, deadline))
    return done


def finish(prep: Prepared, rules: RuleSet, request: PlanRequest, choices, rows, labels, games) -> Plan:
    hand, nr, start = request.position.hand, prep.nr, prep.start
    kept = [hand if choice is None else hand.remove(prep.positions[choice]) for choice in choices]
    out_of_wall = None
    for i, (row, (h_after, live)) in enumerate(zip(rows, acceptances(prep.targets, kept, prep.wall, prep.budget))):
        if h_after is None:  # (past the class's listed targets: not unreachable, only farther)
            if out_of_wall is None:
                seen, room, _, _ = position_counts(rules, request.position, request.turns)
                out_of_wall = tuple(s + r for s, r in zip(seen, room))
            h_after, live = searched_acceptance(rules, kept[i], out_of_wall, prep.wall)
        rows[i] = replace(row, h=h_after, live=live)
    rows = ranked(rows, request.objective)
    search = next(iter(prep.searches.values()))
    complete = hand.size(rules) == rules.hand_size and not any(start[nr:]) and start[:nr] in search.scores
    tsumo = search.scores.get(start[:nr]) if complete else None
    return Plan(request.turns, request.objective, prep.budget, prep.h0, complete, tsumo, tuple(rows), labels,
                sum(s.visited for s in prep.searches.values()), prep.W0, games)


def exact_rows(prep: Prepared, objective: str, choices, roots, turns: int, progress: Progress | None,
               pace: float | None = None) -> list[DiscardPlan]:
    """Every root's first move for each objective computed; the second objective's search runs in a forked
    process beside this one where that is safe (side.py), else after the first. `pace`: a deadline the first
    objective's roots are paced against (first_moves)."""
    from solver.planning.side import Side, SideLost, can_split, orphan_check

    searches, positions = prep.searches, prep.positions
    others = [obj for obj in searches if obj != objective]
    side = None
    if others and can_split():
        other, parent = searches[others[0]], os.getpid()

        def run_other():
            other.tick = orphan_check(parent)  # and no progress drawn: the terminal is the parent's
            return first_moves(prep, other, roots, turns, lambda: None), other.visited
        try:
            side = Side(run_other)
        except OSError:  # no process to be had: search here
            side = None
    try:
        done, total = [0], len(roots) * (1 if side else len(searches))

        def tick() -> None:
            done[0] += 1
            if progress:
                progress(done[0], total, sum(s.visited for s in searches.values()))
        for search in searches.values():
            search.tick = (lambda states: progress(done[0], total, states)) if progress else None
        moves = {objective: first_moves(prep, searches[objective], roots, turns, tick, pace)}
        for obj in others:
            try:
                if side:
                    moves[obj], searches[obj].visited = side.result()
                    continue
            except SideLost:  # the child died: its search runs here, the same answer later
                pass
            moves[obj] = first_moves(prep, searches[obj], roots, turns, tick)
    finally:
        if side:
            side.close()
    rows = []
    for n, (choice, (hand12, _)) in enumerate(zip(choices, roots)):
        sora_move = None
        if prep.sora is not None and hand12[prep.sora]:
            move = moves[objective][n]
            sora_move = SoraMove(move.take is not None, None if move.take is None else positions[move.take],
                                 move.value if move.take is not None else None, move.wait_value)
        rows.append(DiscardPlan(None if choice is None else positions[choice],
                                check_probability(moves["win"][n].value) if "win" in moves else None,
                                moves["score"][n].value if "score" in moves else None, None, None, sora_move))
    return rows


def first_moves(prep: Prepared, search, roots, turns: int, tick, pace: float | None = None) -> list:
    """Each root's first move; with `pace` (a deadline), OutOfTime as soon as the roots so far show the rest would
    pass it (clock.behind)."""
    if search.splits(turns):
        out = search.first_moves(roots, prep.wall_r, prep.W0, turns, pace=pace)  # (its first draw in parts)
        for _ in out:
            tick()
        return out
    out, start, own = [], time.monotonic(), search.deadline

    def behind() -> OutOfTime:
        states = f", {search.visited:,} states" if search.visited else ""  # (QA: "0 states" beside a footer's count)
        return OutOfTime(f"the exact plan would pass its time budget ({len(out)} of {len(roots)} discards valued"
                         f"{states})")
    try:
        for hand12, room12 in roots:
            if pace is not None:  # (a root still running past this is already behind: give up then, not after it)
                until = share.root_deadline(start, len(out), len(roots) - len(out) - 1, pace)
                search.deadline = until if own is None else min(own, until)
            try:
                out.append(search.first_move(hand12, prep.wall_r, room12, prep.W0, turns))
            except OutOfTime:
                if own is not None and time.monotonic() > own:
                    raise
                raise behind() from None  # (stopped by the pace alone)
            tick()
            if share.behind(start, len(out), len(roots) - len(out), pace):
                raise behind()
    finally:
        search.deadline = own
    return out
