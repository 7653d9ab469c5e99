"""The second objective's search in a forked process (solver/planning/side.py): the same plan as in one
process, its TooLarge raised here, a lost child an error rather than a hang."""

from __future__ import annotations

import os
import signal

import pytest

from solver import Evaluator
from solver.planning import search_plan
from solver.planning import side
from solver.planning.side import Side
from solver.planning.targets import OutOfTime, TooLarge, clock_cut

EXAMPLE = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="forking is the point")


def rows(p):
    return [(r.tile, r.win_probability, r.expected_score, r.h, r.live) for r in p.discards], p.states


@needs_fork
@pytest.mark.parametrize("objective, turns", [("win", 4), ("score", 3)])
def test_forked_second_objective_gives_the_same_plan(objective, turns, monkeypatch):
    ev = Evaluator()
    forks = []
    monkeypatch.setattr(side, "can_split", lambda: True)
    monkeypatch.setattr(side.Side, "__init__", record(side.Side.__init__, forks))
    beside = ev.plan(EXAMPLE, turns=turns, objective=objective, nearest=True)
    assert len(forks) == 1
    monkeypatch.setattr(side, "can_split", lambda: False)
    alone = ev.plan(EXAMPLE, turns=turns, objective=objective, nearest=True)
    assert len(forks) == 1 and rows(beside) == rows(alone)


def record(init, calls):
    def wrapped(self, run):
        calls.append(run)
        init(self, run)
    return wrapped


@needs_fork
def test_the_childs_answer_its_too_large_and_its_death():
    assert Side(lambda: ("moves", 7)).result() == ("moves", 7)
    with pytest.raises(TooLarge, match="passed 9 states"):
        Side(lambda: (_ for _ in ()).throw(TooLarge("the exact plan passed 9 states"))).result()
    clock_cut(reset=True)
    with pytest.raises(OutOfTime, match="its time budget"):  # (QA: it came back a plain TooLarge, so the plan's
        Side(lambda: (_ for _ in ()).throw(OutOfTime("passed its time budget"))).result()  # advice was not given)
    assert clock_cut(reset=True)  # (the child's cut counts here)

    def die():
        os.kill(os.getpid(), signal.SIGKILL)
    with pytest.raises(side.SideLost):
        Side(die).result()


@needs_fork
def test_a_child_that_dies_is_replaced_by_the_search_here(monkeypatch):
    ev = Evaluator()
    monkeypatch.setattr(side, "can_split", lambda: True)
    alone = rows(ev.plan(EXAMPLE, turns=3, nearest=True))
    original = search_plan.first_moves

    def first_moves(prep, search, roots, turns, tick, pace=None):
        if not search.win and os.getpid() != parent:  # the child, searching E[score]: killed
            os.kill(os.getpid(), signal.SIGKILL)
        return original(prep, search, roots, turns, tick, pace)
    parent = os.getpid()
    monkeypatch.setattr(search_plan, "first_moves", first_moves)
    assert rows(ev.plan(EXAMPLE, turns=3, nearest=True)) == alone


@needs_fork
def test_a_parent_that_stops_first_kills_the_child(monkeypatch):
    ev = Evaluator()
    children = []
    monkeypatch.setattr(side, "can_split", lambda: True)
    original = search_plan.first_moves

    def first_moves(prep, search, roots, turns, tick, pace=None):
        if search.win:  # the parent's objective: fail at once while the child still searches
            raise TooLarge("stopped here first")
        return original(prep, search, roots, turns, tick, pace)
    monkeypatch.setattr(search_plan, "first_moves", first_moves)
    monkeypatch.setattr(side.Side, "close", close_recorder(side.Side.close, children))
    with pytest.raises(TooLarge, match="stopped here first"):
        ev.plan(EXAMPLE, turns=6, objective="win", nearest=True)
    assert children and all(not alive(pid) for pid in children)


