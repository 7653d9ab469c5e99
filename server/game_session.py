"""Games played in the browser (/play): a human seat against COMs of the game engine.

Each game runs the engine (game/engine.py) in its own thread; the human's seat is a Player whose `act`
waits for the browser's answer on a queue. The engine alone decides what is legal: the browser's answer
is matched against the actions the engine offered (game/legal.py `pick`), anything else is refused and the
game goes on waiting. Sessions live in memory, a few at most; an idle one is abandoned (its thread ends).
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from typing import Any

from game import legal
from game.engine import Game, Setup, seat_result
from game.log import dumps
from game.observation import seat_event
from game.players import COMS, fallback_player, make_player
from game.players.base import Player
from game.serialize import seat_view
from game.state import GameState, Table
from solver.api import Evaluator
from solver.core.errors import MjError, error_line, shown
from solver.serialize import hand_dict, score_payload

MAX_SESSIONS = 16  # games held in memory at once (finished ones are dropped first)
PER_CLIENT = 4  # games in progress one address may hold under mj serve
IDLE_SECONDS = 30 * 60  # a game nobody looked at for this long is abandoned
LEFT_SECONDS = 30  # ... and where room is needed, one untouched this long: an open page polls, or touches it every
# 10 s while its player thinks (play.js), so such a game's page was closed or reloaded
HUMAN = 0  # the human's seat: the dealer, who draws first
MAX_SEED = 2**48 - 1  # (a tournament's deal seeds are 48 bits: any of its games can be played again at /play)
_CLOSE = object()
# COM decisions of every game, one at a time: they run in this process's threads, which share the interpreter (the
# GIL) with the event loop answering every page (QA: 16 games of planner COMs took /api/rules from 0.03 s to 3 s)
COM_TURNS = threading.Lock()
SLOW_COMS = ("planner", "planner-clock")  # the COMs that take turns: the others answer in milliseconds (QA: a greedy
# game waited 20 s behind three planner games)


def one_at_a_time(player: Player) -> Player:
    """The COM with its `act` taken in turn with every other game's COMs (COM_TURNS)."""
    act = player.act

    def in_turn(observation, possible_actions: list[dict]) -> dict:
        with COM_TURNS:
            return act(observation, possible_actions)
    player.act = in_turn  # type: ignore[method-assign]
    return player


class Abandoned(Exception):
    """The session was dropped while the engine waited for the human: the game thread ends."""


class NotLegal(MjError):
    pass


class HumanSeat(Player):
    name = "you"

    def __init__(self, session: "Session"):
        self.session = session

    def act(self, observation, possible_actions: list[dict]) -> dict:
        return self.session.wait_for_answer(possible_actions)


class Session:
    def __init__(self, seed: int, coms: list[str], rules: str | None = None,
                 catalogue_files: tuple[str, ...] = ()):
        unknown = [c for c in coms if c not in COMS]
        if unknown:  # never cmd: (a command line from a web request) nor a second human
            raise MjError(f"unknown COM {shown(unknown[0])[:40]}: one of {', '.join(COMS)}")
        if not 1 <= len(coms) <= 3:
            raise MjError("coms: one to three COMs (2 to 4 seats with you)")
        self.id = secrets.token_urlsafe(12)
        self.seed, self.coms = seed, list(coms)
        self.ev = Evaluator(rules, catalogue_files=catalogue_files) if rules else \
            Evaluator(catalogue_files=catalogue_files)
        self.table = Table(self.ev.rules)
        self.players = [HumanSeat(self)] + [one_at_a_time(make_player(c)) if c in SLOW_COMS else make_player(c)
                                            for c in coms]
        self.cond = threading.Condition()
        self.answers: queue.Queue = queue.Queue()
        self.events: list[dict] = []  # the whole log (with the seed and the wall)
        self.steps: list[dict] = []  # per event: the event as the human sees it and the human's view after it
        self.legal: list[dict] | None = None  # the human's legal actions while the engine waits for them
        self.results: list[dict] | None = None
        self.error: str | None = None
        self.over = False
        self.closed = False
        self.owner: str | None = None  # the address that started it (Sessions.per_client)
        self.touched = time.monotonic()
        self.thread = threading.Thread(target=self._run, daemon=True, name=f"mj-game-{self.id[:6]}")

    def start(self) -> "Session":
        self.thread.start()
        return self

    # --- the engine's side (the game thread) ---------------------------------------------------------------
    def _run(self) -> None:
        try:
            setup = Setup(seed=self.seed, seats=len(self.players))
            record = Game(self.ev, setup, self.players, fallback_player, on_event=self._record).play()
            results = self._results(record.state, record.names)
            with self.cond:
                self.results, self.over = results, True
                self.cond.notify_all()
        except Abandoned:
            pass
        except MjError as exc:
            self._fail(error_line(str(exc)))
        except Exception as exc:  # a bug: shown to the page, the server goes on
            self._fail(f"error: internal error ({type(exc).__name__}: {str(exc)[:200]})")

    def _fail(self, line: str) -> None:
        with self.cond:
            self.error, self.over = line, True
            self.cond.notify_all()

    def _record(self, event: dict, state: GameState | None) -> None:
        step = {"event": seat_event(event, HUMAN),
                "view": None if state is None or event["type"] == "start_game" else seat_view(state, HUMAN, self.table)}
        with self.cond:
            self.events.append(event)
            self.steps.append(step)
            self.cond.notify_all()

    def _results(self, state: GameState, names: list[str]) -> list[dict]:
        """Each seat's final hand and its score worked out (units, points and why), as `mj score --json`."""
        rows = []
        for seat in range(len(state.seats)):
            result = seat_result(self.ev, state, seat)
            favourite = state.favourites[seat]
            win = next((w for w in state.wins if w.seat == seat), None)
            how = "none" if win is None else "tsumo" if win.tsumo else "ron"
            hand = state.seats[seat].hand()
            rows.append({"seat": seat, "name": names[seat], "win": how,
                         "favourite": self.table.names[favourite], **hand_dict(hand, self.ev.rules),
                         "score": None if result is None else score_payload(result, self.ev.rules, how, favourite)})
        return rows

    def wait_for_answer(self, actions: list[dict]) -> dict:
        with self.cond:
            self.legal = actions
            self.cond.notify_all()
        while True:
            try:
                answer = self.answers.get(timeout=1.0)
            except queue.Empty:
                if self.closed:
                    raise Abandoned from None
                continue
            if answer is _CLOSE:
                raise Abandoned
            return answer

    # --- the browser's side (the event loop's thread: nothing here blocks for long) ------------------------
    def act(self, answer: Any) -> dict:
        with self.cond:
            self.touched = time.monotonic()
            if self.legal is None:
                raise NotLegal("not your decision now: wait for your turn", "ERR_STATE")
            chosen = legal.pick(answer, self.legal)
            if chosen is None:
                said = json.dumps(answer, ensure_ascii=False) if isinstance(answer, dict) else answer  # (1e999 too)
                raise NotLegal(f"not one of your legal actions: {shown(said)[:120]}")
            self.legal = None
        self.answers.put(chosen)
        return chosen

    def snapshot(self, since: int = 0) -> dict[str, Any]:
        with self.cond:
            self.touched = time.monotonic()
            since = max(0, min(since, len(self.steps)))
            return {"id": self.id, "seat": HUMAN, "seed": self.seed, "coms": self.coms, "rules": self.ev.rules.name,
                    "total": len(self.steps), "since": since, "steps": self.steps[since:],
                    "legal": self.legal, "over": self.over, "error": self.error, "results": self.results}

    def log_text(self) -> str:
        with self.cond:
            return "".join(dumps(event) + "\n" for event in self.events)

    def close(self) -> None:
        self.closed = True
        self.answers.put(_CLOSE)


