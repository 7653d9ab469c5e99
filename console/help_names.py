"""Help text: click's plain type names (TEXT, INTEGER, NUMBER) beside an option, where typer 0.29 prints Python's
(`<str>`, `<int>`, `<float>`), and no type beside an argument that has a name of its own (`HAND`, not
`HAND <str>`). This leans on one typer method, so it is guarded: if it moves, typer's own names stay."""

from __future__ import annotations

from typing import Any

NAMES = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN"}


def plain_type_names() -> None:
    """Make typer's help name a parameter's type as click does (once)."""
    try:
        import typer.core as core
    except ImportError:  # pragma: no cover - typer moved its internals
        return
    base = getattr(core, "_TyperParameter", None)
    typer_names = getattr(base, "display_type", None)
    if typer_names is None or getattr(typer_names, "plain", False):
        return

    def display_type(self: Any, ctx: Any) -> str:
        if isinstance(self, core.TyperArgument) and self.metavar is not None:
            return ""  # (the help row shows its name alone)
        label = typer_names(self, ctx)
        if not (label.startswith("<") and label.endswith(">")):
            return label
        inner = label[1:-1]
        if inner.startswith("list[") and inner.endswith("]"):
            return NAMES.get(inner[5:-1], inner[5:-1].upper())
        if inner.endswith(" range"):
            return NAMES.get(inner[:-6], inner[:-6].upper()) + " RANGE"
        return NAMES.get(inner, f"[{inner}]" if "|" in inner else inner.upper())

    display_type.plain = True  # type: ignore[attr-defined]
    base.display_type = display_type
