"""What every `mj` command shares: its options (so the flags read the same everywhere) and the few steps
around each answer: one error line for a domain error, the evaluator, JSON or a rich view on stdout."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Annotated, Any, Iterator, NoReturn, Optional

import typer

from catalogue import CatalogueError
from solver.api import Evaluator
from solver.core.errors import MjError, error_line, shown
from solver.core.rules import parse_date

HandArg = Annotated[str, typer.Argument(metavar="HAND", help="The hand, e.g. '[翼 可憐 茜] 春香 千早 ...' (called units in brackets).")]
RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rule set: 2019-12, 2019-10, hitori-jong-2.1 or your own.")]
PlanRulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Rule set: 2019-12, hitori-jong-2.1 or your own "
                                                               "(2019-10's wildcard そら is not planned).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
CatalogueOpt = Annotated[Optional[list[str]], typer.Option(
    "--catalogue", metavar="FILE", help="Extra catalogue file (TOML) with units or rule sets of your own; repeatable.")]
AsOfOpt = Annotated[Optional[str], typer.Option("--as-of", help="Drop units dated after this day (YYYY-MM-DD).")]
SeenOpt = Annotated[str, typer.Option("--seen", help="Tiles visible elsewhere (others' calls, and discards not in "
                                                     "--waiting-room: a tile is listed once).")]
PlannerBudgetOpt = Annotated[float, typer.Option(
    "--planner-budget", help="Seconds a planner COM may take a decision (planner: before greedy decides; "
                             "planner-clock: mj plan's whole clock).")]


# The planner's class and frontier, for `mj plan` and `mj analyze --turns` alike.
DetourOpt = Annotated[Optional[int], typer.Option(
    "--detour", min=0, help="The class of targets within h + d exchanges, discards within d of the lowest h "
                            "(exact within it). Default: the optimum over every way of playing, bounds past the budget.")]
NearestOpt = Annotated[bool, typer.Option(
    "--nearest", help="The class nearest (only the complete hands at the lowest h stay in play): exact within it, "
                      "fast at any depth.")]
SecondsOpt = Annotated[float, typer.Option(
    "--seconds", min=0.01, help="Time budget of the whole answer: the exact optimum takes most of it, and past it "
                                "the bounds per discard and the other objective share the rest.")]
SECONDS = 5.0  # solver.planning.request.SECONDS (not imported here: start-up time)
EstimateOpt = Annotated[Optional[int], typer.Option(
    "--estimate", min=2, max=1_000_000, help="Past the exact frontier, estimate over this many sampled walls "
                                              "(labelled, 95% intervals) instead of stopping (the default "
                                              "optimum does so over 1000 where even the class nearest stops, "
                                              "or over this many if given; a bracket's own samples, which "
                                              "raise its lower side or estimate an upper bound of 1, stay "
                                              "at 1000 walls).")]
SeedOpt = Annotated[int, typer.Option(
    "--seed", help="The sampled walls' seed (estimates, sampled bounds): the same seed draws the same walls, another "
                   "seed others (a 95% interval misses the truth 1 time in 20; one seed repeats its miss).")]
MaxStatesOpt = Annotated[int, typer.Option(
    "--max-states", min=1, help="The exact frontier: memoised states before stopping (or estimating).")]
MAX_STATES = 500_000  # solver.planning.recursion.STATE_LIMIT, not imported here: every command's start-up


@contextmanager
def errors() -> Iterator[None]:
    """Domain errors become one line on stderr and exit code 2 (bad input), or 3 where the input was fine but no
    answer was proved within the limits asked (OVER_BUDGET); never a traceback."""
    try:
        yield
    except (MjError, CatalogueError) as exc:
        prefix = "bad catalogue: " if isinstance(exc, CatalogueError) else ""
        text = str(exc)
        if getattr(exc, "code", None) == "ERR_UNKNOWN_RULES" and "--catalogue" not in text and "did you mean" not in text:
            text += "; a house's rule set is read from its file: add --catalogue FILE"  # (QA: mj check said no more)
        if (isinstance(exc, CatalogueError) or getattr(exc, "code", None) == "ERR_BAD_CATALOGUE") and \
                text.endswith(" more)"):  # (QA: "(and 1 more)" said no more)
            text += "; mj catalogue check FILE lists them all"
        typer.echo(error_line(prefix + text), err=True)  # one line, escaped and bounded, whatever the input held
        raise typer.Exit(exit_code(exc)) from None
    except BrokenPipeError:  # here, before typer's own handler would exit 1 without a word
        broken_pipe()


OVER_BUDGET = ("ERR_PLAN_TOO_LARGE", "ERR_NOT_EXACT")  # (QA: a class stopped by its clock exited 2, bad input's code)


def exit_code(exc: Exception) -> int:
    return 3 if getattr(exc, "code", None) in OVER_BUDGET else 2


BROKEN_PIPE = "error: the output was closed before the command finished (broken pipe)"


def broken_pipe() -> NoReturn:
    """The reader of stdout went away (| head): one line on stderr, exit 141 (128 + SIGPIPE, as a shell reports a
    process the signal ended; QA: mj check's 1 had read as "a claim is wrong")."""
    drop_stdout()
    typer.echo(BROKEN_PIPE, err=True)
    raise SystemExit(141)


def drop_stdout() -> None:
    """Point stdout at /dev/null: what it still buffers cannot fail again at exit (no 'Exception ignored')."""
    import os
    import sys

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a descriptor (tests): nothing buffered below Python
        pass


def evaluator(rules: str, catalogue: Optional[list[str]], as_of: Optional[str]) -> Evaluator:
    from solver.core.search.native import NATIVE, forced_pure

    if not NATIVE and not forced_pure():  # once: one evaluator per command
        typer.echo("note: the C search (solver/core/search/_searchc.c) is not built; the pure-Python search runs (slower, same answers)", err=True)
    return Evaluator(rules, catalogue_files=catalogue or (), as_of=parse_date(as_of) if as_of is not None else None)


def plan_request(ev: Evaluator, hand: Any, turns: int, *, objective: str = "win", seen: str = "",
                 waiting_room: str = "", favourite: Optional[str] = None, detour: Optional[int] = None,
                 nearest: bool = False, estimate: Optional[int] = None, max_states: int = MAX_STATES,
                 seconds: float = SECONDS, seed: int = 0):
    """The PlanRequest of the planner's options, the same for `mj plan` and `mj analyze --turns`. `--seconds` is
    the whole command's: run as a process (`mj`), the plan gets what the start-up (0.3-0.8 s of imports) left of
    it, a quarter at least."""
    global _planned
    _planned = True
    if _process:
        seconds = max(seconds / 4, seconds - since_start() - RENDER)
    return ev.plan_request_of(hand, turns, objective, seen, waiting_room, favourite, detour, estimate=estimate,
                              max_states=max_states, seed=seed, nearest=nearest, seconds=seconds)


RENDER = 0.05  # seconds kept for printing the answer after the plan
_process = False  # the command is this process's own run (cli.main from the `mj` script), not a call in a test
_planned = False  # a plan was made: the process ends without freeing its tables (quick_exit)


def run_as_process() -> None:
    global _process
    _process = True


def quick_exit() -> bool:
    """Whether the process may end at once, its tables not freed one by one: its own run, which made a plan."""
    return _process and _planned


def since_start() -> float:
    """Seconds since this process started (QA: `mj plan --seconds 5` took 5.9 s, the plan's clock having started
    after the imports); 0 where /proc does not say."""
    import os

    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started = int(stat.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
            return max(0.0, float(uptime.read().split()[0]) - started)
    except (OSError, ValueError, IndexError):
        return 0.0


def emit_json(payload: Any) -> None:
    from solver.serialize import dumps

    typer.echo(dumps(payload))  # strict JSON, always encodable


def show(renderable: Any) -> None:
    from console.render import console

    console.print(renderable)


class WholeFile:
    """PATH written whole or not at all (`--log`, `--out`), opened before the work, so a bad path costs none: a file
    beside it, renamed over it at the end, so a stopped or failed run leaves an earlier file as it was; anything
    but a regular file (a device, a pipe) is written in place: renaming over /dev/full would replace the device.
    `what` names it in the one error line ("the log ")."""

    def __init__(self, path: str, what: str = ""):
        import os
        import tempfile

        self.path, self.what, self.aside = path, what, None
        try:
            if os.path.exists(path) and not os.path.isfile(path):
                self.handle = open(path, "w", encoding="utf-8", newline="\n")
                return
            fd, self.aside = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                              dir=os.path.dirname(path) or ".")
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(fd, 0o666 & ~mask)  # mkstemp's 0600 would outlive the rename
            self.handle = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise self._error(exc) from None

    def _error(self, exc: OSError) -> MjError:
        return MjError(f"cannot write {self.what}{shown(self.path)}: {exc.strerror or exc}")

    def write(self, text: str) -> None:
        import os

        try:
            with self.handle:
                self.handle.write(text)
            if self.aside is not None:
                os.replace(self.aside, self.path)
                self.aside = None
        except OSError as exc:
            self.drop()
            raise self._error(exc) from None

    def drop(self) -> None:
        """Where nothing was written whole, the file beside it removed (an earlier file stays as it was)."""
        import os

        self.handle.close()
        if self.aside is not None:
            try:
                os.unlink(self.aside)
            except OSError:
                pass
            self.aside = None


def positive(**options: float) -> None:
    """The first option that is not positive, named alone (QA: one message named two options)."""
    for name, value in options.items():
        if value <= 0:
            raise MjError(f"--{name.replace('_', '-')} must be positive, not {value:g}")
