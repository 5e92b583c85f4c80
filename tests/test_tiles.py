"""Tile ids, kinds, red fives and notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riichi.errors import InvalidHandError, InvalidNotationError
from riichi.tiles import (
    EAST,
    GREEN,
    M1,
    M5,
    M9,
    NORTH,
    P5,
    RED,
    S5,
    WHITE,
    counts_name,
    counts_of,
    dora_of,
    is_red,
    kind_name,
    kinds_name,
    mjai_kind_name,
    mjai_name,
    parse_counts,
    parse_kind,
    parse_mjai,
    parse_tile,
    parse_tiles,
    tile_glyph,
    tile_name,
    tiles_name,
)


def test_kinds_follow_tenhou_order() -> None:
    assert [kind_name(k) for k in (0, 8, 9, 17, 18, 26, 27, 30, 31, 33)] == [
        "1m",
        "9m",
        "1p",
        "9p",
        "1s",
        "9s",
        "1z",
        "4z",
        "5z",
        "7z",
    ]
    assert (EAST, NORTH, WHITE, GREEN, RED) == (27, 30, 31, 32, 33)


def test_physical_id_is_kind_times_four_plus_copy() -> None:
    assert parse_tiles("1m") == [0]
    assert parse_tiles("1111m") == [0, 1, 2, 3]
    assert parse_tiles("7z") == [132]


def test_red_fives_are_copy_zero_and_fourth_is_second_5p() -> None:
    assert parse_tiles("0m0p0s") == [16, 52, 88]
    assert parse_tiles("00p") == [52, 53]
    assert is_red(16) and is_red(52) and is_red(88)
    assert not is_red(53, red_fives=3) and is_red(53, red_fives=4)
    assert not is_red(16, red_fives=0)


def test_plain_fives_avoid_red_copies() -> None:
    # three plain fives never take copy 0, so they stay plain with red fives on
    assert sorted(parse_tiles("555m")) == [M5 * 4 + 1, M5 * 4 + 2, M5 * 4 + 3]
    assert tiles_name(parse_tiles("555m")) == "555m"
    assert tiles_name(parse_tiles("0555m")) == "0555m"
    # the fourth plain five has no plain copy left under red-five rules
    assert tiles_name(parse_tiles("5555m"), red_fives=0) == "5555m"


def test_tiles_name_is_canonical_sorted() -> None:
    assert tiles_name(parse_tiles("1122z789s406p123m")) == "123m406p789s1122z"
    assert tiles_name([]) == ""
    assert tiles_name(parse_tiles("0p"), red_fives=0) == "5p"


def test_single_tile_names() -> None:
    assert tile_name(parse_tile("0s")) == "0s"
    assert tile_name(S5 * 4 + 2) == "5s"
    assert parse_kind("0p") == P5
    assert parse_kind("9m") == M9


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("12x", "bad character 'x' at position 2"),
        ("123", "digits at position 0 in '123' have no suit letter"),
        ("m", "suit letter 'm' at position 0"),
        ("8z", "bad honour 8z at position 0"),
        ("0z", "bad honour 0z at position 0"),
        ("11111m", "fifth copy of 1m at position 4"),
        ("00m", "red five 0m at position 1"),
        ("000p", "red five 0p at position 2"),
        ("12 3m", "space at position 2"),
        ("１m", "bad character"),
    ],
)
def test_bad_notation_names_character_and_position(text: str, fragment: str) -> None:
    with pytest.raises(InvalidNotationError, match=fragment.replace("(", r"\(")):
        parse_tiles(text)


def test_notation_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse_tiles("5q")


def test_whitespace_between_groups() -> None:
    assert tiles_name(parse_tiles("123m 456p\t789s")) == "123m456p789s"


def test_counts() -> None:
    counts = parse_counts("112m0p5p7z")
    assert counts[M1] == 2 and counts[P5] == 2 and counts[RED] == 1 and sum(counts) == 6
    assert counts_name(counts) == "112m55p7z"
    assert kinds_name([33, 0, 9, 0]) == "11m1p7z"
    with pytest.raises(InvalidHandError):
        counts_name([5] + [0] * 33)
    with pytest.raises(InvalidHandError):
        counts_of([136])


def test_dora_indicator_cycles() -> None:
    assert dora_of(M9) == M1
    assert dora_of(parse_kind("4p")) == P5
    assert dora_of(NORTH) == EAST
    assert dora_of(RED) == WHITE
    assert dora_of(WHITE) == GREEN
    assert dora_of(M1, three_player=True) == M9
    assert dora_of(M9, three_player=True) == M1


def test_mjai_names() -> None:
    assert mjai_name(parse_tile("0m")) == "5mr"
    assert mjai_name(parse_tile("5m")) == "5m"
    assert [mjai_kind_name(k) for k in range(27, 34)] == ["E", "S", "W", "N", "P", "F", "C"]
    assert parse_mjai("5pr") == (P5, True)
    assert parse_mjai("C") == (RED, False)
    for bad in ("5z", "4mr", "", "X", "10m"):
        with pytest.raises(InvalidNotationError):
            parse_mjai(bad)


def test_glyphs() -> None:
    assert tile_glyph(M1) == "\U0001f007"
    assert tile_glyph(parse_kind("1p")) == "\U0001f019"
    assert tile_glyph(parse_kind("1s")) == "\U0001f010"
    assert tile_glyph(EAST) == "\U0001f000"
    assert tile_glyph(WHITE) == "\U0001f006"
    assert tile_glyph(RED) == "\U0001f004"
    assert len({tile_glyph(k) for k in range(34)}) == 34


tile_sets = st.lists(st.integers(0, 135), unique=True, max_size=20)


@given(tile_sets)
def test_name_parse_round_trip(tiles: list[int]) -> None:
    text = tiles_name(tiles, red_fives=4)
    again = parse_tiles(text)
    # the same kinds and the same red fives come back (copies may differ)
    assert counts_of(again) == counts_of(tiles)
    assert sorted(t >> 2 for t in again if is_red(t, 4)) == sorted(
        t >> 2 for t in tiles if is_red(t, 4)
    )
    assert tiles_name(again, red_fives=4) == text


@given(tile_sets)
def test_mjai_round_trip(tiles: list[int]) -> None:
    for t in tiles:
        kind, red = parse_mjai(mjai_name(t, red_fives=4))
        assert kind == t >> 2 and red == is_red(t, 4)


@given(st.text(alphabet="0123456789mpsz x", max_size=20))
def test_parse_never_crashes_otherwise(text: str) -> None:
    try:
        tiles = parse_tiles(text)
    except InvalidNotationError:
        return
    assert len(tiles) == len(set(tiles))
    assert all(0 <= t < 136 for t in tiles)
