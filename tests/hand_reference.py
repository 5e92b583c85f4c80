"""Slow, obviously-correct references for hand analysis, written from the definitions.

The replacement number of a hand is the fewest tiles it must still draw to hold
a complete target (sets and a pair, seven distinct pairs, or thirteen orphans)
with no kind used more than four times: the target size minus the largest
overlap between hand and target. Here that overlap is found by a plain search
over targets; nothing is shared with the package's tables.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def standard(counts: Sequence[int], sets: int) -> int:
    hand = list(counts)
    cands: set[tuple[int, ...]] = set()
    for k in range(34):
        if not hand[k]:
            continue
        cands.add((k, k, k))
        if k < 27:
            for start in (k - 2, k - 1, k):
                if start >= 0 and start // 9 == k // 9 and start % 9 <= 6:
                    cands.add((start, start + 1, start + 2))
    ordered = sorted(cands)
    target = [0] * 34
    best = 0

    def pair_gain() -> int:
        gain = 0
        for k in range(34):
            if hand[k] > target[k] and target[k] <= 2:
                gain = max(gain, min(2, hand[k] - target[k]))
        return gain

    def search(start: int, left: int, overlap: int) -> None:
        nonlocal best
        best = max(best, overlap + pair_gain())
        if left == 0 or overlap + 3 * left + 2 <= best:
            return
        for j in range(start, len(ordered)):
            block = ordered[j]
            if any(target[k] + block.count(k) > 4 for k in block):
                continue
            gain = 0
            for k in block:
                gain += target[k] < hand[k]
                target[k] += 1
            search(j, left - 1, overlap + gain)
            for k in block:
                target[k] -= 1

    search(0, sets, 0)
    return 3 * sets + 2 - best


def chiitoi(counts: Sequence[int]) -> int:
    # seven distinct kinds, two of each: take the kinds the hand holds most of
    held = sorted((min(c, 2) for c in counts), reverse=True)[:7]
    return sum(2 - h for h in held)


def kokushi(counts: Sequence[int]) -> int:
    return min(sum(max(0, (2 if k == pair else 1) - counts[k]) for k in YAOCHU) for pair in YAOCHU)


def replacement(counts: Sequence[int], sets: int) -> int:
    r = standard(counts, sets)
    if sets == 4:
        r = min(r, chiitoi(counts), kokushi(counts))
    return r


def readings(counts: Sequence[int], sets: int) -> set[tuple[tuple[tuple[int, ...], ...], int]]:
    """Every way to split the hand into ``sets`` sets and one pair: (sorted sets, pair)."""
    out: set[tuple[tuple[tuple[int, ...], ...], int]] = set()
    hand = list(counts)

    def search(chosen: list[tuple[int, ...]], pair: int) -> None:
        k = next((i for i in range(34) if hand[i]), -1)
        if k < 0:
            if pair >= 0 and len(chosen) == sets:
                out.add((tuple(sorted(chosen)), pair))
            return
        if pair < 0 and hand[k] >= 2:
            hand[k] -= 2
            search(chosen, k)
            hand[k] += 2
        if hand[k] >= 3:
            hand[k] -= 3
            search([*chosen, (k, k, k)], pair)
            hand[k] += 3
        if k < 27 and k % 9 <= 6 and hand[k + 1] and hand[k + 2]:
            for j in (k, k + 1, k + 2):
                hand[j] -= 1
            search([*chosen, (k, k + 1, k + 2)], pair)
            for j in (k, k + 1, k + 2):
                hand[j] += 1

    search([], -1)
    return out


def random_hand(rng: random.Random, n: int) -> list[int]:
    """A random hand of ``n`` tiles; a third of them drawn from one or two suits only."""
    style = rng.random()
    if style < 0.34:
        pool = range(136)
    elif style < 0.67:
        suit = rng.randrange(3)
        pool = range(suit * 36, suit * 36 + 36)
    else:
        a, b = rng.sample(range(4), 2)
        pool = [t for t in range(136) if t // 36 in (a, b)]
    pool = list(pool)
    if len(pool) < n:
        pool = list(range(136))
    counts = [0] * 34
    for t in rng.sample(pool, n):
        counts[t // 4] += 1
    return counts


def complete_hand(rng: random.Random, sets: int) -> list[int]:
    """A random complete hand of ``sets`` sets and a pair (rejection sampled)."""
    while True:
        counts = [0] * 34
        for _ in range(sets):
            if rng.random() < 0.6:
                k = rng.randrange(27)
                k -= k % 9 // 7 * (k % 9 - 6)
                for j in (k, k + 1, k + 2):
                    counts[j] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts
