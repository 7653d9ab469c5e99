"""Start-up time of the CLI, and one way to read numbers: parameters taken without pydantic.

typer 0.29 coerces every parameter through a pydantic TypeAdapter, and importing pydantic is about a
third of a bad-input error's whole process (measured with `python -X importtime`). A command-line
value of a `str` or `list[str]` parameter is text already and a flag's is a bool, so those (most
of ours) keep it as it is, and a str Enum's is one of its values (click checked the choices). An `int`
or `float` one is read by solver/core/numbers.py, within the option's min and max: ASCII digits only,
exactly as the server reads its query parameters. Anything else (non-text values) goes through typer's
own coercion. This leans on typer internals, so it is guarded:
if they move, typer's own path runs unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_PLAIN = (str, list[str], bool)


def take_plain_values_as_is() -> None:
    """Make typer build a plain runtime parameter for unconstrained text and flag parameters (once)."""
    try:
        import typer.core as core
        from typer._coercion import RuntimeParam
    except ImportError:  # pragma: no cover - typer moved its internals
        return
    typer_build = getattr(core, "build_runtime_param", None)
    if typer_build is None or getattr(typer_build, "plain_as_is", False):
        return

    @dataclass(frozen=True)
    class PlainParam(RuntimeParam):
        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.annotation in (str, bool) and type(value) is self.annotation:
                return value
            texts = self.annotation == list[str] and isinstance(value, (list, tuple))
            if texts and all(isinstance(v, str) for v in value):
                return list(value)
            if self.annotation in (int, float) and isinstance(value, str):
                from typer._click.exceptions import BadParameter

                from solver.core.errors import MjError
                from solver.core.numbers import decimal, whole

                info = self.descriptor.parameter_info
                try:
                    read = whole if self.annotation is int else decimal
                    return read(value, "", info.min, info.max)
                except MjError as exc:
                    raise BadParameter(str(exc), ctx=ctx, param=param) from None
            if type(value) is self.annotation:  # a default
                return value
            if _is_enum(self.annotation) and isinstance(value, str):  # (click checked it against the choices)
                try:
                    return self.annotation(value)
                except ValueError:
                    pass
            return typer_build(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def build(descriptor: Any) -> Any:
        info = descriptor.parameter_info
        plain = descriptor.annotation in _PLAIN and descriptor.file_annotation is None and all(
            getattr(info, name, None) is None for name in ("parser", "click_type", "min", "max"))
        number = descriptor.annotation in (int, float) and descriptor.file_annotation is None and all(
            getattr(info, name, None) is None for name in ("parser", "click_type"))
        plain = plain or (number and not getattr(info, "clamp", False)) or (
            _is_enum(descriptor.annotation) and descriptor.file_annotation is None and all(
                getattr(info, name, None) is None for name in ("parser", "click_type")))
        if not plain:
            return typer_build(descriptor)
        return PlainParam(parameter_info=info, annotation=descriptor.annotation, descriptor=descriptor)

    build.plain_as_is = True  # type: ignore[attr-defined]
    core.build_runtime_param = build


def _is_enum(annotation: Any) -> bool:
    """A str Enum parameter (mj plan's --objective): click has checked the value against its choices, so the Enum of
    it is the value; typer's own path would import pydantic for it (about 0.1 s of every mj plan)."""
    from enum import Enum

    return isinstance(annotation, type) and issubclass(annotation, Enum) and issubclass(annotation, str)
