"""`mj catalogue`: list the idols, units and rule sets, or check catalogue files of one's own."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from catalogue import check_file, check_together, file_notes
from console.common import AsOfOpt, CatalogueOpt, JsonOpt, RulesOpt, emit_json, errors, evaluator, show
from solver.api import open_catalogue
from solver.core.errors import MjError
from solver.core.rules import DEFAULT_RULES

catalogue_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                            help="List or check the catalogue: idols, units, rule sets. Example: mj catalogue units --rules hitori-jong-2.1")


@catalogue_app.command("idols")
def catalogue_idols(json_: JsonOpt = False, catalogue: CatalogueOpt = None) -> None:
    """The 54 tile kinds with their names.

    Example: mj catalogue idols --json
    """
    from solver.serialize import idols_payload

    with errors():
        rows = idols_payload(open_catalogue(catalogue or ()))
        if json_:
            return emit_json(rows)
        from console.render import rows_view

        show(rows_view(f"{len(rows)} tile kinds", rows, ("id", "name", "kana", "full_name", "attribute")))


@catalogue_app.command("units")
def catalogue_units(rules: RulesOpt = DEFAULT_RULES, json_: JsonOpt = False, catalogue: CatalogueOpt = None,
                    as_of: AsOfOpt = None) -> None:
    """The units that count under a rule set.

    Example: mj catalogue units --rules hitori-jong-2.1
    """
    from solver.serialize import catalogue_units_payload

    with errors():
        ev = evaluator(rules, catalogue, as_of)
        if json_:
            return emit_json(catalogue_units_payload(ev.rules))
        from console.render import units_view

        show(units_view(ev.rules))


@catalogue_app.command("rules")
def catalogue_rules(json_: JsonOpt = False, catalogue: CatalogueOpt = None) -> None:
    """The rule sets and their parameters.

    Example: mj catalogue rules
    """
    from solver.serialize import rules_payload

    with errors():
        rows = rules_payload(open_catalogue(catalogue or ()))
        if json_:
            return emit_json(rows)
        from console.render import rows_view

        show(rows_view("Rule sets", rows, ("name", "sora", "called", "no_win", "favourite", "description")))


@catalogue_app.command("check")
def catalogue_check(files: Annotated[list[str], typer.Argument(metavar="FILE...", help="Catalogue TOML files to check.")],
                    json_: JsonOpt = False) -> None:
    """Validate catalogue files; exits 1 when any has problems.

    Example: mj catalogue check my-units.toml
    """
    with errors():
        missing = [path for path in files if not os.path.isfile(path)]
        if missing:
            what = "not a regular file" if os.path.exists(missing[0]) else "no such catalogue file"
            raise MjError(f"{what}: {missing[0]}")
    report = {path: check_file(path) for path in files}
    notes = {path: [] if problems else file_notes(path) for path, problems in report.items()}
    together = check_together(files) if len(files) > 1 and not any(report.values()) else []
    if json_:
        emit_json({"files": [{"file": f, "problems": p, "ok": not p, "notes": notes[f]} for f, p in report.items()],
                   "together": {"problems": together, "ok": not together}})
    else:
        for path, problems in [*report.items(), *([("used together", together)] if together else [])]:
            typer.echo(f"{path}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
            for problem in problems:
                typer.echo(f"  - {problem}")
            for note in notes.get(path, ()):
                typer.echo(f"  note: {note}")
    if any(report.values()) or together:
        raise typer.Exit(1)
