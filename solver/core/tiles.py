"""Tile kinds and name resolution: every name form a player types maps to one kind index.

The internal form of a tile is its index in the catalogue's idol order (0..53); names are turned
into indices here, once, at the edge.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cached_property

from catalogue import Catalogue, Idol
from solver.core.errors import UNKNOWN_TILE, MjError, close_matches, shown

RESOLVED_KEPT = 4096  # names remembered by TileSet.resolve (bounded: untrusted input may name anything)
_KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
_IGNORED = str.maketrans("", "", " \u3000・·.-_'")


_KUNREI = (("sh", "sy"), ("ch", "ty"), ("tsu", "tu"), ("ts", "t"), ("fu", "hu"), ("ji", "zi"), ("j", "zy"))


def kunrei(romaji: str) -> str:
    """The Kunrei-shiki spelling of a Hepburn romaji name (shiho -> siho, tsumugi -> tumugi)."""
    for hepburn, kun in _KUNREI:
        romaji = romaji.replace(hepburn, kun)
    return romaji


# a long vowel as kana write it: ー after a kana is its vowel, and after an o-row kana (as お) it is う as names write it
# (ふーか = ふうか, こーさか = こうさか, おーがみ = おおがみ = おうがみ; QA: ふーか was refused)
_VOWEL = {kana: vowel for vowel, row in (("あ", "あかさたなはまやらわがざだばぱぁゃゎ"), ("い", "いきしちにひみりぎじぢびぴぃ"),
                                       ("う", "うくすつぬふむゆるぐずづぶぷぅゅ"), ("え", "えけせてねへめれげぜでべぺぇ"),
                                       ("う", "おこそとのほもよろをごぞどぼぽぉょ")) for kana in row}
_O_ROW = frozenset("おこそとのほもよろをごぞどぼぽぉょ")


def _long_vowels(text: str) -> str:
    out: list[str] = []
    for ch in text:
        if out and (ch == "ー" or (ch == "お" and out[-1] in _O_ROW)) and out[-1] in _VOWEL:
            ch = _VOWEL[out[-1]]
        out.append(ch)
    return "".join(out)


def normalise(name: str) -> str:
    """Width-, case- and kana-insensitive form: NFKC, casefold, katakana as hiragana, long vowels as kana write them
    (_long_vowels), no separators."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(_IGNORED)
    return _long_vowels(text.translate(_KATAKANA_TO_HIRAGANA))


@dataclass(frozen=True)
class TileSet:
    """The 54 kinds in catalogue order, with lookup by any of their names."""

    idols: tuple[Idol, ...]

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> "TileSet":
        return cls(catalogue.idols)

    def __len__(self) -> int:
        return len(self.idols)

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return tuple(i.id for i in self.idols)

    @cached_property
    def index(self) -> dict[str, int]:
        return {i.id: n for n, i in enumerate(self.idols)}

    @cached_property
    def sora(self) -> int | None:
        return next((n for n, i in enumerate(self.idols) if i.attribute == "Sora"), None)

    @cached_property
    def shika(self) -> int | None:
        return next((n for n, i in enumerate(self.idols) if i.attribute == "Extra"), None)

    @cached_property
    def _lookup(self) -> dict[str, int]:
        table: dict[str, int] = {}
        for n, idol in enumerate(self.idols):
            forms = (idol.id, idol.name, idol.kana, idol.full_name, idol.full_kana, *idol.romaji, *idol.other_names)
            for form in forms:
                table.setdefault(normalise(form), n)
            for form in (idol.id, *idol.romaji):
                table.setdefault(kunrei(normalise(form)), n)
        return table

    @cached_property
    def _resolved(self) -> dict[str, int]:
        return {}  # names as given -> kind: a batch of claims names the same few tiles again and again

    def resolve(self, name: str) -> int:
        """The kind index of a tile name; an unknown name raises MjError suggesting the nearest."""
        kind = self.find(name)
        if kind is None:
            raise MjError(f"unknown tile '{shown(name)}'{self._suggestion(normalise(name), name)}", UNKNOWN_TILE)
        return kind

    def find(self, name: str) -> int | None:
        """The kind index of a tile name, or None."""
        kind = self._resolved.get(name)
        if kind is not None:
            return kind
        kind = self._lookup.get(normalise(name))
        if kind is not None and len(self._resolved) < RESOLVED_KEPT:
            self._resolved[name] = kind
        return kind

    def _suggestion(self, key: str, name: str = "") -> str:
        if not key:  # (QA: '-' was called an empty name)
            return " (no letters or kana in it)" if name.strip() else " (an empty name)"
        close = close_matches(key, list(self._lookup), n=6, cutoff=0.0)  # always the nearest
        names: list[str] = []
        for form in close:
            idol = self.idols[self._lookup[form]]
            label = f"{idol.name} ({idol.id})"
            if label not in names:
                names.append(label)
        return f"; did you mean {', '.join(names[:3])}?" if names else ""

    def name(self, kind: int) -> str:
        return self.idols[kind].name
