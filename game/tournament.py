"""A duplicate tournament between COMs and external engines: the schedule, one game as a batch job, the summary.

Duplicate format: every deal (a seed) is played once per seat rotation of the P players, so each player
sits at every seat of every deal once (with that seat's 12 tiles, its favourite and its place in the
draw order) and the luck of the deal cancels in the comparisons. Game ``i`` is deal ``i // P``, rotation
``i % P``; in rotation ``r`` seat ``s`` is played by player ``(s + r) % P`` (seat 0 deals). The players'
order around the table stays the same in every rotation (a cyclic shift, not every permutation).

The summary (game/stats.py for the intervals, all 95 %, all estimates): per player the win rate with its
Wilson interval (games as independent trials), the mean score with a Student t interval over the deals
(the player's mean over its P games of each deal is one observation: deals are independent, games of
one deal are not), and for each pair of players the differences A - B of both, paired by deal (Student t
over the per-deal differences). A t interval needs 2 deals and some spread among them: else none is given
(game/stats.py spread_interval). Rendering is the console's (console/tournament.py).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict, dataclass
from typing import Any

from game.players import COMS, FALLBACK, NO_COMMAND, split_alias
from game.stats import spread_interval, wilson
from solver.core.errors import MjError, shown

FAULT_COUNTS = ("decisions", "fallback", "crashed")  # per seat: decisions asked, made by the fallback COM, crashed (0/1)
METHODS = {
    "win_rate_ci": "Wilson score interval, 95 %, each game an independent trial",
    "mean_score_ci": "Student t interval, 95 %, over the deals (a player's mean over its games of a deal), clipped at 0",
    "pairs": "paired by deal: Student t interval, 95 %, over the per-deal differences A - B",
}


def check_players(specs: list[str]) -> list[str]:
    """The specs as given (MjError for a human, an unknown name, or not 2 to 4 players)."""
    if not 2 <= len(specs) <= 4:
        raise MjError(f"a tournament has 2 to 4 players (--player once each), not {len(specs)}")
    for given in specs:
        spec = split_alias(given)[1]
        if spec == "human":
            raise MjError(f"a tournament has no human player: use COMs ({', '.join(COMS)}) or cmd:COMMAND engines")
        if spec not in COMS and not (spec.startswith("cmd:") and spec[4:].strip()):
            if spec.startswith("cmd:"):  # (QA: "unknown player cmd::")
                raise MjError(NO_COMMAND)
            raise MjError(f"unknown player {shown(spec)}: one of {', '.join(COMS)} or cmd:COMMAND (NAME=PLAYER names "
                          "one)")
    return list(specs)


def player_names(specs: list[str]) -> list[str]:
    """The spec string, or its NAME where given as NAME=SPEC; the same one twice or more is numbered in --player order
    (greedy#1, greedy#2)."""
    seen: dict[str, int] = {}
    names = []
    specs = [split_alias(spec)[0] or spec for spec in specs]
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(f"{spec}#{seen[spec]}" if specs.count(spec) > 1 else spec)
    return names


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of a deal (`mj play --seed` replays it): 48 bits of SHA-256, the same on every machine
    and far from the seeds of the tournaments with nearby --seed values."""
    return int.from_bytes(hashlib.sha256(f"mj-tournament:{seed}:{deal}".encode()).digest()[:6], "big")


def seating(players: int, rotation: int) -> list[int]:
    """The player at each seat in this rotation."""
    return [(seat + rotation) % players for seat in range(players)]


@dataclass(frozen=True)
class Settings:
    """Everything that decides a tournament's games (and so its output file: the .meta records it)."""

    players: tuple[str, ...]
    deals: int
    seed: int = 0
    rules: str = "2019-12"
    calls: str = "any"
    multiple_ron: bool = False
    planner_budget: float = 0.5
    bot_timeout: float = 5.0
    catalogue: tuple[str, ...] = ()  # a house's catalogue files (absolute paths: workers open them too)

    @property
    def games(self) -> int:
        return self.deals * len(self.players)

    def record(self) -> dict[str, Any]:
        """The output's .meta record (solver/batch/output.py): keys read as the flags they come from."""
        fields = asdict(self)
        house = fields.pop("catalogue")
        if house:  # (its evaluator built only then)
            from solver.api import house_record

            fields |= house_record(house, evaluator(self).rules)
        return {"command": "tournament", "player": list(fields.pop("players")), "games": self.games,
                **{k: v for k, v in fields.items() if k != "deals"}}


def deals_for(games: int, players: int) -> int:
    """--games counts games; a deal is never split, so it rounds up to whole deals of `players` games."""
    if games < 1:
        raise MjError(f"--games must be at least 1, not {games}")
    return -(-games // players)


def evaluator(settings: Settings):
    """The process's Evaluator for the tournament's rule set (a worker scores many games with it)."""
    from solver.api import shared_evaluator

    return shared_evaluator(settings.rules, settings.catalogue)


def log_path(logs: str, index: int) -> str:
    """Where --logs DIR keeps game ``index``'s log."""
    return os.path.join(logs, f"game-{index:06d}.jsonl")


def play_game(index: int, settings: Settings, logs: str | None = None) -> dict[str, Any]:
    """Game ``index`` of the tournament: one JSON-able line (no times in it: the same seed, the same bytes); with
    `logs`, its whole log is written there too (log_path; whole or not at all: a temporary file, then renamed)."""
    from game.engine import Game, Setup
    from game.players import fallback_player, make_player
    from game.state import Options

    n = len(settings.players)
    deal, rotation = divmod(index, n)
    seats = seating(n, rotation)
    seed = deal_seed(settings.seed, deal)
    players = [make_player(settings.players[p], settings.bot_timeout, settings.planner_budget) for p in seats]
    setup = Setup(seed, n, 0, (), Options(settings.calls, settings.multiple_ron))
    game = Game(evaluator(settings), setup, players, fallback_player)
    record = game.play()
    if logs is not None:
        from game.log import write

        path = log_path(logs, index)
        try:
            with open(path + ".part", "w", encoding="utf-8") as handle:
                write(record.events, handle)
            os.replace(path + ".part", path)
        except OSError as exc:
            raise MjError(f"cannot write the log {shown(path)}: {exc.strerror}") from None
    errors = [0] * n
    for event in record.events:
        if event["type"] == "error":
            errors[event["actor"]] += 1
    wins = record.state.wins
    return {"game": index, "deal": deal, "rotation": rotation, "seed": seed, "seats": seats,
            "end": ("tsumo" if wins[0].tsumo else "ron") if wins else "draw",
            "winners": [win.seat for win in wins], "from": wins[0].target if wins else None,
            "scores": record.events[-1]["scores"], "errors": errors, "events": len(record.events),
            "decisions": game.decisions, "fallback": game.by_fallback, "crashed": [int(c) for c in game.crashed]}


def play_games(indices: list[int], settings: Settings, logs: str | None = None) -> list[dict[str, Any]]:
    """The job of a batch executor (solver/batch): a chunk of games. A usage problem met in a worker (a bot
    that cannot start) comes back as ``{"game": i, "error": text}``, for the parent to report."""
    results = []
    for index in indices:
        try:
            results.append(play_game(index, settings, logs))
        except MjError as exc:
            results.append({"game": index, "error": str(exc)})
            break
    return results


def check_line(line: Any, index: int, settings: Settings) -> None:
    """MjError unless ``line`` (a parsed output line) is game ``index`` of this tournament."""
    n = len(settings.players)
    ok = (isinstance(line, dict) and line.get("game") == index
          and line.get("seed") == deal_seed(settings.seed, index // n)
          and line.get("seats") == seating(n, index % n) and line.get("end") in ("tsumo", "ron", "draw")
          and _ints(line.get("scores"), n, none=True) and _ints(line.get("errors"), n)
          and _ints(line.get("winners"), None) and _ended(line, n)
          and all(_ints(line.get(key, [0] * n), n) for key in FAULT_COUNTS))  # (absent in older files)
    if not ok:
        raise MjError(f"line {index + 1} is not game {index} of this tournament")


def _ended(line: dict[str, Any], n: int) -> bool:
    """The end as a game can end: no winner and no discarder in a draw; one winner who drew the tile in a tsumo;
    in a ron, distinct winners and a discarder who is none of them, all seats of the game."""
    end, winners, source = line["end"], line["winners"], line.get("from")
    if end == "draw":
        return not winners and source is None
    seats = range(n)
    if not winners or len(set(winners)) != len(winners) or any(w not in seats for w in winners):
        return False
    if end == "tsumo":
        return len(winners) == 1 and source == winners[0]
    return isinstance(source, int) and not isinstance(source, bool) and source in seats and source not in winners


def _ints(value: Any, n: int | None, none: bool = False) -> bool:
    """A list (of n) integers (or None, where a rule set gives no score)."""
    return (isinstance(value, list) and (n is None or len(value) == n)
            and all((v is None and none) or (isinstance(v, int) and not isinstance(v, bool)) for v in value))


class Tally:
    """The summary, fed one game line at a time in game order (from the output file or as games come). Every
    statistic is over whole deals: a duplicate deal is compared whole (each player in every seat), so the games of a
    deal a stop cut short are counted apart (`unfinished`) and in nothing else (QA: a run stopped within a deal gave
    its win rates over 16 games and its mean scores over 15)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        n = self.n = len(settings.players)
        self.games = [0] * n
        self.wins = [0] * n
        self.deal_ins = [0] * n  # a ron off this player's discard
        self.unscored = [0] * n  # games where the rule set gave this player's hand no score
        self.ends = {"tsumo": 0, "ron": 0, "draw": 0}
        self.errors = [0] * n
        self.faults = {key: [0] * n for key in FAULT_COUNTS}
        # per player and seat: games, wins, score total (None once a game there had no score); seat 0 deals and
        # draws first, so an organiser can see what a seat is worth (QA: no per-seat figures)
        self.seats = [[[0, 0, 0] for _ in range(n)] for _ in range(n)]
        self.deal_scores: list[list[float]] = []  # per complete deal: each player's mean score there
        self.deal_wins: list[list[float]] = []  # per complete deal: each player's share of wins there
        self.deal: list[dict[str, Any]] = []  # the lines of the deal under way

    def add(self, line: dict[str, Any]) -> None:
        self.deal.append(line)
        if len(self.deal) < self.n:
            return
        score, won = [0.0] * self.n, [0] * self.n  # the deal is complete: one observation per player
        for game in self.deal:
            self.ends[game["end"]] += 1
            for seat, player in enumerate(game["seats"]):
                got, win = game["scores"][seat], seat in game["winners"]
                self.games[player] += 1
                self.wins[player] += win
                self.deal_ins[player] += game["end"] == "ron" and game["from"] == seat
                self.errors[player] += game["errors"][seat]
                here = self.seats[player][seat]
                here[0] += 1
                here[1] += win
                here[2] = None if got is None or here[2] is None else here[2] + got
                for key, counts in self.faults.items():
                    counts[player] += game.get(key, [0] * self.n)[seat]
                self.unscored[player] += got is None
                score[player] += got or 0
                won[player] += win
        self.deal_scores.append([s / self.n for s in score])
        self.deal_wins.append([w / self.n for w in won])
        self.deal = []

    def summary(self) -> dict[str, Any]:
        settings, names = self.settings, player_names(list(self.settings.players))
        players = []
        for p in range(self.n):
            scored = not self.unscored[p]
            mean, interval = spread_interval([d[p] for d in self.deal_scores]) if scored else (None, None)
            interval = interval and (max(0.0, interval[0]), interval[1])  # (QA: a hand's score is never negative)
            rate = self.wins[p] / self.games[p] if self.games[p] else None
            players.append({"name": names[p], "spec": settings.players[p], "games": self.games[p],
                            "wins": self.wins[p], "win_rate": _round(rate, 4),
                            "win_rate_ci": _round(wilson(self.wins[p], self.games[p]), 4),
                            "mean_score": _round(mean, 2), "mean_score_ci": _round(interval, 2),
                            "deal_ins": self.deal_ins[p], "bot_errors": self.errors[p],
                            "decisions": self.faults["decisions"][p], "fallback_decisions": self.faults["fallback"][p],
                            "crashed_games": self.faults["crashed"][p],
                            "by_seat": [{"seat": seat, "games": g, "wins": w, "win_rate": _round(w / g if g else None, 4),
                                         "mean_score": _round(total / g if g and total is not None else None, 2)}
                                        for seat, (g, w, total) in enumerate(self.seats[p])]})
        pairs = []
        for a in range(self.n):
            for b in range(a + 1, self.n):
                both_scored = not (self.unscored[a] or self.unscored[b])
                score, score_ci = (spread_interval([d[a] - d[b] for d in self.deal_scores]) if both_scored
                                   else (None, None))
                rate, rate_ci = spread_interval([d[a] - d[b] for d in self.deal_wins])
                rate_ci = rate_ci and (max(-1.0, rate_ci[0]), min(1.0, rate_ci[1]))  # a difference of rates
                pairs.append({"a": names[a], "b": names[b], "deals": len(self.deal_scores),
                              "score_diff": _round(score, 2), "score_diff_ci": _round(score_ci, 2),
                              "win_rate_diff": _round(rate, 4), "win_rate_diff_ci": _round(rate_ci, 4)})
        return {"players": players, "pairs": pairs, "deals": len(self.deal_scores), "games": sum(self.ends.values()),
                "unfinished": len(self.deal),
                "rotations": self.n, "ends": dict(self.ends), "seed": settings.seed, "rules": settings.rules,
                "calls": settings.calls, "multiple_ron": settings.multiple_ron,
                "planner_budget": settings.planner_budget, "bot_timeout": settings.bot_timeout, "fallback": FALLBACK,
                **({"catalogue": list(settings.catalogue)} if settings.catalogue else {}),
                "intervals": METHODS}


def _round(value: Any, digits: int) -> Any:
    """Rounded for the report (no 0.30000000000000004); an interval as a [low, high] list."""
    if value is None:
        return None
    if isinstance(value, tuple):
        return [round(v, digits) + 0.0 for v in value]  # + 0.0: never -0.0
    return round(value, digits) + 0.0
