"""Complete hands and every way to read them.

``decompositions`` lists each reading of a complete hand (sets and pair, seven
pairs, or thirteen orphans) and, given the winning tile, each place that tile
can take with its wait shape. Scoring tries them all and keeps the best.
Readings of one suit are precomputed once (every multiset of at most four
sets plus at most one pair), so a whole hand is read by combining four table
lookups.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from riichi.errors import InvalidHandError
from riichi.hand.shanten import hand_bytes, honor_key, replacement, suit_key
from riichi.tiles import NUM_KINDS, YAOCHU, kind_name


class Form(Enum):
    """The shape of a complete hand."""

    STANDARD = "standard"
    CHIITOITSU = "chiitoitsu"
    KOKUSHI = "kokushi"


class Wait(Enum):
    """How the winning tile completed the hand."""

    RYANMEN = "ryanmen"  # two-sided: 23 waiting on 1 or 4
    KANCHAN = "kanchan"  # closed: 13 waiting on 2
    PENCHAN = "penchan"  # edge: 12 waiting on 3, 89 waiting on 7
    SHANPON = "shanpon"  # one of two pairs becomes a triplet
    TANKI = "tanki"  # single tile waiting for its pair
    KOKUSHI_13 = "kokushi-13"  # thirteen orphans waiting on all thirteen kinds


# Block and Reading are immutable (``Final`` fields) dataclasses with their constructors
# written out, which the compiled core runs natively (a generated one is interpreted).


@dataclass(init=False, unsafe_hash=True)
class Block:
    """A set inside the concealed tiles: a sequence from ``kind`` or a triplet of ``kind``."""

    kind: Final[int]
    triplet: Final[bool]

    def __init__(self, kind: int, triplet: bool) -> None:
        self.kind = kind
        self.triplet = triplet

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Block, (self.kind, self.triplet)

    @property
    def kinds(self) -> tuple[int, int, int]:
        k = self.kind
        return (k, k, k) if self.triplet else (k, k + 1, k + 2)

    def __str__(self) -> str:
        return "".join(kind_name(k)[0] for k in self.kinds) + kind_name(self.kind)[1]


@dataclass(init=False, unsafe_hash=True)
class Reading:
    """One reading of a complete hand.

    ``sets`` are the concealed sets (called sets are not part of the counts).
    For seven pairs ``pairs`` holds the seven kinds; for thirteen orphans
    ``pair`` is the doubled kind. ``wait`` and ``wait_index`` are set when the
    winning tile was given: the index into ``sets`` of the set it completed,
    or -1 when it completed the pair (or the special form).
    """

    form: Final[Form]
    sets: Final[tuple[Block, ...]]
    pair: Final[int | None]
    pairs: Final[tuple[int, ...]]
    wait: Final[Wait | None]
    wait_index: Final[int]

    def __init__(
        self,
        form: Form,
        sets: tuple[Block, ...],
        pair: int | None,
        pairs: tuple[int, ...] = (),
        wait: Wait | None = None,
        wait_index: int = -1,
    ) -> None:
        self.form = form
        self.sets = sets
        self.pair = pair
        self.pairs = pairs
        self.wait = wait
        self.wait_index = wait_index

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Reading, (self.form, self.sets, self.pair, self.pairs, self.wait, self.wait_index)


GroupReading = tuple[tuple[Block, ...], int | None]


# A suit's readings are the same in each suit but for the offset of their kinds: one
# table serves the three, each reading packed in an int (the pair's kind + 1 or 0 in
# bits 0-3, the number of blocks in bits 4-6, then 5 bits a block: 2 * kind + triplet).
# Ints in tuples are nothing the cyclic collector walks; built as objects, the three
# tables were 250,000 of them, walked at every full collection.
_PAIR_BITS: Final = 4
_COUNT_BITS: Final = 3
_BLOCK_BITS: Final = 5
_BLOCK_SHIFT: Final = _PAIR_BITS + _COUNT_BITS
_BLOCKS: Final[tuple[tuple[Block, Block], ...]] = tuple(
    (Block(k, False), Block(k, True)) for k in range(NUM_KINDS)
)


def _suit_table() -> dict[int, tuple[int, ...]]:
    """Every complete holding of one suit (kinds 0-8), with its readings packed, by the
    holding's base-5 key (``shanten.suit_key``)."""
    codes = [2 * k for k in range(7)] + [2 * k + 1 for k in range(9)]
    found: dict[int, list[int]] = {}
    for m in range(5):
        for blocks in itertools.combinations_with_replacement(codes, m):
            base = [0] * 9
            for code in blocks:
                k = code >> 1
                if code & 1:
                    base[k] += 3
                else:
                    base[k] += 1
                    base[k + 1] += 1
                    base[k + 2] += 1
            if max(base, default=0) > 4:
                continue
            packed = m << _PAIR_BITS
            for i, code in enumerate(blocks):
                packed |= code << (_BLOCK_SHIFT + _BLOCK_BITS * i)
            for pair in range(-1, 9):
                counts = list(base)
                if pair >= 0:
                    counts[pair] += 2
                    if counts[pair] > 4:
                        continue
                found.setdefault(suit_key(bytes(counts), 0), []).append(packed | (pair + 1))
    return {key: tuple(v) for key, v in found.items()}


