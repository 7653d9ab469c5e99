"""Words in answers and messages: a count with its noun ("1 draw", "3 draws")."""


def count(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
