"""Issue 20, item 3: every command's plain (table) output on odd hands reads as text, never as Python:
no `None`, `nan`, `Fraction(`, `<... object at ...>` or traceback in any cell or line. Odd hands: unreachable
(every other copy seen), only そら concealed beside called units (each rule set: fetch, wildcard, dead),
12 tiles, 13 tiles complete, called units, and a hand of which no tile is in a unit with another."""

from __future__ import annotations

import re

import pytest
from test_hardening import run_mj

from solver.api import open_catalogue

PYTHON_REPR = re.compile(r"\bNone\b|\bnan\b|\binf\b|Fraction\(|object at 0x|Traceback|<[a-zA-Z_.]+ object")
THIRTEEN = "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美 響"
TWELVE = "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美"
SEED = "真 雪歩 あずさ 可奈 歩 未来 まつり 美也 紗代子 海美 奈緒 美奈子 星梨花"
CALLED = "[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也"
ONLY_SORA = "[杏奈 百合子 エミリー 志保 このみ] [千早 真 貴音 律子 響] そら そら そら"
UNREACHABLE_HAND = "春香 千早 美希 雪歩 やよい 真 伊織 貴音 律子 あずさ 亜美 真美 そら"


def everything_else_seen(hand: str) -> str:
    """Every copy not in `hand` seen: only the hand's own tiles are left to build with."""
    held = hand.split()
    return " ".join(name for idol in open_catalogue().idols for name in [idol.name] * (3 - held.count(idol.name)))


def per_hand(hand: str, rules: str, *extra: str) -> list[tuple[str, ...]]:
    common = ("--rules", rules, *extra)
    size = sum(1 for t in hand.replace("[", " ").replace("]", " ").split())
    runs = [("units", hand, "--rules", rules), ("h", hand, *common), ("analyze", hand, *common),
            ("plan", hand, "-n", "1", "--seconds", "1", *common)]
    if size == 13:
        runs += [("score", hand, "--tsumo", "--rules", rules), ("score", hand, "--no-win", "--rules", rules),
                 ("analyze", hand, "--favorite", "真", "--waiting-room", "春香 そら", *common)]
    else:
        runs += [("score", hand, "--no-win", "--rules", rules), ("analyze", hand, "--discard", "真", *common)]
    return runs


CASES = [
    *per_hand(UNREACHABLE_HAND, "2019-12", "--seen", everything_else_seen(UNREACHABLE_HAND)),
    *per_hand(ONLY_SORA, "2019-12"), *per_hand(ONLY_SORA, "2019-10"), *per_hand(ONLY_SORA, "hitori-jong-2.1"),
    *per_hand(TWELVE, "2019-12"), *per_hand(THIRTEEN, "2019-12"), *per_hand(CALLED, "2019-12"),
    *per_hand(SEED, "hitori-jong-2.1"),
    ("score", THIRTEEN, "--ron", "響"), ("score", CALLED, "--ron", "詩花"),
    ("analyze", THIRTEEN, "--turns", "1", "--seconds", "1"),
    ("catalogue", "idols"), ("catalogue", "units", "--rules", "2019-10"), ("catalogue", "rules"), ("example",),
]


def label(case: tuple[str, ...]) -> str:
    return " ".join(part if len(part) < 30 else part[:12] + "…" for part in case)


@pytest.mark.parametrize("case", CASES, ids=label)
def test_plain_output_holds_no_python(case):
    code, out, err = run_mj(*case)
    assert code in (0, 1, 2), (code, err[-2000:])
    if code == 2:  # a refusal: one line
        assert err.startswith("error: ") and err.count("\n") == 1, err[-2000:]
    else:  # an answer (`mj score` exits 1 with its verdict when the hand is not a win)
        assert out.strip() and (code == 0 or case[0] == "score"), (code, err[-2000:])
    for text in (out, err):
        found = PYTHON_REPR.search(text)
        assert found is None, text[max(0, found.start() - 300):found.end() + 100]


def test_the_unreachable_hand_reads_as_such():
    """The issue's reproduction: a discard row of an unreachable hand said `None` in its h cell."""
    code, out, _ = run_mj("analyze", UNREACHABLE_HAND, "--seen", everything_else_seen(UNREACHABLE_HAND))
    assert code == 0
    assert "no complete hand can be reached" in out and "│ unreachable │" in out