def close_recorder(close, pids):
    def wrapped(self):
        if self.pid:
            pids.append(self.pid)
        close(self)
    return wrapped


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@needs_fork
def test_an_orphaned_child_leaves_at_its_next_tick():
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # a parent that forks the searcher, then dies at once
        me = os.getpid()  # taken before the fork, as plan.exact_rows does
        grandchild = os.fork()
        if grandchild == 0:
            import time

            tick = side.orphan_check(me)
            while True:  # the search: ticks until the check ends it
                time.sleep(0.01)
                tick(4096)
        os.write(writer, str(grandchild).encode())
        os._exit(0)
    os.close(writer)
    os.waitpid(pid, 0)
    grandchild = int(os.read(reader, 32))
    os.close(reader)
    import time

    deadline = time.monotonic() + 10
    while alive_not_zombie(grandchild) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive_not_zombie(grandchild)


def alive_not_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def score_moves(ev, turns=3):
    from solver.planning.score_optimum import score_optimum

    position = ev.plan_request_of(EXAMPLE, turns, "score", [], [], None).position
    held = [k for k, n in enumerate(position.hand.concealed) if n]
    return score_optimum(ev.rules, position, turns, [None] + held[:2], state_limit=10 ** 7)[0]


@needs_fork
def test_e_score_first_draws_on_two_processes_give_the_same_values(monkeypatch):
    """score_optimum.split_by_kind: the kinds of the first draw shared between this process and a child, the sums
    added; the same values as every kind here, and the child did take kinds (its sums are not all zero)."""
    from solver.planning import score_optimum as module

    ev = Evaluator()
    monkeypatch.setattr(side, "can_split", lambda: False)
    alone = score_moves(ev)
    forks, parts = [], []
    monkeypatch.setattr(side, "can_split", lambda: True)
    monkeypatch.setattr(side.Side, "__init__", record(side.Side.__init__, forks))
    original = side.Side.result

    def result(self):
        got = original(self)
        parts.append(got[0])
        return got
    monkeypatch.setattr(side.Side, "result", result)
    assert score_moves(ev) == alone
    assert len(forks) == 1 and any(parts[0])
    assert module.split_by_kind  # (the path under test)


@needs_fork
def test_e_score_kinds_a_lost_child_took_are_valued_here(monkeypatch):
    ev = Evaluator()
    monkeypatch.setattr(side, "can_split", lambda: False)
    alone = score_moves(ev)
    monkeypatch.setattr(side, "can_split", lambda: True)
    original = side.Side.result

    def lost(self):
        original(self)  # (the child took its kinds and answered: its answer is thrown away)
        raise side.SideLost("killed")
    monkeypatch.setattr(side.Side, "result", lost)
    assert score_moves(ev) == alone


@needs_fork
def test_e_score_childs_stop_is_raised_here(monkeypatch):
    from solver.planning import score_optimum as module

    ev = Evaluator()
    monkeypatch.setattr(side, "can_split", lambda: True)
    original = module.ScoreOptimum.by_kind

    def by_kind(self, *args):
        if os.getpid() != parent:
            raise TooLarge("the child passed its states")
        return original(self, *args)
    parent = os.getpid()
    monkeypatch.setattr(module.ScoreOptimum, "by_kind", by_kind)
    with pytest.raises(TooLarge, match="the child passed its states"):
        score_moves(ev)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="threads are counted on Linux")
