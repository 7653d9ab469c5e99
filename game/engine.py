"""The game loop: deal, ask the players at every decision, log every event, score every seat at the end.

The engine alone applies the rules (game/legal.py lists the legal actions, game/state.py applies them); a
player's answer that is late, garbage, illegal or a crash never stops the game: an `error` event is logged and
the fallback COM decides (after a crash it plays that seat to the end).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from game import legal, scoring
from game.observation import observe, seat_event
from game.players.base import BotFault, Player
from game.state import HAND, GameState, Options, Table, apply, deal, initial, start_turn
from solver.api import Evaluator
from solver.core.errors import MjError, given, shown
from solver.core.rules import rules_digest


@dataclass(frozen=True)
class Setup:
    seed: int = 0
    seats: int = 4
    dealer: int = 0
    favourites: tuple[tuple[int, str], ...] = ()  # (seat, tile name) given; the others drawn by the seed
    options: Options = Options()

    def __post_init__(self) -> None:  # (QA: a str seed or a dict of favourites raised TypeError deep in play())
        for name in ("seed", "seats", "dealer"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise MjError(f"Setup's {name} is a whole number, not {given(value)}")
        if not 2 <= self.seats <= 4 or not 0 <= self.dealer < self.seats:
            raise MjError(f"Setup: 2 to 4 seats and a dealer among them, not seats {self.seats}, dealer {self.dealer}")
        if not isinstance(self.favourites, tuple) or not all(
                isinstance(f, tuple) and len(f) == 2 and type(f[0]) is int and isinstance(f[1], str)
                for f in self.favourites):
            raise MjError("Setup's favourites are a tuple of (seat, tile name) pairs, e.g. ((0, '春香'),)")


@dataclass
class Record:
    events: list[dict]
    state: GameState
    names: list[str]


def seat_result(ev: Evaluator, state: GameState, seat: int):
    """The seat's ScoreResult at the end (its units, bonus, total), or None where the rule set defines no score
    for a hand that did not win (e.g. 2019-10)."""
    result = scoring.seat_result(ev.rules, state, seat)
    if result is not None and any(win.seat == seat for win in state.wins) and not result.won:
        raise AssertionError(f"seat {seat}'s win does not score as a win: {result.reason}")  # a bug
    return result


def score_seat(ev: Evaluator, state: GameState, seat: int) -> int | None:
    """The seat's score at the end (None where the rule set defines no score for a hand that did not win)."""
    result = seat_result(ev, state, seat)
    return None if result is None else result.total


def check_playable(rules) -> None:
    """MjError where games cannot be played under the rule set (QA: a house's hand of 5 was dealt 12 tiles and
    never won)."""
    if rules.hand_size != HAND + 1:
        raise MjError(f"games deal {HAND} tiles and win on {HAND + 1}: rule set {rules.name} has hands of "
                      f"{rules.hand_size}, which h, score and plan answer but games do not play")


