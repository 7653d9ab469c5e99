"""The score's exhaustive search (solver/core/decompose.py) against the CP-SAT score model it replaced on the
ordinary path (score.SEARCH = False): the same totals and verdicts on real rule sets, and a decomposition that
covers the hand. (tests/test_agreement.py compares the same answers with the brute-force oracle.)"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from synthetic import BASE_SETTINGS, scoring_case
from test_agreement import REAL_RULES, real

from solver.core import score
from solver.core.errors import MjError
from solver.core.hand import Situation


def both(hand, rules, situation):
    answers = []
    for search in (True, False):
        score.SEARCH = search
        try:
            answers.append(score.best_score(hand, rules, situation))
        except MjError as exc:
            answers.append(exc.code)
        finally:
            score.SEARCH = True
    return answers


def covers(result, hand, rules) -> bool:
    """The units' members minus their stand-ins, plus the tiles left over, are exactly the concealed tiles
    (そら: the stand-ins plus those left over)."""
    members = Counter(k for su in result.units if not su.called for k in rules.units[su.unit].members)
    stood = Counter(k for su in result.units for k in su.sora_for)
    held = Counter({k: n for k, n in enumerate(hand.concealed) if n})
    left = Counter(result.leftover)
    sora = rules.tiles.sora
    soras, left_soras = (held.pop(sora, 0), left.pop(sora, 0)) if sora is not None else (0, 0)
    return members - stood + left == held and sum(stood.values()) + left_soras == soras


@pytest.mark.parametrize("rules_name", REAL_RULES)
@settings(BASE_SETTINGS, max_examples=40)
@given(data=st.data())
def test_search_agrees_with_the_cpsat_model(rules_name, data):
    ev, game = real(rules_name)
    wildcard = ev.rules.sora_mode == "wildcard"
    deal, favourite, win, ron = scoring_case(data, game, [0, 0, 1, 2, 4], wildcard)
    found, reference = both(deal.hand, ev.rules, Situation(win, ron, favourite))
    if isinstance(reference, str):
        assert found == reference
        return
    assert (found.won, found.complete, found.total, found.bonus) == \
        (reference.won, reference.complete, reference.total, reference.bonus)
    if found.total is not None:
        assert covers(found, deal.hand, ev.rules)


@pytest.mark.parametrize("rules_name", [name for name in REAL_RULES if real(name)[0].rules.scores_no_win])
@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(tiles=st.lists(st.integers(0, 53), min_size=13, max_size=13), soras=st.integers(0, 3))
def test_random_hands_not_won_agree(rules_name, tiles, soras):
    """Random hands (most tiles in no unit, some そら), not won: the same total, a packing of the hand."""
    ev, _ = real(rules_name)
    kinds = [k for k in tiles if k != ev.tiles.sora][:13 - soras - (soras % 2)] + [ev.tiles.sora] * soras
    counts = Counter(kinds)
    assume(max(counts.values()) <= 3)
    hand = ev.hand(" ".join(ev.tiles.name(k) for k in kinds))
    found, reference = both(hand, ev.rules, Situation("none"))
    assert found.total == reference.total and found.bonus == reference.bonus
    assert covers(found, hand, ev.rules)