def _unpack(packed: int, offset: int) -> GroupReading:
    """A packed reading of a suit as blocks and pair, its kinds from ``offset``."""
    count = (packed >> _PAIR_BITS) & ((1 << _COUNT_BITS) - 1)
    mask = (1 << _BLOCK_BITS) - 1
    blocks = []
    for i in range(count):
        code = (packed >> (_BLOCK_SHIFT + _BLOCK_BITS * i)) & mask
        blocks.append(_BLOCKS[offset + (code >> 1)][code & 1])
    pair = (packed & ((1 << _PAIR_BITS) - 1)) - 1
    return tuple(blocks), None if pair < 0 else pair + offset


def _suit_readings(b: bytes, offset: int) -> tuple[GroupReading, ...]:
    """The readings of the suit from kind ``offset`` in the counts ``b``."""
    packed = _SUIT_TABLE.get(suit_key(b, offset))
    if packed is None:
        return _NO_READINGS
    return tuple(_unpack(p, offset) for p in packed)


def prepare() -> None:
    """Build now the table readings are looked up in, which is otherwise built at the
    first complete hand read (about 0.1 s): for a server or a benchmark, so that no game
    pays for it."""
    if not _SUIT_TABLE:
        _SUIT_TABLE.update(_suit_table())


# filled at the first complete hand read, or by ``prepare``
_SUIT_TABLE: Final[dict[int, tuple[int, ...]]] = {}


_NO_READINGS: Final[tuple[GroupReading, ...]] = ()


def _honor_table() -> dict[int, tuple[GroupReading, ...]]:
    """Every complete holding of the honours (triplets and at most one pair), by its
    base-5 key (``shanten.honor_key``): each has exactly one reading."""
    table: dict[int, tuple[GroupReading, ...]] = {}
    for held in itertools.product((0, 2, 3), repeat=7):
        if held.count(2) > 1:
            continue
        key = honor_key(bytes(27) + bytes(held))
        blocks = tuple(Block(27 + i, True) for i, c in enumerate(held) if c == 3)
        pair = next((27 + i for i, c in enumerate(held) if c == 2), None)
        table[key] = ((blocks, pair),)
    return table


_HONOR_TABLE: Final = _honor_table()


def is_agari(counts: Sequence[int] | bytes, melds: int | None = None) -> bool:
    """Whether the concealed tiles (with ``melds`` called sets) form a complete hand."""
    b, sets = hand_bytes(counts, melds)
    return replacement(b, sets) == 0


