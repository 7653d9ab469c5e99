"""The public Python API for engines and tools: names in, plain dataclasses out, no printing.

    >>> from solver import Evaluator
    >>> ev = Evaluator("2019-12")
    >>> ev.score("[静香 百合子 昴] 真 雪歩 あずさ 可奈 歩 可奈 志保 詩花 エレナ 美也",
    ...          win="ron", winning_tile="美也", favourite="可奈").total
    16000
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable
from numbers import Integral
from typing import TYPE_CHECKING

from catalogue import Catalogue, CatalogueError, load_catalogue
from solver.core.errors import BAD_CATALOGUE, FOURTH_COPY, NOT_A_UNIT, NOT_EXACT, UNKNOWN_TILE, MjError, given, shown
from solver.core.hand import COPIES, Hand, Situation, check_hand
from solver.core.notation import parse_hand, parse_tiles
from solver.core.present import UnitsPresent, units_present
from solver.core.results import DistanceResult, ScoreResult
from solver.core.rules import DEFAULT_RULES, RuleSet, build_rules, rules_digest

if TYPE_CHECKING:
    from solver.analysis.turn import Analysis  # the analysis, the score model and CP-SAT load on first use (start-up time)
    from solver.core.model import DistanceModel
    from solver.planning.answer import Plan
    from solver.planning.request import PlanRequest

TileLike = int | str
HandLike = Hand | str | list[TileLike] | tuple[TileLike, ...]


def plan_limits() -> tuple[int, float]:
    """The planner's default state cap and time budget (what a plan asks for when it names neither)."""
    from solver.planning.recursion import STATE_LIMIT
    from solver.planning.request import SECONDS

    return STATE_LIMIT, SECONDS


def open_catalogue(files: Iterable[str] = ()) -> Catalogue:
    """The built-in catalogue with the TOML files given added (units, rule sets); a bad file is one MjError."""
    try:
        return load_catalogue(files)
    except CatalogueError as exc:
        raise MjError(f"bad catalogue: {exc}", BAD_CATALOGUE) from None


