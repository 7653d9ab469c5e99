"""Synthetic Milli-Jong games for property tests: small catalogues built in memory, and
hypothesis strategies drawing games, hands, situations and seen tiles.

Nothing here reads files: a synthetic game is a ``catalogue.Catalogue`` made from a list of
member-index tuples, turned into a ``solver.Evaluator`` with ``Evaluator(name, catalogue=...)``.
The same game is described to the oracle (tests/oracle.py) as plain tuples and dicts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st

from catalogue import Catalogue, Idol, RuleSpec, Unit
from solver import Evaluator, Hand

COPIES = 3

# Deterministic CI profile: fixed seed, no example database, no per-example deadline.
BASE_SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

# The scoring parameter sets of the three real rule sets (catalogue/rules.toml), minus unit lists.
PARAMS: dict[str, dict] = {
    "2019-12": dict(min_points=1000, member_points=2000, called="minus_member", ron_minus_member=True,
                    no_win="minus_member", favourite="bonus", favourite_bonus=2000, sora="fetch",
                    ron_on_shika=False),
    "2019-10": dict(min_points=1000, member_points=2000, called="half", ron_minus_member=False,
                    no_win="none", favourite="double", favourite_bonus=0, sora="wildcard",
                    ron_on_shika=False),
    "hitori-jong-2.1": dict(min_points=1000, member_points=2000, called="minus_member", ron_minus_member=False,
                            no_win="same", favourite="bonus", favourite_bonus=2000, sora="dead",
                            ron_on_shika=False),
    # Not a real rule set: the options mixed differently (wildcard with a packing score, ron minus
    # member, called half, other point values) to reach code paths the three real sets leave out.
    "mixed": dict(min_points=500, member_points=1500, called="half", ron_minus_member=True,
                  no_win="same", favourite="bonus", favourite_bonus=700, sora="wildcard", ron_on_shika=True),
}


# --------------------------------------------------------------------------------------------------
# Catalogue builder
# --------------------------------------------------------------------------------------------------

def make_catalogue(units: Sequence[Sequence[int]], kinds: int, *, sora: int | None = None,
                   shika: int | None = None, hand_size: int = 13, rule_name: str = "syn",
                   params: dict | None = None, **overrides) -> Catalogue:
    """A catalogue of `kinds` idols k0..k{kinds-1} and the given units (member-index tuples).

    `sora` / `shika` mark one kind each as そら (attribute "Sora") / 詩花 (attribute "Extra"). The
    caller includes the 1-member unit (shika,) in `units` if it wants one. One rule set `rule_name`
    counts every unit (in the given order, so ev.rules.units[j] is units[j]); its parameters are
    `params` (default: the 2019-12 set) updated with `overrides`.
    """
    idols = []
    for k in range(kinds):
        attribute = "Sora" if k == sora else "Extra" if k == shika else ("Princess", "Fairy", "Angel")[k % 3]
        idols.append(Idol(id=f"k{k}", name=f"k{k}", kana=f"k{k}", full_name=f"kind {k}", full_kana=f"kind {k}",
                          attribute=attribute))
    unit_records = tuple(Unit(id=f"u{j}", name=f"u{j}", members=tuple(f"k{m}" for m in members), lists=("syn",))
                         for j, members in enumerate(units))
    p = dict(params or PARAMS["2019-12"])
    p.update(overrides)
    spec = RuleSpec(name=rule_name, description="synthetic", source="tests", unit_lists=("syn",),
                    min_points=p["min_points"], member_points=p["member_points"], called=p["called"],
                    ron_minus_member=p["ron_minus_member"], no_win=p["no_win"], favourite=p["favourite"],
                    favourite_bonus=p["favourite_bonus"], sora=p["sora"], ron_on_shika=p["ron_on_shika"],
                    hand_size=hand_size)
    return Catalogue(idols=tuple(idols), units=unit_records, rules={rule_name: spec})


@dataclass(frozen=True)
class Game:
    """A synthetic game: K kinds, units (sorted member tuples), optional sora/shika, hand size."""

    K: int
    units: tuple[tuple[int, ...], ...]
    sora: int | None
    shika: int | None
    hand_size: int
    extra: dict = field(default_factory=dict, compare=False)

    def evaluator(self, param_set: str, **overrides) -> Evaluator:
        p = dict(PARAMS[param_set])
        p.update(overrides)
        cat = make_catalogue(self.units, self.K, sora=self.sora, shika=self.shika, hand_size=self.hand_size,
                             params=p)
        ev = Evaluator("syn", catalogue=cat)
        # the rule set keeps the units in the order given: unit j of the game is rules.units[j]
        assert tuple(u.members for u in ev.rules.units) == self.units
        return ev

    def oracle_rules(self, param_set: str, **overrides) -> dict:
        p = dict(PARAMS[param_set])
        p.update(overrides)
        mode = p.pop("sora")
        return dict(p, sora_mode=mode, shika=self.shika, hand_size=self.hand_size)

    @cached_property
    def real_kinds(self) -> tuple[int, ...]:
        """Kinds that can be members of units (every kind but そら)."""
        return tuple(k for k in range(self.K) if k != self.sora)

    def unit_size(self, j: int) -> int:
        return len(self.units[j])


def oracle_cap(game_or_K, units, called: Sequence[int], seen: Sequence[int] = ()) -> list[int]:
    """cap[i] = 3 - called copies of i - copies of i seen elsewhere."""
    K = game_or_K if isinstance(game_or_K, int) else game_or_K.K
    cap = [COPIES] * K
    for j in called:
        for m in units[j]:
            cap[m] -= 1
    for k, n in enumerate(seen):
        cap[k] -= n
    return cap


def hand_size_of(units, concealed: Sequence[int], called: Sequence[int]) -> int:
    return sum(concealed) + sum(len(units[j]) for j in called)


# --------------------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------------------

@st.composite
def games(draw, *, min_kinds: int = 5, max_kinds: int = 9, min_units: int = 4, max_units: int = 12,
          max_unit_size: int = 4, min_unit_size: int = 1, hand_sizes: tuple[int, int] = (5, 7),
          sora: bool | None = None, shika: bool | None = None) -> Game:
    """A random small game. sora/shika: True forces, False forbids, None lets hypothesis choose."""
    K = draw(st.integers(min_kinds, max_kinds))
    kinds = list(range(K))
    has_sora = draw(st.booleans()) if sora is None else sora
    has_shika = draw(st.booleans()) if shika is None else shika
    sora_kind = draw(st.sampled_from(kinds)) if has_sora else None
    rest = [k for k in kinds if k != sora_kind]
    shika_kind = draw(st.sampled_from(rest)) if has_shika else None
    members = [k for k in rest if k != shika_kind]
    n_units = draw(st.integers(min_units, max_units))
    units: list[tuple[int, ...]] = []
    if shika_kind is not None:
        units.append((shika_kind,))
    max_size = min(max_unit_size, len(members))
    for _ in range(n_units):
        size = draw(st.integers(min(min_unit_size, max_size), max_size))
        chosen = tuple(sorted(draw(st.lists(st.sampled_from(members), min_size=size, max_size=size, unique=True))))
        if chosen not in units:
            units.append(chosen)
    if shika_kind is not None and draw(st.booleans()):
        # the 詩花 unit need not come first
        units.append(units.pop(0))
    hand_size = draw(st.integers(*hand_sizes))
    return Game(K, tuple(units), sora_kind, shika_kind, hand_size)


@dataclass(frozen=True)
class Deal:
    """A hand of a game: concealed counts (length K) and called unit indices (sorted)."""

    concealed: tuple[int, ...]
    called: tuple[int, ...]

    @property
    def hand(self) -> Hand:
        return Hand(self.concealed, self.called)

    def totals(self, game: Game) -> list[int]:
        t = list(self.concealed)
        for j in self.called:
            for m in game.units[j]:
                t[m] += 1
        return t

    def tiles(self) -> list[int]:
        return [k for k, n in enumerate(self.concealed) for _ in range(n)]


@st.composite
def deals(draw, game: Game, *, size: int | None = None, max_called: int = 2, max_swaps: int = 2,
          sora_weight: bool = True, min_called_size: int = 1, early_stop: bool = True) -> Deal:
    """A hand of `size` tiles (default hand_size) built from sampled units, then perturbed.

    Called units are drawn first (units of at least `min_called_size` members), then whole units
    fill the concealed part while they fit (stopping early now and then when `early_stop`), random
    tiles fill the rest, then 0-`max_swaps` tiles are swapped for random kinds (そら included when
    `sora_weight`). Never more than 3 copies of a kind, called included.
    """
    size = game.hand_size if size is None else size
    totals = [0] * game.K
    called: list[int] = []
    room = size
    n_called = draw(st.integers(0, max_called))
    for _ in range(n_called):
        options = [j for j, u in enumerate(game.units)
                   if min_called_size <= len(u) <= room - 1 and all(totals[m] < COPIES for m in u)]
        if not options:
            break
        j = draw(st.sampled_from(options))
        called.append(j)
        room -= len(game.units[j])
        for m in game.units[j]:
            totals[m] += 1
    concealed = [0] * game.K
    # whole units while they fit
    while room > 0:
        options = [j for j, u in enumerate(game.units) if len(u) <= room and all(totals[m] < COPIES for m in u)]
        if not options or (early_stop and not draw(st.integers(0, 5))):
            break
        j = draw(st.sampled_from(options))
        for m in game.units[j]:
            totals[m] += 1
            concealed[m] += 1
        room -= len(game.units[j])
    # random tiles for the rest
    for _ in range(room):
        options = [k for k in range(game.K) if totals[k] < COPIES]
        k = draw(st.sampled_from(options))
        totals[k] += 1
        concealed[k] += 1
    # perturb: swap tiles out for random kinds (そら likely when the game has one)
    for _ in range(draw(st.integers(0, max_swaps))):
        held = [k for k in range(game.K) if concealed[k]]
        if not held:
            break
        out = draw(st.sampled_from(held))
        concealed[out] -= 1
        totals[out] -= 1
        options = [k for k in range(game.K) if totals[k] < COPIES and k != out]
        if game.sora is not None and sora_weight and game.sora in options and draw(st.booleans()):
            into = game.sora
        else:
            into = draw(st.sampled_from(options)) if options else out
        concealed[into] += 1
        totals[into] += 1
    return Deal(tuple(concealed), tuple(sorted(called)))


@st.composite
def seen_counts(draw, game: Game, deal: Deal, *, max_total: int = 6) -> tuple[int, ...]:
    """Per-kind counts of tiles seen elsewhere, never beyond 3 copies with the hand's own."""
    totals = deal.totals(game)
    seen = [0] * game.K
    for _ in range(draw(st.integers(0, max_total))):
        options = [k for k in range(game.K) if totals[k] + seen[k] < COPIES]
        if not options:
            break
        k = draw(st.sampled_from(options))
        seen[k] += 1
    return tuple(seen)


