"""Tiles: kinds, physical ids, red fives and notation.

A *kind* is an int 0..33 in Tenhou's order: 1m..9m (0..8), 1p..9p (9..17),
1s..9s (18..26), East South West North (27..30), White Green Red (31..33).
A *tile* is a physical id 0..135 = ``kind * 4 + copy``. Copy 0 of each five
is the red five when the rules use red fives; with four red fives, copy 1 of
5p is red too. Hand analysis works on 34-long count vectors.

Text notation is ``123m406p789s1122z`` (``0`` is a red five, honours are
``1z``..``7z`` in kind order). mjai names (``5mr``, ``E``, ``P``, ``F``,
``C``) and Unicode glyphs are provided for the adapters and the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from riichi.errors import InvalidHandError, InvalidNotationError

Kind = int
Tile = int

NUM_KINDS: Final = 34
NUM_TILES: Final = 136

# Final literals: the compiled core inlines them wherever they are imported
M1: Final = 0
M2: Final = 1
M3: Final = 2
M4: Final = 3
M5: Final = 4
M6: Final = 5
M7: Final = 6
M8: Final = 7
M9: Final = 8
P1: Final = 9
P2: Final = 10
P3: Final = 11
P4: Final = 12
P5: Final = 13
P6: Final = 14
P7: Final = 15
P8: Final = 16
P9: Final = 17
S1: Final = 18
S2: Final = 19
S3: Final = 20
S4: Final = 21
S5: Final = 22
S6: Final = 23
S7: Final = 24
S8: Final = 25
S9: Final = 26
EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33

MAN: Final = 0
PIN: Final = 1
SOU: Final = 2
HONOR: Final = 3
SUIT_LETTERS: Final = "mpsz"

KINDS: Final = tuple(range(NUM_KINDS))
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (WHITE, GREEN, RED)
HONORS: Final = WINDS + DRAGONS
TERMINALS: Final = (M1, M9, P1, P9, S1, S9)
YAOCHU: Final = TERMINALS + HONORS
SIMPLES: Final = tuple(k for k in range(27) if k % 9 not in (0, 8))
GREENS: Final = (S2, S3, S4, S6, S8, GREEN)
FIVES: Final = (M5, P5, S5)

#: Physical ids of the red fives with three red fives (copy 0 of each five).
RED_FIVES_3: Final = frozenset({M5 * 4, P5 * 4, S5 * 4})
#: With four red fives the second red 5p is copy 1.
RED_FIVES_4: Final = RED_FIVES_3 | {P5 * 4 + 1}
RED_FIVE_COUNTS: Final = (0, 3, 4)

_HONOR_MJAI: Final = ("E", "S", "W", "N", "P", "F", "C")
# U+1F000.. orders winds, then red, green, white, then man, sou, pin.
_GLYPH_HONOR: Final = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)
_GLYPH_SUIT_BASE: Final = (0x1F007, 0x1F019, 0x1F010)


def kind_of(tile: Tile) -> Kind:
    """The kind (0..33) of a physical tile id."""
    return tile >> 2


def suit_of(kind: Kind) -> int:
    """MAN, PIN, SOU or HONOR."""
    return kind // 9 if kind < 27 else HONOR


def rank_of(kind: Kind) -> int:
    """1..9 for number tiles, 1..7 for honours (their ``z`` digit)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def is_honor(kind: Kind) -> bool:
    return kind >= 27


def is_terminal(kind: Kind) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_yaochu(kind: Kind) -> bool:
    """Terminal or honour."""
    return kind >= 27 or kind % 9 in (0, 8)


def red_fives_set(red_fives: int) -> frozenset[Tile]:
    """The physical ids that are red under a rule with ``red_fives`` red fives (0, 3 or 4)."""
    if red_fives == 0:
        return frozenset()
    if red_fives == 3:
        return RED_FIVES_3
    if red_fives == 4:
        return RED_FIVES_4
    raise ValueError(f"red_fives must be one of {RED_FIVE_COUNTS}, got {red_fives}")


def is_red(tile: Tile, red_fives: int = 3) -> bool:
    """Whether ``tile`` is a red five under a rule with ``red_fives`` red fives."""
    return tile in red_fives_set(red_fives)


