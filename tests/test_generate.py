"""Generated positions (solver/generation): every answer re-derived by the plain-Python oracle, the
same seed gives the same bytes, `mj check` accepts every answer and rejects each one perturbed."""

from __future__ import annotations

import copy
import json
from collections import Counter

import oracle
import pytest
from typer.testing import CliRunner

from cli import app
from solver import Evaluator
from solver.checking.check import check_claim
from solver.core.errors import MjError
from solver.core.notation import hand_from_list
from solver.generation import generate
from solver.serialize import dumps
from solver.generation.difficulty import exact_covers, parse_difficulty, wait_depth
from solver.generation.traps import TRAPS

_EV: dict[str, Evaluator] = {}


def ev_for(rules: str) -> Evaluator:
    if rules not in _EV:
        _EV[rules] = Evaluator(rules)
    return _EV[rules]


def suite(kind: str, count: int, seed: int, difficulty: str | None = None, rules: str = "2019-12") -> list[dict]:
    return list(generate(kind, count, seed, rules, difficulty, evaluator=ev_for(rules)))


@pytest.fixture(scope="module")
def positions() -> list[dict]:
    """A small suite of every kind; traps once per label under two rule sets (そら fetch and dead)."""
    found = suite("waits", 4, 11) + suite("waits", 2, 12, "decoys>=1") + suite("waits", 1, 13, "dead>=1")
    found += suite("exchanges", 3, 21, "h=1")
    found += suite("discard", 2, 31, "h=1")
    found += suite("traps", len(TRAPS), 41) + suite("traps", len(TRAPS), 42, rules="hitori-jong-2.1")
    return found


# --- the oracle's reading of a position ------------------------------------------------------------


class Reading:
    """A position's hand, seen tiles and rule set as the oracle takes them (plain tuples and dicts)."""

    def __init__(self, pos: dict):
        self.ev = ev = ev_for(pos["rules"])
        rules = ev.rules
        self.hand = hand_from_list(pos["hand"], rules)
        self.K = len(ev.tiles)
        self.units = [u.members for u in rules.units]
        self.concealed = list(self.hand.concealed)
        self.called = list(self.hand.called)
        self.seen = [0] * self.K
        for t in pos.get("seen", []):
            self.seen[ev.tiles.resolve(t)] += 1
        self.favourite = ev.tiles.resolve(pos["favorite"]) if "favorite" in pos else None
        spec = rules.spec
        self.rules = dict(min_points=spec.min_points, member_points=spec.member_points, called=spec.called,
                          ron_minus_member=spec.ron_minus_member, no_win=spec.no_win, favourite=spec.favourite,
                          favourite_bonus=spec.favourite_bonus, sora_mode=spec.sora, ron_on_shika=spec.ron_on_shika,
                          shika=ev.tiles.shika, hand_size=spec.hand_size)
        self.kw = dict(hand_size=spec.hand_size, sora=ev.tiles.sora, sora_mode=spec.sora)

    def cap(self, seen: list[int] | None = None) -> list[int]:
        cap = [3 - c for c in self.hand.called_counts(self.ev.rules)]
        return [c - s for c, s in zip(cap, seen or [0] * self.K)]

    def held(self, kind: int) -> int:
        return self.concealed[kind] + self.hand.called_counts(self.ev.rules)[kind]

    def waits(self, concealed=None, seen=None) -> set[int]:
        return oracle.waits(self.units, concealed or self.concealed, self.called, cap=self.cap(seen), **self.kw)

    def score(self, concealed, won: bool, ron: int | None = None) -> int | None:
        return oracle.best_score(self.units, concealed, self.called, won=won, ron_tile=ron,
                                 favourite=self.favourite, rules=self.rules, sora=self.kw["sora"])

    def h(self, units=None) -> int | None:
        return oracle.exchange_distance(units or self.units, self.concealed, self.called,
                                        cap=self.cap(self.seen), **self.kw)

    def tile(self, name: str) -> int:
        return self.ev.tiles.resolve(name)