@st.composite
def search_positions(draw, param_set: str):
    """(game, evaluator, size, deal, seen, seen as the library takes it) for the search tests: a small
    game under a real rule set's parameters, a hand of hand_size or one fewer tiles, seen tiles or none."""
    game = draw(games(), label="game")
    ev = game.evaluator(param_set)
    size = draw(st.sampled_from([game.hand_size, game.hand_size - 1]), label="size")
    deal = draw(deals(game, size=size), label="deal")
    seen = draw(st.one_of(st.just((0,) * game.K), seen_counts(game, deal)), label="seen")
    return game, ev, size, deal, seen, tuple(seen) if any(seen) else ()


def favourites(game: Game, deal: Deal | None = None) -> st.SearchStrategy[int | None]:
    """A favourite: any kind but そら, or none; often one of the hand's kinds when a deal is given."""
    options = [st.none(), st.sampled_from(game.real_kinds)]
    if deal is not None:
        totals = deal.totals(game)
        held = [k for k in range(game.K) if totals[k] and k != game.sora]
        if held:
            options.append(st.sampled_from(held))
    return st.one_of(*options)


@st.composite
def room_positions(draw, *, max_kinds: int = 5, max_units: int = 6, max_room: int = 2, max_turns: int = 3):
    """A small game (そら allowed), a hand of hand_size or one fewer tiles, seen tiles, a waiting room, a favourite
    and turns: (game, deal, seen, room, favourite, turns), for the planner's searches with every fetch."""
    game = draw(games(min_kinds=4, max_kinds=max_kinds, max_units=max_units, max_unit_size=3, hand_sizes=(3, 4)))
    size = draw(st.sampled_from([game.hand_size - 1, game.hand_size]))
    deal = draw(deals(game, size=size, max_called=1))
    seen = list(draw(st.one_of(st.just((0,) * game.K), seen_counts(game, deal, max_total=4))))
    room = [0] * game.K
    totals = deal.totals(game)
    for _ in range(draw(st.integers(0, max_room))):
        free = [k for k in range(game.K) if totals[k] + seen[k] + room[k] < COPIES]
        if free:
            room[draw(st.sampled_from(free))] += 1
    return game, deal, seen, room, draw(favourites(game, deal)), draw(st.integers(1, max_turns))