def dora_of(indicator: Kind, three_player: bool = False) -> Kind:
    """The dora kind shown by an indicator kind (9 -> 1, N -> E, red -> white).

    In three-player mahjong 2m..8m are absent, so a 1m indicator shows 9m.
    """
    if indicator >= 31:
        return 31 + (indicator - 31 + 1) % 3
    if indicator >= 27:
        return 27 + (indicator - 27 + 1) % 4
    if three_player and indicator == M1:
        return M9
    return indicator - indicator % 9 + (indicator % 9 + 1) % 9


# ---------------------------------------------------------------- names


def kind_name(kind: Kind) -> str:
    """``"1m"`` .. ``"7z"``."""
    _check_kind(kind)
    return f"{rank_of(kind)}{SUIT_LETTERS[suit_of(kind)]}"


def tile_name(tile: Tile, red_fives: int = 3) -> str:
    """A physical tile's notation; red fives are ``"0m"``, ``"0p"``, ``"0s"``."""
    _check_tile(tile)
    if tile in red_fives_set(red_fives):
        return f"0{SUIT_LETTERS[suit_of(tile >> 2)]}"
    return kind_name(tile >> 2)


def parse_kind(text: str) -> Kind:
    """``"5m"`` -> 4. A red five ``"0m"`` gives the kind of the five."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise InvalidNotationError(f"expected one tile, got {len(tiles)} in {text!r}")
    return tiles[0] >> 2


def parse_tile(text: str) -> Tile:
    """One tile in notation to a physical id (``"0p"`` -> the red 5p, id 52)."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise InvalidNotationError(f"expected one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def _copy_order(kind: Kind, red: bool) -> tuple[int, ...]:
    if red:
        # the fourth red five is the second copy of 5p
        return (0, 1) if kind == P5 else (0,)
    # plain fives take the copies that are never red first
    return (3, 2, 1, 0) if kind in FIVES else (0, 1, 2, 3)


def parse_tiles(text: str, taken: set[Tile] | None = None) -> list[Tile]:
    """Notation to physical tile ids, in the order written.

    ``parse_tiles("406p")`` gives the 4p, the red 5p and the 6p. Plain fives
    take copies 3, 2, 1 first so that they stay plain whatever the number of
    red fives; a fourth plain five has to take copy 0 (which is red when red
    fives are on). Whitespace between groups is ignored. ``taken`` holds ids
    already given out (say, to the rest of a hand): they are skipped, and the
    new ids are added to it.
    """
    tiles: list[Tile] = []
    used = [0] * NUM_KINDS  # bit per copy already taken
    for t in taken or ():
        used[t >> 2] |= 1 << (t & 3)
    pending: list[tuple[int, int]] = []  # (digit, position)
    for pos, ch in enumerate(text):
        if ch.isdigit() and ch.isascii():
            pending.append((int(ch), pos))
        elif ch in SUIT_LETTERS:
            if not pending:
                raise InvalidNotationError(
                    f"suit letter {ch!r} at position {pos} in {text!r} follows no digits"
                )
            suit = SUIT_LETTERS.index(ch)
            for digit, dpos in pending:
                tiles.append(_make_tile(text, suit, digit, dpos, used))
            pending.clear()
        elif ch.isspace():
            if pending:
                raise InvalidNotationError(
                    f"space at position {pos} in {text!r} splits digits from their suit letter"
                )
        else:
            raise InvalidNotationError(f"bad character {ch!r} at position {pos} in {text!r}")
    if pending:
        raise InvalidNotationError(
            f"digits at position {pending[0][1]} in {text!r} have no suit letter"
        )
    if taken is not None:
        taken.update(tiles)
    return tiles


def _make_tile(text: str, suit: int, digit: int, pos: int, used: list[int]) -> Tile:
    letter = SUIT_LETTERS[suit]
    red = digit == 0
    if suit == HONOR:
        if not 1 <= digit <= 7:
            raise InvalidNotationError(
                f"bad honour {digit}{letter} at position {pos} in {text!r} (honours are 1z..7z)"
            )
        kind = 27 + digit - 1
    else:
        kind = suit * 9 + (4 if red else digit - 1)
    for copy in _copy_order(kind, red):
        if not used[kind] >> copy & 1:
            used[kind] |= 1 << copy
            return kind * 4 + copy
    what = f"red five {digit}{letter}" if red else f"fifth copy of {kind_name(kind)}"
    raise InvalidNotationError(f"{what} at position {pos} in {text!r}: no such tile left")


