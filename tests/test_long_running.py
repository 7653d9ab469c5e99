"""An engine that embeds the API for hours (QA as a long-running embedder): a dropped Evaluator is freed, an
Evaluator pickles whatever it has answered, and one thread's time budget never stops another thread's call."""

from __future__ import annotations

import gc
import pickle
import threading
import weakref

from solver import Evaluator
from solver.core.search.fast import search_for

SEED = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"


def test_a_dropped_evaluator_is_freed_with_its_searches():
    """QA: a module-level table (keyed by the rule set's id) and a method's lru_cache kept every Evaluator's rule set
    and searches alive: 1 MB an Evaluator, 1.7 MB a request for a server asked many --as-of dates."""
    for rules in ("2019-12", "2019-10"):  # (2019-10: そら as a wildcard, the cover's stand-ins)
        ev = Evaluator(rules)
        ev.h(SEED), ev.score(SEED), ev.analyze(SEED)
        dropped = weakref.ref(ev.rules), weakref.ref(search_for(ev.rules))
        del ev
        gc.collect()
        assert [ref() for ref in dropped] == [None, None], rules


def test_an_evaluator_pickles_after_its_cp_sat_model_is_built():
    """QA: pickle.dumps(ev) raised "cannot pickle 'CpModel' object" once an analysis had built the model."""
    ev = Evaluator()
    assert ev.distance_model.model is not None  # (built)
    again = pickle.loads(pickle.dumps(ev))
    assert again.analyze(SEED).discards == ev.analyze(SEED).discards
    assert again.distance_model.model is not None  # (built again on use)


def test_one_threads_budget_does_not_stop_another_threads_call():
    """QA: the deadline was kept on the rule set's shared search, so a call with no limit took another thread's,
    stopped, and failed formatting its own budget (TypeError)."""
    ev = Evaluator()
    search = search_for(ev.rules)
    want = ev.analyze(SEED).discards
    holding, done = threading.Event(), threading.Event()

    def hold_a_spent_budget():
        with search.within(1e-9):
            holding.set()
            done.wait(60)

    other = threading.Thread(target=hold_a_spent_budget)
    other.start()
    try:
        assert holding.wait(60)
        search._leaf_cache.clear(), search._h_cache.clear()
        assert ev.analyze(SEED).discards == want  # (this thread has no deadline)
    finally:
        done.set()
        other.join()
    with search.within(60), search.within(None):  # an inner block without a limit keeps the outer one
        assert search.deadline is not None


def test_an_outer_budget_passes_through_a_call_that_set_none():
    """A call with no budget of its own inside a spent outer one (TileSearch.within) lets the outer's stop through
    to its caller, rather than saying it stopped at a budget of None (a TypeError formatting it)."""
    import time

    import pytest

    from solver.core.search.tile_search import SearchStopped

    ev = Evaluator()
    search = search_for(ev.rules)
    with search.within(1e-9):
        time.sleep(0.01)
        with pytest.raises(SearchStopped):
            ev.analyze(SEED)