class Sessions:
    """The games in memory: created, found by id, dropped when idle or when room is needed."""

    def __init__(self, limit: int = MAX_SESSIONS, idle: float = IDLE_SECONDS, catalogue_files: tuple[str, ...] = (),
                 left: float = LEFT_SECONDS, per_client: int | None = None):
        """`per_client`: games in progress one address may hold, its oldest dropped for a new one (mj serve:
        PER_CLIENT; QA, security: one client took all 16 and kept them by polling)."""
        self.limit, self.idle, self.left, self.catalogue_files = limit, idle, left, catalogue_files
        self.per_client = per_client
        self.items: dict[str, Session] = {}
        self.replaced: dict[str, None] = {}  # ids of games dropped for a newer one of their address (the last 256)
        self.lock = threading.Lock()

    def new(self, seed: int, coms: list[str], rules: str | None = None, client: str | None = None) -> Session:
        session = Session(seed, coms, rules, self.catalogue_files)  # bad COMs or rules: MjError before a thread
        with self.lock:
            self._prune()
            if self.per_client is not None and client is not None:
                self._make_room_for(client)
            if len(self.items) >= self.limit:
                raise MjError(f"{self.limit} games are in progress here: finish one, or wait until one is left "
                              f"alone {self.left:g} s (a closed page)", "ERR_BUSY")  # (QA: how long, not said)
            self.items[session.id] = session
            session.owner = client
        return session.start()

    def _make_room_for(self, client: str) -> None:
        """An address holds at most per_client games in progress: past it, its own game longest untouched is dropped
        (a new game replaces the address's oldest; it never takes another player's table)."""
        own = sorted((s for s in self.items.values() if s.owner == client and not s.over),
                     key=lambda s: s.touched)
        for session in own[:max(0, len(own) - self.per_client + 1)]:
            session.close()
            del self.items[session.id]
            self.replaced[session.id] = None  # (its page is told why: QA, "the server restarted" was said)
            while len(self.replaced) > 256:
                del self.replaced[next(iter(self.replaced))]

    def get(self, sid: str) -> Session | None:
        with self.lock:
            return self.items.get(sid)

    def was_replaced(self, sid: str) -> bool:
        with self.lock:
            return sid in self.replaced

    def _prune(self) -> None:
        now = time.monotonic()
        stale = [s for s in self.items.values() if now - s.touched > self.idle]
        for gone in (lambda s: s.over, lambda s: now - s.touched > self.left):
            # full: the finished games longest untouched go first, then the ones whose page is gone
            if len(self.items) - len(stale) >= self.limit:
                some = sorted((s for s in self.items.values() if gone(s) and s not in stale), key=lambda s: s.touched)
                stale += some[:len(self.items) - len(stale) - self.limit + 1]
        for session in stale:
            session.close()
            del self.items[session.id]

    def close(self) -> None:
        with self.lock:
            for session in self.items.values():
                session.close()
            self.items.clear()