def tiles_name(tiles: Iterable[Tile], red_fives: int = 3) -> str:
    """Physical ids to canonical notation: sorted, red five before plain fives."""
    reds = red_fives_set(red_fives)
    keyed = sorted((t >> 2, t not in reds) for t in map(_check_tile, tiles))
    out: list[str] = []
    suit = -1
    for kind, plain in keyed:
        s = suit_of(kind)
        if s != suit and suit >= 0:
            out.append(SUIT_LETTERS[suit])
        suit = s
        out.append(str(rank_of(kind)) if plain else "0")
    if suit >= 0:
        out.append(SUIT_LETTERS[suit])
    return "".join(out)


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """Physical ids to a 34-count vector."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[_check_tile(t) >> 2] += 1
    return counts


def parse_counts(text: str) -> list[int]:
    """Notation straight to a 34-count vector (``0`` counts as a five)."""
    return counts_of(parse_tiles(text))


def counts_name(counts: Sequence[int]) -> str:
    """A 34-count vector to notation (no red fives: counts do not know them)."""
    check_counts(counts)
    out: list[str] = []
    for suit in range(4):
        lo, hi = suit * 9, min(suit * 9 + 9, NUM_KINDS)
        digits = "".join(str(rank_of(k)) * counts[k] for k in range(lo, hi))
        if digits:
            out.append(digits + SUIT_LETTERS[suit])
    return "".join(out)


def kinds_name(kinds: Iterable[Kind]) -> str:
    """A collection of kinds to notation, sorted (``[0, 9, 27]`` -> ``"1m1p1z"``)."""
    counts = [0] * NUM_KINDS
    for k in kinds:
        _check_kind(k)
        counts[k] += 1
    return counts_name(counts)


def check_counts(counts: Sequence[int]) -> Sequence[int]:
    """Raise ``InvalidHandError`` unless ``counts`` is 34 counts of 0..4."""
    if len(counts) != NUM_KINDS:
        raise InvalidHandError(f"a count vector has 34 entries, got {len(counts)}")
    for k, c in enumerate(counts):
        if not 0 <= c <= 4:
            raise InvalidHandError(f"count of {kind_name(k)} is {c}, must be 0..4")
    return counts


def _check_kind(kind: Kind) -> Kind:
    if not 0 <= kind < NUM_KINDS:
        raise InvalidHandError(f"tile kind must be 0..33, got {kind}")
    return kind


def _check_tile(tile: Tile) -> Tile:
    if not 0 <= tile < NUM_TILES:
        raise InvalidHandError(f"tile id must be 0..135, got {tile}")
    return tile


# ---------------------------------------------------------------- mjai and glyphs


def mjai_name(tile: Tile, red_fives: int = 3) -> str:
    """mjai tile name: ``"1m"``, ``"5pr"`` for a red five, ``"E"``..``"C"`` for honours."""
    kind = _check_tile(tile) >> 2
    if kind >= 27:
        return _HONOR_MJAI[kind - 27]
    name = kind_name(kind)
    return name + "r" if tile in red_fives_set(red_fives) else name


def mjai_kind_name(kind: Kind) -> str:
    """mjai name of a kind (never red)."""
    _check_kind(kind)
    return _HONOR_MJAI[kind - 27] if kind >= 27 else kind_name(kind)


def parse_mjai(name: str) -> tuple[Kind, bool]:
    """mjai tile name to ``(kind, is_red)``; mjai does not name physical copies."""
    if name in _HONOR_MJAI:
        return 27 + _HONOR_MJAI.index(name), False
    red = name.endswith("r")
    core = name[:-1] if red else name
    if (
        len(core) == 2
        and core[0] in "123456789"
        and core[1] in "mps"
        and (not red or core[0] == "5")
    ):
        return SUIT_LETTERS.index(core[1]) * 9 + int(core[0]) - 1, red
    raise InvalidNotationError(f"bad mjai tile name {name!r}")


def tile_glyph(kind: Kind) -> str:
    """The Unicode mahjong glyph of a kind (U+1F000 block)."""
    _check_kind(kind)
    if kind >= 27:
        return chr(_GLYPH_HONOR[kind - 27])
    return chr(_GLYPH_SUIT_BASE[kind // 9] + kind % 9)
