"""Hand analysis: shanten, waits, acceptance and readings, against the definitions."""

from __future__ import annotations

import random

import pytest

import hand_reference as ref
from riichi.errors import InvalidHandError
from riichi.hand import (
    Form,
    Wait,
    decompositions,
    is_agari,
    shanten,
    shanten_chiitoi,
    shanten_kokushi,
    shanten_standard,
    ukeire,
    waits,
)
from riichi.tiles import kinds_name, parse_counts

SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


def sh(text: str, melds: int | None = None) -> int:
    return shanten(parse_counts(text), melds)


def wait_names(text: str) -> str:
    return kinds_name(waits(parse_counts(text)).kinds)


# ---------------------------------------------------------------- named cases


def test_complete_and_tenpai_hands() -> None:
    assert sh("123m456p789s11222z") == -1
    assert sh("123m456p789s1122z") == 0
    # three sets and four lone honours: one honour needs two more, another one more
    assert sh("123m456p789s1z2z3z4z") == 2
    assert wait_names("123m456p789s1122z") == "12z"


def test_shanten_of_a_scattered_hand() -> None:
    # no two tiles work together: two tiles short of each set, one of the pair
    assert shanten_standard(parse_counts("147m258p369s1234z")) == 8
    assert sh("19m19p19s1234567z") == 0  # thirteen orphans, 13-sided
    assert sh("147m258p369s1234z") == min(6, shanten_kokushi(parse_counts("147m258p369s1234z")))


def test_quad_in_hand_cannot_be_pair_plus_wait_on_it() -> None:
    # 1111m with three sets: reading 111m + 1m tanki needs a fifth 1m
    assert sh("1111m234p567s789s") == 1
    w = waits(parse_counts("1111m234p567s789s"))
    assert kinds_name(w.kinds) == "1m" and kinds_name(w.karaten) == "1m"
    assert not w.tenpai and w.live == ()
    # the same hand with one 1m fewer and a 2m is an ordinary wait
    assert wait_names("1112m234p567s789s") == "23m"


def test_quads_in_honours() -> None:
    # four East and four White: each quad is a triplet plus a stray tile
    assert sh("1111m111122233z") == 1
    assert sh("11112222333444z") == 1


def test_thirteen_sided_kokushi() -> None:
    assert wait_names("19m19p19s1234567z") == "19m19p19s1234567z"
    assert wait_names("119m19p19s123456z") == "7z"
    assert shanten_kokushi(parse_counts("119m19p19s1234567z")) == -1


def test_seven_pairs_need_seven_distinct_kinds() -> None:
    # 1111m counts as one pair only: five pairs, and two kinds short of seven
    assert shanten_chiitoi(parse_counts("1111m2233p4455s6z")) == 2
    assert shanten_chiitoi(parse_counts("1122m2233p4455s6z")) == 0  # two kinds instead of a quad
    assert shanten_chiitoi(parse_counts("1122m3344p5566s7z")) == 0
    assert wait_names("1122m3344p5566s7z") == "7z"
    assert sh("11223344556677z") == -1
    assert not is_agari(parse_counts("1111m223344p5566s"))  # a quad is not two pairs


def test_nine_gates_waits_on_all_nine() -> None:
    assert wait_names("1112345678999m") == "123456789m"
    assert wait_names("1112345678999p") == "123456789p"


def test_hands_with_called_sets() -> None:
    assert sh("1z", melds=4) == 0  # tanki on the last tile
    assert wait_names("1z") == "1z"
    assert sh("12m", melds=4) == 0  # 2 tiles: need a pair
    assert sh("1122m") == 0  # 4 tiles, one set and a pair: shanpon
    assert wait_names("1122m") == "12m"
    assert wait_names("2345m") == "25m"
    assert sh("1234567m") == 0 and wait_names("1234567m") == "147m"
    assert sh("1112m456p789s", melds=1) == 0
    assert wait_names("1112m456p789s") == "23m"
    assert sh("123456789m11z", melds=1) == -1


def test_fewer_sets_needed_than_tiles_allow_is_an_error() -> None:
    with pytest.raises(InvalidHandError, match="13 tiles in hand with 1 called sets"):
        shanten(parse_counts("123m456p789s1122z"), melds=1)


@pytest.mark.parametrize(
    ("counts", "fragment"),
    [
        ([0] * 33, "34 entries"),
        ([5] + [0] * 33, "5 copies of 1m"),
        ([-1] + [0] * 33, "0..4"),
        ([0] * 34, "0 tiles"),
        ([3] + [0] * 33, "3 tiles"),
        ([0] * 33 + [5], "5 copies of 7z"),
        ([4, 4, 4, 3] + [0] * 30, "15 tiles"),
        ("abc", "0..4"),
    ],
)
def test_bad_counts_are_rejected(counts: list[int], fragment: str) -> None:
    with pytest.raises(InvalidHandError, match=fragment):
        shanten(counts)


def test_ukeire_counts_unseen_tiles() -> None:
    hand = parse_counts("123m456p789s1122z")
    u = ukeire(hand)
    assert u.shanten == 0 and kinds_name(u.kinds) == "12z" and u.tiles == 4
    seen = [0] * 34
    seen[27] = 2  # both other Easts are on the table
    assert ukeire(hand, seen).tiles == 2


def test_discard_table_is_sorted_best_first() -> None:
    u = ukeire(parse_counts("123m456p789s11225z"))
    first = u.discards[0]
    assert kinds_name([first.discard]) == "5z" and first.shanten == 0 and first.tiles == 4
    keys = [(o.shanten, -o.tiles, o.discard) for o in u.discards]
    assert keys == sorted(keys)
    assert len(u.discards) == 12  # one row per distinct kind


