"""Grading one decision of a game by the exact evaluator (`mj review`, game/review.py).

A decision arrives as plain data (a task: the seat's position as it saw it, the legal actions, the chosen one),
so that worker processes can grade decisions in parallel. Every legal action becomes an `Option` with
what is known of it exactly:
- h and live acceptance after it (the exact search: always);
- P(win) and E[score] over the draws the seat had left (the planner, solo model): the optimum where the plan
  finishes within the budget (method "optimal"), else the exact value of the class nearest, a real policy and so a
  lower bound of the optimum, with a proved upper bound (method "bounds"); past the class's limits too, the
  estimate's policy's sampled value with its 95 % interval (method "estimate": the plan's 1,000 walls, or
  Budget.estimate); else h and live only (method "h").
A win (tsumo or ron) is P(win) 1. A call is the P(win) of the hand after it; そら is graded by h (method "h").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import lru_cache

from game.observation import elsewhere, plan_position
from solver.core.hand import Hand

MODEL = ("solo model: P(win) counts the seat's own draws over the draws it had left; the wall is every copy the "
         "seat had not seen, each equally likely; opponents are not modelled (no ron on the seat's discards, no "
         "calls or wins by others)")


@dataclass(frozen=True)
class Option:
    action: dict
    win_probability: float | None = None  # optimal: the optimum; bounds: the class nearest's exact value;
    # estimate: a sampled value of the estimate's policy (win_interval its 95 % interval)
    win_upper: float | None = None  # proved >= the optimum (= win_probability where optimal)
    expected_score: float | None = None  # same policy as win_probability; None: not computed
    h: int | None = None  # after the action (0: a win); None: no complete hand within reach
    live: int | None = None  # live copies of the kinds that lower h after it
    win_interval: tuple[float, float] | None = None  # estimate only
    # where win_upper is 1: the relaxation's sampled value (an estimate of a bound, not a proof) and its interval
    win_upper_estimate: float | None = None
    win_upper_interval: tuple[float, float] | None = None
    # E[score]'s the same way: proved >= the optimal E[score] (None: none), an estimate's interval, and where the
    # proof comes from P(win)'s bound of 1, the relaxation's sampled value with its interval
    score_upper: float | None = None
    score_interval: tuple[float, float] | None = None
    score_upper_estimate: float | None = None
    score_upper_interval: tuple[float, float] | None = None

    def h_key(self) -> tuple:
        """Better first by h alone: a win, then the least h, then the most live acceptance."""
        return (self.action["type"] != "hora", 99 if self.h is None else self.h, -(self.live or 0))

    def key(self) -> tuple:
        """Better first under sort: P(win), its upper bound, then h and live acceptance."""
        h = 99 if self.h is None else self.h
        return (-(self.win_probability or 0.0), -(self.win_upper or 0.0), h, -(self.live or 0))


INTERVALS = ("win_interval", "win_upper_interval", "score_interval", "score_upper_interval")


@dataclass(frozen=True)
class Decision:
    index: int  # the event's index in the log (0-based): the position `mj replay --at index` shows
    type: str  # discard, sora, claim
    turns: int  # draws the seat had left
    chosen: Option
    best: Option
    method: str  # optimal, bounds, estimate (sampled past the class nearest's limits), h
    match: bool  # the chosen action is among the best (ties included)
    loss: float | None  # P(win) lost against the best (optimal: exact; bounds: within the class nearest;
    # estimate: between the values shown, sampled or raised to exact, 0 where two intervals overlap)
    loss_bounds: tuple[float, float] | None  # the loss against the optimum, proved (None: not known)
    h_lost: int  # exchanges the chosen action is behind the best one's h (0 when as good)
    missed_win: bool  # a tsumo or ron was legal and not taken
    note: str = ""
    options: tuple[Option, ...] = field(default=())  # every legal action graded, best first
    # a planner step stopped at its time budget: another run (or a larger --seconds) may grade it otherwise
    clocked: bool = False

    def to_dict(self) -> dict:
        found = asdict(self)
        found["loss_bounds"] = list(self.loss_bounds) if self.loss_bounds else None
        for option in [found["chosen"], found["best"], *found["options"]]:
            for name in INTERVALS:
                option[name] = list(option[name]) if option[name] else None
        return found


@dataclass(frozen=True)
class Budget:
    """What grading one decision may spend: the planner's clock and state cap, and past the exact frontier
    `estimate` sampled walls per action (None: no estimate; h and acceptance grade it)."""

    seconds: float = 1.0
    max_states: int = 50_000
    estimate: int | None = None


@lru_cache(maxsize=4)
def _evaluator(rules: str, catalogue: tuple[str, ...], as_of: str | None):
    import datetime as dt

    from solver.api import Evaluator

    return Evaluator(rules, catalogue_files=catalogue, as_of=dt.date.fromisoformat(as_of) if as_of else None)


def grade_chunk(tasks: list[dict], rules: str, catalogue: tuple[str, ...], as_of: str | None,
                budget: Budget) -> list[dict]:
    """The batch job (solver/batch): each task's Decision as a dict."""
    ev = _evaluator(rules, tuple(catalogue), as_of)
    return [grade(ev, task, budget).to_dict() for task in tasks]