def oracle_waits(r: Reading) -> list[dict]:
    found = []
    for t in sorted(r.waits()):
        full = list(r.concealed)
        full[t] += 1
        found.append({"tile": r.ev.tiles.ids[t], "tsumo": r.score(full, True), "ron": r.score(full, True, t),
                      "live": 3 - r.held(t) - r.seen[t]})
    return found


def oracle_exchanges_h1(r: Reading) -> set[tuple[str, str]]:
    """Every (out, in) pair that completes the hand: the optimal exchanges of a hand with h = 1."""
    pairs = set()
    for d in sorted({k for k, n in enumerate(r.concealed) if n}):
        rest = list(r.concealed)
        rest[d] -= 1
        for t in r.waits(rest, r.seen):
            if t != d:
                pairs.add((r.ev.tiles.ids[d], r.ev.tiles.ids[t]))
    return pairs


def oracle_discards_h1(r: Reading) -> list[tuple[int, int]]:
    """(live acceptance, kind) per discard of a 13-tile hand with h = 1, best first. After a discard the
    discarded tile is seen; a 12-tile hand whose waits are all gone has h >= 2: no acceptance toward 0."""
    rows = []
    for d in sorted({k for k, n in enumerate(r.concealed) if n}):
        rest, seen = list(r.concealed), list(r.seen)
        rest[d] -= 1
        seen[d] += 1
        accept = r.waits(rest, seen)
        rows.append((sum(3 - r.held(t) + (t == d) - seen[t] for t in accept), d))
    return sorted(rows, key=lambda row: (-row[0], row[1]))


def verify_by_oracle(pos: dict) -> None:
    r = Reading(pos)
    if "waits" in pos:
        assert pos["waits"] == oracle_waits(r)
    if "h" in pos:
        assert pos["h"] == r.h()
    if "complete" in pos:
        assert pos["complete"] == (r.score(r.concealed, True) is not None)
    if "exchanges" in pos:
        assert pos["h"] == 1, "the test suite asks for h = 1, where the oracle lists every exchange"
        claimed = {(e["out"][0], e["in"][0]) for e in pos["exchanges"]}
        assert len(claimed) == len(pos["exchanges"]) and claimed == oracle_exchanges_h1(r)
    if "discard" in pos:
        rows = oracle_discards_h1(r)
        best, runner = rows[0], rows[1]
        claim = pos["discard"]
        assert r.ev.tiles.ids[best[1]] == claim["tile"] and claim["h"] == 1
        assert sum(a["live"] for a in claim["accept"]) == best[0]
        assert best[0] - runner[0] == pos["difficulty"]["margin"] >= 1  # unique by the margin stated
    if pos.get("shortcut") == "two_missing":  # the shortcut's own h, with the oracle on the allowed units only
        allowed = [u for u in r.units if sum(1 for k in u if r.concealed[k] == 0) <= 2]
        short = r.h(allowed)
        assert short is None or short > pos["h"]
    if pos.get("shortcut") == "copy_limit":  # a kind held 3 times would complete the hand with a 4th
        assert any(r.held(k) == 3 and r.score([c + (j == k) for j, c in enumerate(r.concealed)], True) is not None
                   for k in range(r.K))


# --- the tests ---------------------------------------------------------------------------------------


def test_every_kind_and_trap_label_is_generated(positions):
    kinds = Counter(p["kind"] for p in positions)
    assert set(kinds) == {"waits", "exchanges", "discard", "traps"}
    labels = {(p["rules"], p["shortcut"]) for p in positions if p["kind"] == "traps"}
    assert {label for _, label in labels} == set(TRAPS)
    assert ("hitori-jong-2.1", "copy_limit") in labels


def test_every_position_is_reverified_by_the_oracle(positions):
    for pos in positions:
        verify_by_oracle(pos)


