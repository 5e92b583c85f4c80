"""Walls: seeded shuffles that are identical on every machine, or given explicitly.

A seed and a hand index drive our own Fisher-Yates shuffle over a SHA-256
counter-mode stream (never Python's ``random``), so a seed means the same
walls everywhere: Daily Wall, duplicate play, crash recovery and bug reports
rely on it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from riichi.errors import RiichiError
from riichi.tiles import NUM_TILES, tiles_name

DEAD_WALL: Final = 14
RINSHAN_TILES: Final = 4
KITA_RINSHAN_TILES: Final = 8  # three players setting North aside: four kans and four Norths
MAX_INDICATORS: Final = 5


class InvalidWallError(RiichiError):
    """An explicit wall that does not hold each tile of the set exactly once."""


class _Stream:
    """Unsigned 32-bit numbers from SHA-256 of (seed, hand, block counter)."""

    def __init__(self, seed: str, hand: int) -> None:
        self._prefix = f"riichi-wall-v1\x00{seed}\x00{hand}\x00".encode()
        self._counter = 0
        self._buffer: list[int] = []

    def next32(self) -> int:
        if not self._buffer:
            digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            self._buffer = [int.from_bytes(digest[i : i + 4], "little") for i in range(28, -4, -4)]
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling: no modulo bias)."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            x = self.next32()
            if x < limit:
                return x % n


def tile_set(players: int) -> list[int]:
    """The physical tiles in play: 136, or 108 for three players (no 2m..8m)."""
    if players == 3:
        return [t for t in range(NUM_TILES) if not 1 <= t >> 2 <= 7]
    return list(range(NUM_TILES))


def shuffled(seed: int | str, hand: int, players: int = 4) -> list[int]:
    """The tile set shuffled for hand number ``hand`` of the match seeded ``seed``."""
    tiles = tile_set(players)
    stream = _Stream(str(seed), hand)
    for i in range(len(tiles) - 1, 0, -1):
        j = stream.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


@dataclass
class Wall:
    """Where every tile of one hand is.

    ``hands[s]`` are the 13 tiles dealt to the s-th seat counted from the
    dealer; ``draws`` the live wall in drawing order; ``rinshan`` the four
    replacement tiles in order; ``dora`` and ``ura`` the five indicator
    positions each. Each kan moves the end of the live wall into the dead
    wall, so the live wall is ``len(draws) - kans`` long.

    Three players who set Norths aside need eight replacement tiles from a
    dead wall of fourteen: it is kept at fourteen by taking the live wall's
    last tiles as replacements are drawn, and the last four indicator slots
    (dora and ura of the fourth and fifth kan) are those tiles. So with eight
    replacement tiles the live wall runs on from ``draws`` into ``tail()``,
    and each replacement drawn takes one tile off its end.
    """

    hands: list[list[int]]
    draws: list[int]
    rinshan: list[int]
    dora: list[int]
    ura: list[int]
    _players: int = field(default=4, repr=False)

    @classmethod
    def from_order(cls, tiles: list[int], players: int = 4, rinshan: int = RINSHAN_TILES) -> Wall:
        """Deal from a tile order: seats take 13 each, the last ``rinshan`` + 10 are the
        replacement tiles and the indicators."""
        dead_size = rinshan + 2 * MAX_INDICATORS
        live, dead = tiles[:-dead_size], tiles[-dead_size:]
        hands = [live[13 * s : 13 * s + 13] for s in range(players)]
        return cls(
            hands=hands,
            draws=live[13 * players :],
            rinshan=dead[:rinshan],
            dora=dead[rinshan : rinshan + MAX_INDICATORS],
            ura=dead[rinshan + MAX_INDICATORS :],
            _players=players,
        )

    @classmethod
    def seeded(cls, seed: int | str, hand: int, players: int = 4, kita: bool = False) -> Wall:
        """The seeded wall of one hand; ``kita`` gives it eight replacement tiles."""
        rinshan = KITA_RINSHAN_TILES if kita else RINSHAN_TILES
        return cls.from_order(shuffled(seed, hand, players), players, rinshan)

    def tail(self) -> list[int]:
        """Live tiles beyond ``draws``: with eight replacement tiles, the indicator slots
        of the fourth and fifth kan, in drawing order (empty otherwise)."""
        if len(self.rinshan) != KITA_RINSHAN_TILES:
            return []
        return [self.dora[4], self.ura[4], self.dora[3], self.ura[3]]

    def check(self) -> None:
        """Raise ``InvalidWallError`` unless every tile of the set appears exactly once."""
        every = (
            [t for h in self.hands for t in h] + self.draws + self.rinshan + self.dora + self.ura
        )
        expected = tile_set(len(self.hands))
        if sorted(every) != expected:
            twice = sorted(t for t, n in Counter(every).items() if n > 1)
            missing = sorted(set(expected) - set(every))
            raise InvalidWallError(
                f"wall holds {len(every)} tiles; repeated: {tiles_name(twice) or '-'};"
                f" missing: {tiles_name(missing) or '-'}"
            )
        if any(len(h) != 13 for h in self.hands):
            raise InvalidWallError("every seat is dealt 13 tiles")
        sizes = (RINSHAN_TILES, KITA_RINSHAN_TILES) if len(self.hands) == 3 else (RINSHAN_TILES,)
        if len(self.rinshan) not in sizes or len(self.dora) != MAX_INDICATORS:
            raise InvalidWallError(
                "the dead wall has 4 replacement tiles (8 for three players setting North"
                " aside) and 5 indicator pairs"
            )

    def to_dict(self) -> dict[str, list[int] | list[list[int]]]:
        return {
            "hands": self.hands,
            "draws": self.draws,
            "rinshan": self.rinshan,
            "dora": self.dora,
            "ura": self.ura,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Wall:
        """Inverse of ``to_dict``; the wall is checked."""
        wall = cls(
            [list(h) for h in data["hands"]],
            list(data["draws"]),
            list(data["rinshan"]),
            list(data["dora"]),
            list(data["ura"]),
            len(data["hands"]),
        )
        wall.check()
        return wall

    def tiles(self) -> list[int]:
        """Every tile, in the order ``from_order`` reads them."""
        return [t for h in self.hands for t in h] + self.draws + self.rinshan + self.dora + self.ura
