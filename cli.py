"""mj: exact answers for Milli-Jong (ミリジャン) hands. The table of commands; each lives in console/ (parse, call
the library, render) and is registered here by one line."""

from __future__ import annotations

import errno
import functools
import os
import sys
from typing import Any, Optional

import typer

from console import batch, game, hand, plan, review, serve, tournament
from console.catalogue import catalogue_app
from console.help_names import plain_type_names
from console.typer_params import take_plain_values_as_is
from console.common import broken_pipe, drop_stdout, quick_exit, run_as_process
from console.research import research_app
from solver.core.errors import error_line

take_plain_values_as_is()  # text parameters without pydantic: start-up time (console/typer_params.py)
plain_type_names()  # TEXT, INTEGER in the help, not <str>, <int> (console/help_names.py)

app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Exact evaluator for Milli-Jong (ミリジャン): units, score, h, the turn's analysis, P(win) and "
                       "E[score] over the draws left, engines' claims checked, whole games played, reviewed and "
                       "compared in tournaments, and a web page.\n\nExample: mj example")
for command in (hand.units, hand.score, hand.h, hand.analyze, plan.plan, hand.example, serve.serve,
                batch.check, batch.generate, game.play, game.replay, review.review, tournament.tournament):
    app.command()(command)
app.add_typer(catalogue_app, name="catalogue")
app.add_typer(research_app, name="research")


def said_on_interrupt(callback):
    """typer turns a KeyboardInterrupt inside a command into a silent exit 130: catch it first and say so in
    one line (a command that says how far it got catches it itself, and exits without raising it). SIGTERM stops
    a command as Ctrl-C does (its files cleaned up the same way), exit 143."""
    @functools.wraps(callback)
    def run(*args, **kwargs):
        from solver.batch.signals import stop_signals

        try:
            with stop_signals():
                return callback(*args, **kwargs)
        except KeyboardInterrupt as exc:  # (Stopped carries its code: 143 for SIGTERM)
            typer.echo("interrupted", err=True)
            raise typer.Exit(getattr(exc, "exit_code", 130)) from None
    return run


def _guard(group: typer.Typer) -> None:
    for info in group.registered_commands:
        if not hasattr(info.callback, "__wrapped__"):
            info.callback = said_on_interrupt(info.callback)
    for sub in group.registered_groups:
        _guard(sub.typer_instance)


_guard(app)


def given_twice(command: Any, argv: list[str]) -> str | None:
    """The first option of the command named in argv that takes one value and is given more than once (by one
    name or two: --favorite and --favourite), or None: click keeps the last silently. (typer's click is its own:
    known by interface, not class.)"""
    words = [w for w in argv if not w.startswith("-")]
    while hasattr(command, "commands") and words and words[0] in command.commands:
        command = command.commands[words.pop(0)]
    for param in getattr(command, "params", ()):
        if param.param_type_name == "option" and not param.multiple and not param.is_flag and not param.count:
            names = param.opts + param.secondary_opts
            uses = [w for w in argv if w in names or any(w.startswith(f"{n}=") for n in names if n.startswith("--"))]
            if len(uses) > 1:
                return " / ".join(dict.fromkeys(u.split("=")[0] for u in uses))
    return None


def main(argv: Optional[list[str]] = None) -> None:  # console script entry point (argv: for tests)
    if argv is None:  # (the process's own run, not a test's: its start-up counts against --seconds)
        run_as_process()
    for stream in (sys.stdout, sys.stderr):  # whatever the locale, output never fails on a character
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    command = typer.main.get_command(app)  # (built once: for the check below and the run)
    twice = given_twice(command, sys.argv[1:] if argv is None else argv)
    if twice is not None:
        typer.echo(f"error: {twice} given more than once: give it once (see mj --help)", err=True)
        sys.exit(2)
    try:
        code = command(args=argv, standalone_mode=False)
    except KeyboardInterrupt as exc:
        typer.echo("interrupted", err=True)
        sys.exit(getattr(exc, "exit_code", 130))
    except BrokenPipeError:  # the reader of stdout went away (| head): say so in one line, stop
        broken_pipe()
    except OSError as exc:  # a write (or read) the system refused: disk full, read-only, I/O error
        drop_stdout()
        writing = exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO)
        where = f"{exc.filename}: " if exc.filename else "cannot write the output: " if writing else ""
        typer.echo(error_line(f"{where}{exc.strerror or exc}"), err=True)
        sys.exit(1)
    except Exception as exc:
        # typer's usage errors (bad option value, missing argument): one line too, exit 2. Its click is
        # private to typer, so recognise them by their interface rather than their class.
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `mj` or `mj catalogue`: the help itself
            typer.echo(exc.format_message())
            sys.exit(0)
        said = " ".join(exc.format_message().split()).replace("Value error, ", "")  # (pydantic's prefix, QA)
        ctx = getattr(exc, "ctx", None)  # (the command's own help where the error names one: QA)
        where = ctx.command_path if ctx is not None and getattr(ctx, "command_path", "").startswith("mj ") else "mj"
        typer.echo(f"error: {said} (see {where} --help)", err=True)
        sys.exit(2)
    code = code if isinstance(code, int) else 0
    if quick_exit():  # (a plan's tables freed at interpreter exit took 0.3 s past its answer: not one by one)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:  # (the usual exit says what went wrong)
            sys.exit(code)
        os._exit(code)
    sys.exit(code)



if __name__ == "__main__":
    main()