class Game:
    """One game of `setup.seats` players, in seat order; `fallback()` makes the COM that decides where a player
    fails; `on_event(event, state)` sees every event as it is logged. `play()` runs it to the end: a Record."""

    def __init__(self, ev: Evaluator, setup: Setup, players: list[Player], fallback: Callable[[], Player],
                 on_event: Callable[[dict, GameState], None] | None = None):
        if len(players) != setup.seats:
            raise MjError(f"one player per seat: {len(players)} players for {setup.seats} seats")
        check_playable(ev.rules)
        self.ev, self.setup, self.players = ev, setup, list(players)
        self.table = Table(ev.rules)
        self.fallback = fallback
        self.fallbacks: dict[int, Player] = {}
        # per seat: decisions asked, and those the fallback COM made (QA: a tournament credited an engine that
        # crashed in every game with the fallback's wins, and nothing said so)
        self.decisions, self.by_fallback = [0] * setup.seats, [0] * setup.seats
        self.crashed = [False] * setup.seats
        self.on_event = on_event
        self.events: list[dict] = []
        self.state: GameState | None = None

    # --- events ------------------------------------------------------------------------------------------
    def emit(self, event: dict) -> None:
        if self.state is not None:
            self.state = apply(self.state, event, self.table)
        self.events.append(event)
        for seat, player in enumerate(self.players):
            try:
                player.notify(seat_event(event, seat))
            except BotFault as fault:
                self.fault(seat, fault)
        if self.on_event is not None:
            self.on_event(event, self.state)  # None until the deal (start_game)

    def fault(self, seat: int, fault: BotFault) -> None:
        # crashed: the fallback COM plays the seat to the end (a review leaves its decisions out)
        self.events.append({"type": "error", "actor": seat, "reason": fault.reason,
                            **({"crashed": True} if fault.crashed else {}), **({"dropped": True} if fault.dropped else {})})
        if self.state is not None:
            self.state = apply(self.state, self.events[-1], self.table)
        if self.on_event is not None and self.state is not None:
            self.on_event(self.events[-1], self.state)
        if fault.crashed:  # the fallback plays the seat to the end
            self.crashed[seat] = True
            self.players[seat].close()
            self.players[seat] = self._fallback(seat)

    def _fallback(self, seat: int) -> Player:
        if seat not in self.fallbacks:
            player = self.fallback()
            player.start(seat, self.setup.seed * 7919 + seat)
            self.fallbacks[seat] = player
        return self.fallbacks[seat]

    def ask(self, seat: int, actions: list[dict]) -> dict:
        obs = observe(self.state, seat, self.table)
        self.decisions[seat] += 1
        self.by_fallback[seat] += self.crashed[seat]  # (its player is the fallback now)
        player = self.players[seat]
        try:
            try:
                answer = player.act(obs, actions)
            finally:
                for note in player.take_notes():  # (logged before the decision's own fault or event)
                    self.fault(seat, note)
            chosen = legal.pick(answer, actions)
            if chosen is None:
                raise BotFault(f"illegal action {shown(answer)[:200]}: {legal.why_not(answer, actions)}")
            label = getattr(self.players[seat], "last_label", None)
            return {**chosen, "label": label} if label else chosen  # e.g. a planner's greedy fallback
        except BotFault as fault:
            self.fault(seat, fault)
        self.by_fallback[seat] += 1
        chosen = legal.pick(self._fallback(seat).act(obs, actions), actions)
        assert chosen is not None, "the fallback COM answered an illegal action"  # a bug in a COM
        return chosen

    # --- the game ----------------------------------------------------------------------------------------
    def play(self) -> Record:
        """Deal, ask each player at each of its decisions, log every event, and score every seat at the end."""
        ev, setup, table = self.ev, self.setup, self.table
        chosen = {seat: ev.tile(name) for seat, name in setup.favourites}
        if ev.rules.tiles.sora in chosen.values():
            raise MjError("the favourite may be any kind but そら")
        hands, wall, favourites = deal(setup.seed, ev.rules, setup.seats, setup.dealer, chosen)
        names = [getattr(p, "name", "player") for p in self.players]
        try:
            for seat, player in enumerate(self.players):
                player.start(seat, setup.seed * 7919 + seat)
            self.emit({"type": "start_game", "names": names, "seed": setup.seed, "rules": ev.rules.name,
                       "as_of": ev.rules.as_of.isoformat() if ev.rules.as_of else None,
                       "favourites": [table.names[k] for k in favourites], "calls": setup.options.calls,
                       "multiple_ron": setup.options.multiple_ron, "rules_digest": rules_digest(ev.rules),
                       # the house files' names (not their paths), for whoever replays the log (QA: it named none)
                       **({"catalogue": [os.path.basename(f) for f in ev.catalogue.files]}
                          if ev.catalogue.files else {})})
            self.state = initial(hands, wall, setup.dealer, favourites, len(table.names), setup.options)
            self.emit({"type": "start_kyoku", "oya": setup.dealer,
                       "tehais": [[table.names[k] for k in hand] for hand in hands],
                       "wall": [table.names[k] for k in wall]})
            while self.state.phase != "end":
                self.step()
            won = {win.seat: win.score for win in self.state.wins}  # scored as they were logged
            scores = [won[seat] if seat in won else score_seat(ev, self.state, seat) for seat in range(setup.seats)]
            self.emit({"type": "end_game", "scores": scores})
        finally:
            for player in self.players + list(self.fallbacks.values()):
                player.close()
        return Record(self.events, self.state, names)

    def step(self) -> None:
        state, table = self.state, self.table
        if state.phase == "claim":
            self.claims()
            return
        if state.phase == "draw":
            if state.wall_left == 0:
                self.emit({"type": "ryukyoku"})
                return
            actions = legal.sora_actions(state, table)
            if actions:
                chosen = self.ask(state.turn, actions + [legal.NONE])
                if chosen["type"] == "sora":
                    self.emit(chosen)
            self.emit({"type": "tsumo", "actor": self.state.turn, "pai": table.names[self.state.wall[self.state.drawn]]})
            return
        chosen = self.ask(state.turn, legal.discard_actions(state, table))
        if chosen["type"] == "hora":
            chosen = {**chosen, "score": self._win_score(chosen)}
        self.emit(chosen)

    def claims(self) -> None:
        state, table, n = self.state, self.table, len(self.state.seats)
        discarder = state.last[0]
        answers = []
        for step in range(1, n):  # turn order after the discarder: the first claim there wins
            seat = (discarder + step) % n
            actions = legal.claim_actions(state, table, seat, self.setup.options)
            if actions:
                answers.append(self.ask(seat, actions))
        rons = [a for a in answers if a["type"] == "hora"]
        if rons:
            for ron in rons if self.setup.options.multiple_ron else rons[:1]:
                self.emit({**ron, "score": self._win_score(ron)})
            return
        call = next((a for a in answers if a["type"] == "chi"), None)
        if call is not None:
            self.emit(call)
        elif state.wall_left == 0:  # the next seat would draw from an empty wall
            self.emit({"type": "ryukyoku"})
        else:  # the log has no event for passing: the next seat's turn starts (as its first event would)
            self.state = start_turn(self.state)

    def _win_score(self, action: dict) -> int | None:
        """The score of a win about to be logged (end_game repeats it)."""
        probe = apply(self.state, {**action, "score": None}, self.table)
        win = probe.wins[-1]
        return score_seat(self.ev, probe, win.seat)
