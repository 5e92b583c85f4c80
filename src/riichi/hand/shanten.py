"""Shanten numbers: how far a hand is from tenpai.

A hand of ``3M+1`` or ``3M+2`` concealed tiles (M = 4 minus its called sets)
has shanten ``r - 1``, where the *replacement number* ``r`` is the fewest
tiles it must still draw to be complete, never counting on a fifth copy of a
kind. Tenpai is shanten 0 and a complete hand is -1. Seven pairs and thirteen
orphans only exist for closed hands (M = 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Final

from riichi.errors import InvalidHandError
from riichi.hand import tables as t
from riichi.tiles import NUM_KINDS, YAOCHU, kind_name

_yaochu_counts: Final = itemgetter(*YAOCHU)
# Final module names compile to C statics: no dictionary lookup on the hot path
_SUIT_ID: Final[bytes] = t.SUIT_ID
_HONOR_ID: Final[bytes] = t.HONOR_ID
_C_SS: Final[bytes] = t.C_SS
_C_VS: Final[bytes] = t.C_VS
_FINAL: Final[tuple[bytes, ...]] = t.FINAL
_NS: Final[int] = t.NS
_NH: Final[int] = t.NH
_SUIT_YAOCHU: Final[bytes] = t.SUIT_YAOCHU
_HONOR_YAOCHU: Final[bytes] = t.HONOR_YAOCHU
_C_VH: Final[bytes] = t.C_VH
_SUIT_VEC: Final[list[tuple[int, ...]]] = t.SUIT_VEC
_HONOR_VEC: Final[list[tuple[int, ...]]] = t.HONOR_VEC
_SUIT_DEC: Final[list[int]] = t.SUIT_DEC
_HONOR_DEC: Final[list[int]] = t.HONOR_DEC
_POW5: Final[tuple[int, ...]] = t.POW5


_VALID_COUNTS: Final = bytes(range(5))


def hand_bytes(counts: Sequence[int] | bytes, melds: int | None = None) -> tuple[bytes, int]:
    """Validate a count vector; return it as bytes and the number of sets it needs.

    ``melds`` is the number of called sets (closed kans count too); when it is
    None it is inferred from the tile count.
    """
    try:
        b = bytes(counts)
    except (TypeError, ValueError) as exc:
        raise InvalidHandError(f"counts must be 34 ints 0..4: {exc}") from None
    n = sum(b)
    if (
        melds is None
        and n % 3
        and n <= 14
        and len(b) == NUM_KINDS
        and not b.translate(None, _VALID_COUNTS)
    ):
        return b, n // 3  # the common case, checked with the fewest steps
    if len(b) != NUM_KINDS:
        raise InvalidHandError(f"a count vector has 34 entries, got {len(b)}")
    if b.translate(None, _VALID_COUNTS):
        k = max(range(NUM_KINDS), key=b.__getitem__)
        raise InvalidHandError(f"{b[k]} copies of {kind_name(k)}: at most 4 exist")
    if melds is None:
        sets = min(n // 3, 4)
    elif 0 <= melds <= 4:
        sets = 4 - melds
    else:
        raise InvalidHandError(f"melds must be 0..4, got {melds}")
    if n not in (3 * sets + 1, 3 * sets + 2):
        raise InvalidHandError(
            f"{n} tiles in hand with {4 - sets} called sets: "
            f"expected {3 * sets + 1} or {3 * sets + 2}"
        )
    return b, sets


def suit_key(b: bytes, at: int) -> int:
    """The base-5 key of the suit starting at kind ``at``: its first count is the lowest
    digit. Integer arithmetic, which compiles to machine arithmetic (and beats slicing
    the bytes and hashing the slices even uncompiled)."""
    return b[at] + 5 * (
        b[at + 1]
        + 5
        * (
            b[at + 2]
            + 5
            * (
                b[at + 3]
                + 5
                * (b[at + 4] + 5 * (b[at + 5] + 5 * (b[at + 6] + 5 * (b[at + 7] + 5 * b[at + 8]))))
            )
        )
    )


def honor_key(b: bytes) -> int:
    """The base-5 key of the honours (East is the lowest digit)."""
    return b[27] + 5 * (b[28] + 5 * (b[29] + 5 * (b[30] + 5 * (b[31] + 5 * (b[32] + 5 * b[33])))))


def standard_replacement(b: bytes, sets: int) -> int:
    """Replacement number for ``sets`` sets and a pair; ``b`` must be validated."""
    sid, ns = t.SUIT_ID, t.NS
    m, p, s = sid[suit_key(b, 0)], sid[suit_key(b, 9)], sid[suit_key(b, 18)]
    z = t.HONOR_ID[honor_key(b)]
    return t.FINAL[sets][t.C_VS[t.C_SS[m * ns + p] * ns + s] * t.NH + z]


def chiitoi_replacement(b: bytes) -> int:
    """Replacement number for seven distinct pairs (a quad is one pair)."""
    kinds = NUM_KINDS - b.count(0)
    pairs = kinds - b.count(1)
    return 7 - pairs + max(0, 7 - kinds)


def kokushi_replacement(b: bytes) -> int:
    """Replacement number for thirteen orphans."""
    counts: tuple[int, ...] = _yaochu_counts(b)
    kinds = 13 - counts.count(0)
    return 14 - kinds - (sum(counts) > kinds)


def replacement(b: bytes, sets: int) -> int:
    """Replacement number over every form the hand may take; ``b`` must be validated."""
    # The hot path of every analysis: module globals instead of attributes, the
    # groups' keys by arithmetic, and the thirteen-orphans count from per-group
    # tables keyed like the rest.
    km, kp, ks, kz = suit_key(b, 0), suit_key(b, 9), suit_key(b, 18), honor_key(b)
    return _combined(km, kp, ks, kz, sets, NUM_KINDS - b.count(0), b.count(1))


def _combined(km: int, kp: int, ks: int, kz: int, sets: int, kinds: int, singles: int) -> int:
    """The replacement number from the groups' keys, and (for a closed hand, which may
    also be seven pairs or thirteen orphans) the kinds held and those held once."""
    r: int = _FINAL[sets][
        _C_VS[_C_SS[_SUIT_ID[km] * _NS + _SUIT_ID[kp]] * _NS + _SUIT_ID[ks]] * _NH + _HONOR_ID[kz]
    ]
    if sets == 4:
        r2 = 7 - kinds + singles + (7 - kinds if kinds < 7 else 0)
        if r2 < r:
            r = r2
        y = _SUIT_YAOCHU[km] + _SUIT_YAOCHU[kp] + _SUIT_YAOCHU[ks] + _HONOR_YAOCHU[kz]
        r2 = 14 - (y & 15) - (y > 15)
        if r2 < r:
            r = r2
    return r


def shanten(counts: Sequence[int] | bytes, melds: int | None = None) -> int:
    """Shanten number: the minimum over the standard form, seven pairs and thirteen orphans.

    >>> from riichi.tiles import parse_counts
    >>> shanten(parse_counts("123m456p789s1122z"))
    0
    """
    if melds is None and isinstance(counts, list):
        r = replacement_of_list(counts)
        if r >= 0:
            return r - 1
    return replacement(*hand_bytes(counts, melds)) - 1


def replacement_of_list(c: list[int]) -> int:
    """``replacement`` read straight off a list of counts, or -1 to take the checked
    path (any count out of range, a wrong length or tile count: that path says which).

    Games and bots ask with lists: building bytes and checking them separately costs
    more than the table lookups themselves.
    """
    if len(c) != NUM_KINDS:
        return -1
    n = zeros = ones = 0
    keys = [0, 0, 0, 0]
    for g in range(4):
        start = 9 * g
        key = 0
        for i in range(start + (6 if g == 3 else 8), start - 1, -1):
            v = c[i]
            if v < 0 or v > 4:
                return -1
            key = key * 5 + v
            n += v
            if v == 0:
                zeros += 1
            elif v == 1:
                ones += 1
        keys[g] = key
    if n % 3 == 0 or n > 14:
        return -1
    return _combined(keys[0], keys[1], keys[2], keys[3], n // 3, NUM_KINDS - zeros, ones)


def shanten_standard(counts: Sequence[int] | bytes, melds: int | None = None) -> int:
    """Shanten towards four sets and a pair (fewer sets with called sets)."""
    b, sets = hand_bytes(counts, melds)
    return standard_replacement(b, sets) - 1


def shanten_chiitoi(counts: Sequence[int] | bytes) -> int:
    """Shanten towards seven pairs; the hand must be closed (13 or 14 tiles)."""
    b, _ = hand_bytes(counts, 0)
    return chiitoi_replacement(b) - 1


def shanten_kokushi(counts: Sequence[int] | bytes) -> int:
    """Shanten towards thirteen orphans; the hand must be closed (13 or 14 tiles)."""
    b, _ = hand_bytes(counts, 0)
    return kokushi_replacement(b) - 1


def necessary_mask(b: bytes, sets: int, total: int) -> int:
    """Bit k set when drawing kind k lowers the replacement number ``total``.

    For a validated ``3M+1`` hand whose replacement number is ``total``. A kind
    already held four times is never necessary: no copy is left to draw.
    """
    mask = 0
    if standard_replacement(b, sets) == total:
        mask = _standard_necessary(b, sets)
    if sets == 4:
        if chiitoi_replacement(b) == total:
            kinds = NUM_KINDS - b.count(0)
            for k in range(NUM_KINDS):
                if b[k] == 1 or (b[k] == 0 and kinds < 7):
                    mask |= 1 << k
        if kokushi_replacement(b) == total:
            has_pair = any(b[k] >= 2 for k in YAOCHU)
            for k in YAOCHU:
                if b[k] == 0 or (b[k] == 1 and not has_pair):
                    mask |= 1 << k
    return mask


def _standard_necessary(b: bytes, sets: int) -> int:
    km, kp, ks, kz = suit_key(b, 0), suit_key(b, 9), suit_key(b, 18), honor_key(b)
    m, p, s, z = _SUIT_ID[km], _SUIT_ID[kp], _SUIT_ID[ks], _HONOR_ID[kz]
    ns, nh = _NS, _NH
    mask = 0
    for g in range(3):
        # the group's key and id, and the other two suits with the honours combined
        if g == 0:
            key, gid, rest = km, m, _C_VH[_C_SS[p * ns + s] * nh + z]
        elif g == 1:
            key, gid, rest = kp, p, _C_VH[_C_SS[m * ns + s] * nh + z]
        else:
            key, gid, rest = ks, s, _C_VH[_C_SS[m * ns + p] * nh + z]
        entries = t.optimal_entries(_SUIT_VEC[gid], gid, rest, sets, 0)
        row = gid * ns
        offset = 9 * g
        for i in range(9):
            if b[offset + i] < 4 and _SUIT_DEC[row + _SUIT_ID[key + _POW5[i]]] & entries:
                mask |= 1 << (offset + i)
    rest_z = _C_VS[_C_SS[m * ns + p] * ns + s]
    entries = t.optimal_entries(_HONOR_VEC[z], z, rest_z, sets, 1)
    row = z * nh
    for i in range(7):
        if b[27 + i] < 4 and _HONOR_DEC[row + _HONOR_ID[kz + _POW5[i]]] & entries:
            mask |= 1 << (27 + i)
    return mask
