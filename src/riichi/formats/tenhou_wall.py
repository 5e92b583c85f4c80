"""Tenhou's own walls, rebuilt from the SHUFFLE seed of a log.

MT19937 seeded by array, 288 outputs per hand, SHA-512 over nine 128-byte
chunks, then a swap shuffle: FORMATS.md section 1.8. Comparing these walls
with what a log shows checks our reading of Tenhou's wall layout.
"""

from __future__ import annotations

import base64
import hashlib
import random
import struct

from riichi.formats.mjlog import LogFormatError
from riichi.game import Wall

_PREFIX = "mt19937ar-sha512-n288-base64,"


def tenhou_walls(seed: str, hands: int) -> list[list[int]]:
    """The shuffled 136 tiles of each of the first ``hands`` hands of a game."""
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
        wall = list(range(136))
        for i in range(135):
            j = i + rnd[i] % (136 - i)
            wall[i], wall[j] = wall[j], wall[i]
        walls.append(wall)
    return walls


def dealt_hands(wall: list[int], dealer: int) -> list[list[int]]:
    """The 13 tiles each seat is dealt: from the end, in three rounds of four, then one."""
    hands: list[list[int]] = [[] for _ in range(4)]
    pos = 135
    for _ in range(3):
        for i in range(4):
            seat = (dealer + i) % 4
            hands[seat] += wall[pos - 3 : pos + 1][::-1]
            pos -= 4
    for i in range(4):
        hands[(dealer + i) % 4].append(wall[pos])
        pos -= 1
    return [sorted(h) for h in hands]


def wall_from_tenhou(wall: list[int], dealer: int) -> Wall:
    """Our Wall for one of Tenhou's shuffled walls (seats counted from the dealer)."""
    by_seat = dealt_hands(wall, dealer)
    return Wall(
        hands=[by_seat[(dealer + i) % 4] for i in range(4)],
        draws=wall[83:13:-1],
        rinshan=[wall[1], wall[0], wall[3], wall[2]],
        dora=[wall[5], wall[7], wall[9], wall[11], wall[13]],
        ura=[wall[4], wall[6], wall[8], wall[10], wall[12]],
    )