def sora_room_request(case, **options):
    """(evaluator, plan request) of a room_positions case whose hand holds そら (assumed), the position's tiles
    named k0, k1, ...; MjError where the plan refuses it."""
    game, deal = case[:2]
    assume(game.sora is not None and deal.concealed[game.sora])
    return room_request(case, **options)


def room_request(case, **options):
    """(evaluator under 2019-12, plan request) of a room_positions case, the position's tiles named k0, k1, ...;
    MjError where the plan refuses it (more draws than the wall holds)."""
    game, deal, seen, room, favourite, turns = case
    ev = game.evaluator("2019-12")

    def names(counts) -> list[str]:
        return [f"k{k}" for k, n in enumerate(counts) for _ in range(n)]
    return ev, ev.plan_request_of(Hand(tuple(deal.concealed), tuple(deal.called)), turns, seen=names(seen),
                                  waiting_room=names(room), favourite=None if favourite is None else f"k{favourite}",
                                  **options)


def concealed_kinds(deal: Deal, *, exclude: Sequence[int | None] = ()) -> list[int]:
    return [k for k, n in enumerate(deal.concealed) if n and k not in exclude]


def scoring_case(data, game: Game, swaps: Sequence[int], wildcard: bool) -> tuple[Deal, int | None, str, int | None]:
    """(deal, favourite, win, ron tile) of a score test: a hand of sampled real units with calls, perturbed by
    one of `swaps` exchanges, scored as a tsumo, a ron on one of its concealed kinds or a hand that did not win."""
    max_swaps = data.draw(st.sampled_from(list(swaps)), label="swaps")
    deal = data.draw(deals(game, max_called=2, max_swaps=max_swaps, min_called_size=3, sora_weight=wildcard,
                           early_stop=False), label="deal")
    favourite = data.draw(favourites(game, deal), label="favourite")
    win = data.draw(st.sampled_from(["tsumo", "ron", "none"]), label="win")
    ron = None
    if win == "ron":
        options = concealed_kinds(deal)
        assume(options)
        ron = data.draw(st.sampled_from(options), label="ron tile")
    return deal, favourite, win, ron


def random_real_hands(ev: Evaluator, n: int, seed: int):
    """Random deals of a real rule set with, now and then, a called unit and seen tiles (physically possible)."""
    rng = random.Random(seed)
    rules = ev.rules
    K = len(rules.tiles)
    for i in range(n):
        counts, called = [0] * K, ()
        room = rules.hand_size - (i % 2)
        if i % 3 == 1:
            unit = rng.choice([u for u in rules.units if u.size >= 3 and u.size <= 5])
            called = (unit.index,)
            for k in unit.members:
                counts[k] += 1
            room -= unit.size
        wall = [k for k in range(K) for _ in range(COPIES - counts[k])]
        concealed = [0] * K
        for k in rng.sample(wall, room):
            concealed[k] += 1
        seen = ()
        if i % 4 == 2:
            extra = [0] * K
            for k in rng.sample(range(K), 8):
                if counts[k] + concealed[k] + extra[k] < COPIES:
                    extra[k] += 1
            seen = tuple(extra)
        yield Hand(tuple(concealed), called), seen
