"""Actions: the decisions a seat can make. Persisted by their stable text form."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from riichi.errors import RiichiError, excerpt
from riichi.tiles import tile_name


class IllegalActionError(RiichiError):
    """An action that is not legal now; the message summarises the state."""


class ActionType(Enum):
    rank: int  # position in the stable order of legal actions

    DISCARD = "discard"
    RIICHI = "riichi"  # declare riichi with this discard
    TSUMO = "tsumo"
    RON = "ron"
    CHI = "chi"
    PON = "pon"
    KAN = "kan"  # open kan on a discard (daiminkan)
    ANKAN = "ankan"
    KAKAN = "kakan"
    KITA = "kita"  # three players: set a North aside for a replacement draw
    KYUUSHU = "kyuushu"  # nine terminals abort
    PASS = "pass"


for _rank, _type in enumerate(ActionType):
    _type.rank = _rank


@dataclass(init=False, eq=False)
class Action:
    """One decision. ``tile`` is the tile discarded, won on, or called/added;
    ``tiles`` are the tiles from the hand that a call uses. Immutable: its fields
    are ``Final``.

    The constructor, equality and hash are written out rather than generated: the
    compiled core then runs them natively (a generated one is interpreted), and the
    engine compares every action it is given with the legal ones.
    """

    type: Final[ActionType]
    tile: Final[int | None]
    tiles: Final[tuple[int, ...]]

    def __init__(
        self, type: ActionType, tile: int | None = None, tiles: tuple[int, ...] = ()
    ) -> None:
        self.type = type
        self.tile = tile
        self.tiles = tiles

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.type is other.type and self.tile == other.tile and self.tiles == other.tiles

    def __hash__(self) -> int:
        return hash((self.type.value, self.tile, self.tiles))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Action, (self.type, self.tile, self.tiles)  # compiled: pickled by its fields

    def __str__(self) -> str:
        parts = [self.type.value]
        if self.tile is not None:
            parts.append(tile_name(self.tile, red_fives=4))
        if self.tiles:
            parts.append("+".join(tile_name(t, red_fives=4) for t in self.tiles))
        return " ".join(parts)

    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        return (self.type.rank, -1 if self.tile is None else self.tile, self.tiles)

    def to_dict(self) -> dict[str, object]:
        """Stable plain data with physical tile ids, for records."""
        out: dict[str, object] = {"type": self.type.value}
        if self.tile is not None:
            out["tile"] = self.tile
        if self.tiles:
            out["tiles"] = list(self.tiles)
        return out

    @classmethod
    def from_dict(cls, data: object) -> Action:
        """Inverse of ``to_dict``; malformed data raises ``IllegalActionError``."""
        try:
            if not isinstance(data, dict):
                raise TypeError("an action is an object")
            unknown = set(data) - {"type", "tile", "tiles"}
            if unknown:
                raise ValueError(f"unknown keys {sorted(unknown)}")
            tile = data.get("tile")
            tiles = data.get("tiles", [])
            if tile is not None and not _is_tile_id(tile):
                raise ValueError("tile must be an id 0..135")
            if not isinstance(tiles, list) or len(tiles) > 4 or not all(map(_is_tile_id, tiles)):
                raise ValueError("tiles must be at most four ids 0..135")
            return cls(ActionType(data["type"]), tile, tuple(tiles))
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalActionError(f"malformed action {excerpt(data)}: {exc}") from None


def _is_tile_id(value: object) -> bool:
    # bool is an int subclass: true must not pass for tile 1
    return type(value) is int and 0 <= value < 136


# Final: the compiled core reads them as C statics, not from the module's dictionary
PASS: Final = Action(ActionType.PASS)
#: Shared instances: a turn offers these for every tile in hand.
DISCARDS: Final = tuple(Action(ActionType.DISCARD, t) for t in range(136))
RIICHIS: Final = tuple(Action(ActionType.RIICHI, t) for t in range(136))
KITAS: Final = tuple(Action(ActionType.KITA, t) for t in range(136))
TSUMO: Final = Action(ActionType.TSUMO)
KYUUSHU: Final = Action(ActionType.KYUUSHU)
