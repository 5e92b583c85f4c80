"""Tenhou's own walls, rebuilt from the SHUFFLE seed of a log.

MT19937 seeded by array, 288 outputs per hand, SHA-512 over nine 128-byte
chunks, then a swap shuffle: FORMATS.md section 1.8. Comparing these walls
with what a log shows checks our reading of Tenhou's wall layout.

Three-player games shuffle the 108 tiles of their set (ids ascending, the
same swaps over 108 places) and keep eight replacement tiles, for four kans
and four Norths: positions 1, 0, 3, 2, 5, 4, 7, 6; the indicators sit at 9,
11, 13, 15, 17 (ura one below each), and the live wall runs from below the
deal down to 14, shortened by one at its end for each replacement drawn.
Checked on every hand of the corpus's three-player logs.
"""

from __future__ import annotations

import base64
import hashlib
import random
import struct

from riichi.formats.mjlog import LogFormatError
from riichi.game import Wall
from riichi.game.wall import tile_set

_PREFIX = "mt19937ar-sha512-n288-base64,"


def tenhou_walls(seed: str, hands: int, players: int = 4) -> list[list[int]]:
    """The shuffled tiles (136, or 108 for three players) of each of the first
    ``hands`` hands of a game."""
    if not seed.startswith(_PREFIX):
        raise LogFormatError(f"unknown SHUFFLE seed kind {seed[:40]!r}")
    key = base64.b64decode(seed[len(_PREFIX) :])
    # Python's Mersenne Twister seeds by array from an int's 32-bit words (low first),
    # which is init_by_array over the seed's little-endian words
    mt = random.Random(int.from_bytes(key, "little"))
    walls = []
    for _ in range(hands):
        block = b"".join(struct.pack("<I", mt.getrandbits(32)) for _ in range(288))
        digest = b"".join(hashlib.sha512(block[i : i + 128]).digest() for i in range(0, 1152, 128))
        rnd = struct.unpack("<144I", digest)
        wall = tile_set(players)
        size = len(wall)
        for i in range(size - 1):
            j = i + rnd[i] % (size - i)
            wall[i], wall[j] = wall[j], wall[i]
        walls.append(wall)
    return walls


def dealt_hands(wall: list[int], dealer: int, players: int = 4) -> list[list[int]]:
    """The 13 tiles each seat is dealt: from the end, in three rounds of four, then one."""
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = len(wall) - 1
    for _ in range(3):
        for i in range(players):
            seat = (dealer + i) % players
            hands[seat] += wall[pos - 3 : pos + 1][::-1]
            pos -= 4
    for i in range(players):
        hands[(dealer + i) % players].append(wall[pos])
        pos -= 1
    return [sorted(h) for h in hands]


def wall_from_tenhou(wall: list[int], dealer: int, players: int = 4) -> Wall:
    """Our Wall for one of Tenhou's shuffled walls (seats counted from the dealer)."""
    by_seat = dealt_hands(wall, dealer, players)
    first = len(wall) - 13 * players - 1  # the first live draw
    hands = [by_seat[(dealer + i) % players] for i in range(players)]
    if players == 4:
        return Wall(
            hands=hands,
            draws=wall[first:13:-1],
            rinshan=[wall[1], wall[0], wall[3], wall[2]],
            dora=[wall[5], wall[7], wall[9], wall[11], wall[13]],
            ura=[wall[4], wall[6], wall[8], wall[10], wall[12]],
        )
    # the live wall's last four places (17..14) double as the fourth and fifth
    # indicator pairs: our Wall keeps them there and draws them as its tail
    return Wall(
        hands=hands,
        draws=wall[first:17:-1],
        rinshan=[wall[i] for i in (1, 0, 3, 2, 5, 4, 7, 6)],
        dora=[wall[i] for i in (9, 11, 13, 15, 17)],
        ura=[wall[i] for i in (8, 10, 12, 14, 16)],
        _players=3,
    )
