"""`mj review`: every decision one seat made in a game log, graded by the exact evaluator (game/grading.py), and a
summary in the manner of mjai-reviewer (match rate, total loss, the worst decisions).

The log alone rebuilds each position (game/log.py replay, no RNG); each decision point of the seat becomes a task
with what the seat saw there. Tasks are graded in input order on the batch executors (solver/batch: this process,
local workers or a Dask cluster), so a review is the same whatever the parallelism.

A decision that is not the seat's player's is skipped and counted: a claim answered while an earlier seat's
claim took the tile (only the claim that won is logged), and a decision the fallback COM took after the
player's fault (an `error` event of the seat just before it, or every one after a crash).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from game import legal
from game.grading import MODEL, Budget, grade_chunk
from game.log import header, replay
from game.observation import observe
from game.state import GameState, Table, apply, start_turn
from solver.core.errors import MjError

SECONDS = 1.0  # the planner's time budget per decision
MAX_STATES = 50_000  # and its cap on memoised states
WORST = 5


@dataclass(frozen=True)
class Review:
    seat: int
    name: str
    decisions: tuple[dict, ...]  # game/grading.py Decision.to_dict(), in log order
    skipped: int  # claims whose answer the log does not hold
    interrupted: int | None = None  # Ctrl-C (130) or SIGTERM (143) stopped it: `decisions` are those graded before

    def summary(self) -> dict:
        graded = self.decisions
        losses = [d["loss"] for d in graded if d["loss"] is not None]
        matches = sum(d["match"] for d in graded)
        ranked = sorted(range(len(graded)), key=lambda i: (not graded[i]["missed_win"], -(graded[i]["loss"] or 0.0),
                                                          -graded[i]["h_lost"], i))
        worst = [i for i in ranked if not graded[i]["match"]][:WORST]
        methods: dict[str, int] = {}
        for d in graded:
            methods[d["method"]] = methods.get(d["method"], 0) + 1
        # (QA: the total adds sampled differences to exact losses; the proved part is the lower ends of loss_bounds)
        proved = sum(max(0.0, d["loss_bounds"][0]) for d in graded if d.get("loss_bounds") and d["loss"] is not None)
        return {"decisions": len(graded), "matches": matches,
                "match_rate": matches / len(graded) if graded else None,
                "total_loss": sum(losses), "proved_loss": proved, "graded_by_win_probability": len(losses),
                "missed_wins": sum(d["missed_win"] for d in graded), "h_lost": sum(d["h_lost"] for d in graded),
                "methods": methods, "clocked": sum(d["clocked"] for d in graded), "skipped": self.skipped,
                "worst": worst}

    def to_dict(self) -> dict:
        return {"seat": self.seat, "name": self.name, "model": MODEL, "decisions": list(self.decisions),
                "summary": self.summary(), **({"interrupted": True} if self.interrupted else {})}


def decision_tasks(events: list[dict], table: Table, seat: int,
                   fallback: list[int] | None = None) -> tuple[list[dict], int]:
    """(a task per decision of `seat` whose answer the log holds, claims skipped), in log order; the indexes of the
    seat's decisions that the fallback COM took (skipped too) are appended to `fallback`."""
    states = replay(events, table)
    if not 0 <= seat < len(states[1].seats):
        raise MjError(f"seat (--seat) must be from 0 to {len(states[1].seats) - 1}, not {seat}")
    tasks, skipped = [], 0
    crashed = next((i for i, e in enumerate(events) if e.get("type") == "error" and e.get("actor") == seat
                    and e.get("crashed") is True), len(events))  # from there the fallback COM plays the seat
    for i in range(2, len(events)):
        event, before = events[i], states[i - 1]
        kind, mine = event.get("type"), event.get("actor") == seat
        if kind == "error":
            continue
        if before.phase == "claim":  # this event answers the latest discard (a claim) or starts the next turn
            offered = legal.claim_actions(before, table, seat, before.options)
            if offered:
                chosen = _claim_answer(events, i, seat)
                if chosen is None:
                    skipped += 1  # an earlier seat's claim took the tile: this seat's answer is not logged
                else:
                    task = _task(i, "claim", before, table, seat, offered, chosen)
                    task["call_turns"] = {a["unit"]: observe(apply(before, a, table), seat, table).turns_left
                                          for a in offered if a["type"] == "chi"}  # the caller's draws after it
                    tasks.append(task)
            if kind not in ("sora", "tsumo"):
                continue
            before = start_turn(before)
        if not mine:
            continue
        if kind in ("sora", "tsumo") and before.phase == "draw" and not before.sora_used:
            offered = legal.sora_actions(before, table)
            if offered:
                tasks.append(_task(i, "sora", before, table, seat, offered + [legal.NONE],
                                   event if kind == "sora" else legal.NONE))
        elif kind in ("dahai", "hora") and before.phase == "discard":
            tasks.append(_task(i, "discard", before, table, seat, legal.discard_actions(before, table), event))
    theirs = [_fallback_decided(events, t["index"], seat, crashed) for t in tasks]
    by_player = [t for t, not_mine in zip(tasks, theirs) if not not_mine]
    if fallback is not None:
        fallback.extend(t["index"] for t, not_mine in zip(tasks, theirs) if not_mine)
    return by_player, skipped + len(tasks) - len(by_player)


