"""Called sets (and closed kans): what a hand has declared beside its concealed tiles."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from riichi.errors import InvalidHandError, InvalidNotationError
from riichi.tiles import kind_of, parse_tiles, tiles_name


class MeldType(Enum):
    CHI = "chi"
    PON = "pon"
    MINKAN = "minkan"  # open kan called from a discard (daiminkan)
    ANKAN = "ankan"  # closed kan
    KAKAN = "kakan"  # added kan: a pon extended with the fourth tile


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set.

    ``tiles`` are physical ids. ``called`` is the tile taken from a discard
    (for a kakan, the tile of the original pon) and ``from_seat`` the seat
    that discarded it; both are None for a closed kan.
    """

    type: MeldType
    tiles: tuple[int, ...]
    called: int | None = None
    from_seat: int | None = None

    def __post_init__(self) -> None:
        kinds = sorted(kind_of(t) for t in self.tiles)
        size = 4 if self.type in (MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN) else 3
        problems = []
        if len(self.tiles) != size or len(set(self.tiles)) != size:
            problems.append(f"needs {size} distinct tiles")
        elif self.type is MeldType.CHI:
            k = kinds[0]
            if k >= 27 or k % 9 > 6 or kinds != [k, k + 1, k + 2]:
                problems.append("is not a run of three in one suit")
        elif len(set(kinds)) != 1:
            problems.append("is not one kind")
        if self.called is not None and self.called not in self.tiles:
            problems.append("does not contain its called tile")
        if problems:
            raise InvalidHandError(
                f"{self.type.value} {tiles_name(self.tiles)} " + ", ".join(problems)
            )

    @property
    def kind(self) -> int:
        """The lowest kind in the set."""
        return min(self.tiles) >> 2

    @property
    def is_kan(self) -> bool:
        # checked on construction: a kan has four tiles, every other set three
        return len(self.tiles) == 4

    @property
    def is_open(self) -> bool:
        return self.type is not MeldType.ANKAN

    @property
    def is_sequence(self) -> bool:
        return self.type is MeldType.CHI

    def __str__(self) -> str:
        return f"{self.type.value}:{tiles_name(self.tiles, red_fives=4)}"


_NAMES = {
    "chi": MeldType.CHI,
    "pon": MeldType.PON,
    "kan": MeldType.MINKAN,
    "minkan": MeldType.MINKAN,
    "daiminkan": MeldType.MINKAN,
    "ankan": MeldType.ANKAN,
    "kakan": MeldType.KAKAN,
    "shouminkan": MeldType.KAKAN,
}


def parse_meld(text: str, used: set[int] | None = None) -> Meld:
    """``"pon:555z"``, ``"chi:406p"``, ``"kan:1111m"``, ``"ankan:0555s"``, ``"kakan:5555p@2"``.

    The optional ``@seat`` names the seat the tile was called from. The called
    tile is the first tile written. ``used`` holds physical ids already taken
    (by the hand or other melds) so that copies are never given out twice.
    """
    head, sep, body = text.partition(":")
    meld_type = _NAMES.get(head.strip().lower())
    if not sep or meld_type is None:
        raise InvalidNotationError(
            f"bad meld {text!r}: write type:tiles, type one of {', '.join(sorted(_NAMES))}"
        )
    body, at, seat_text = body.partition("@")
    from_seat = None
    if at:
        if not seat_text.isdigit():
            raise InvalidNotationError(f"bad meld {text!r}: @ must be followed by a seat number")
        from_seat = int(seat_text)
    tiles = parse_tiles(body, used)
    called = None if meld_type is MeldType.ANKAN else (tiles[0] if tiles else None)
    return Meld(meld_type, tuple(tiles), called, from_seat)