def test_check_accepts_every_generated_answer(positions):
    for n, pos in enumerate(positions, 1):
        result = check_claim(dumps(pos), n)
        assert result["verdict"] == "correct", result


def perturbations(pos: dict) -> list[tuple[str, dict]]:
    """Each claimed answer changed in one way that must make it wrong."""
    out = []

    def variant(label: str, change) -> None:
        other = copy.deepcopy(pos)
        change(other)
        out.append((label, other))

    if "waits" in pos:
        variant("drop a wait", lambda p: p["waits"].pop())
        variant("tsumo score", lambda p: p["waits"][0].update(tsumo=p["waits"][0]["tsumo"] + 1000))
        variant("ron score", lambda p: p["waits"][0].update(ron=(p["waits"][0]["ron"] or 0) + 1000))
        variant("live count", lambda p: p["waits"][0].update(live=(p["waits"][0]["live"] + 1) % 4))
        extra = next(t for t in ("haruka", "chihaya", "miki", "shika") if t not in {w["tile"] for w in pos["waits"]})
        variant("a wait too many", lambda p: p["waits"].append({"tile": extra}))
    if "h" in pos:
        variant("h + 1", lambda p: p.update(h=p["h"] + 1))
    if "complete" in pos:
        variant("complete flipped", lambda p: p.update(complete=not p["complete"]))
    if "exchanges" in pos:
        variant("drop an exchange", lambda p: p["exchanges"].pop())
    if "discard" in pos:
        variant("discard h", lambda p: p["discard"].update(h=p["discard"]["h"] + 1))
        variant("drop an accepted tile", lambda p: p["discard"]["accept"].pop())
        variant("live count", lambda p: p["discard"]["accept"][0].update(live=p["discard"]["accept"][0]["live"] - 1))
    return out


def test_check_rejects_each_answer_perturbed(positions):
    for pos in positions:
        for label, other in perturbations(pos):
            result = check_claim(other)
            assert result["verdict"] == "wrong", (pos["id"], label, result)


def test_same_seed_same_bytes_other_seed_other_positions():
    first = [dumps(p) for p in suite("waits", 3, 5)]
    assert first == [dumps(p) for p in suite("waits", 3, 5)]
    assert first != [dumps(p) for p in suite("waits", 3, 6)]


def test_difficulty_levels_bound_the_features(positions):
    hard = suite("waits", 2, 3, "hard")
    for pos in hard:
        f = pos["difficulty"]
        assert f["level"] == "hard" and f["waits"] >= 3 and f["depth"] >= 1 and f["hidden"] >= 2
    for pos in positions:
        if pos["kind"] == "waits":
            assert pos["difficulty"]["waits"] == len(pos["waits"])
            assert pos["difficulty"]["dead"] == sum(1 for w in pos["waits"] if w["live"] == 0)


def test_difficulty_parser():
    level = parse_difficulty("waits", "waits>=3,depth=1")
    assert level.bounds == (("depth", 1, 1), ("waits", 3, None))
    assert level.admits({"waits": 4, "depth": 1}) and not level.admits({"waits": 2, "depth": 1})
    assert parse_difficulty("discard", "easy").wants("margin") == (4, None)
    for bad in ("wats>=2", "waits>2", "impossible"):
        with pytest.raises(MjError) as info:
            parse_difficulty("waits", bad)
        assert info.value.code == "ERR_BAD_DIFFICULTY"


def test_exact_covers_agree_with_the_oracle():
    ev = ev_for("2019-12")
    units = [u.members for u in ev.rules.units]
    for pos in suite("waits", 3, 17):
        hand = hand_from_list(pos["hand"], ev.rules)
        for w in pos["waits"]:
            counts = Counter({k: n for k, n in enumerate(hand.concealed) if n}) + Counter([ev.tile(w["tile"])])
            mine = sorted(exact_covers(ev.rules, counts))
            theirs = sorted(tuple(sorted(u for u, _ in split))
                            for split in oracle.enumerate_splits(units, [counts[k] for k in range(len(ev.tiles))],
                                                                 exact=True))
            assert mine == theirs and mine
            assert wait_depth(ev.rules, counts, mine[0]) == 0