def grade(ev, task: dict, budget: Budget = Budget()) -> Decision:
    kind = task["type"]
    if kind == "discard":
        return _discard(ev, task, budget)
    if kind == "claim":
        return _claim(ev, task, budget)
    return _sora(ev, task)


# --- positions -------------------------------------------------------------------------------------------

def _hand(task: dict) -> Hand:
    return Hand(tuple(task["concealed"]), tuple(sorted(task["called"])))


def _plan(ev, task: dict, hand: Hand, budget: Budget):
    """(The planner's answer for the position (per discard, or the 12-tile hand as it stands), or None, why not,
    whether its clock cut a step: another run may answer otherwise)."""
    from solver.core.errors import MjError
    from solver.planning.request import Limits, PlanRequest
    from solver.planning.targets import OutOfTime, TooLarge

    if task["turns"] <= 0:
        return None, "no draw left", False
    request = PlanRequest(plan_position(hand, task["seen"], task["room"], task["favourite"]), task["turns"],
                          limits=Limits(budget.max_states, budget.seconds, budget.estimate))
    try:
        made = ev.plan_request(request)
        return made, "", made.clocked
    except TooLarge as exc:
        return None, f"no P(win) within the budget ({str(exc).split(';')[0]})", isinstance(exc, OutOfTime)
    except MjError as exc:
        return None, f"the planner refused the position: {exc}", False


PLANNED = ("optimal", "bounds", "estimate")  # plan methods that give every action a P(win)


