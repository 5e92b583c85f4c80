"""Shanten and waits throughput against ``mahjong`` and ``xiangting``, in one run.

The same seeded random hands (13 tiles, the size games ask about most; with
``--sizes`` others too) go through our ``shanten`` and ``waits``, through
``mahjong``'s Shanten class and through xiangting's replacement number and
necessary tiles. Prints calls per second and the ratios. Not a test.

    python bench/hand.py [--hands 100000] [--sizes 13,14]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import cores
import hand_reference
from riichi.hand import shanten, waits


def rate(fn: Callable[[list[int]], object], hands: list[list[int]]) -> float:
    start = time.perf_counter()
    for h in hands:
        fn(h)
    return len(hands) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--sizes", default="13,14")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(cores.args())
    sizes = [int(x) for x in args.sizes.split(",")]

    def hands_of(n: int) -> list[list[int]]:
        rng = random.Random(args.seed + n)
        return [hand_reference.random_hand(rng, n) for _ in range(args.hands)]

    if cores.wanted():
        figures = {}
        for n in sizes:
            hands = hands_of(n)
            figures[f"{n}/shanten"] = rate(shanten, hands)
            if n % 3 == 1:
                figures[f"{n}/waits"] = rate(waits, hands)
        cores.report(figures)
        return
    pure = cores.pure(__file__) or {}
    print(cores.heading())

    import xiangting
    from mahjong.shanten import Shanten

    four = xiangting.PlayerCount.FOUR
    mj = Shanten()
    print(f"{'size':>4}  {'function':<28} {'calls/s':>12}  ratio")
    for n in sizes:
        hands = hands_of(n)
        ours = rate(shanten, hands)
        xt = rate(lambda h: xiangting.calculate_replacement_number(h, four), hands)
        # mahjong is slow: time it on a tenth of the same hands
        mjr = rate(mj.calculate_shanten, hands[: max(1, len(hands) // 10)])
        rows = [
            ("riichi shanten", ours, ""),
            *_pure_row(pure, f"{n}/shanten", "riichi shanten, pure", ours),
            ("xiangting replacement_number", xt, f"ours/xiangting = {ours / xt:.2f}"),
            ("mahjong Shanten", mjr, f"ours/mahjong = {ours / mjr:.1f}"),
        ]
        if n % 3 == 1:
            ow = rate(waits, hands)
            xw = rate(lambda h: xiangting.calculate_necessary_tiles(h, four), hands)
            rows += [
                ("riichi waits", ow, ""),
                *_pure_row(pure, f"{n}/waits", "riichi waits, pure", ow),
                ("xiangting necessary_tiles", xw, f"ours/xiangting = {ow / xw:.2f}"),
            ]
        for name, value, note in rows:
            print(f"{n:>4}  {name:<28} {value:>12,.0f}  {note}")


def _pure_row(
    pure: dict[str, float], key: str, name: str, compiled: float
) -> list[tuple[str, float, str]]:
    if key not in pure:
        return []
    return [(name, pure[key], f"compiled/pure = {compiled / pure[key]:.2f}")]


if __name__ == "__main__":
    main()
