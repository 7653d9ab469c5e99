"""The two simplest COMs: `random` (uniform over legal actions, wins always taken) and `greedy` (the exact
search's answer to "least h, then most live acceptance"; calls and そら only when they lower h).

Both decide on the seat's own view (game/observation.py): the tiles it holds and every tile visible to it; h and
acceptance come from the exact search of the core (solver.core.search, exhaustive, no solver).
"""

from __future__ import annotations

import random

from game.observation import Observation
from game.players.base import Com, Player, win_in
from solver.core.hand import COPIES, Hand
from solver.core.search.fast import ACCEPT_NODES_C, search_for


class RandomPlayer(Player):
    name = "random"

    def start(self, seat: int, seed: int) -> None:
        super().start(seat, seed)
        self.rng = random.Random(seed)

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        return win_in(possible_actions) or self.rng.choice(possible_actions)


def plus(seen: tuple[int, ...], kind: int, n: int = 1) -> tuple[int, ...]:
    counts = list(seen)
    counts[kind] += n
    return tuple(counts)


def live(hand: Hand, obs: Observation, seen: tuple[int, ...], kinds: list[int]) -> int:
    """Copies of `kinds` not in the hand, its calls or in view: what the other hands and the wall may hold."""
    totals = hand.totals(obs.rules)
    return sum(max(0, COPIES - totals[k] - seen[k]) for k in kinds)


def call_result(obs: Observation, action: dict) -> tuple[Hand, tuple[int, ...]]:
    """The hand (13 tiles, the unit locked) and the seen counts after taking a call."""
    table = obs.table
    unit = table.unit(action["unit"])
    concealed = list(obs.hand.concealed)
    for name in action["consumed"]:
        concealed[table.kind(name)] -= 1
    hand = Hand(tuple(concealed), tuple(sorted(obs.hand.called + (unit,))))
    # the called tile leaves the room: it was seen, now it is in this hand's unit
    return hand, plus(obs.seen, table.kind(action["pai"]), -1)


def sora_result(obs: Observation, action: dict) -> tuple[Hand, tuple[int, ...]]:
    sora, take = obs.table.sora, obs.table.kind(action["pai"])
    return obs.hand.remove(sora).add(take), plus(plus(obs.seen, sora), take, -1)


class GreedyPlayer(Com):
    """Least h, then most live acceptance (the analysis' recommendation, from the fast exact search)."""

    name = "greedy"

    def h(self, obs: Observation, hand: Hand, seen: tuple[int, ...]) -> int:
        h = search_for(obs.rules).h(hand, seen)
        return 99 if h is None else h

    def best_discard(self, obs: Observation, hand: Hand, seen: tuple[int, ...],
                     allowed=None) -> tuple[int, int]:
        """(kind, h after it): least h after the discard, then most live copies of the kinds lowering it."""
        search = search_for(obs.rules)
        kinds = [k for k, n in enumerate(hand.concealed) if n and (allowed is None or allowed(k))]
        after = {k: self.h(obs, hand.remove(k), plus(seen, k)) for k in kinds}
        best_h = min(after.values())
        tied = [k for k in kinds if after[k] == best_h]
        if len(tied) == 1:
            return tied[0], best_h
        return max(tied, key=lambda k: (self.value(obs, search, hand.remove(k), plus(seen, k)), -k)), best_h

    def value(self, obs: Observation, search, rest: Hand, seen: tuple[int, ...]) -> int:
        found = search.accepted(rest, seen, limit=ACCEPT_NODES_C, witnesses=False)
        if found is None:  # past the search's node limit: h alone decides (docs/game.md)
            return -1
        return live(rest, obs, seen, found[1])

    def discard_kind(self, observation: Observation) -> int:
        return self.best_discard(observation, observation.hand, observation.seen)[0]

    def respond(self, observation: Observation, possible_actions: list[dict]) -> dict:
        obs = observation
        h_now = self.h(obs, obs.hand, obs.seen)
        best, best_h = {"type": "none"}, h_now
        for action in possible_actions:
            if action["type"] == "chi":
                hand, seen = call_result(obs, action)
                _, h = self.best_discard(obs, hand, seen)
            elif action["type"] == "sora":
                h = self.h(obs, *sora_result(obs, action))
            else:
                continue
            if h < best_h:
                best, best_h = action, h
        return best