def test_checker_reads_the_informational_fields_and_still_rejects_typos():
    pos = suite("waits", 1, 1)[0]
    assert {"kind", "difficulty"} <= set(pos)
    assert check_claim(pos)["verdict"] == "correct"
    typo = {("kinds" if k == "kind" else k): v for k, v in pos.items()}
    result = check_claim(typo)
    assert result["verdict"] == "invalid" and result["problems"][0]["code"] == "unknown_field"


def test_too_few_found_is_said_after_what_was_found():
    found = []
    with pytest.raises(MjError) as info:  # seed 1: position 0 is found in one attempt, position 1 is not
        for pos in generate("waits", 3, 1, difficulty="waits>=2", evaluator=ev_for("2019-12"), attempts=1):
            found.append(pos)
    assert len(found) == 1
    assert info.value.code == "ERR_TOO_FEW" and "found only 1 of 3" in str(info.value)
    assert "position 1 not found in 1 attempts" in str(info.value)


runner = CliRunner()


def test_cli_writes_the_file_and_check_accepts_it(tmp_path):
    out = tmp_path / "suite.jsonl"
    result = runner.invoke(app, ["generate", "waits", "--count", "2", "--seed", "4", "--output", str(out)])
    assert result.exit_code == 0, result.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["waits-4-0000", "waits-4-0001"]
    again = runner.invoke(app, ["generate", "waits", "-n", "2", "--seed", "4"])
    assert again.stdout.splitlines() == lines
    checked = runner.invoke(app, ["check", str(out), "--workers", "1"])
    assert checked.exit_code == 0, checked.stdout


@pytest.mark.parametrize("args, message", [
    (["generate", "wait"], "unknown kind 'wait'"),
    (["generate", "waits", "--difficulty", "wiats>=2"], "bad difficulty"),
    (["generate", "waits", "--rules", "2019-13"], "unknown rule set"),
])
def test_cli_usage_errors(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr and len(result.stderr.splitlines()) == 1


def test_each_trap_catches_the_shortcut_it_targets(positions):
    """The engine model that takes a trap's shortcut is judged wrong there; the models of Hitori-Jong
    2.1.0's two known shortcuts are also wrong on the other rule set's traps of the same label."""
    from solver.generation.shortcuts import shortcut_answer

    reasons = {"copy_limit": {"fourth_copy"}, "two_missing": {"h_two_missing", "h_value"}, "called_whole": {"not_a_wait"},
               "sora_mode": {"h_value", "is_complete", "not_complete"}, "ron_shika": {"wait_ron"},
               "call_not_lowering": {"h_value"}}
    seen = set()
    for pos in positions:
        if pos["kind"] != "traps":
            continue
        label = pos["shortcut"]
        answered = shortcut_answer(ev_for(pos["rules"]), pos, label)
        result = check_claim(answered)
        assert result["verdict"] == "wrong", (label, result)
        codes = {r["code"] for f in result["fields"].values() for r in f.get("reasons", [])}
        assert codes & reasons[label], (label, codes)
        seen.add(label)
    assert seen == set(reasons)


def test_exchanges_at_h2_each_reach_a_complete_hand_by_the_oracle():
    """At h = 2 the oracle cannot list every exchange quickly; it checks h and that each listed exchange
    completes the hand within the copy limit (the list's completeness is the core's own proof)."""
    for pos in suite("exchanges", 1, 22, "hard"):
        r = Reading(pos)
        assert pos["h"] == r.h() == 2
        for e in pos["exchanges"]:
            after = list(r.concealed)
            for t in e["out"]:
                after[r.tile(t)] -= 1
            for t in e["in"]:
                after[r.tile(t)] += 1
            assert min(after) >= 0 and max(after) <= 3 and len(e["out"]) == 2
            assert r.score(after, True) is not None
