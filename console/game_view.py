"""How a game looks in the terminal (seed 000's screenshots: every hand, h, the waits when ready, calls, the
winner and every score), a human seat's prompt, and `mj replay`'s position. Rendering only: the rules are
game/'s."""

from __future__ import annotations

import re
import sys

import typer

from game.observation import Observation, distance, elsewhere, observe
from game.players.base import BotFault, Player
from game.state import GameState
from solver.core.errors import shown
from solver.core.hand import Hand
from solver.core.wording import count


def _names(kinds, rules) -> str:
    return " ".join(rules.tiles.name(k) for k in kinds)


def hand_text(hand: Hand, rules) -> str:
    called = " ".join(f"[{_names(rules.units[u].members, rules)}]" for u in hand.called)
    return (called + " " + _names(hand.tiles(), rules)).strip()


def h_text(hand: Hand, rules) -> str:
    h, waits = distance(rules, hand)
    text = "h ?" if h is None else f"h {h}"
    return text + (f"  waits: {_names(waits, rules)}" if waits else "")


def fault_outcome(event: dict) -> str:
    """What became of the decision an error event is about."""
    return ("(its answer stands)" if event.get("dropped") else
            "(the fallback COM plays the seat to the end)" if event.get("crashed") else "(the fallback COM decides)")


class Narrator:
    """Prints each event as it happens (plain lines; `mj play --json` prints the log instead)."""

    def __init__(self, ev, specs: list[str]):
        self.ev, self.rules, self.specs = ev, ev.rules, specs
        self.drawn: dict[int, str] = {}
        self.faults: dict[int, list[int]] = {}  # seat -> [decisions the fallback took, outputs dropped, crashed]
        humans = {i for i, spec in enumerate(specs) if spec == "human"}
        # with a human at the table, only the human's tiles are shown until the end
        self.open = humans or set(range(len(specs)))

    def hand_line(self, seat: int, state: GameState) -> str:
        hand = state.seats[seat].hand()
        if seat in self.open:
            return f"{hand_text(hand, self.rules)}   {h_text(hand, self.rules)}"
        called = " ".join(f"[{_names(self.rules.units[u].members, self.rules)}]" for u in hand.called)
        return f"{called} {sum(hand.concealed)} concealed tiles".strip()

    def who(self, seat: int) -> str:
        return f"{seat} {self.specs[seat]}"

    def __call__(self, event: dict, state: GameState) -> None:
        kind, rules = event["type"], self.rules
        say = typer.echo
        if kind == "start_game":
            favs = ", ".join(f"{self.who(i)} ♥{f}" for i, f in enumerate(event["favourites"]))
            say(f"Milli-Jong, rules {event['rules']}, seed {event['seed']}: {favs}")
        elif kind == "start_kyoku":
            for i in range(len(state.seats)):
                say(f"  {self.who(i)}: {self.hand_line(i, state)}")
        elif kind == "tsumo":
            self.drawn[event["actor"]] = event["pai"]
        elif kind == "sora":
            say(f"{self.who(event['actor'])} uses そら: takes {event['pai']} from {event['target']}'s waiting room")
        elif kind == "chi":
            say(f"{self.who(event['actor'])} calls {event['unit']} [{' '.join(event['consumed'])} + {event['pai']}]"
                f" on {event['target']}'s discard")
        elif kind == "dahai":
            actor = event["actor"]
            drawn = self.drawn.pop(actor, None) if actor in self.open else None
            note = f"  ({event['label']})" if event.get("label") else ""
            say(f"{self.who(actor):<12} {('draws ' + drawn + ', ') if drawn else ''}sends {event['pai']}: "
                f"{self.hand_line(actor, state)}{note}")
        elif kind == "hora":
            how = "tsumo" if event["actor"] == event["target"] else f"ron on {event['target']}'s discard"
            say(f"ミリオンライブ! {self.who(event['actor'])} wins by {how} {event['pai']}: {event['score']} points")
        elif kind == "ryukyoku":
            say("Exhaustive draw: the wall is empty; every seat scores as not won")
        elif kind == "error":
            tally = self.faults.setdefault(event["actor"], [0, 0, 0])
            tally[2 if event.get("crashed") else 1 if event.get("dropped") else 0] += 1
            say(f"{self.who(event['actor'])} error: {event['reason']} {fault_outcome(event)}")
        elif kind == "end_game":
            say("Scores:")
            winners = {w.seat for w in state.wins}
            for i, (seat, score) in enumerate(zip(state.seats, event["scores"])):
                mark = "won " if i in winners else "    "
                shown = "—" if score is None else str(score)
                say(f"  {mark}{self.who(i):<12} {shown:>6}  ♥{rules.tiles.name(state.favourites[i])}  "
                    f"{hand_text(seat.hand(), rules)}")
            for seat, (decided, dropped, crashed) in sorted(self.faults.items()):  # (QA: faults only mid-game)
                say(f"Faults of {self.who(seat)}: " + ", ".join(part for part in (
                    f"{count(decided, 'answer')} not used (the fallback COM decided)" if decided else "",
                    f"lines answering no request dropped before {count(dropped, 'request')}" if dropped else "",
                    "crashed (the fallback COM played on)" if crashed else "") if part))


