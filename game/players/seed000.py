"""The COM of seed 000 (Steps 1-3 as its author wrote them), with its known mistakes kept so that reviews
show them (docs/game.md, "seed000"):

- h and the optimal exchanges of its own hand only: no tile in view is taken into account (a wait whose
  copies all lie in the waiting rooms still counts);
- the discard keeps h least, then keeps the most distinct in-tiles ("every in-tile equally likely"),
  never weighted by live copies or by score (the favourite plays no part);
- そら is never discarded unless the hand is then one tile from winning (h = 1);
- a call is taken whenever it lowers h (the largest unit first, as its Step 1 sorts them);
- そら is used before the draw when h = 2 holding one, h <= 3 holding two, h <= 4 holding three, taking the
  waiting-room tile that the most optimal exchanges bring in; never at h <= 1.
Its exact search (h, exchanges) is the core's (exact); only the policy is seed 000's.
"""

from __future__ import annotations

from collections import Counter

from game.observation import Observation
from game.players.base import Com
from game.players.simple import call_result
from solver.core.exchanges import listed_exchanges
from solver.core.hand import Hand
from solver.core.search.fast import ACCEPT_NODES_C, search_for

NOTHING_SEEN: tuple[int, ...] = ()  # seed 000 ignores the waiting rooms ("これら以外の牌と河は考慮しない")


class Seed000Player(Com):
    name = "seed000"

    def h(self, obs: Observation, hand: Hand) -> int:
        h = search_for(obs.rules).h(hand, NOTHING_SEEN)
        return 99 if h is None else h

    def in_tiles(self, obs: Observation, hand: Hand) -> int:
        """Distinct kinds some optimal exchange brings in (each counted once, live or not)."""
        found = search_for(obs.rules).accepted(hand, NOTHING_SEEN, limit=ACCEPT_NODES_C, witnesses=False)
        return -1 if found is None else len(found[1])

    def discard(self, obs: Observation, hand: Hand) -> tuple[int, int]:
        sora = obs.table.sora
        kinds = [k for k, n in enumerate(hand.concealed) if n]
        after = {k: self.h(obs, hand.remove(k)) for k in kinds}
        if sora in after and len(kinds) > 1 and after[sora] != 1:  # そら kept unless tenpai after it
            del after[sora]
        best = min(after.values())
        tied = [k for k in after if after[k] == best]
        if len(tied) > 1:
            counts = {k: self.in_tiles(obs, hand.remove(k)) for k in tied}
            tied.sort(key=lambda k: (-counts[k], k))
        return tied[0], best

    def wanted(self, obs: Observation, hand: Hand) -> Counter:
        """How many optimal exchanges bring each kind in (Step 2's in-tiles, tallied)."""
        listed = listed_exchanges(search_for(obs.rules), obs.rules, hand, NOTHING_SEEN, limit=200)
        if listed is None:  # past the walk's work limit: each accepted kind counts once (docs/game.md)
            found = search_for(obs.rules).accepted(hand, NOTHING_SEEN, limit=ACCEPT_NODES_C, witnesses=False)
            return Counter(found[1] if found else ())
        return Counter(k for exchange in listed[1] for k in set(exchange.into))

    def discard_kind(self, observation: Observation) -> int:
        return self.discard(observation, observation.hand)[0]

    def respond(self, observation: Observation, possible_actions: list[dict]) -> dict:
        obs = observation
        if possible_actions[0]["type"] == "sora":
            return self.sora(obs, possible_actions)
        h_now = self.h(obs, obs.hand)
        calls = []
        for action in possible_actions:
            if action["type"] == "chi":
                hand, _ = call_result(obs, action)
                _, h = self.discard(obs, hand)
                if h < h_now:
                    calls.append((h, -len(action["consumed"]), obs.table.unit(action["unit"]), action))
        return min(calls, key=lambda c: c[:3])[3] if calls else {"type": "none"}

    def sora(self, obs: Observation, actions: list[dict]) -> dict:
        held = obs.hand.concealed[obs.table.sora]
        h = self.h(obs, obs.hand)
        if not 2 <= h <= min(held, 3) + 1:
            return {"type": "none"}
        tally = self.wanted(obs, obs.hand)
        offered = [a for a in actions if a["type"] == "sora" and tally[obs.table.kind(a["pai"])] > 0]
        if not offered:  # nothing wanted lies in a waiting room: keep そら for later
            return {"type": "none"}
        return max(offered, key=lambda a: (tally[obs.table.kind(a["pai"])], -obs.table.kind(a["pai"])))
