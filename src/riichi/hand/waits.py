"""Waits and tile acceptance (ukeire): what a hand wants and what to discard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from riichi.errors import InvalidHandError
from riichi.hand.shanten import hand_bytes, necessary_mask, replacement, replacement_of_list
from riichi.tiles import NUM_KINDS, kinds_name


class Waits(NamedTuple):
    """The kinds that complete a ``3M+1`` hand.

    ``kinds`` includes every kind that completes the shape; ``karaten`` lists
    those of them the hand already holds all four of, which can never arrive.
    """

    kinds: tuple[int, ...]
    karaten: tuple[int, ...] = ()

    @property
    def live(self) -> tuple[int, ...]:
        """The waits that can still arrive."""
        return tuple(k for k in self.kinds if k not in self.karaten)

    @property
    def tenpai(self) -> bool:
        """Waiting on at least one kind that is not all in the hand."""
        return any(k not in self.karaten for k in self.kinds)

    def __str__(self) -> str:
        return kinds_name(self.kinds) or "-"


_NO_WAITS: Final = Waits(())


class DiscardOption(NamedTuple):
    """One row of the discard table of a ``3M+2`` hand."""

    discard: int
    shanten: int
    kinds: tuple[int, ...]
    tiles: int


class Ukeire(NamedTuple):
    """Acceptance of a hand.

    For a ``3M+1`` hand: its shanten, the kinds that lower it and how many of
    those tiles are still unseen. For a ``3M+2`` hand: its shanten and
    ``discards``, one row per kind it can discard, best first (lowest
    shanten, then most tiles, then lowest kind).
    """

    shanten: int
    kinds: tuple[int, ...] = ()
    tiles: int = 0
    discards: tuple[DiscardOption, ...] = ()


def _mask_kinds(mask: int) -> tuple[int, ...]:
    kinds = []
    while mask:
        low = mask & -mask
        kinds.append(low.bit_length() - 1)
        mask ^= low
    return tuple(kinds)


def waits(counts: Sequence[int] | bytes, melds: int | None = None) -> Waits:
    """The kinds that complete a ``3M+1`` hand (empty when it is not tenpai).

    >>> from riichi.tiles import parse_counts, kinds_name
    >>> kinds_name(waits(parse_counts("1112345678999m")).kinds)
    '123456789m'
    """
    if melds is None and isinstance(counts, list):
        # most hands asked about are not tenpai: answer those without building bytes
        r = replacement_of_list(counts)
        if r > 1 and sum(counts) % 3 == 1 and 4 not in counts:
            return _NO_WAITS
    b, sets = hand_bytes(counts, melds)
    if sum(b) != 3 * sets + 1:
        raise InvalidHandError(f"{sum(b)} tiles: waits are defined for {3 * sets + 1} tiles")
    r = replacement(b, sets)
    live = _mask_kinds(necessary_mask(b, sets, r)) if r == 1 else ()
    if 4 not in b:
        return Waits(live)
    karaten = tuple(k for k in range(NUM_KINDS) if b[k] == 4 and _completes_with_fifth(b, k))
    return Waits(tuple(sorted(live + karaten)), karaten)


def ukeire(
    counts: Sequence[int] | bytes,
    visible: Sequence[int] | None = None,
    melds: int | None = None,
) -> Ukeire:
    """Tile acceptance, counting tiles not in the hand and not in ``visible``.

    ``visible`` is a 34-count vector of tiles seen elsewhere (discards, called
    sets, dora indicators); the hand's own tiles are always subtracted.
    """
    b, sets = hand_bytes(counts, melds)
    seen = _visible(visible)
    if sum(b) == 3 * sets + 1:
        r = replacement(b, sets)
        kinds = _mask_kinds(necessary_mask(b, sets, r))
        return Ukeire(r - 1, kinds, _remaining(b, seen, kinds))
    rows: list[DiscardOption] = []
    work = bytearray(b)
    for k in range(NUM_KINDS):
        if not b[k]:
            continue
        work[k] -= 1
        after = bytes(work)
        work[k] += 1
        r = replacement(after, sets)
        kinds = _mask_kinds(necessary_mask(after, sets, r))
        rows.append(DiscardOption(k, r - 1, kinds, _remaining(after, seen, kinds)))
    rows.sort(key=lambda o: (o.shanten, -o.tiles, o.discard))
    return Ukeire(replacement(b, sets) - 1, discards=tuple(rows))


def _remaining(b: bytes, seen: Sequence[int], kinds: tuple[int, ...]) -> int:
    return sum(max(0, 4 - b[k] - seen[k]) for k in kinds)


def _visible(visible: Sequence[int] | None) -> Sequence[int]:
    if visible is None:
        return bytes(NUM_KINDS)
    if len(visible) != NUM_KINDS or any(not 0 <= v <= 4 for v in visible):
        raise InvalidHandError("visible must be 34 counts of 0..4")
    return visible


def _completes_with_fifth(b: bytes, kind: int) -> bool:
    """Whether the shape would be complete with a fifth copy of ``kind`` (karaten)."""
    counts = list(b)
    counts[kind] += 1
    need = (sum(counts) - 2) // 3
    return _complete(counts, need, True)


def _complete(counts: list[int], sets: int, pair: bool) -> bool:
    """Plain search for a reading as ``sets`` sets and (if ``pair``) one pair.

    Used only for the rare fifth-copy shapes the tables do not cover.
    """
    k = next((i for i, c in enumerate(counts) if c), -1)
    if k < 0:
        return sets == 0 and not pair
    if pair and counts[k] >= 2:
        counts[k] -= 2
        ok = _complete(counts, sets, False)
        counts[k] += 2
        if ok:
            return True
    if sets and counts[k] >= 3:
        counts[k] -= 3
        ok = _complete(counts, sets - 1, pair)
        counts[k] += 3
        if ok:
            return True
    if sets and k < 27 and k % 9 <= 6 and counts[k + 1] and counts[k + 2]:
        for j in (k, k + 1, k + 2):
            counts[j] -= 1
        ok = _complete(counts, sets - 1, pair)
        for j in (k, k + 1, k + 2):
            counts[j] += 1
        if ok:
            return True
    return False
