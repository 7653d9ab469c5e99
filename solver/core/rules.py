"""Rule sets ready to solve: the units that count (as kind-index tuples) and the scoring formula.

A RuleSet is frozen and holds no per-hand state; the situation of one hand lives in
``solver.core.hand.Situation``.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property

from catalogue import Catalogue, RuleSpec
from solver.core.errors import BAD_DATE, UNKNOWN_RULES, MjError, close_matches, shown
from solver.core.tiles import TileSet

DEFAULT_RULES = "2019-12"


@dataclass(frozen=True)
class UnitDef:
    """One unit as the solver sees it: members are sorted kind indices."""

    index: int
    id: str
    name: str
    members: tuple[int, ...]
    aliases: tuple[str, ...] = ()
    since: dt.date | None = None

    @property
    def size(self) -> int:
        return len(self.members)


@dataclass(frozen=True)
class RuleSet:
    spec: RuleSpec
    tiles: TileSet
    units: tuple[UnitDef, ...]
    as_of: dt.date | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def sora_mode(self) -> str:
        return self.spec.sora

    @property
    def hand_size(self) -> int:
        return self.spec.hand_size

    def concealed_slots(self, called) -> int:
        """The tiles a hand holds concealed beside its called units (indices into `units`)."""
        return self.spec.hand_size - sum(self.units[u].size for u in called)

    @cached_property
    def built(self) -> dict:
        """What is built once per rule set and lives as long as it (search/fast.py: its searches); never pickled."""
        return {}

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "built"}

    @cached_property
    def by_members(self) -> dict[frozenset[int], UnitDef]:
        return {frozenset(u.members): u for u in self.units}

    @cached_property
    def units_of_kind(self) -> tuple[tuple[int, ...], ...]:
        """For each kind, the indices of the units it is a member of."""
        table: list[list[int]] = [[] for _ in range(len(self.tiles))]
        for unit in self.units:
            for kind in unit.members:
                table[kind].append(unit.index)
        return tuple(tuple(t) for t in table)

    def points(self, size: int, *, won: bool, called: bool = False, holds_ron: bool = False,
               has_favourite: bool = False) -> int:
        """Points of one unit copy of `size` members (docs/rules.md section 4, as parameterised)."""
        spec = self.spec
        n_eff = size
        n_eff -= 1 if (not won and spec.no_win == "minus_member") else 0
        n_eff -= 1 if (called and spec.called == "minus_member") else 0
        n_eff -= 1 if (holds_ron and spec.ron_minus_member) else 0
        points = max(spec.min_points, spec.member_points * (n_eff - 1))
        if called and spec.called == "half":
            points //= 2
        if has_favourite and spec.favourite == "double":
            points *= 2
        return points

    @property
    def favourite_bonus(self) -> int:
        return self.spec.favourite_bonus if self.spec.favourite == "bonus" else 0

    @property
    def scores_no_win(self) -> bool:
        return self.spec.no_win != "none"


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


_DATE_JA = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日", re.ASCII)


def parse_date(text: str) -> dt.date:
    # fromisoformat alone also takes 20191212 and 2019-W01-1: the help promises YYYY-MM-DD (or, as Japanese
    # players write it, 2019年12月1日; full-width digits too: QA)
    try:
        wide = unicodedata.normalize("NFKC", text) if isinstance(text, str) else text
        ja = _DATE_JA.fullmatch(wide) if isinstance(wide, str) else None
        if ja:
            return dt.date(*(int(part) for part in ja.groups()))
        if not _DATE.fullmatch(wide):
            raise ValueError
        return dt.date.fromisoformat(wide)
    except (ValueError, TypeError):
        raise MjError(f"bad date '{shown(text)}': expected YYYY-MM-DD", BAD_DATE) from None


def build_rules(catalogue: Catalogue, name: str = DEFAULT_RULES, as_of: dt.date | None = None) -> RuleSet:
    """The rule set `name` from the catalogue; `as_of` (or the rule set's own date) drops later units."""
    if isinstance(name, str) and name not in catalogue.rules:  # (２０１９－１２ as typed with a Japanese IME: QA)
        name = next((known for known in catalogue.rules if unicodedata.normalize("NFKC", name) == known), name)
    if name not in catalogue.rules:
        close = close_matches(name, list(catalogue.rules), n=1, cutoff=0.3)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise MjError(f"unknown rule set '{shown(name)}' (known: {', '.join(catalogue.rules)}){hint}", UNKNOWN_RULES)
    spec = catalogue.rules[name]
    tiles = TileSet.from_catalogue(catalogue)
    cutoff = as_of or spec.as_of
    chosen = [u for u in catalogue.units
              if (set(u.lists) & set(spec.unit_lists) or u.id in spec.units)
              and (cutoff is None or u.since is None or u.since <= cutoff)]
    units = tuple(UnitDef(n, u.id, u.name, tuple(sorted(tiles.index[m] for m in u.members)), u.aliases, u.since)
                  for n, u in enumerate(chosen))
    return RuleSet(spec, tiles, units, cutoff)


def rules_digest(rules: RuleSet) -> str:
    """A short digest of what decides answers under a rule set: its scoring options, hand size and units (ids and
    members). A game log's start_game and a batch's .meta carry it, so a replay or a resume under a changed
    catalogue can say so (QA: a house's edited catalogue read as a corrupt log, "chi is not a legal action there")."""
    import hashlib

    spec = rules.spec
    kept = {k: v for k, v in sorted(vars(spec).items()) if k not in ("name", "description", "source", "units",
                                                                      "unit_lists", "as_of")}
    units = sorted((u.id, tuple(sorted(u.members))) for u in rules.units)
    return hashlib.sha256(repr((kept, units)).encode()).hexdigest()[:16]
