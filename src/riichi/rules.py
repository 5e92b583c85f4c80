"""Rules as data: the frozen ``RuleSet`` and the named presets.

Every difference between the rule documents in ``shared/rules/`` is a field
here, documented with its default (the ``online`` preset, rule document 004).
A RuleSet converts to and from JSON exactly, so records can store the whole
ruleset rather than a name; unknown keys and bad values are errors.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from riichi.errors import RiichiError, excerpt


class UnknownRulesetError(RiichiError):
    """A preset name that is not known."""


class InvalidRulesetError(RiichiError):
    """A RuleSet (or its JSON) with an unknown key or a bad value."""


class Length(Enum):
    ONE_HAND = "one-hand"
    EAST = "east"  # tonpuusen
    SOUTH = "south"  # hanchan


class TripleRon(Enum):
    ABORT = "abort"  # abortive draw
    ALL_WIN = "all-win"
    HEAD_BUMP = "head-bump"  # only the first in turn order from the discarder wins


class KanDoraTiming(Enum):
    IMMEDIATE = "immediate"
    AFTER_REPLACEMENT = "after-replacement"  # after the replacement draw, before the discard
    AFTER_DISCARD = "after-discard"


class Renhou(Enum):
    NONE = "none"
    MANGAN = "mangan"
    YAKUMAN = "yakuman"


class Pao(Enum):
    NONE = "none"
    WHOLE = "whole"  # the liable player covers the whole win (Tenhou style)
    PORTION = "portion"  # only the yakuman the call completed


class Settlement(Enum):
    UMA_OKA = "uma-oka"  # return points, uma and oka
    RAW = "raw"  # raw end scores: no uma, no oka, no stick redistribution (Daily Wall)
    TABLE_POINTS = "table-points"  # tournament table points by place
    WINNER_TAKES_ALL = "winner-takes-all"
    HOUSE = "house"  # pot split by end score plus a placement bonus


class DoubleYakuman(Enum):
    """Yakuman that may count twice (``RuleSet.double_yakuman``)."""

    KOKUSHI_13 = "kokushi-13"
    SUUANKOU_TANKI = "suuankou-tanki"
    JUNSEI_CHUUREN = "junsei-chuuren"
    DAISUUSHII = "daisuushii"


ALL_DOUBLE_YAKUMAN = frozenset(DoubleYakuman)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every switch of a riichi ruleset. Defaults are the ``online`` preset (document 004)."""

    name: str = "online"
    # -- table
    players: int = 4  # 3 removes 2m..8m (108 tiles)
    length: Length = Length.SOUTH  # the default match length
    lengths: tuple[Length, ...] = (Length.EAST, Length.SOUTH)  # lengths the preset offers
    start_points: int = 25000
    return_points: int = 30000
    # -- settlement
    settlement: Settlement = Settlement.UMA_OKA
    uma: tuple[int, ...] = (15000, 5000, -5000, -15000)
    oka: bool = True  # (return - start) * players goes to first place
    leftover_sticks_to_first: bool = True
    # older Tenhou: every seat but the top rounds its score to whole thousands,
    # halves away from zero, and the top takes what makes the total zero
    round_final_points: bool = False
    table_points: tuple[int, ...] = (4, 2, 1, 0)  # tournament table points by place
    # -- chips at a table with a bet (002); percentages of the bet, site settings
    # winner takes all, single hand: the discarder of the winning tile pays this much
    # extra, and the other losers that much less between them
    feeding_penalty: int = 50
    # house rules: last pays first, third pays second (three players: last pays first)
    placement_bonus: tuple[int, ...] = (20, 10)
    # -- tiles and yaku
    red_fives: int = 3  # 0, 3 or 4 (the fourth is a second red 5p)
    kuitan: bool = True  # open tanyao
    double_wind_pair_fu: int = 4  # a pair of both seat and round wind: 4 (or 2) fu
    kiriage: bool = False  # 4 han 30 fu and 3 han 60 fu round up to mangan
    kazoe_yakuman: bool = True  # 13+ han is a (single) yakuman; else sanbaiman
    double_yakuman: frozenset[DoubleYakuman] = frozenset()
    yakuman_stacking: bool = True  # several yakuman add up
    renhou: Renhou = Renhou.NONE
    north_pon_han: bool = False  # three-player: a pon of North is worth one han
    # three-player: a North may be set aside (kita) for a replacement draw; each one
    # set aside counts as a dora (Tenhou)
    kita: bool = False
    # -- calls
    chi_allowed: bool = True
    kuikae_forbidden: bool = True
    double_ron: bool = True  # False: head bump, the first in turn order wins alone
    triple_ron: TripleRon = TripleRon.ABORT
    # -- riichi
    # passing a winning tile blocks ron until the seat's own next discard (004),
    # or only until its next draw (001; they differ after a call)
    temporary_furiten_until: str = "discard"
    riichi_min_live_tiles: int = 4  # one more draw of its own to come (four players)
    furiten_riichi: bool = True
    ippatsu: bool = True
    ura_dora: bool = True
    kan_dora: bool = True
    kan_ura: bool = True
    closed_kan_dora: KanDoraTiming = KanDoraTiming.IMMEDIATE
    open_kan_dora: KanDoraTiming = KanDoraTiming.AFTER_DISCARD
    kokushi_robs_closed_kan: bool = False
    # -- draws
    abort_nine_terminals: bool = True
    abort_four_winds: bool = True
    abort_four_riichi: bool = True
    abort_four_kans: bool = True
    four_kan_abort_on_fifth: bool = False  # agari: the abort comes at a fifth kan attempt
    nagashi_mangan: bool = True
    noten_payment: int = 3000  # total paid by noten players at an exhaustive draw
    # -- payments
    honba_ron: int = 300
    honba_tsumo: int = 100  # from each payer
    riichi_stick: int = 1000
    pao: Pao = Pao.WHOLE
    tsumo_loss: bool = False  # three-player: the missing player's share is not paid
    # 002: nobody goes below 0; a payer pays at most what it has, the payee gets what
    # was paid, and a player brought to exactly 0 ends the game (where busting is on)
    loss_limit: bool = False
    # -- match flow
    extension_target: int | None = 30000  # None: no extension rounds
    agari_yame: bool = True
    tenpai_yame: bool = True  # agari-yame also when the top last dealer is tenpai at a draw
    # in an extension round, when the dealer repeats and someone reaches the target in the
    # same hand: True plays the repeat (Tenhou), False ends the match (004)
    extension_repeat_first: bool = False
    busting: bool = True

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def oka_points(self) -> int:
        """Points first place receives as oka."""
        return (self.return_points - self.start_points) * self.players if self.oka else 0

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some switches changed (validated)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _encode(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pickled as the plain data it is stored as (a frozen, slotted class does not
        # pickle field by field): how a worker process gets a table's rules
        return (RuleSet.from_dict, (self.to_dict(),))

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        # ``object``: untrusted input is checked here, not at a compiled boundary
        if not isinstance(data, Mapping):
            raise InvalidRulesetError(f"a ruleset is a JSON object, got {type(data).__name__}")
        hints = field_types()
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            shown = ", ".join(excerpt(k, 40) if len(k) > 40 else k for k in unknown[:10])
            raise InvalidRulesetError(f"unknown ruleset keys: {shown}")
        values = {key: _decode(key, hints[key], value) for key, value in data.items()}
        return cls(**values)

    @classmethod
    def from_json(cls, text: str) -> RuleSet:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRulesetError(f"ruleset JSON does not parse: {exc}") from None
        return cls.from_dict(data)


def placement_bonuses(rules: RuleSet) -> list[tuple[int, int, int]]:
    """House rules' placement bonus as (place that gets it, place that pays it, percent
    of the bet), places from 0 (first): last pays first, and with four players third
    pays second."""
    out = [(0, rules.players - 1, rules.placement_bonus[0])]
    if rules.players == 4:
        out.append((1, 2, rules.placement_bonus[1]))
    return out


# The element types of the container fields and the fields that may be None, written
# out: compiled by mypyc, RuleSet keeps only ``tuple`` and ``frozenset`` (and no union)
# in its run-time annotations. A test checks this against the source's annotations.
ITEM_TYPES: dict[str, tuple[Any, Any]] = {
    "lengths": (tuple, Length),
    "uma": (tuple, int),
    "table_points": (tuple, int),
    "placement_bonus": (tuple, int),
    "double_yakuman": (frozenset, DoubleYakuman),
}
NULLABLE: dict[str, Any] = {"extension_target": int}


def field_types() -> dict[str, Any]:
    """Each RuleSet field's type as the source declares it."""
    hints: dict[str, Any] = dict(typing.get_type_hints(RuleSet))
    for name, (container, item) in ITEM_TYPES.items():
        args = (item, ...) if container is tuple else (item,)
        hints[name] = types.GenericAlias(container, args)
    for name, base in NULLABLE.items():
        hints[name] = base | None
    return hints


def _encode(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(_encode(v) for v in value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _decode(key: str, hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    try:
        if origin in (types.UnionType, typing.Union):
            if value is None and type(None) in args:
                return None
            (inner,) = [a for a in args if a is not type(None)]
            return _decode(key, inner, value)
        if origin in (tuple, frozenset):
            if not isinstance(value, list):
                raise TypeError("expected a list")
            items = [_decode(key, args[0], v) for v in value]
            return tuple(items) if origin is tuple else frozenset(items)
        if isinstance(hint, type) and issubclass(hint, Enum):
            return hint(value)
        if hint is bool:
            if not isinstance(value, bool):
                raise TypeError("expected true or false")
            return value
        if hint is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("expected an integer")
            return value
        if hint is str:
            if not isinstance(value, str):
                raise TypeError("expected a string")
            return value
    except (TypeError, ValueError) as exc:
        raise InvalidRulesetError(
            f"ruleset key {excerpt(key)}: bad value {excerpt(value)}: {exc}"
        ) from None
    raise InvalidRulesetError(f"ruleset key {key!r} has an unsupported type {hint}")


POINTS = 1_000_000  # the most points a table starts with, a target or a payment needs
NUMBER_BOUNDS: tuple[tuple[str, int, int], ...] = (
    ("start_points", 0, POINTS),
    ("return_points", 0, POINTS),
    ("extension_target", 0, POINTS),
    ("noten_payment", 0, 100_000),
    ("honba_ron", 0, 100_000),
    ("honba_tsumo", 0, 100_000),
    ("riichi_stick", 0, 100_000),
    ("riichi_min_live_tiles", 0, 136),
    ("feeding_penalty", 0, 100),  # percent of the bet
)
LIST_BOUNDS: tuple[tuple[str, int, int], ...] = (
    ("uma", -POINTS, POINTS),
    ("table_points", -1000, 1000),
    ("placement_bonus", 0, 100),  # percent of the bet
)


def _validate(r: RuleSet) -> None:
    problems = []
    if not 0 < len(r.name) <= 64:
        problems.append(f"name must be 1 to 64 characters, got {len(r.name)}")
    if r.players not in (3, 4):
        problems.append(f"players must be 3 or 4, got {r.players}")
    if r.red_fives not in (0, 3, 4):
        problems.append(f"red_fives must be 0, 3 or 4, got {r.red_fives}")
    if r.double_wind_pair_fu not in (2, 4):
        problems.append(f"double_wind_pair_fu must be 2 or 4, got {r.double_wind_pair_fu}")
    if r.temporary_furiten_until not in ("discard", "draw"):
        problems.append("temporary_furiten_until must be 'discard' or 'draw'")
    if len(r.uma) != r.players:
        problems.append(f"uma needs {r.players} values, got {len(r.uma)}")
    if len(r.table_points) != r.players:
        problems.append(f"table_points needs {r.players} values, got {len(r.table_points)}")
    bonus = r.placement_bonus
    if len(bonus) != 2 or min(bonus) < 0 or bonus[1] > bonus[0]:
        problems.append(
            "placement_bonus is two percentages, last to first then third to second, "
            "the second no larger"
        )
    if r.kita and r.players != 3:
        problems.append("kita (setting North aside) is a three-player rule")
    if r.length not in r.lengths:
        problems.append(f"length {r.length.value} is not among lengths offered")
    # Every number within what the rules make sense of: scores stay far inside a
    # database integer, and percentages are percentages.
    for name, low, high in NUMBER_BOUNDS:
        value = getattr(r, name)
        if value is not None and not low <= value <= high:
            problems.append(f"{name} must be {low} to {high}, got {excerpt(value)}")
    for name, low, high in LIST_BOUNDS:
        if any(not low <= v <= high for v in getattr(r, name)):
            problems.append(f"each of {name} must be {low} to {high}")
    if problems:
        raise InvalidRulesetError(f"ruleset {excerpt(r.name)}: " + "; ".join(problems))


# ---------------------------------------------------------------- presets

ONLINE = RuleSet()

AGARI = ONLINE.replace(
    name="agari",
    triple_ron=TripleRon.ALL_WIN,
    four_kan_abort_on_fifth=True,
    kokushi_robs_closed_kan=True,
    double_yakuman=ALL_DOUBLE_YAKUMAN,
)

DAILY_WALL = AGARI.replace(
    name="daily-wall",
    length=Length.ONE_HAND,
    lengths=(Length.ONE_HAND, Length.EAST, Length.SOUTH),
    settlement=Settlement.RAW,
    uma=(0, 0, 0, 0),
    oka=False,
    leftover_sticks_to_first=False,
)

CLASSIC = ONLINE.replace(
    name="classic",
    temporary_furiten_until="draw",
    length=Length.EAST,
    lengths=(Length.ONE_HAND, Length.EAST),
    uma=(20000, 10000, -10000, -20000),
    red_fives=0,
    extension_target=None,
    double_yakuman=ALL_DOUBLE_YAKUMAN,
    pao=Pao.PORTION,
)

LEAGUE = ONLINE.replace(
    name="league",
    length=Length.SOUTH,
    lengths=(Length.SOUTH,),
    uma=(30000, 10000, -10000, -30000),
)

RIICHI_BASIC = ONLINE.replace(
    name="riichi-basic",
    lengths=(Length.ONE_HAND, Length.EAST, Length.SOUTH),
    red_fives=0,
    double_ron=False,
    triple_ron=TripleRon.HEAD_BUMP,
    abort_nine_terminals=False,
    settlement=Settlement.TABLE_POINTS,
    loss_limit=True,  # 002: "a player cannot go below 0 points"
)

EMA = RIICHI_BASIC.replace(
    name="ema",
    kuitan=False,
    double_ron=True,
    triple_ron=TripleRon.ALL_WIN,
    renhou=Renhou.YAKUMAN,
)

SANMA_KANSAI = RIICHI_BASIC.replace(
    name="sanma-kansai",
    players=3,
    settlement=Settlement.UMA_OKA,
    start_points=35000,
    return_points=40000,
    uma=(20000, 0, -20000),
    table_points=(4, 1, 0),
    chi_allowed=False,
    abort_four_riichi=False,
    noten_payment=2000,
    north_pon_han=True,
    tsumo_loss=True,
    # riichi needs another draw of one's own (001: "at least one remaining
    # opportunity to draw"): with three players, three live tiles
    riichi_min_live_tiles=3,
)

TENHOU = ONLINE.replace(
    name="tenhou",
    uma=(20000, 10000, -10000, -20000),
    open_kan_dora=KanDoraTiming.AFTER_DISCARD,
    # the dealer's repeat comes first in the extension: Tenhou plays it
    extension_repeat_first=True,
)

# Tenhou's ranked three-player game: North set aside as dora, tsumo loss, 35,000
# start, 40,000 return, uma +20/0/-20; honba 200 on a ron, 100 from each on a tsumo;
# noten payments 2,000 in all; no chi; no abort by four winds or four riichi.
TENHOU_SANMA = TENHOU.replace(
    name="tenhou-sanma",
    players=3,
    start_points=35000,
    return_points=40000,
    uma=(20000, 0, -20000),
    table_points=(4, 1, 0),
    chi_allowed=False,
    kita=True,
    tsumo_loss=True,
    noten_payment=2000,
    honba_ron=200,
    honba_tsumo=100,
    riichi_min_live_tiles=3,  # real logs: riichi with 3 live tiles
    abort_four_winds=False,
    abort_four_riichi=False,
    extension_target=40000,
)

MAHJONGSOUL = ONLINE.replace(
    name="mahjongsoul",
    double_yakuman=ALL_DOUBLE_YAKUMAN,
    # results as Mahjong Soul logs converted to tenhou.net/6 show them:
    # (score - 25000) / 1000 plus 15/5/-5/-15, no oka
    return_points=25000,
    oka=False,
)

PRESETS: dict[str, RuleSet] = {
    r.name: r
    for r in (
        ONLINE,
        AGARI,
        DAILY_WALL,
        CLASSIC,
        RIICHI_BASIC,
        EMA,
        SANMA_KANSAI,
        LEAGUE,
        TENHOU,
        TENHOU_SANMA,
        MAHJONGSOUL,
    )
}

ALIASES: dict[str, str] = {
    "default": "online",
    "004": "online",
    "000": "agari",
    "daily": "daily-wall",
    "dailywall": "daily-wall",
    "001": "classic",
    "riichi": "riichi-basic",
    "japanese": "riichi-basic",
    "002": "riichi-basic",
    "sanma": "sanma-kansai",
    "kansai": "sanma-kansai",
    "003": "league",
    "mleague": "league",
    "m-league": "league",
    "majsoul": "mahjongsoul",
    "tenhou-3p": "tenhou-sanma",
    "tenhou3": "tenhou-sanma",
    "mahjong-soul": "mahjongsoul",
}


def find_ruleset(name: str) -> RuleSet:
    """A preset by name or alias, case-insensitive (``"Agari"``, ``"sanma"``, ``"M-League"``)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    found = PRESETS.get(key)
    if found is None:
        raise UnknownRulesetError(
            f"unknown ruleset {excerpt(name)}; known: {', '.join(sorted(PRESETS))}"
            f" (aliases: {', '.join(sorted(ALIASES))})"
        )
    return found


# what a table's rules are made of besides its switches: the preset, its length
NOT_SWITCHES = frozenset({"name", "length", "lengths"})


def changed_switches(rules: RuleSet) -> dict[str, Any]:
    """The switches of ``rules`` that differ from its preset, as stored (plain data):
    what a player agrees to beyond the preset's name and the length."""
    preset = find_ruleset(rules.name).to_dict()
    return {
        k: v for k, v in rules.to_dict().items() if k not in NOT_SWITCHES and preset.get(k) != v
    }


__all__ = [
    "ALL_DOUBLE_YAKUMAN",
    "PRESETS",
    "DoubleYakuman",
    "InvalidRulesetError",
    "KanDoraTiming",
    "Length",
    "Pao",
    "Renhou",
    "RuleSet",
    "Settlement",
    "TripleRon",
    "UnknownRulesetError",
    "changed_switches",
    "find_ruleset",
]
