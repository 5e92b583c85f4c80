"""Differential test against the ``xiangting`` package: zero disagreements.

xiangting computes the same replacement number (shanten + 1, never counting
on a fifth copy) and the set of tiles that lower it, so both must agree on
every hand: 100,000 seeded random hands of every size.
"""

from __future__ import annotations

import random

import pytest
import xiangting

import hand_reference as ref
from riichi.hand import shanten, ukeire

FOUR = xiangting.PlayerCount.FOUR
HANDS_PER_SIZE = 100_000


@pytest.mark.parametrize("n", [1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
def test_shanten_agrees_with_xiangting(n: int) -> None:
    rng = random.Random(n)
    melds = 4 - n // 3
    disagreements = []
    for _ in range(HANDS_PER_SIZE):
        counts = ref.random_hand(rng, n)
        # the called sets are given explicitly half the time, inferred otherwise
        ours = shanten(counts, melds if rng.random() < 0.5 else None)
        if ours + 1 != xiangting.calculate_replacement_number(counts, FOUR):
            disagreements.append(counts)
    assert disagreements == []


@pytest.mark.parametrize("n", [1, 4, 7, 10, 13])
def test_accepted_tiles_agree_with_xiangting(n: int) -> None:
    rng = random.Random(100 + n)
    disagreements = []
    for _ in range(HANDS_PER_SIZE // 2):
        counts = ref.random_hand(rng, n)
        u = ukeire(counts)
        _, necessary = xiangting.calculate_necessary_tiles(counts, FOUR)
        if sum(1 << k for k in u.kinds) != necessary:
            disagreements.append(counts)
    assert disagreements == []