class Evaluator:
    """Exact answers for one rule set. Models are built once and reused across hands."""

    def __init__(self, rules: str = DEFAULT_RULES, *, catalogue: Catalogue | None = None,
                 catalogue_files: Iterable[str] = (), as_of: dt.date | None = None):
        if not isinstance(rules, str):
            raise MjError(f"rules is a rule set's name, not {given(rules)}")
        if as_of is not None and not isinstance(as_of, dt.date):
            raise MjError(f"as_of is a datetime.date, not {given(as_of)}")
        if catalogue is not None and not isinstance(catalogue, Catalogue):
            raise MjError(f"catalogue is a Catalogue (catalogue.load_catalogue), not {type(catalogue).__name__}")
        if isinstance(catalogue_files, str):  # (one path as text would be read as a list of one-letter names)
            catalogue_files = (catalogue_files,)
        self.catalogue = catalogue or open_catalogue(catalogue_files)
        self.rules: RuleSet = build_rules(self.catalogue, rules, as_of)
        self.tiles = self.rules.tiles
        self._distance_model: DistanceModel | None = None

    # --- conversions at the edge -----------------------------------------------------------------
    def hand(self, hand: HandLike) -> Hand:
        """Text (idol names, called units in brackets), a Hand, or a list of tiles (names or kind ids; none called)."""
        if isinstance(hand, str):
            return parse_hand(hand, self.rules)
        if isinstance(hand, Hand):
            return self._built(hand)
        if isinstance(hand, (list, tuple)):
            counts = [0] * len(self.tiles)
            for t in hand:
                counts[self.listed_tile(t)] += 1
            return Hand(tuple(counts))
        raise MjError(f"a hand is text (idol names), a list of tiles or a Hand, not {type(hand).__name__}")

    def _built(self, hand: Hand) -> Hand:
        """A Hand built directly, checked as a parsed one is (QA: a count of -1 or a called id past the units raised
        ValueError or IndexError from deep inside): a tuple of a count per kind, a tuple of unit indices."""
        concealed, called = hand.concealed, hand.called
        if not isinstance(concealed, tuple) or not isinstance(called, tuple):
            raise MjError(f"a Hand's concealed and called are tuples, not {type(concealed).__name__} and "
                          f"{type(called).__name__}")
        if len(concealed) != len(self.tiles):
            raise MjError(f"a Hand of {len(concealed)} kinds, where the rule set has {len(self.tiles)}")
        for k, n in enumerate(concealed):
            if isinstance(n, bool) or not isinstance(n, Integral) or n < 0:
                raise MjError(f"a Hand's count of {self.tiles.name(k)} is {given(n)}, not a count from 0")
        units = len(self.rules.units)
        for u in called:
            if isinstance(u, bool) or not isinstance(u, Integral) or not 0 <= u < units:
                raise MjError(f"a called unit is an index from 0 to {units - 1}, not {given(u)}", NOT_A_UNIT)
        return Hand(tuple(int(n) for n in concealed), tuple(int(u) for u in called))

    def tile(self, tile: TileLike | None) -> int | None:
        """A tile's kind id from its name or id (None stays None); an id out of range is an error, never wrapped."""
        if tile is None:
            return None
        if isinstance(tile, str):
            return self.tiles.resolve(tile)
        if isinstance(tile, bool) or not isinstance(tile, Integral):  # (numpy's integers too: engines use them)
            raise MjError(f"a tile is an idol's name or a kind id, not {given(tile)}", UNKNOWN_TILE)
        if not 0 <= tile < len(self.tiles):
            raise MjError(f"no tile has the id {tile} (ids run from 0 to {len(self.tiles) - 1})", UNKNOWN_TILE)
        return int(tile)

    def seen(self, tiles: str | Iterable[TileLike] = ()) -> tuple[int, ...]:
        """Per-kind counts of tiles visible elsewhere; more than 3 of a kind is an error."""
        kinds = self.tile_list(tiles)
        counts = [0] * len(self.tiles)
        for kind in kinds:
            counts[kind] += 1
            if counts[kind] > COPIES:
                raise MjError(f"more than {COPIES} {self.tiles.name(kind)} seen", FOURTH_COPY)
        return tuple(counts) if kinds else ()

    def listed_tile(self, tile: TileLike) -> int:
        """A tile of a list (a hand, seen tiles, a waiting room): None is no tile there."""
        if tile is None:
            raise MjError("a list of tiles holds names or kind ids, not None", UNKNOWN_TILE)
        return self.tile(tile)

    def tile_list(self, tiles: str | Iterable[TileLike]) -> list[int]:
        """The kinds of a list of tiles given through the API (seen, a waiting room): text (idol names, parsed), or
        a list of names or ids."""
        if isinstance(tiles, str):
            return parse_tiles(tiles, self.rules)
        if isinstance(tiles, Iterable) and not isinstance(tiles, (bytes, dict)):
            return [self.listed_tile(t) for t in tiles]
        raise MjError(f"a list of tiles is text (idol names) or a list of names or ids, not {type(tiles).__name__}")

    @property
    def distance_model(self) -> DistanceModel:
        from solver.core.model import DistanceModel

        if self._distance_model is None:
            self._distance_model = DistanceModel(self.rules)
        return self._distance_model

    # --- questions ---------------------------------------------------------------------------------
    def score(self, hand: HandLike, win: str = "tsumo", winning_tile: TileLike | None = None,
              favourite: TileLike | None = None, seen: str | Iterable[TileLike] = ()) -> ScoreResult:
        """Best score; win is "tsumo", "ron" (name the winning tile) or "none" (the hand did not win)."""
        from solver.core.score import best_score

        if win not in ("tsumo", "ron", "none"):
            raise MjError(f"win must be tsumo, ron or none, not {shown(win)}")
        situation = Situation(win, self.tile(winning_tile), self.tile(favourite), self.seen(seen))
        return best_score(self.hand(hand), self.rules, situation)

    def h(self, hand: HandLike, seen: str | Iterable[TileLike] = (), seconds: float | None = None) -> DistanceResult:
        """The exchange distance h and one optimal exchange (exact search; no solver). Past `seconds` (None: no
        limit) MjError NOT_EXACT says what the search reached (a house of a thousand units may take seconds), also as
        its `at_least` and `at_most` (None where no target was found yet)."""
        from solver.core.search.fast import exchange_distance

        return exchange_distance(self.rules, self.hand(hand), self.seen(seen), seconds=seconds)

    def analyze(self, hand: HandLike, seen: str | Iterable[TileLike] = (), favourite: TileLike | None = None,
                discard: TileLike | None = None, waiting_room: str | Iterable[TileLike] | None = None,
                max_exchanges: int = 20, seconds: float | None = None) -> Analysis:
        """The full turn analysis (solver.analysis.analyze) with names accepted for every tile. Past `seconds` (None:
        no limit) MjError NOT_EXACT (a house of a thousand units may take a minute; the built-in rule sets, ms)."""
        from solver.analysis.turn import analyze
        from solver.core.search.fast import search_for
        from solver.core.search.tile_search import SearchStopped

        if isinstance(max_exchanges, bool) or not isinstance(max_exchanges, int) or max_exchanges < 1:
            raise MjError(f"max_exchanges must be a whole number 1 or more, not {given(max_exchanges)}")
        room = None
        if waiting_room is not None:
            room = self.tile_list(waiting_room)
        from dataclasses import replace

        from solver.analysis.calls import call_table

        parsed, seen = self.hand(hand), self.seen(seen)
        try:
            with search_for(self.rules).within(seconds):
                result = analyze(self.distance_model, parsed, seen=seen, favourite=self.tile(favourite),
                                 call_tile=self.tile(discard), waiting_room=room, exchange_limit=max_exchanges)
                if result.size == self.rules.hand_size - 1:  # between turns: what every possible discard offers
                    result = replace(result, callable=call_table(self.distance_model, parsed, seen, result.waits))
        except SearchStopped:
            if seconds is None:  # an outer block's budget (TileSearch.within): its caller's to say
                raise
            raise MjError(f"the turn analysis was not finished within {seconds:g} s ({len(self.rules.units):,} units "
                          f"in {self.rules.name}): give it more time (mj h answers h alone, sooner)", NOT_EXACT) from None
        return result

    def plan(self, hand: HandLike, turns: int, objective: str = "win", seen: str | Iterable[TileLike] = (),
             waiting_room: str | Iterable[TileLike] = (), favourite: TileLike | None = None, detour: int | None = None,
             progress=None, both: bool = True, estimate: int | None = None, max_states: int | None = None,
             seed: int = 0, *, nearest: bool = False, seconds: float | None | str = "default") -> "Plan":
        """P(win) and E[score] per discard over `turns` draws (solver.planning.plan, docs section 8).

        By default the true optimum where it finishes within `max_states` and its share of `seconds` (the whole
        answer's budget; None: no clock, reproducible answers) (plan.method
        "optimal"), else per discard a real policy's value and a proved upper bound ("bounds"), or with
        `estimate` past every exact search a Monte Carlo estimate ("estimate", 95 % intervals). `detour` D asks
        for the class of targets within h + D, `nearest` for the class "nearest" (method "class": exact within
        it). The keywords build a PlanRequest (plan_request takes one).
        """
        return self.plan_request(self.plan_request_of(
            hand, turns, objective, seen, waiting_room, favourite, detour, both, estimate, max_states, seed,
            nearest=nearest, seconds=seconds), progress)

    def plan_request_of(self, hand: HandLike, turns: int, objective: str = "win", seen: str | Iterable[TileLike] = (),
                        waiting_room: str | Iterable[TileLike] = (), favourite: TileLike | None = None,
                        detour: int | None = None, both: bool = True, estimate: int | None = None,
                        max_states: int | None = None, seed: int = 0, *, nearest: bool = False,
                        seconds: float | None | str = "default") -> "PlanRequest":
        """The PlanRequest of Evaluator.plan's keywords (names accepted for every tile; `seconds` None: no clock)."""
        from solver.planning.request import Limits, PlanRequest, Position

        state_limit, default_seconds = plan_limits()
        room = self.tile_list(waiting_room)
        position = Position(self.hand(hand), self.seen(seen), tuple(room), self.tile(favourite))
        limits = Limits(state_limit if max_states is None else max_states,
                        default_seconds if seconds == "default" else seconds, estimate, seed)
        return PlanRequest(position, turns, objective, PlanRequest.play_of(detour, nearest), detour, both, limits)

    def plan_request(self, request: "PlanRequest", progress=None) -> "Plan":
        """The plan of a typed request (solver/planning/request.py)."""
        from solver.planning.plan import plan

        return plan(self.rules, request, progress)

    def is_complete(self, hand: HandLike) -> bool:
        """Whether the hand's 13 tiles, called units included, split exactly into units (a win, if drawn)."""
        from solver.core.score import is_complete

        return is_complete(self.hand(hand), self.rules)

    def units_present(self, hand: HandLike) -> UnitsPresent:
        """The units the hand holds whole, and those one or two members short."""
        hand = self.hand(hand)
        check_hand(hand, self.rules)
        return units_present(hand, self.rules)


