"""Load and check the catalogue: tile kinds, units and rule sets, as plain frozen records.

The data lives in the TOML files beside this module. A user file (``--catalogue FILE``) may add
units and rule sets of its own in the same form; it is merged over the built-in data.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

DATA_DIR = Path(__file__).parent
ATTRIBUTES = ("Princess", "Fairy", "Angel", "Extra", "Sora")
SORA_MODES = ("fetch", "dead", "wildcard")
MAX_UNIT_SIZE = 13


class CatalogueError(ValueError):
    """A catalogue file that cannot be used; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{problems[0]}{more}")


@dataclass(frozen=True)
class Idol:
    id: str
    name: str
    kana: str
    full_name: str
    full_kana: str
    attribute: str
    colour: str | None = None
    romaji: tuple[str, ...] = ()
    other_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    members: tuple[str, ...]
    lists: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    since: dt.date | None = None
    source: str = ""
    note: str = ""


@dataclass(frozen=True)
class RuleSpec:
    """A rule set as written in the data; ``solver.core.rules`` turns it into a solvable RuleSet."""

    name: str
    description: str
    source: str
    unit_lists: tuple[str, ...]
    min_points: int
    member_points: int
    called: str
    ron_minus_member: bool
    no_win: str
    favourite: str
    favourite_bonus: int
    sora: str
    ron_on_shika: bool
    hand_size: int
    as_of: dt.date | None = None
    units: tuple[str, ...] = ()  # optional explicit unit ids, added to those from unit_lists


@dataclass(frozen=True)
class Catalogue:
    idols: tuple[Idol, ...]
    units: tuple[Unit, ...]
    rules: dict[str, RuleSpec] = field(default_factory=dict)
    files: tuple[str, ...] = ()


# --- schema -------------------------------------------------------------------------------------

_IDOL_FIELDS = {"id": str, "name": str, "kana": str, "full_name": str, "full_kana": str,
                "attribute": str, "colour": str, "romaji": list, "other_names": list}
_IDOL_REQUIRED = ("id", "name", "kana", "full_name", "full_kana", "attribute")
_UNIT_FIELDS = {"id": str, "name": str, "members": list, "lists": list, "aliases": list,
                "since": dt.date, "source": str, "note": str}
_UNIT_REQUIRED = ("id", "name", "members", "lists")
_RULE_FIELDS = {"description": str, "source": str, "unit_lists": list, "min_points": int,
                "member_points": int, "called": str, "ron_minus_member": bool, "no_win": str,
                "favourite": str, "favourite_bonus": int, "sora": str, "ron_on_shika": bool,
                "hand_size": int, "as_of": dt.date, "units": list}
_RULE_OPTIONAL = ("as_of", "units", "description", "source")
_RULE_POINTS = ("min_points", "member_points", "favourite_bonus")
_RULE_CHOICES = {"called": ("minus_member", "half"), "no_win": ("minus_member", "same", "none"),
                 "favourite": ("bonus", "double"), "sora": SORA_MODES}


def _check_fields(where: str, entry: Any, schema: dict[str, type], required: Iterable[str],
                  problems: list[str]) -> bool:
    if not isinstance(entry, dict):
        problems.append(f"{where}: expected a table")
        return False
    ok = True
    for key in entry:
        if key not in schema:
            problems.append(f"{where}: unknown field '{key}'")
            ok = False
    for key in required:
        if key not in entry:
            problems.append(f"{where}: missing field '{key}'")
            ok = False
    for key, kind in schema.items():
        value = entry.get(key)
        # bool is an int and datetime a date in Python; keep them apart
        wrong = (not isinstance(value, kind) or (kind is int and isinstance(value, bool))
                 or (kind is dt.date and isinstance(value, dt.datetime)))
        if value is not None and wrong:
            problems.append(f"{where}: field '{key}' should be {kind.__name__}, got {value!r}")
            ok = False
        if kind is list and isinstance(value, list) and not all(isinstance(v, str) for v in value):
            problems.append(f"{where}: field '{key}' should be a list of strings")
            ok = False
    return ok


MAX_FILE_BYTES = 1 << 20  # a catalogue file: the built-in three hold 45 KB together
MAX_NESTING = 16  # arrays and inline tables inside each other (ours: 2); tomllib recurses on each level


# what a nesting scan skips (comments, and strings of the four kinds, an unclosed one to the end) and what it counts
_TOKENS = re.compile(r'#[^\n]*|"""(?:\\[\s\S]?|[^\\])*?(?:"""|\Z)|\'\'\'[\s\S]*?(?:\'\'\'|\Z)'
                     r'|"(?:\\[\s\S]?|[^"\\])*(?:"|\Z)|\'[^\']*(?:\'|\Z)|[\[\]{}]')