def test_ukeire_rejects_bad_visible() -> None:
    with pytest.raises(InvalidHandError):
        ukeire(parse_counts("123m456p789s1122z"), [0] * 33)


# ---------------------------------------------------------------- readings


def test_readings_of_a_pure_hand() -> None:
    found = decompositions(parse_counts("11122233344455m"))
    as_text = sorted(" ".join(sorted(str(b) for b in r.sets)) + f" +{r.pair}" for r in found)
    assert as_text == [
        "111m 222m 333m 444m +4",
        "111m 234m 234m 234m +4",
        "111m 234m 345m 345m +1",
        "123m 123m 123m 444m +4",
    ]


def test_wait_shapes() -> None:
    def shapes(text: str, win: str) -> list[Wait]:
        return sorted(
            {
                r.wait
                for r in decompositions(parse_counts(text), parse_counts(win).index(1))
                if r.wait is not None
            },
            key=lambda w: w.value,
        )

    assert shapes("234m456p789s11z222z", "2m") == [Wait.RYANMEN]
    assert shapes("123m456p789s11z222z", "3m") == [Wait.PENCHAN]
    assert shapes("123m456p789s11z222z", "7s") == [Wait.PENCHAN]
    assert shapes("123m456p789s11z222z", "5p") == [Wait.KANCHAN]
    assert shapes("123m456p789s11z222z", "2z") == [Wait.SHANPON]
    assert shapes("123m456p789s11z222z", "1z") == [Wait.TANKI]
    # 2m completes either 123m (kanchan... no: 1-3 shape) or 234m (ryanmen)
    assert shapes("123m234m789s11z222z", "2m") == [Wait.KANCHAN, Wait.RYANMEN]
    assert shapes("11223344556677z", "7z") == [Wait.TANKI]
    assert shapes("19m19p19s11234567z", "1z") == [Wait.KOKUSHI_13]
    assert shapes("19m19p19s11234567z", "7z") == [Wait.TANKI]


def test_forms() -> None:
    (r,) = decompositions(parse_counts("11223344556677z"))
    assert r.form is Form.CHIITOITSU and len(r.pairs) == 7
    both = decompositions(parse_counts("112233m445566p77z"))
    assert {x.form for x in both} == {Form.CHIITOITSU, Form.STANDARD}
    (k,) = decompositions(parse_counts("19m19p19s11234567z"))
    assert k.form is Form.KOKUSHI and k.pair == 27
    assert decompositions(parse_counts("123m456p789s1123z")) == []


def test_winning_tile_must_be_in_hand() -> None:
    with pytest.raises(InvalidHandError):
        decompositions(parse_counts("123m456p789s11222z"), 33)


# ---------------------------------------------------------------- against the definitions


@pytest.mark.parametrize("n", SIZES)
def test_shanten_matches_brute_force(n: int) -> None:
    rng = random.Random(1000 + n)
    runs = 150 if n >= 13 else 600
    for _ in range(runs):
        counts = ref.random_hand(rng, n)
        sets = n // 3
        expected = ref.replacement(counts, sets) - 1
        assert shanten(counts) == expected, kinds_name(
            [k for k in range(34) for _ in range(counts[k])]
        )
        # a list is read straight into table keys, bytes through the checked path
        assert shanten(bytes(counts)) == expected


@pytest.mark.parametrize("sets", [1, 2, 3, 4])
def test_agari_and_readings_match_brute_force(sets: int) -> None:
    rng = random.Random(sets)
    for _ in range(400):
        counts = ref.complete_hand(rng, sets)
        found = decompositions(counts)
        standard = {
            (tuple(sorted(b.kinds for b in r.sets)), r.pair)
            for r in found
            if r.form is Form.STANDARD
        }
        assert standard == ref.readings(counts, sets)
        assert is_agari(counts)
        # a random near-complete hand: is_agari agrees with the brute-force reading
        other = ref.random_hand(rng, 3 * sets + 2)
        assert is_agari(other) == (ref.replacement(other, sets) == 0)


@pytest.mark.parametrize("sets", [1, 2, 3, 4])
def test_waits_match_brute_force(sets: int) -> None:
    rng = random.Random(50 + sets)
    for _ in range(300):
        counts = ref.complete_hand(rng, sets)
        drop = rng.choice([k for k in range(34) if counts[k]])
        counts[drop] -= 1
        w = waits(counts)
        expected = []
        for k in range(34):
            grown = list(counts)
            grown[k] += 1
            special = sets == 4 and max(grown) <= 4
            complete = bool(ref.readings(grown, sets)) or (
                special and (ref.chiitoi(grown) == 0 or ref.kokushi(grown) == 0)
            )
            if complete:
                expected.append(k)
        assert list(w.kinds) == expected
        assert list(w.karaten) == [k for k in expected if counts[k] == 4]
        assert drop in w.kinds


@pytest.mark.parametrize("n", [4, 7, 10, 13])
def test_accepted_kinds_are_exactly_those_that_lower_shanten(n: int) -> None:
    rng = random.Random(70 + n)
    for _ in range(300):
        counts = ref.random_hand(rng, n)
        before = shanten(counts)
        lowered = []
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                if shanten(counts) < before:
                    lowered.append(k)
                counts[k] -= 1
        assert list(ukeire(counts).kinds) == lowered


def test_discard_rows_agree_with_shanten_after_the_discard() -> None:
    rng = random.Random(99)
    for _ in range(200):
        counts = ref.random_hand(rng, 14)
        for row in ukeire(counts).discards:
            counts[row.discard] -= 1
            assert row.shanten == shanten(counts)
            assert row.kinds == ukeire(counts).kinds
            counts[row.discard] += 1
