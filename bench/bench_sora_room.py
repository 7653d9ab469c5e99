"""P(win) with a fetch-mode そら held and a waiting room, 3 draws (2019-12): the default answer against the optimum,
and against the same answer without the deepening (solver/planning/fetch_within.py), measured in the same run.

    .venv/bin/python bench/bench_sora_room.py              # 8 positions, the default budget (5 s), ~90 s
    .venv/bin/python bench/bench_sora_room.py --optimum    # ... and the optimum recomputed with no clock (~3 min more)
    .venv/bin/python bench/bench_sora_room.py --turns 4 8  # past 3 draws: with and without the short levels

The positions come from the QA round of 2026-11-27 (five with two そら, three with one); OPTIMUM holds each one's
optimal P(win) (the search with every fetch with no clock, 1-16 s each; 1.3-42 s before the filters' speed-up of
2026-11-27 evening), which --optimum recomputes. Per answer:
seconds, method, the recommended discard's value and proved upper bound, and whether it is an optimal discard (its
optimum equals the best). The baseline keeps today's upper bound (bounds.fetch_needs): only the lower side differs.
Past 3 draws (--turns), where the optimum is out of reach, the baseline is the deepening without its levels over the
first 3 draws (fetch_within.SHORT), and the recommended row's lower bound is compared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver import Evaluator  # noqa: E402
from solver.planning import fetch_within, plan as plan_module  # noqa: E402

POSITIONS = [  # (hand, waiting room)
    ("律子 そら 紬 ひなた 千早 雪歩 真美 百合子 そら 育 やよい 真美 杏奈", "風花 美也 星梨花 奈緒 麗花 美奈子 このみ"),
    ("朋花 千鶴 伊織 美希 そら 亜利沙 未来 翼 杏奈 そら 瑞希 千早 静香", "貴音 可憐 真美 ロコ 紗代子 このみ"),
    ("美希 そら 百合子 亜利沙 エミリー 未来 まつり 百合子 エミリー 可奈 未来 静香 そら", "育 亜美 朋花 のり子 歩 環 真美 奈緒"),
    ("ロコ やよい 昴 そら あずさ 紗代子 そら 可憐 真美 美奈子 育 ひなた このみ", "美奈子 志保 美也 亜美 茜 千鶴"),
    ("亜美 歩 そら 紗代子 朋花 真 昴 あずさ 莉緒 やよい 亜美 そら 詩花", "美奈子 伊織 紬 亜利沙 律子"),
    ("エレナ そら 美奈子 可奈 瑞希 可憐 麗花 美希 歩 貴音 翼 瑞希 ジュリア", "育 桃子 海美 のり子 美希 のり子 杏奈"),
    ("翼 美奈子 のり子 真美 そら 育 ひなた 響 翼 瑞希 ジュリア このみ 莉緒", "伊織 紗代子 エミリー"),
    ("美希 伊織 亜美 真美 恵美 歩 瑞希 琴葉 このみ 瑞希 桃子 そら 詩花", "美希 可憐 亜美"),
]
OPTIMUM = [0.19069487849080297, 0.07661118224498506, 0.07182618646723958, 0.028403371675772036,
           0.019513936767457895, 0.12443490731623785, 0.03416423922741826, 0.06789383561643836]
TURNS = 3


def optimum_rows(ev: Evaluator, hand: str, room: str) -> dict:
    """{discard: optimal P(win)}: the plan with no clock and a state cap it does not reach."""
    got = ev.plan(hand, TURNS, waiting_room=room, both=False, seconds=None, max_states=50_000_000)
    assert got.method == "optimal", got.stopped
    return {r.tile: float(r.win_probability) for r in got.discards}


def answered(ev: Evaluator, hand: str, room: str, deepening: bool,
             turns: int = TURNS) -> tuple[float, str, int, float, float]:
    """(seconds, method, recommended discard, its value, its proved upper bound) of the default answer (P(win)
    alone), with or without the deepening (without: the optimal step and the bracket as before it, no levels; past
    3 draws, the deepening without its short levels)."""
    saved = plan_module.deepens, fetch_within.fetch_within, fetch_within.SHORT
    if not deepening and turns > TURNS:
        fetch_within.SHORT = turns
    elif not deepening:
        plan_module.deepens = lambda rules, request: False
        fetch_within.fetch_within = lambda rules, request, rows, deadline, deep=None: (rows, [])
    try:
        start = time.monotonic()
        got = ev.plan(hand, turns, waiting_room=room, both=False)
        best = got.recommended
        return time.monotonic() - start, got.method, best.tile, float(best.win_probability), float(best.upper)
    finally:
        plan_module.deepens, fetch_within.fetch_within, fetch_within.SHORT = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--optimum", action="store_true", help="recompute each position's optimum (no clock)")
    parser.add_argument("--turns", type=int, nargs="+", help="past 3 draws: with and without the short levels")
    args = parser.parse_args()
    ev = Evaluator("2019-12")
    if args.turns:
        return short_levels(ev, args.turns)
    results = {True: [], False: []}
    for (hand, room), best in zip(POSITIONS, OPTIMUM):
        rows = optimum_rows(ev, hand, room) if args.optimum else None
        if rows is not None:
            best = max(rows.values())
        print(f"{hand.count('そら')} そら  {hand}  (room {room}): optimum {best:.4f}")
        for deepening in (False, True):
            seconds, method, tile, value, upper = answered(ev, hand, room, deepening)
            hit = None if rows is None else rows[tile] == best
            results[deepening].append((seconds, best - value, hit))
            what = "with the deepening   " if deepening else "without (the baseline)"
            print(f"    {what} {seconds:5.2f} s  {method:8}  {ev.tiles.name(tile):6} {value:.4f} - {upper:.4f}  "
                  f"{'' if hit is None else ('optimal discard' if hit else 'NOT an optimal discard')}", flush=True)
    print()
    for deepening in (False, True):
        got = results[deepening]
        times, gaps = [s for s, _, _ in got], [g for _, g, _ in got]
        hits = [h for _, _, h in got if h is not None]
        what = "with the deepening   " if deepening else "without (the baseline)"
        print(f"{what}: seconds median {statistics.median(times):.2f} worst {max(times):.2f}; the optimum less the "
              f"recommended value: mean {statistics.mean(gaps):.4f}, worst {max(gaps):.4f}"
              + (f"; an optimal discard in {sum(hits)} of {len(hits)}" if hits else ""))


def short_levels(ev: Evaluator, turns_asked: list[int]) -> None:
    """Past 3 draws: the recommended row's lower bound and the time, with and without the short levels."""
    for turns in turns_asked:
        found = {True: [], False: []}
        for hand, room in POSITIONS:
            print(f"{turns} draws, {hand.count('そら')} そら  {hand}  (room {room})")
            for short in (False, True):
                seconds, method, tile, value, upper = answered(ev, hand, room, short, turns)
                found[short].append((seconds, value))
                what = "with the short levels   " if short else "without (the baseline)  "
                print(f"    {what} {seconds:5.2f} s  {method:8}  {ev.tiles.name(tile):6} {value:.4f} - {upper:.4f}",
                      flush=True)
        for short in (False, True):
            times, values = [s for s, _ in found[short]], [v for _, v in found[short]]
            what = "with the short levels" if short else "without (the baseline)"
            print(f"{turns} draws, {what}: seconds median {statistics.median(times):.2f} worst {max(times):.2f}; "
                  f"recommended lower bound mean {statistics.mean(values):.4f}, least {min(values):.4f}")
        gains = [a[1] - b[1] for a, b in zip(found[True], found[False])]
        print(f"{turns} draws: the lower bound raised on {sum(g > 0 for g in gains)} of {len(gains)} positions, "
              f"by {statistics.mean(gains):+.4f} mean, {max(gains):+.4f} at most, {min(gains):+.4f} at least\n")


if __name__ == "__main__":
    main()