def _fallback_decided(events: list[dict], i: int, seat: int, crashed: int) -> bool:
    """Whether the fallback COM took the decision answered at event i: the seat's player had crashed, or an
    error of the seat was logged just before (a late, garbled or illegal answer; not output it dropped, after which
    the player's own answer stood)."""
    if i > crashed:
        return True
    j = i - 1
    while j >= 0 and events[j].get("type") == "error":
        if events[j].get("actor") == seat and events[j].get("dropped") is not True:
            return True
        j -= 1
    return False


def _claim_answer(events: list[dict], i: int, seat: int) -> dict | None:
    """The seat's answer to a discard: its logged claim, a pass when no claim was logged, None when another
    seat's claim was logged instead (further rons of the same discard follow the first: --multiple-ron)."""
    claims = []
    for event in events[i:]:
        if event.get("type") == "error":
            continue
        if event.get("type") not in ("chi", "hora") or (claims and event.get("type") != "hora"):
            break
        claims.append(event)
    for event in claims:
        if event.get("actor") == seat:
            return event
    return None if claims else legal.NONE


def _task(index: int, kind: str, state: GameState, table: Table, seat: int, offered: list[dict], chosen: dict) -> dict:
    obs = observe(state, seat, table)
    me = state.seats[seat]
    return {"index": index, "type": kind, "concealed": list(me.concealed), "called": list(me.called),
            "seen": list(obs.seen), "room": obs.room_tiles, "favourite": obs.favourite, "turns": obs.turns_left,
            "options": [dict(a) for a in offered], "chosen": legal.pick(chosen, offered)}  # without score, label


def review_game(ev, events: list[dict], seat: int, *, seconds: float = SECONDS, max_states: int = MAX_STATES,
                estimate: int | None = None, workers: int = 1, cluster: str | None = None, indexes: set[int] | None = None,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """Grade every decision of `seat` (`indexes`: only those at these event indexes; `estimate`: sampled walls
    per action where no exact answer comes within the budget, labelled; progress(done, total) after each)."""
    from solver.planning.request import Limits

    Limits(max_states, seconds, estimate)  # the planner's own checks, before any work: one clear line
    budget = Budget(seconds, max_states, estimate)
    start, _ = header(events)
    played = (start["rules"], start.get("as_of"))
    if played != (ev.rules.name, ev.rules.as_of.isoformat() if ev.rules.as_of else None):
        # (QA: another rule set's Evaluator read the log's moves as illegal: "line 51: chi is not a legal action")
        raise MjError(f"the log was played under {played[0]}" + (f" as of {played[1]}" if played[1] else "") +
                      f": review it with an Evaluator of that rule set, not {ev.rules.name}")
    fallback: list[int] = []
    tasks, skipped = decision_tasks(events, Table(ev.rules), seat, fallback)
    if indexes is not None:
        _check_indexes(indexes, [t["index"] for t in tasks], seat, fallback)
        tasks = [t for t in tasks if t["index"] in indexes]
        skipped = 0  # (every index asked is graded; QA: "decisions 1, skipped 1" counted the whole log's)
    names = start.get("names") if isinstance(start.get("names"), list) else []
    name = str(names[seat]) if seat < len(names) else f"seat {seat}"
    if progress is not None:
        progress(0, len(tasks))  # how many there are, before the first is graded
    graded, stopped = [], None
    try:  # (QA: an interrupt lost every decision already graded; they are the review, said to be cut)
        for done, decision in enumerate(_graded(ev, tasks, budget, workers, cluster), 1):
            graded.append(decision)
            if progress is not None:
                progress(done, len(tasks))
    except KeyboardInterrupt as exc:  # (solver.batch.signals: SIGTERM's carries 143)
        stopped = getattr(exc, "exit_code", 130)
    return Review(seat, name, tuple(graded), skipped, stopped)


def _check_indexes(indexes: set[int], decided: list[int], seat: int, fallback: list[int]) -> None:
    """Every index asked for (`mj review --at`) is one of the seat's decisions: else say which are (or that the
    fallback COM took it: QA, such a decision had been said to be none)."""
    missing = sorted(indexes - set(decided))
    if not missing:
        return
    if missing[0] in fallback:
        raise MjError(f"--at {missing[0]}: the fallback COM took this decision of seat {seat} after a fault of its "
                      "player (an error event just before it, or its crash earlier in the game), so it is not graded")
    if not decided:
        raise MjError(f"--at {missing[0]}: seat {seat} has no decision of its own in this log")
    listed = ", ".join(map(str, decided)) if len(decided) <= 20 else \
        f"{len(decided)} events from {decided[0]} to {decided[-1]} (mj review without --at lists them)"
    raise MjError(f"--at {missing[0]} is no decision of seat {seat}; its decisions are at {listed}")


def _graded(ev, tasks: list[dict], budget: Budget, workers: int, cluster: str | None) -> Iterator[dict]:
    from solver.batch.executors import make_executor
    from solver.batch.job import Job
    from solver.batch.ordered import run_ordered

    rules = ev.rules
    as_of = rules.as_of.isoformat() if rules.as_of else None
    job = Job(grade_chunk, (rules.name, tuple(ev.catalogue.files), as_of, budget))
    executor = make_executor(min(workers, max(1, len(tasks))), job, cluster)
    try:
        yield from run_ordered(iter(tasks), executor, sizes=(1,))
    finally:
        executor.close()