class HumanPlayer(Player):
    """A seat played at the terminal: numbered choices; "h" shows h and the waits. End of input hands the seat
    to the fallback COM."""

    name = "human"

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        obs, rules = observation, observation.rules
        err = sys.stderr
        drew = f", drew {rules.tiles.name(obs.drawn)}" if obs.drawn is not None else ""
        print(f"\nYour hand ({obs.wall_left} tiles in the wall{drew}): {hand_text(obs.hand, rules)}", file=err)
        for n, action in enumerate(possible_actions, 1):
            print(f"  {n:>2}  {describe(action)}", file=err)
        while True:
            try:
                answer = input("choose a number (h: h and waits): ").strip()
            except EOFError:
                raise BotFault("the human left (end of input)", crashed=True) from None
            if answer == "h":
                print(h_text(obs.hand, rules) if obs.sizes[obs.seat] == 12 else _discard_hints(obs), file=err)
            elif re.fullmatch(r"[0-9]{1,4}", answer, re.ASCII) and 1 <= int(answer) <= len(possible_actions):
                return possible_actions[int(answer) - 1]
            else:  # (QA: a bad answer had re-prompted without a word)
                print(f"{shown(answer) if answer else 'an empty answer'} is not a choice here: a number from 1 to "
                      f"{len(possible_actions)}, or h", file=err)


def _discard_hints(obs: Observation) -> str:
    rows = []
    for k, n in enumerate(obs.hand.concealed):
        if n:
            h, waits = distance(obs.rules, obs.hand.remove(k), obs.seen)
            rows.append(f"send {obs.rules.tiles.name(k)}: h {h}" + (f", waits {_names(waits, obs.rules)}" if waits else ""))
    return "\n".join(rows)


def describe(action: dict, short: bool = False) -> str:
    """An action in words; `short`: for a table cell (打 X, WIN X, call UNIT, そら → X, pass)."""
    kind, tile = action["type"], action.get("pai")
    if kind == "dahai":
        return f"打 {tile}" if short else f"send {tile}"
    if kind == "hora":
        return f"WIN {tile}" if short else f"WIN on {tile}"
    if kind == "chi":
        return f"call {action['unit']}" + ("" if short else f" with {tile} (giving {' '.join(action['consumed'])})")
    if kind == "sora":
        return f"そら → {tile}" if short else f"use そら: take {tile} from seat {action['target']}'s waiting room"
    return "pass"


def whose_move(state: GameState) -> str:
    """Who is to act, in words (QA: "claim, seat 2" read as seat 2 claiming, where seat 2 had discarded)."""
    if state.phase == "end":
        return "the game is over"
    if state.phase == "claim":
        return f"the others may claim seat {state.turn}'s discard"
    return f"seat {state.turn} to {state.phase}"


def show_position(state: GameState, ev, n: int, event: dict, names) -> None:
    rules = ev.rules
    typer.echo(f"After event {n} ({event.get('type')}): {whose_move(state)}, {state.wall_left} tiles in the wall")
    if event.get("type") == "error":  # (QA: the fault's reason was in the log only)
        typer.echo(f"  seat {event.get('actor')}'s fault: {shown(str(event.get('reason')), 300)} "
                   f"{fault_outcome(event)}")
    for i, seat in enumerate(state.seats):
        name = names[i] if isinstance(names, list) and i < len(names) else "?"
        typer.echo(f"  {i} {name}: {hand_text(seat.hand(), rules)}   {h_text(seat.hand(), rules) if sum(seat.concealed) + sum(rules.units[u].size for u in seat.called) == 12 else ''}")
        typer.echo(f"      waiting room: {_names(seat.room, rules)}")
    if state.scores is not None:
        typer.echo(f"  scores: {list(state.scores)}")


def show_analysis(state: GameState, ev, seat: int, json_: bool) -> None:
    """`mj analyze` of the seat's own view: its hand, the tiles it has seen, the discard it may answer, the rooms."""
    from game.state import Table

    obs = observe(state, seat, Table(ev.rules))
    # with a そら held the waiting rooms are tiles it can fetch: given apart from the seen ones (QA: counted in both)
    room = obs.room_tiles if ev.rules.tiles.sora is not None and obs.hand.concealed[ev.rules.tiles.sora] else None
    seen = [k for k, n in enumerate(elsewhere(obs.seen, room or ())) for _ in range(n)]
    discard = obs.last[1] if state.phase == "claim" and obs.last and obs.last[0] != seat else None
    if discard is not None:  # the discard is about to be answered: not seen elsewhere nor in a room, but offered
        (seen if room is None else room).remove(discard)
    result = ev.analyze(obs.hand, seen, obs.favourite, discard, room)
    if json_:
        from console.common import emit_json
        from solver.serialize import analysis_payload

        return emit_json(analysis_payload(result, obs.hand, ev.rules, obs.favourite))
    from console.common import show
    from console.render import analysis_view

    typer.echo(f"Analysis for seat {seat} (its own view: {len(seen)} tiles seen elsewhere):")
    for part in analysis_view(result, obs.hand, ev.rules):
        show(part)