def _f(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _planned(action: dict, row, h: int | None, live: int | None) -> Option:
    """An action valued by a plan's row (its discard, or the hand as it stands)."""
    def pair(interval):
        return tuple(interval) if interval else None
    return Option(action, _f(row.win_probability), _f(row.upper), _f(row.expected_score), h, live, pair(row.win_interval),
                  _f(row.upper_estimate), pair(row.upper_interval), _f(row.score_upper), pair(row.score_interval),
                  _f(row.score_upper_estimate), pair(row.score_upper_interval))


def _decide(index: int, kind: str, turns: int, options: list[Option], chosen: Option, method: str,
            note: str = "", clocked: bool = False, planned: dict[str, int] | None = None) -> Decision:
    """Best option, match, losses: P(win) where the method has it, h always. `planned`: a discard's tile -> its
    place in the plan's own order (ties and sampled rows ranked as `mj plan` ranks them), a win before them."""
    def in_plan(o: Option) -> tuple:
        pai = o.action.get("pai") if o.action["type"] == "dahai" else None
        return o.action["type"] != "hora", planned.get(pai, len(planned))
    key = Option.h_key if method == "h" else Option.key if planned is None else in_plan
    ranked = sorted(options, key=key)
    best = ranked[0]
    if method == "h":
        tied = [o for o in options if (o.h, o.live) == (best.h, best.live)]
    else:  # (at least the best's value: a sample ranked at its interval's low end may have a higher mean)
        tied = [o for o in options if (o.win_probability or 0.0) >= (best.win_probability or 0.0)
                or _within_noise(o, best)]
    match = chosen.action in [o.action for o in tied]
    loss = bounds = None
    if method != "h" and chosen.win_probability is not None:
        loss = 0.0 if match else max(0.0, best.win_probability - chosen.win_probability)
    if method in ("optimal", "bounds") and chosen.win_probability is not None:  # not from sampled values
        # an option without a value (a call: not planned) is known only to lie in [0, 1]
        top_lower = max(o.win_probability or 0.0 for o in options)
        top_upper = max(1.0 if o.win_upper is None else o.win_upper for o in options)
        chosen_upper = 1.0 if chosen.win_upper is None else chosen.win_upper
        bounds = (max(0.0, top_lower - chosen_upper), max(0.0, top_upper - chosen.win_probability))
    h_lost = 0 if chosen.h is None or best.h is None else max(0, chosen.h - best.h)
    if chosen.h is None and best.h is not None:
        h_lost = 1  # out of reach where the best stays within reach
    missed = any(o.action["type"] == "hora" for o in options) and chosen.action["type"] != "hora"
    return Decision(index, kind, turns, chosen, best, method, match, loss, bounds, h_lost, missed, note,
                    tuple(ranked), clocked)


def _within_noise(option: Option, best: Option) -> bool:
    """Both sampled and their 95 % intervals overlap: the sample cannot tell them apart (not a mistake, no loss)."""
    a, b = option.win_interval, best.win_interval
    return a is not None and b is not None and a[1] >= b[0] and b[1] >= a[0]


def _win_option(ev, task: dict, action: dict, hand: Hand, how: str) -> Option:
    tile = None if how == "tsumo" else ev.tile(action["pai"])
    won = hand if how == "tsumo" else hand.add(tile)
    score = ev.score(won, how, tile, task["favourite"])
    return Option(action, 1.0, 1.0, float(score.total), 0, None, score_upper=float(score.total))


def _discard(ev, task: dict, budget: Budget) -> Decision:
    from solver.analysis.turn import discard_table

    hand = _hand(task)
    seen = tuple(task["seen"])
    rows = {row.tile: row for row in discard_table(ev.distance_model, hand, seen, task["favourite"])}
    made, why, clocked = _plan(ev, task, hand, budget)
    planned = {row.tile: (n, row) for n, row in enumerate(made.discards)} if made else {}
    method = made.method if made and made.method in PLANNED else "h"
    options, order = [], {}  # (order: each discard's place in the plan's rows, so the review's best is mj plan's)
    for action in task["options"]:
        if action["type"] == "hora":
            options.append(_win_option(ev, task, action, hand, "tsumo"))
            continue
        kind = ev.tile(action["pai"])
        order[action["pai"]], plan_row = planned.get(kind, (len(planned), None))
        row = rows[kind]
        live = sum(a.live for a in row.accept)
        options.append(_planned(action, plan_row, row.h, live) if plan_row and method != "h"
                       else Option(action, h=row.h, live=live))
    chosen = _chosen(task, options)
    note = why if method == "h" else (made.policy_class.get("win_probability", "") if method in ("bounds", "estimate") else "")
    if method == "h" and chosen.action["type"] != "hora" and any(o.action["type"] == "hora" for o in options):
        note = "missed tsumo; " + note
    return _decide(task["index"], "discard", task["turns"], options, chosen, method, note, clocked,
                   order if made else None)


def _chosen(task: dict, options: list[Option]) -> Option:
    from game.legal import same_action

    found = next((o for o in options if same_action(task["chosen"], o.action)), None)
    if found is None:
        raise ValueError(f"decision {task['index']}: the chosen action is not among the legal ones")  # a replay bug
    return found


def _claim(ev, task: dict, budget: Budget) -> Decision:
    """Ron, a call or a pass. A ron is P(win) 1; passing is the P(win) of the 12 tiles as they stand; a call is
    the P(win) of the 13 tiles after it (the unit locked, the called tile out of the waiting room) with the draws
    the caller has left then. Where one of them has no P(win) within the budget, all are graded by h."""
    from solver.analysis.turn import acceptance, call_options

    hand = _hand(task)
    seen = tuple(task["seen"])
    dm = ev.distance_model
    tile = ev.tile(task["options"][0]["pai"])
    h_pass, accept = acceptance(dm, hand, seen)
    best_h: dict[str, int | None] = {}
    taken = tuple(n - (k == tile) for k, n in enumerate(seen))  # (a call takes the discard out of the room)
    for option in call_options(dm, hand, tile, taken):  # sorted by h: the first per unit is its best discard
        best_h.setdefault(ev.rules.units[option.unit].name, option.h)
    options, methods, why, clocked = [], set(), "", False
    for action in task["options"]:
        if action["type"] == "hora":
            options.append(_win_option(ev, task, action, hand, "ron"))
            continue
        if action["type"] == "chi":
            after, position = _called(ev, task, action, hand, tile)
            h, live = best_h.get(action["unit"]), None
        else:
            after, position, h, live = hand, task, h_pass, sum(a.live for a in accept)
        made, note, cut = _plan(ev, position, after, budget)
        clocked = clocked or cut
        if made is None or made.method not in PLANNED:
            methods.add("h")
            why = why or note
            options.append(Option(action, h=h, live=live))
            continue
        methods.add(made.method)
        options.append(_planned(action, made.recommended, h, live))
    method = next(m for m in ("h", "estimate", "bounds", "optimal") if m in methods)  # the weakest graded them
    if method == "h":
        options = [o if o.action["type"] == "hora" else Option(o.action, h=o.h, live=o.live) for o in options]
    note = why if method == "h" else "ron 100 %; a pass: the 12 tiles as they stand; a call: its best discard after"
    return _decide(task["index"], "claim", task["turns"], options, _chosen(task, options), method, note, clocked)


def _called(ev, task: dict, action: dict, hand: Hand, tile: int) -> tuple[Hand, dict]:
    """The 13 tiles after a call and the position the caller plans from (the called tile leaves the room)."""
    unit = next(u.index for u in ev.rules.units if u.name == action["unit"] and tile in u.members
                and sorted(u.members) == sorted([tile] + [ev.tile(n) for n in action["consumed"]]))
    concealed = list(hand.concealed)
    for name in action["consumed"]:
        concealed[ev.tile(name)] -= 1
    seen, room = list(task["seen"]), list(task["room"])
    seen[tile] -= 1
    room.remove(tile)
    after = Hand(tuple(concealed), tuple(sorted(hand.called + (unit,))))
    return after, {**task, "seen": seen, "room": room, "turns": task["call_turns"][action["unit"]]}


def _sora(ev, task: dict) -> Decision:
    """Before the draw: そら to the own waiting room and a tile taken, or not now; graded by h."""
    from solver.analysis.turn import sora_advice

    hand = _hand(task)
    advice = sora_advice(ev.distance_model, hand, list(task["room"]), elsewhere(task["seen"], task["room"]))
    after = {o.take: o.h for o in advice.options} if advice else {}
    options = []
    # not now first: among equal h it is the best, as `mj analyze` advises no use where none lowers h (QA)
    for action in sorted(task["options"], key=lambda a: a["type"] != "none"):
        h = advice.h_now if action["type"] == "none" else after.get(ev.tile(action["pai"]), advice.h_now)
        options.append(Option(action, h=h))
    return _decide(task["index"], "sora", task["turns"], options, _chosen(task, options), "h",
                   "そら graded by h after the swap (not drawing yet)")
