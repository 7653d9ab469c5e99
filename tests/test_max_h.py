"""The largest h (solver.research.max_h, `mj research max-h`): the method against a brute force over
every hand of small synthetic games, the certificate check, the budget, and the command's JSON."""

from __future__ import annotations

import dataclasses
import json
import re
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cli
from oracle import complete_targets
from solver import Evaluator, Hand
from solver.core.errors import MjError
from solver.research.max_h import Game, complete, copy_bits, max_h, target_counts
from synthetic import BASE_SETTINGS, COPIES, games

runner = CliRunner()


def brute_max_h(game, sora_mode: str = "fetch") -> int | None:
    """max over every hand of `hand_size` tiles (<= 3 a kind, そら too) of h, by plain enumeration of targets (in
    wildcard mode a target's そら slots are its count of そら: kept as min(held, slots))."""
    targets = list(complete_targets(game.units, (), cap=[COPIES] * game.K, hand_size=game.hand_size,
                                    sora=game.sora, sora_mode=sora_mode))
    if not targets:
        return None
    best = 0
    for tiles in combinations_with_replacement(range(game.K), game.hand_size):
        counts = [0] * game.K
        for k in tiles:
            counts[k] += 1
        if max(counts) > COPIES:
            continue
        kept = max(sum(min(c, t) for c, t in zip(counts, target)) for target in targets)
        best = max(best, game.hand_size - kept)
    return best


def oracle_h(game, counts, sora_mode: str = "fetch") -> int:
    targets = complete_targets(game.units, (), cap=[COPIES] * game.K, hand_size=game.hand_size,
                               sora=game.sora, sora_mode=sora_mode)
    return game.hand_size - max(sum(min(c, t) for c, t in zip(counts, target)) for target in targets)


@settings(BASE_SETTINGS, max_examples=80)
@given(game=games(min_kinds=4, max_kinds=7, max_units=9, hand_sizes=(4, 7)),
       mode=st.sampled_from(["2019-12", "hitori-jong-2.1", "2019-10"]))
def test_method_equals_brute_force(game, mode):
    """Against every hand, そら held or not: in wildcard mode (2019-10) the method searches hands without そら only
    (docs/max-h.md, Lemma 4), which the brute force does not assume."""
    sora_mode = "wildcard" if mode == "2019-10" else "fetch"
    expected = brute_max_h(game, sora_mode)
    ev = game.evaluator(mode)
    if expected is None:
        with pytest.raises(MjError, match="no complete hand"):
            max_h(ev)
        return
    result = max_h(ev)
    assert result.proved and result.upper == result.max_h == expected
    assert sum(result.witness) == game.hand_size and max(result.witness) <= COPIES
    assert oracle_h(game, result.witness, sora_mode) == expected  # the witness by the oracle, not the method's search


