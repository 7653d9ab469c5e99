"""An external engine: a process speaking JSON lines on stdin/stdout (docs/game.md, "Bot protocol").

It receives every event as its seat sees it, and at each decision a request
`{"type":"request","actor":i,"possible_actions":[...]}`; it answers with one line, one of those objects.
Whatever goes wrong (a late answer, garbage, an illegal action, a crash) is a BotFault: the engine logs an
`error` event and its fallback COM decides; after a crash the fallback plays the seat to the end.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time

from game.log import dumps, no_constant
from game.observation import Observation
from game.players.base import BotFault, Player
from solver.batch.process_tree import descendants
from solver.core.errors import MjError, shown
from solver.core.wording import count

_EOF = object()
_TOO_LONG = object()  # stands for a line past MAX_ANSWER, whose text is dropped as it is read
MAX_ANSWER = 1 << 16  # characters: an answer is one small object
PENDING = 16  # lines read ahead at most: a bot that writes without pause waits for the game (its pipe fills)
SILENT = 3  # requests in a row with no line at all from the bot: it is given up as crashed (a hung bot would
# otherwise cost the timeout at every decision to the end)
POLL = 0.1  # seconds between looks at whether a bot that owes an answer has exited
GROUPS = hasattr(os, "killpg")  # POSIX: a bot runs in a process group of its own, stopped whole at the end


class ExternalPlayer(Player):
    def __init__(self, command: str, timeout: float):
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise MjError(f"bad bot command {shown(command)}: {exc}") from None
        if not self.argv:
            raise MjError("cmd: needs a command")
        self.name = f"cmd:{command}"
        self.timeout = timeout
        self.process: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue(PENDING)
        self.stopping = threading.Event()  # close(): the reader stops waiting for room in `lines`
        self.outbox: queue.Queue = queue.Queue()  # a writer thread: a bot that stops reading never blocks the game
        self.broken = threading.Event()  # the bot's stdin is closed (it exited or closed it)
        self.dead = False
        self.owed = 0  # answers still due to requests that timed out
        self.silent = 0  # requests in a row that timed out with no line read since
        self.held = None  # _EOF, met while draining (_stray), for _next_line
        self.notes: list[BotFault] = []  # output dropped before a request (take_notes)

    def start(self, seat: int, seed: int) -> None:
        super().start(seat, seed)
        try:
            # (a process group of its own: what it starts is stopped with it at the end, QA: a wrapper's
            # `sleep 300 &` outlived the game; the same session, which a tournament's worker takes down whole)
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            text=True, encoding="utf-8", errors="replace", bufsize=1,
                                            **({"process_group": 0} if GROUPS else {}))
        except OSError as exc:
            raise MjError(f"cannot start bot {shown(' '.join(self.argv))}: {exc.strerror or exc}") from None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        threading.Thread(target=self._write, args=(self.process.stdin,), daemon=True).start()

    def _write(self, stream) -> None:
        while True:
            text = self.outbox.get()
            if text is None:
                break
            try:
                stream.write(text)
                stream.flush()
            except (OSError, ValueError):
                self.broken.set()
                return
        try:
            stream.close()
        except (OSError, ValueError):
            pass

    def _read(self, stream) -> None:
        """Lines in pieces of at most MAX_ANSWER + 1 characters, so a bot's output is never held whole: a longer
        line is queued as _TOO_LONG as soon as it passes the limit, and the rest of it is read and dropped."""
        try:
            while not self.stopping.is_set():
                line = stream.readline(MAX_ANSWER + 1)
                if not line:
                    break
                if len(line) > MAX_ANSWER and not line.endswith("\n"):
                    self._put(_TOO_LONG)
                    while line and not line.endswith("\n") and not self.stopping.is_set():
                        line = stream.readline(MAX_ANSWER + 1)
                else:
                    self._put(line)
        except (OSError, ValueError):
            pass
        self._put(_EOF)

    def _put(self, item) -> None:
        while not self.stopping.is_set():
            try:
                self.lines.put(item, timeout=0.1)
                return
            except queue.Full:
                pass

    def _crash(self, why: str) -> BotFault:
        self.dead = True
        return BotFault(why, crashed=True)

    def _send(self, message: dict) -> None:
        if self.dead or self.process is None:
            raise self._crash("the bot is not running")
        if self.broken.is_set():
            raise self._gone("the bot stopped reading (crashed)")
        self.outbox.put(dumps(message) + "\n")

    def _gone(self, running: str) -> BotFault:
        """The crash of a bot whose output ended or whose input broke: said with its exit status where it has exited
        (QA: a bot that exited at once with status 5 was said, as often as not, to have stopped reading)."""
        code = self._exit_code()
        return self._crash(running if code is None else f"the bot exited (crashed, status {code})" if code >= 0 else
                           f"the bot was killed by {signal_name(-code)} (crashed)")

    def _stray(self) -> None:
        """Drops the lines already waiting before a request: late answers owed to requests that timed out, and lines
        that answer nothing (debug output on stdout), noted. Left waiting, a stray line would answer this request and
        put every later answer one behind (QA: one `ready` at start-up cost a whole game)."""
        stray = []
        while self.held is None:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                break
            if line is _EOF:
                self.held = line
            elif self.owed:
                self.owed -= 1
            else:
                stray.append(f"a line of more than {MAX_ANSWER} characters" if line is _TOO_LONG else
                             shown(line.strip())[:80])
        if stray:
            self.notes.append(BotFault(f"{count(len(stray), 'line')} that answered no request, dropped: {stray[0]} "
                                       "(every line on stdout is an answer: debug output goes to stderr)",
                                       dropped=True))

    def take_notes(self) -> list[BotFault]:
        notes, self.notes = self.notes, []
        return notes

    def _exit_code(self) -> int | None:
        """The bot's exit status where it has exited (given a moment: its output closes just before), else None."""
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return None

    def notify(self, event: dict) -> None:
        self._send(event)

    def act(self, observation: Observation, possible_actions: list[dict]) -> dict:
        """The n-th line the bot writes answers its n-th request: answers owed to requests that timed out are
        read and dropped first (within this request's time); lines that came before the request are dropped (_stray)."""
        self._stray()
        self._send({"type": "request", "actor": observation.seat, "possible_actions": possible_actions})
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self._next_line(deadline)
            except queue.Empty:
                self.owed += 1
                self.silent += 1
                if self.silent >= SILENT:
                    raise self._crash(f"no answer within {self.timeout:g} s, {SILENT} requests in a row (given up "
                                      "as crashed)") from None
                raise BotFault(f"no answer within {self.timeout:g} s" + (
                    "" if self.silent > 1 else " (no line at all: too slow, or its stdout not flushed after each line?)")) \
                    from None
            self.silent = 0
            if line is _EOF:  # (QA: a bot that only closed its output, still running, had been said to have exited)
                raise self._gone("the bot closed its output (given up as crashed)")
            if not self.owed:
                break
            self.owed -= 1  # a late answer to an earlier request
        if line is _TOO_LONG:
            raise BotFault(f"an answer of more than {MAX_ANSWER} characters")
        try:
            answer = json.loads(line.lstrip("\ufeff"), parse_constant=no_constant)  # (a BOM: an encoding mark, not content)
        except (ValueError, RecursionError):
            raise BotFault(f"garbage: {shown(line.strip())[:80]} (not JSON; every line on stdout is an answer)") from None
        return answer

    def _next_line(self, deadline: float):
        """The bot's next line, or _EOF where the bot has exited with none left to read (its output may stay open in
        a process it started: QA, a wrapper's crash waited out the timeout and was said to be a bot that stopped
        reading), or queue.Empty at the deadline."""
        if self.held is not None:
            return self.held
        while True:
            left = deadline - time.monotonic()
            try:
                return self.lines.get(timeout=max(0.0, min(POLL, left)))
            except queue.Empty:
                if self.process is not None and self.process.poll() is not None:
                    try:
                        return self.lines.get(timeout=POLL)  # (a last line still on its way)
                    except queue.Empty:
                        return _EOF
                if left <= POLL:
                    raise

    def close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        # (what the bot started, found while it runs: a child that moved to a group of its own escapes its group)
        started = descendants(process.pid) if process.poll() is None else []
        self.outbox.put(None)  # the writer closes the bot's stdin once everything queued is written
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if GROUPS:  # what the bot started and left running
            for kill, target in [(os.killpg, process.pid)] + [(os.kill, pid) for pid in started]:
                try:
                    kill(target, signal.SIGKILL)
                except OSError:  # (none left)
                    pass
        self.stopping.set()  # nobody reads `lines` any more: the reader ends


def signal_name(number: int) -> str:
    """SIGSEGV for 11 (QA: "status -11"), or the number where the platform has no name for it."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
