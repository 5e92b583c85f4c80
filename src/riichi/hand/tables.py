"""The precomputed per-group tables behind shanten, waits and acceptance.

``tables.bin`` is written by ``tools/gen_hand_tables.py``. For every count
vector of one suit (9 kinds) or of the honours (7 kinds) it gives the id of a
*group vector*: ten replacement numbers, entry ``2*m + p`` being how many tiles
the group still needs to hold exactly ``m`` sets and ``p`` pairs (capped at
10, never using a fifth copy). Only 126 suit vectors and 55 honour vectors
occur, and combining groups (min over how the sets and the pair are shared)
stays within 180 vectors, so whole hands are combined with three table
lookups instead of a search.
"""

from __future__ import annotations

import itertools
import zlib
from importlib.resources import files
from typing import Final

_MAGIC: Final = b"RIICHI-HAND-1\n"
CAP: Final = 10


def _load() -> tuple[tuple[int, int, int], list[bytes]]:
    raw = (files("riichi.hand") / "tables.bin").read_bytes()
    if not raw.startswith(_MAGIC):
        raise RuntimeError("riichi/hand/tables.bin is not a hand table file; regenerate it")
    body = zlib.decompress(raw[len(_MAGIC) :])
    ns, nh, nv = (int.from_bytes(body[i : i + 2], "little") for i in (0, 2, 4))
    sizes = (5**9, 5**7, ns * 10, nh * 10, nv * 10, ns * ns, nv * ns, nv * nh)
    parts: list[bytes] = []
    pos = 6
    for size in sizes:
        parts.append(body[pos : pos + size])
        pos += size
    if pos != len(body):
        raise RuntimeError("riichi/hand/tables.bin has the wrong size; regenerate it")
    return (ns, nh, nv), parts


def _vectors(flat: bytes) -> list[tuple[int, ...]]:
    return [tuple(flat[i : i + 10]) for i in range(0, len(flat), 10)]


(NS, NH, NV), (SUIT_ID, HONOR_ID, _svec, _hvec, _vvec, C_SS, C_VS, C_VH) = _load()
SUIT_VEC: Final = _vectors(_svec)
HONOR_VEC: Final = _vectors(_hvec)
COMBINED_VEC: Final = _vectors(_vvec)

#: FINAL[M][v * NH + h]: replacement number for M sets and a pair of combined
#: suits ``v`` (an id into COMBINED_VEC) plus honours ``h``.
FINAL: Final = tuple(
    bytes(COMBINED_VEC[C_VH[i]][2 * m + 1] for i in range(NV * NH)) for m in range(5)
)


# A group's key is its counts in base 5, the first count the lowest digit
# (``shanten.suit_key``, ``shanten.honor_key``).
POW5: Final = tuple(5**i for i in range(9))


def _yaochu_value(held: tuple[int, ...]) -> int:
    return sum(1 for c in held if c) + (16 if max(held) >= 2 else 0)


def _suit_yaochu_table() -> bytes:
    """Per suit key: orphan kinds held (1 and 9), plus 16 if one is held twice or more."""
    # the key is c0 + 5*c1 + ... + 5**8 * c8, so only its lowest and highest digits count
    return b"".join(bytes(_yaochu_value((c0, c8)) for c0 in range(5)) * 5**7 for c8 in range(5))


def _honor_yaochu_table() -> bytes:
    # product() varies its last item fastest, the key its lowest digit
    return bytes(_yaochu_value(d) for d in itertools.product(range(5), repeat=7))


SUIT_YAOCHU: Final = _suit_yaochu_table()
HONOR_YAOCHU: Final = _honor_yaochu_table()


def _decrease_table(vecs: list[tuple[int, ...]]) -> list[int]:
    """DEC[g * n + h]: bitmask of entries where vector h is below vector g."""
    return [sum(1 << e for e in range(10) if h[e] < g[e]) for g in vecs for h in vecs]


SUIT_DEC: Final = _decrease_table(SUIT_VEC)
HONOR_DEC: Final = _decrease_table(HONOR_VEC)

_optimal_cache: dict[int, int] = {}


def optimal_entries(group: tuple[int, ...], gid: int, rest: int, sets: int, honors: int) -> int:
    """Bitmask of entries ``2m+p`` of ``group`` that some optimal split uses.

    ``rest`` is the COMBINED_VEC id of the other groups together and ``sets``
    the number of sets the hand needs.
    """
    key = ((honors * 256 + gid) * 256 + rest) * 8 + sets  # ids are below 256
    found = _optimal_cache.get(key)
    if found is None:
        other = COMBINED_VEC[rest]
        totals = {
            2 * m + p: group[2 * m + p] + other[2 * (sets - m) + 1 - p]
            for m in range(sets + 1)
            for p in (0, 1)
        }
        best = min(totals.values())
        found = sum(1 << e for e, t in totals.items() if t == best)
        _optimal_cache[key] = found
    return found