@settings(BASE_SETTINGS, max_examples=200)
@given(a=st.lists(st.integers(0, 3), min_size=1, max_size=20), b=st.lists(st.integers(0, 6), min_size=20, max_size=20))
def test_copy_bits_count_the_common_tiles(a, b):
    # (a target may hold more than 3 of a kind in wildcard mode: min with the hand's at most 3 is still the count)
    assert (copy_bits(a, 3) & copy_bits(b, 3)).bit_count() == sum(min(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("rules", ["2019-12", "2019-10", "hitori-jong-2.1"])
def test_the_plain_leaf_is_the_best_leaf(rules):
    """plain_leaf (max-h's uncached path to the C search) keeps what best_leaf keeps, on random prefixes."""
    import random

    from solver.core.search.fast import search_for
    ev = Evaluator(rules)
    search, rng = search_for(ev.rules), random.Random(rules)
    kinds = [k for k in range(len(ev.rules.tiles)) if k != ev.rules.tiles.sora]
    for _ in range(300):
        counts = [0] * len(ev.rules.tiles)
        for k in rng.sample(kinds * 3, rng.randint(1, 13)):
            counts[k] += 1
        plain, best = search.plain_leaf(counts), search.best_leaf(Hand(tuple(counts), ()))
        assert (plain is None) == (best is None) and plain.kept == best.kept, counts


def test_dead_kinds_set_the_real_tiles():
    # k0 in no unit (そら-like): every hand holds at least 7 - 3 = 4 real tiles
    units = ((1, 2), (3, 4), (1, 2, 3), (2, 3, 4))
    from synthetic import Game as SynGame
    game = SynGame(5, units, 0, None, 7)
    result = max_h(game.evaluator("2019-12"))
    assert result.real_tiles == 4
    assert result.proved and result.max_h == brute_max_h(game)
    assert result.witness[0] == 3  # three dead tiles: the hand keeps as little as its real part allows


def test_completion_respects_copies_and_size():
    game = Game(4, ((0, 1), (2,), (0, 1, 2)), 7)
    units = complete(game, (0, 0))
    assert units is not None and sum(len(game.units[j]) for j in units) == 7
    assert max(target_counts(game, units)) <= COPIES
    assert complete(game, (1, 1, 1, 1)) is None  # a fourth copy of k2
    assert complete(Game(3, ((0, 1),), 7), ()) is None  # duets never make 7


def test_a_search_that_overstates_is_caught(monkeypatch):
    from solver.core.search.fast import search_for

    game_units = ((0, 1), (2, 3), (0, 1, 2, 3), (4,))
    from synthetic import Game as SynGame
    ev = SynGame(5, game_units, None, 4, 6).evaluator("2019-12")
    search = search_for(ev.rules)
    real = search.plain_leaf

    def lying(counts):
        leaf = real(counts)
        if leaf is None or sum(counts) == 6:  # whole hands (the ordinary h) told the truth
            return leaf
        return dataclasses.replace(leaf, kept=leaf.kept + 2)

    monkeypatch.setattr(search, "plain_leaf", lying)
    with pytest.raises(AssertionError, match="does not certify"):
        max_h(ev)


def test_budget_stops_without_a_claim():
    ev = Evaluator("2019-12")
    result = max_h(ev, time_budget=1.0)
    assert not result.proved and result.upper is None
    assert result.stopped.startswith("time budget")
    assert ev.h(Hand(result.witness, ())).h == result.max_h
    # (QA: the cut goal's prefixes were in `stopped` and the certificates but not in the checks)
    measured = int(re.search(r"(\d+) prefixes measured", result.stopped).group(1))
    assert result.proof_checks == measured and result.checks >= measured


def test_cli_json_and_certificate_file(tmp_path):
    out = tmp_path / "cert.json"
    res = runner.invoke(cli.app, ["research", "max-h", "--rules", "hitori-jong-2.1", "--json", "--time-budget", "1",
                                  "--quiet", "--out", str(out)])
    assert res.exit_code == 124, res.output  # (not proved: the budget's code)
    cert = json.loads(res.stdout)
    assert json.loads(out.read_text(encoding="utf-8")) == cert
    assert cert["rules"] == "hitori-jong-2.1" and cert["proved"] is False and cert["upper"] is None
    assert len(cert["witness"]) == 13 and cert["witness_h"] == cert["witness_h_cpsat"] == cert["max_h"]
    ev = Evaluator("hitori-jong-2.1")
    assert ev.h(" ".join(cert["witness"])).h == cert["max_h"]
    assert {"method", "seconds", "stopped"} <= set(cert)

    out.write_text('{"proved": true}\n', encoding="utf-8")  # an earlier certificate: not replaced by an unproved one
    res = runner.invoke(cli.app, ["research", "max-h", "--rules", "hitori-jong-2.1", "--time-budget", "1", "--quiet",
                                  "--output", str(out)])
    assert res.exit_code == 124 and "not written: the file exists (kept as it was)" in res.stderr, res.output
    assert out.read_text(encoding="utf-8") == '{"proved": true}\n'


def test_cli_takes_the_wildcard_rule_set_and_refuses_bad_files():
    """2019-10 (wildcard そら) was refused; its hands without そら are searched now (Lemma 4)."""
    res = runner.invoke(cli.app, ["research", "max-h", "--rules", "2019-10", "--time-budget", "2", "--quiet", "--json"])
    assert res.exit_code == 124, res.output  # (not proved in 2 s: the budget's code)
    found = json.loads(res.stdout)
    assert found["max_h"] >= 5 and found["witness_h"] == found["witness_h_cpsat"] == found["max_h"]
    assert len(found["witness"]) == 13 and "そら" not in found["witness"], found
    res = runner.invoke(cli.app, ["research", "max-h", "--time-budget", "1", "--quiet", "--out", "/nonexistent/x.json"])
    assert res.exit_code == 2 and res.stderr.startswith("error: cannot write")


def test_a_log_gets_the_first_progress_line_at_once(capsys):
    """QA: redirected, a line came every 15 s, so a log of a 10 s run had none; the first now comes at once."""
    from console.research import _progress
    from solver.research.max_h import Progress

    report = _progress(quiet=False)  # (pytest's stderr is no terminal)
    report(Progress(goal=7, lower=6, checks=1024, dropped=0, done=0.0, seconds=0.2))
    report(Progress(goal=7, lower=6, checks=2048, dropped=0, done=0.0, seconds=3.0))  # (the next after 15 s)
    assert capsys.readouterr().err.splitlines() == [
        "max-h: witness h = 6; searching for h >= 7: 1,024 prefixes measured, 0% of first-level branches (the first "
        "are the largest), 0 s"]


def test_a_wildcard_sora_replaced_by_a_real_tile_never_lowers_h():
    """docs/max-h.md, Lemma 4, on the real 2019-10 rule set: where そら is a wildcard, a hand holding one has h at
    most that of the hand with it replaced by any real tile of fewer than 3 copies. So the largest h is reached
    by a hand without そら, the only hands the method searches there."""
    import random

    ev = Evaluator("2019-10")
    sora, rnd = ev.tiles.sora, random.Random(7)
    real = [k for k in range(len(ev.tiles)) if k != sora]
    for _ in range(40):
        counts = [0] * len(ev.tiles)
        counts[sora] = rnd.randint(1, 3)
        while sum(counts) < 13:
            k = rnd.choice(real)
            if counts[k] < 3:
                counts[k] += 1
        h = ev.h(Hand(tuple(counts), ())).h
        for x in rnd.sample([k for k in real if counts[k] < 3], 4):
            replaced = list(counts)
            replaced[sora] -= 1
            replaced[x] += 1
            assert ev.h(Hand(tuple(replaced), ())).h >= h, (counts, x)


def test_a_wildcard_completion_may_pass_a_kinds_copies_by_the_sora_held():
    """In wildcard mode a target may hold a fourth copy of a kind (そら stands in), three such slots at most."""
    units = ((0, 1), (0, 1, 2))
    assert complete(Game(4, units, 9), (0, 0, 0)) is None  # (three duets, then the trio: a fourth k0 and k1)
    wild = Game(4, units, 9, wild=3)
    found = complete(wild, (0, 0, 0))  # (そら stands in for the fourth k0 and k1)
    assert found == (0, 0, 0, 1)
    assert sum(max(0, n - COPIES) for n in target_counts(wild, found)) <= 3
    assert complete(Game(2, ((0, 1),), 10, wild=None), ()) is None
    assert complete(Game(3, ((0, 1),), 10, wild=2), ()) is None  # 5 duets: 5 of a kind, 2 + 2 past the copies: 4 > 3
    assert complete(Game(3, ((0, 1),), 8, wild=2), ()) is not None  # 4 duets: 1 + 1 past the copies


def test_the_recorded_witnesses_have_the_h_they_claim():
    """docs/certificates: each witness's h by the ordinary search; every one proved the maximum."""
    from pathlib import Path

    for path in sorted((Path(__file__).parent.parent / "docs" / "certificates").glob("max-h-*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        ev = Evaluator(record["rules"])
        assert ev.h(" ".join(record["witness"])).h == record["max_h"] == record["witness_h"], path.name
        assert record["proved"] and record["upper"] == record["max_h"], path.name