_SHARED: dict[tuple[str, tuple], Evaluator] = {}


def _stamped(path: str) -> tuple:
    try:
        stat = os.stat(path)
    except OSError:
        return (path,)  # (the Evaluator says what is wrong with it)
    return path, stat.st_mtime_ns, stat.st_size


H_SECONDS = 10.0  # the budget mj h and /api/h give the h search (the API's own default: none)
ANALYSIS_SECONDS = 30.0  # mj analyze's without --turns, and /api/analyze's


def house_files(paths) -> tuple[str, ...]:
    """A house's catalogue files as absolute paths: a batch's workers open them from their own directories."""
    return tuple(os.path.abspath(path) for path in paths or ())


def house_record(files: tuple[str, ...], rules: RuleSet) -> dict:
    """What a batch's .meta records of a house (nothing without one, so files written before stay resumable): its
    files and the rule set's digest, so a resume under an edited house is refused."""
    return {"catalogue": list(files), "rules_digest": rules_digest(rules)} if files else {}


def shared_evaluator(rules: str, catalogue_files: tuple[str, ...] = ()) -> Evaluator:
    """This process's Evaluator for a rule set (built in, or of `catalogue_files`), built once (a worker grades many
    claims, or plays many games, with it; CP-SAT models are built once per process)."""
    key = (rules, tuple(_stamped(path) for path in catalogue_files))  # (an edited file is read again)
    if key not in _SHARED:
        _SHARED[key] = Evaluator(rules, catalogue_files=catalogue_files)
    return _SHARED[key]