def decompositions(
    counts: Sequence[int] | bytes, winning: int | None = None, melds: int | None = None
) -> list[Reading]:
    """Every reading of a complete hand, one per place of ``winning`` (a kind) if given.

    Returns an empty list when the hand is not complete. ``winning`` must be a
    kind present in the hand.
    """
    b, sets = hand_bytes(counts, melds)
    if sum(b) != 3 * sets + 2:
        return []
    if winning is not None and not (0 <= winning < NUM_KINDS and b[winning]):
        raise InvalidHandError(f"winning tile {winning} is not in the hand")
    return readings_of(b, sets, -1 if winning is None else winning)


def readings_of(b: bytes, sets: int, winning: int) -> list[Reading]:
    """``decompositions`` of checked counts: ``b`` holds ``3 * sets + 2`` tiles, and
    ``winning`` is a kind it holds, or -1 for the readings without a wait."""
    out: list[Reading] = []
    # most hands have one reading per group: plain loops, no products or generators
    if not _SUIT_TABLE:
        prepare()
    man = _suit_readings(b, 0)
    pin = _suit_readings(b, 9)
    sou = _suit_readings(b, 18)
    honors = _HONOR_TABLE.get(honor_key(b), _NO_READINGS)
    for m_blocks, m_pair in man:
        for p_blocks, p_pair in pin:
            for s_blocks, s_pair in sou:
                for z_blocks, z_pair in honors:
                    pairs = (
                        (m_pair is not None)
                        + (p_pair is not None)
                        + (s_pair is not None)
                        + (z_pair is not None)
                    )
                    blocks = m_blocks + p_blocks + s_blocks + z_blocks
                    if pairs != 1 or len(blocks) != sets:
                        continue
                    pair = m_pair
                    if pair is None:
                        pair = p_pair if p_pair is not None else s_pair
                    if pair is None:
                        pair = z_pair
                    assert pair is not None
                    if winning < 0:
                        out.append(Reading(Form.STANDARD, blocks, pair))
                    else:
                        _place_winning(out, blocks, pair, winning)
    if sets == 4:
        if b.count(2) == 7:
            pairs_held = tuple(k for k in range(NUM_KINDS) if b[k])
            wait = None if winning < 0 else Wait.TANKI
            out.append(Reading(Form.CHIITOITSU, (), None, pairs_held, wait))
        # thirteen kinds held (21 of 34 absent) before the slower look at which
        if b.count(0) == 21 and all(b[k] for k in YAOCHU) and sum(b[k] for k in YAOCHU) == 14:
            double = next(k for k in YAOCHU if b[k] == 2)
            wait = None
            if winning >= 0:
                # before the win every orphan was single iff the winning tile made the pair
                wait = Wait.KOKUSHI_13 if double == winning else Wait.TANKI
            out.append(Reading(Form.KOKUSHI, (), double, (), wait))
    return out


def _place_winning(out: list[Reading], blocks: tuple[Block, ...], pair: int, w: int) -> None:
    """Add to ``out`` the standard reading of ``blocks`` and ``pair`` once for each place
    the winning kind ``w`` can take in it."""
    if pair == w:
        out.append(Reading(Form.STANDARD, blocks, pair, (), Wait.TANKI, -1))
    placed = 0  # a bit per block placed (2 * kind + triplet): a repeated block reads the same
    for i, block in enumerate(blocks):
        k = block.kind
        if block.triplet:
            if k != w:
                continue
            bit = 1 << (2 * k + 1)
        else:
            if not k <= w <= k + 2:
                continue
            bit = 1 << (2 * k)
        if placed & bit:
            continue
        placed |= bit
        out.append(Reading(Form.STANDARD, blocks, pair, (), _set_wait(block, w), i))


def _set_wait(block: Block, w: int) -> Wait:
    if block.triplet:
        return Wait.SHANPON
    pos = w - block.kind
    if pos == 1:
        return Wait.KANCHAN
    rank = block.kind % 9  # 0 for 123, 6 for 789
    if (pos == 0 and rank == 6) or (pos == 2 and rank == 0):
        return Wait.PENCHAN
    return Wait.RYANMEN
