"""Scoring throughput against ``mahjong`` (and ``riichienv`` where it installs), in one run.

The same seeded generated winning hands (closed and open, kans, ron and tsumo,
random situations and dora; about a third have no yaku) are scored by every
library. Inputs are converted before the clock starts. Prints hands per
second and the ratios. Not a test.

    python bench/score.py [--hands 20000]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import cores
from riichi.hand.decompose import prepare
from riichi.rules import RuleSet
from riichi.scoring import MeldType, score_if_yaku
from winning_hands import Deal, random_deal


def timed(calls: list[Callable[[], object]]) -> float:
    start = time.perf_counter()
    for call in calls:
        call()
    return len(calls) / (time.perf_counter() - start)


def ours(deals: list[Deal], rules: RuleSet) -> list[Callable[[], object]]:
    # score_if_yaku: None for a hand without yaku, as the peers answer with an error
    # value rather than an exception
    def one(d: Deal) -> Callable[[], object]:
        hand, win, melds, context = d.hand, d.win, d.melds, d.context
        return lambda: score_if_yaku(hand, win, melds, context, rules)

    return [one(d) for d in deals]


def mahjong_calls(deals: list[Deal], rules: RuleSet) -> list[Callable[[], object]]:
    from mahjong.hand_calculating.hand import HandCalculator

    from peer_mahjong import mahjong_request

    calc = HandCalculator()
    calls = []
    for d in deals:
        tiles, win, kwargs = mahjong_request(d, rules)
        calls.append(
            lambda tiles=tiles, win=win, kwargs=kwargs: calc.estimate_hand_value(
                tiles, win, **kwargs
            )
        )
    return calls


def riichienv_calls(deals: list[Deal]) -> list[Callable[[], object]] | None:
    try:
        import riichienv as r
    except ImportError:
        return None
    kinds = {
        MeldType.CHI: r.MeldType.Chi,
        MeldType.PON: r.MeldType.Pon,
        MeldType.MINKAN: r.MeldType.Daiminkan,
        MeldType.ANKAN: r.MeldType.Ankan,
        MeldType.KAKAN: r.MeldType.Kakan,
    }
    calls = []
    for d in deals:
        c = d.context
        melds = [r.Meld(kinds[m.type], list(m.tiles), m.is_open) for m in d.melds]
        cond = r.Conditions(
            tsumo=c.tsumo,
            riichi=c.riichi,
            double_riichi=c.double_riichi,
            ippatsu=c.ippatsu,
            haitei=c.haitei,
            houtei=c.houtei,
            rinshan=c.rinshan,
            chankan=c.chankan,
            tsumo_first_turn=c.tenhou or c.chiihou,
            player_wind=(c.seat - c.dealer) % 4,
            round_wind=c.round_wind - 27,
            riichi_sticks=c.riichi_sticks,
            honba=c.honba,
        )
        dora, ura = list(c.dora_indicators), list(c.ura_indicators)
        calls.append(
            lambda hand=list(d.hand), win=d.win, melds=melds, cond=cond, dora=dora, ura=ura: (
                r.HandEvaluator(hand, melds).calc(win, dora, cond, ura)
            )
        )
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(cores.args())
    rng = random.Random(args.seed)
    deals = [random_deal(rng) for _ in range(args.hands)]
    rules = RuleSet()
    # first calls build the lazily made tables of every library: warm each up, and
    # keep what they built out of the collector's full passes
    timed(ours(deals[:200], rules))
    prepare()
    gc.freeze()
    if cores.wanted():
        cores.report({"score": timed(ours(deals, rules))})
        return
    pure = cores.pure(__file__)
    print(cores.heading())
    timed(mahjong_calls(deals[:200], rules))
    ours_rate = timed(ours(deals, rules))
    rows = [("riichi score", ours_rate, "")]
    if pure is not None:
        speedup = ours_rate / pure["score"]
        rows.append(("riichi score, pure", pure["score"], f"compiled/pure = {speedup:.2f}"))
    mj = timed(mahjong_calls(deals, rules))
    rows.append(("mahjong HandCalculator", mj, f"ours/mahjong = {ours_rate / mj:.2f}"))
    renv = riichienv_calls(deals)
    if renv is not None:
        rate = timed(renv)
        rows.append(("riichienv HandEvaluator", rate, f"ours/riichienv = {ours_rate / rate:.2f}"))
    else:
        rows.append(("riichienv", 0.0, "not installed"))
    print(f"{args.hands} generated winning hands")
    print(f"{'library':<26} {'hands/s':>10}  ratio")
    for name, value, note in rows:
        print(f"{name:<26} {value:>10,.0f}  {note}")


if __name__ == "__main__":
    main()
