"""Domain errors with stable codes: the CLI prints ``message`` on one line and exits 2."""

from __future__ import annotations


class MjError(ValueError):
    """Bad input or an answer that cannot be given exactly. ``code`` is stable; tests assert it."""

    code = "ERR_INPUT"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.code = code or self.code


def error_line(message: str) -> str:
    """The one line the CLI prints (and the web API returns) for a domain error."""
    return "error: " + " ".join(message.split("\n"))


UNKNOWN_TILE = "ERR_UNKNOWN_TILE"
FOURTH_COPY = "ERR_FOURTH_COPY"
HAND_SIZE = "ERR_HAND_SIZE"
NOT_A_UNIT = "ERR_NOT_A_UNIT"
BAD_BRACKET = "ERR_BAD_BRACKET"
UNKNOWN_RULES = "ERR_UNKNOWN_RULES"
BAD_CATALOGUE = "ERR_BAD_CATALOGUE"
BAD_FAVOURITE = "ERR_BAD_FAVOURITE"
BAD_WINNING_TILE = "ERR_BAD_WINNING_TILE"
UNDEFINED_SCORE = "ERR_UNDEFINED_SCORE"
BAD_DATE = "ERR_BAD_DATE"
NOT_EXACT = "ERR_NOT_EXACT"  # the solver did not prove its answer (status other than OPTIMAL)