def test_a_process_that_imported_the_planner_and_numpy_can_fork():
    """numpy's OpenBLAS starts a thread at import unless told not to (solver/__init__.py), and a process with two
    threads never forks: the second core would be silently left idle."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    code = ("import solver.planning.plan, numpy; numpy.ones(3) @ numpy.ones(3); "
            "from solver.batch.forked import can_fork; print(can_fork())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "True"


@needs_fork
def test_a_child_forks_no_further(monkeypatch):
    """A search in a Side child (the second objective, or a share of the first draw's kinds) never splits again,
    nor does this process while a child runs: two cores are this process and one child."""
    from solver.batch import forked

    monkeypatch.setattr(forked, "can_fork", lambda: True)  # (whatever threads earlier tests left running)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert side.can_split()
    running = Side(lambda: side.can_split())
    assert not side.can_split()
    assert running.result() is False
    assert side.can_split()


@needs_fork
def test_the_state_cap_holds_for_both_processes_together(monkeypatch):
    """P(win) at 4 draws, its first draw in parts (first_draw.py): with three quarters of the states one process
    visits as the cap, neither process alone passes it, but the two together do: the optimum stops (the bracket
    answers), as it does in one process."""
    ev = Evaluator("hitori-jong-2.1")
    hand, seen = "美希 貴音 あずさ あずさ 響 星梨花 星梨花 ロコ 紗代子 紗代子 奈緒 美也 のり子", "伊織 翼 朋花"
    monkeypatch.setattr(side, "can_split", lambda: False)
    whole = ev.plan(hand, turns=4, seen=seen, both=False, seconds=None, max_states=10 ** 7)
    assert whole.method == "optimal"
    cap = whole.states * 3 // 4
    assert ev.plan(hand, turns=4, seen=seen, both=False, seconds=None, max_states=cap).method != "optimal"
    monkeypatch.setattr(side, "can_split", lambda: True)
    split = ev.plan(hand, turns=4, seen=seen, both=False, seconds=None, max_states=10 ** 7)
    assert [r.win_probability for r in split.discards] == [r.win_probability for r in whole.discards]
    assert ev.plan(hand, turns=4, seen=seen, both=False, seconds=None, max_states=cap).method != "optimal"


@needs_fork
def test_the_brackets_sampled_upper_beside_its_lower_side_gives_the_same_plan(monkeypatch):
    """The bracket samples the relaxation's value (where only 1 is proved) in a child while it raises the lower side
    here (neither reads what the other writes): with no clock the plan is the same, field for field, as with both
    steps in this process; a child that dies is replaced by the sample here."""
    ev = Evaluator("hitori-jong-2.1")
    forks = []
    monkeypatch.setattr(side, "can_split", lambda: True)
    monkeypatch.setattr(side.Side, "__init__", record(side.Side.__init__, forks))
    beside = ev.plan(EXAMPLE, turns=8, both=False, seconds=None)
    assert forks and beside.method == "bounds" and any(r.upper_estimate is not None for r in beside.discards)
    monkeypatch.setattr(side, "can_split", lambda: False)
    assert ev.plan(EXAMPLE, turns=8, both=False, seconds=None) == beside
    monkeypatch.setattr(side, "can_split", lambda: True)
    monkeypatch.setattr(side.Side, "result", lambda self: (self.close(), (_ for _ in ()).throw(side.SideLost("x"))))
    assert ev.plan(EXAMPLE, turns=8, both=False, seconds=None) == beside


@needs_fork
def test_beside_closes_a_child_whose_value_is_not_wanted(monkeypatch):
    import time

    monkeypatch.setattr(side, "can_split", lambda: True)  # (threads left by other tests would keep it here)
    later = side.Beside(lambda: time.sleep(30))
    pid = later.side.pid
    later.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # (reaped: gone)
    assert side.Beside(lambda: 7).value() == 7


@needs_fork
def test_the_other_objectives_class_beside_the_first_gives_the_same_plan(monkeypatch):
    """Past the optimum with both objectives, the other objective's class nearest runs in a child from the start
    (plan.other_nearest) while this process brackets the first: with no clock, the same plan as run after it."""
    ev = Evaluator("hitori-jong-2.1")
    forks = []
    monkeypatch.setattr(side, "can_split", lambda: True)
    monkeypatch.setattr(side.Side, "__init__", record(side.Side.__init__, forks))
    beside = ev.plan(EXAMPLE, turns=8, seconds=None)
    assert forks and beside.method == "bounds" and all(r.expected_score is not None for r in beside.discards)
    assert beside.policy_class["expected_score"].startswith("nearest: ")  # (its class, beside the bracket)
    monkeypatch.setattr(side, "can_split", lambda: False)
    assert ev.plan(EXAMPLE, turns=8, seconds=None) == beside
