"""Hand notation: tiles separated by spaces, commas, 、, 。 or slashes (or ・ between names); called units in brackets.

    [翼 可憐 茜] 春香 千早 貴音 律子 ...
"""

from __future__ import annotations

import re

from solver.core.errors import BAD_BRACKET, NOT_A_UNIT, UNKNOWN_TILE, MjError, shown
from solver.core.hand import Hand
from solver.core.rules import RuleSet
from solver.core.tiles import normalise
from solver.core.wording import count

_SEPARATORS = re.compile(r"[\s,、，;。／/]+")
_MIDDLE_DOT = re.compile(r"[・･]")  # between names (美奈子・星梨花), or inside one (エミリー・スチュアート)
_OPEN, _CLOSE = "[［【「(（〔", "]］】」)）〕"
_PAIR = (0, 0, 1, 2, 3, 3, 4)  # which open closes which (a width's variant closes its own kind: [ ］)
_GROUP = re.compile(rf"[{re.escape(_OPEN)}]([^{re.escape(_OPEN + _CLOSE)}]*)[{re.escape(_CLOSE)}]")


def split_names(text: str) -> list[str]:
    return [t for t in _SEPARATORS.split(text.strip()) if t]


def parse_tiles(text: str, rules: RuleSet) -> list[int]:
    """A list of tiles (no brackets) as kind indices."""
    if any(ch in text for ch in _OPEN + _CLOSE):
        raise MjError(f"brackets are not allowed here: '{shown(text)}'", BAD_BRACKET)
    return resolve_names(split_names(text), rules)


JOINED = 3  # most pieces one name is written in (エミリー・スチュアート; 天海 春香)


def resolve_names(names: list[str], rules: RuleSet) -> list[int]:
    """Kind indices of the names, read as Japanese players write lists (QA): split at ・ where the parts are names
    (美奈子・星梨花), and joined to the next pieces where together they are one (天海　春香, エミリー スチュアート,
    エミリー・スチュアート・星梨花), the longest first. No two names make a third when joined, so nothing is read
    twice ways; a piece that is no name raises the MjError of the name it is in."""
    tiles, pieces = rules.tiles, []  # (piece, the name it comes from)
    for name in names:
        pieces += [(part, name) for part in _MIDDLE_DOT.split(name) if part] or [(name, name)]
    lettered = [bool(normalise(piece)) for piece, _ in pieces]  # (punctuation alone is no piece of a name)
    kinds, i = [], 0
    while i < len(pieces):
        if not lettered[i]:  # ("・・ 真" is not 真)
            tiles.resolve(pieces[i][0])
        for j in range(min(len(pieces), i + JOINED), i, -1):
            if not all(lettered[i:j]):  # (nor is it joined to a name: "真 -" is not 真)
                continue
            kind = tiles.find("".join(piece for piece, _ in pieces[i:j]))  # (a name's own ・ is no letter: エミリー・スチュアート = エミリースチュアート)
            if kind is not None:
                kinds.append(kind)
                i = j
                break
        else:
            tiles.resolve(pieces[i][1])  # (raises, with the nearest names)
            raise MjError(f"unknown tile '{shown(pieces[i][0])}'{tiles._suggestion(pieces[i][0])}", UNKNOWN_TILE)
    return kinds


def parse_hand(text: str, rules: RuleSet) -> Hand:
    """Parse a hand; called groups must be units of 3 or more members in `rules`."""
    return parse_hand_in_order(text, rules)[0]


def parse_hand_in_order(text: str, rules: RuleSet) -> tuple[Hand, list[int]]:
    """parse_hand, and the tiles outside brackets in the order they were written (a Hand keeps counts only:
    the page shows the hand as typed)."""
    depth, opened = 0, ""
    for ch in text:
        depth += (ch in _OPEN) - (ch in _CLOSE)
        if depth not in (0, 1):
            raise MjError(f"unbalanced or nested brackets in '{shown(text.strip())}'", BAD_BRACKET)
        if ch in _OPEN:
            opened = ch
        elif ch in _CLOSE and _PAIR[_CLOSE.index(ch)] != _PAIR[_OPEN.index(opened)]:  # (QA: [翼 可憐 茜〕 was taken)
            raise MjError(f"a bracket {opened} closed by {ch} in '{shown(text.strip())}'", BAD_BRACKET)
    called = [called_unit(parse_tiles(group, rules), rules) for group in _GROUP.findall(text)]
    rest = _GROUP.sub(" ", text)
    if any(ch in rest for ch in _OPEN + _CLOSE):
        raise MjError(f"unbalanced or nested brackets in '{shown(text.strip())}'", BAD_BRACKET)
    order = parse_tiles(rest, rules)
    counts = [0] * len(rules.tiles)
    for kind in order:
        counts[kind] += 1
    return Hand(tuple(counts), tuple(sorted(called))), order


def called_unit(kinds: list[int], rules: RuleSet) -> int:
    """The index of the unit a called group forms; it must be a unit of 3 or more members."""
    names = " ".join(rules.tiles.name(k) for k in kinds)
    unit = rules.by_members.get(frozenset(kinds))
    if unit is None or len(set(kinds)) != len(kinds):
        raise MjError(f"called group [{names}] is not a unit under rule set {rules.name}", NOT_A_UNIT)
    if unit.size < 3:
        named = "" if unit.name.strip("()") == names else f" ({unit.name})"  # (QA: "[詩花] ((詩花))")
        raise MjError(f"called group [{names}]{named} has {count(unit.size, 'member')}; only units of 3 or more "
                      "can be called", NOT_A_UNIT)
    return unit.index


def hand_from_list(items: list, rules: RuleSet) -> Hand:
    """A hand given as a list of tile names, where a nested list is a called unit (JSON input)."""
    counts, called = [0] * len(rules.tiles), []
    for item in items:
        if isinstance(item, str):
            counts[rules.tiles.resolve(item)] += 1
        elif isinstance(item, list) and all(isinstance(t, str) for t in item):
            called.append(called_unit([rules.tiles.resolve(t) for t in item], rules))
        else:
            raise MjError(f"hand items must be tile names or lists of them (called units), not {shown(item)}")
    return Hand(tuple(counts), tuple(sorted(called)))


def format_tiles(kinds: list[int], rules: RuleSet) -> str:
    return " ".join(rules.tiles.name(k) for k in kinds)


def format_hand(hand: Hand, rules: RuleSet) -> str:
    groups = [f"[{format_tiles(list(rules.units[u].members), rules)}]" for u in hand.called]
    return " ".join(groups + [format_tiles(hand.tiles(), rules)]).strip()