def _nesting(text: str) -> int:
    """The deepest nesting of [ and { in a TOML text, outside strings and comments (a scan in the regex engine: no
    recursion, and a 1 MB file in milliseconds, where a loop over its characters took 0.3 s: QA)."""
    depth = deepest = 0
    for token in _TOKENS.findall(text):
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth -= 1
    return deepest


def _read_toml(path: Path) -> dict[str, Any]:
    """A catalogue file, read with a size and a nesting limit (a huge, endless or deeply nested file is one
    problem line, not a hang or a RecursionError)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise CatalogueError([f"{path}: larger than {MAX_FILE_BYTES // 1024} KB; not a catalogue file"])
        text = data.decode("utf-8").removeprefix("\ufeff")  # a BOM, as some editors write: not TOML, but harmless
        if _nesting(text) > MAX_NESTING:
            raise CatalogueError([f"{path}: nested more than {MAX_NESTING} levels deep; not a catalogue file"])
        return tomllib.loads(text)
    except FileNotFoundError:
        raise CatalogueError([f"{path}: no such file"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError([f"{path}: not valid TOML ({exc})"]) from None
    except UnicodeDecodeError as exc:  # a binary file, or another encoding: TOML is UTF-8
        raise CatalogueError([f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})"]) from None
    except RecursionError:  # the scan above missed a way to nest (a fallback: never a traceback)
        raise CatalogueError([f"{path}: nested too deeply; not a catalogue file"]) from None
    except OSError as exc:
        raise CatalogueError([f"{path}: cannot read ({exc.strerror})"]) from None


def _parse_idols(raw: list[Any], where: str, problems: list[str]) -> list[Idol]:
    idols = []
    for n, entry in enumerate(raw):
        here = f"{where} idol #{n + 1}"
        if not _check_fields(here, entry, _IDOL_FIELDS, _IDOL_REQUIRED, problems):
            continue
        if entry["attribute"] not in ATTRIBUTES:
            problems.append(f"{here} ({entry['id']}): attribute must be one of {', '.join(ATTRIBUTES)}")
        idols.append(Idol(entry["id"], entry["name"], entry["kana"], entry["full_name"], entry["full_kana"],
                          entry["attribute"], entry.get("colour"), tuple(entry.get("romaji", ())),
                          tuple(entry.get("other_names", ()))))
    return idols


def _parse_units(raw: list[Any], where: str, problems: list[str]) -> list[Unit]:
    units = []
    for n, entry in enumerate(raw):
        here = f"{where} unit #{n + 1}"
        if not _check_fields(here, entry, _UNIT_FIELDS, _UNIT_REQUIRED, problems):
            continue
        units.append(Unit(entry["id"], entry["name"], tuple(entry["members"]), tuple(entry["lists"]),
                          tuple(entry.get("aliases", ())), entry.get("since"), entry.get("source", ""),
                          entry.get("note", "")))
    return units


def _parse_rules(raw: Any, where: str, problems: list[str]) -> dict[str, RuleSpec]:
    rules: dict[str, RuleSpec] = {}
    if not isinstance(raw, dict):
        problems.append(f"{where}: [rules] should be a table of rule sets")
        return rules
    for name, entry in raw.items():
        here = f"{where} rule set '{name}'"
        required = [k for k in _RULE_FIELDS if k not in _RULE_OPTIONAL]
        if not _check_fields(here, entry, _RULE_FIELDS, required, problems):
            continue
        bad = [k for k, allowed in _RULE_CHOICES.items() if entry[k] not in allowed]
        for key in bad:
            problems.append(f"{here}: {key} must be one of {', '.join(_RULE_CHOICES[key])}, got {entry[key]!r}")
        if not 1 <= entry["hand_size"] <= 13 * 3:
            problems.append(f"{here}: hand_size {entry['hand_size']} is out of range")
        # the best score maximises over decompositions whose points and bonus only add: a negative one breaks it
        for key in _RULE_POINTS:
            if entry[key] < 0:
                problems.append(f"{here}: {key} must be 0 or more, got {entry[key]}")
        if bad:
            continue
        rules[name] = RuleSpec(name=name, description=entry.get("description", ""), source=entry.get("source", ""),
                               unit_lists=tuple(entry["unit_lists"]), min_points=entry["min_points"],
                               member_points=entry["member_points"], called=entry["called"],
                               ron_minus_member=entry["ron_minus_member"], no_win=entry["no_win"],
                               favourite=entry["favourite"], favourite_bonus=entry["favourite_bonus"],
                               sora=entry["sora"], ron_on_shika=entry["ron_on_shika"],
                               hand_size=entry["hand_size"], as_of=entry.get("as_of"),
                               units=tuple(entry.get("units", ())))
    return rules


_TOP_LEVEL = {"idol", "unit", "rules", "source"}


def _parse_file(path: Path, problems: list[str]) -> tuple[list[Idol], list[Unit], dict[str, RuleSpec]]:
    data = _read_toml(path)
    for key in data:
        if key not in _TOP_LEVEL:
            problems.append(f"{path.name}: unknown top-level key '{key}' (expected idol, unit, rules)")
    for key in ("idol", "unit"):
        if not isinstance(data.get(key, []), list):
            problems.append(f"{path.name}: '{key}' should be an array of tables ([[{key}]])")
            data[key] = []
    idols = _parse_idols(data.get("idol", []), path.name, problems)
    units = _parse_units(data.get("unit", []), path.name, problems)
    rules = _parse_rules(data.get("rules", {}), path.name, problems)
    return idols, units, rules


def check(idols: Iterable[Idol], units: Iterable[Unit], rules: dict[str, RuleSpec],
          origin: dict[str, str] | None = None) -> list[str]:
    """Every consistency problem of a merged catalogue (empty when it is sound). `origin`: the file each ("unit", id)
    and ("rule set", name) came from, named in its problems (QA: with two house files, which one was wrong went
    unsaid)."""
    idols, units, origin = list(idols), list(units), origin or {}
    problems: list[str] = []
    ids = [i.id for i in idols]
    if len(set(ids)) != len(ids):
        problems.append("duplicate idol ids: " + ", ".join(sorted({i for i in ids if ids.count(i) > 1})))
    by_attribute = {i.id: i.attribute for i in idols}
    seen_ids: dict[str, Unit] = {}
    seen_sets: dict[frozenset[str], Unit] = {}
    lists = {name for u in units for name in u.lists}
    for unit in units:
        here = f"{origin[('unit', unit.id)]}: " if ("unit", unit.id) in origin else ""
        here += f"unit '{unit.id}' ({unit.name})"
        if unit.id in seen_ids:
            problems.append(f"{here}: duplicate unit id")
        seen_ids[unit.id] = unit
        unknown = [m for m in unit.members if m not in by_attribute]
        if unknown:
            problems.append(f"{here}: unknown members {', '.join(unknown)} (members are idol ids, as `mj catalogue "
                            f"idols` lists them{_nearest(unknown[0], list(by_attribute))})")
        if len(set(unit.members)) != len(unit.members):
            problems.append(f"{here}: a member is listed twice")
        if not 1 <= len(unit.members) <= MAX_UNIT_SIZE:
            problems.append(f"{here}: size {len(unit.members)} is outside 1-{MAX_UNIT_SIZE}")
        if any(by_attribute.get(m) == "Sora" for m in unit.members):
            problems.append(f"{here}: そら is in no unit")
        if any(by_attribute.get(m) == "Extra" for m in unit.members) and len(unit.members) > 1:
            problems.append(f"{here}: 詩花 is only in her one-member unit")
        if len(unit.members) == 1 and by_attribute.get(unit.members[0]) not in ("Extra", None):
            problems.append(f"{here}: only 詩花 forms a one-member unit")
        members = frozenset(unit.members)
        if members in seen_sets:
            twin = seen_sets[members]
            problems.append(f"{here}: same members as '{twin.id}'; one member set is one unit (use aliases)")
        seen_sets.setdefault(members, unit)
    for spec in rules.values():
        here = (f"{origin[('rule set', spec.name)]}: " if ("rule set", spec.name) in origin else "") + \
            f"rule set '{spec.name}'"
        missing = [name for name in spec.unit_lists if name not in lists]
        if missing:
            problems.append(f"{here}: no unit is in list(s) {', '.join(missing)}{_nearest(missing[0], list(lists))}")
        unknown = [u for u in spec.units if u not in seen_ids]
        if unknown:
            problems.append(f"{here}: unknown units {', '.join(unknown)}{_nearest(unknown[0], list(seen_ids))}")
    return problems


def _nearest(name: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _duplicate_ids(units: list[Unit], where: str) -> list[str]:
    counts = Counter(u.id for u in units)  # (QA: list.count per id took 10 s of a 40,000-unit house's load)
    return [f"{where}: duplicate unit id '{i}'" for i in sorted(i for i, n in counts.items() if n > 1)]


def load_catalogue(extra: Iterable[str | Path] = ()) -> Catalogue:
    """The built-in catalogue, with each extra file's units and rule sets merged over it.

    An extra unit whose id exists replaces the built-in one; an extra rule set likewise.
    Raises CatalogueError listing every problem found.
    """
    problems: list[str] = []
    idols: list[Idol] = []
    units: dict[str, Unit] = {}
    rules: dict[str, RuleSpec] = {}
    origin: dict[tuple[str, str], str] = {}  # ("unit", id) or ("rule set", name) -> the extra file that gave it
    builtin = [DATA_DIR / "idols.toml", DATA_DIR / "units.toml", DATA_DIR / "rules.toml"]
    paths, seen = list(builtin), set()
    for given in map(Path, extra):  # (the same file given twice, however spelt, is read once: QA)
        if given.resolve() not in seen:
            seen.add(given.resolve())
            paths.append(given)
    for path in paths:
        file_idols, file_units, file_rules = _parse_file(path, problems)
        if file_idols and idols:
            problems.append(f"{path.name}: the 54 tile kinds are fixed; a catalogue file cannot add idols")
        idols = idols or file_idols
        problems += _duplicate_ids(file_units, path.name)
        if path not in builtin:  # (QA: a second house file's unit of the same id silently took the first's place)
            for what, names in (("unit", [u.id for u in file_units]), ("rule set", list(file_rules))):
                problems += [f"{path.name}: {what} '{name}' is given in {origin[what, name]} too: two catalogue files "
                             "may not give the same one (a built-in one may be replaced)"
                             for name in names if (what, name) in origin]
            origin.update(_origin(file_units, file_rules, path.name))
        units.update((u.id, u) for u in file_units)
        rules.update(file_rules)
    if not problems:
        problems = check(idols, units.values(), rules, origin)
    if problems:
        raise CatalogueError(problems)
    return Catalogue(tuple(idols), tuple(units.values()), rules, tuple(str(p) for p in paths[3:]))


def file_notes(path: str | Path) -> list[str]:
    """What a (valid) catalogue file replaces in the built-in data: units by id and rule sets by name, as
    load_catalogue merges them; said by `mj catalogue check`, so an override is never a surprise. Then what is
    sound but likely a slip (QA: both passed unsaid): a unit in lists no rule set takes, and a rule set that holds
    no unit at its own date. (None for the built-in files themselves.)"""
    if Path(path).resolve().parent == DATA_DIR.resolve():
        return []
    _, units, rules = _parse_file(Path(path), [])
    base = load_catalogue()
    known = {u.id: u for u in base.units}
    notes = ([f"replaces the built-in unit '{u.id}' ({known[u.id].name})" for u in units if u.id in known] +
             [f"replaces the built-in rule set '{name}'" for name in rules if name in base.rules])
    specs = {**base.rules, **rules}
    taken = {name for spec in specs.values() for name in spec.unit_lists}
    for u in units:
        if not set(u.lists) & taken and not any(u.id in spec.units for spec in specs.values()):
            notes.append(f"unit '{u.id}' is in list(s) {', '.join(u.lists)}, which no rule set takes, so it never "
                         f"counts{_nearest(u.lists[0], sorted(taken)) if u.lists else ''}")
    merged = [*{**known, **{u.id: u for u in units}}.values()]
    for spec in rules.values():
        held = [u for u in merged if (set(u.lists) & set(spec.unit_lists) or u.id in spec.units)
                and (spec.as_of is None or u.since is None or u.since <= spec.as_of)]
        if not held:
            notes.append(f"rule set '{spec.name}' holds no unit" + (f" as of {spec.as_of}" if spec.as_of else "") +
                         ": no hand can win under it")
    return notes


def check_together(paths: Iterable[str | Path]) -> list[str]:
    """The problems of catalogue files used together (each sound alone), the built-in files left out: ids and names
    two of them give (QA: two house files, each "ok", whose clash lost units silently)."""
    extra = [p for p in paths if Path(p).resolve().parent != DATA_DIR.resolve()]
    try:
        load_catalogue(extra)
    except CatalogueError as exc:
        return exc.problems
    return []


def check_file(path: str | Path) -> list[str]:
    """Every problem of one catalogue file, read on its own and merged over the built-in data."""
    path = Path(path)
    problems: list[str] = []
    try:
        idols, units, rules = _parse_file(path, problems)
    except CatalogueError as exc:
        return exc.problems
    problems += _duplicate_ids(units, path.name)
    if problems:
        return problems
    base = load_catalogue()
    merged = {u.id: u for u in base.units}
    merged.update((u.id, u) for u in units)
    return check(idols or base.idols, merged.values(), {**base.rules, **rules}, _origin(units, rules, path.name))


def _origin(units: list[Unit], rules: dict[str, RuleSpec], name: str) -> dict[tuple[str, str], str]:
    return {**{("unit", u.id): name for u in units}, **{("rule set", r): name for r in rules}}
