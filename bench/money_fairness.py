"""Is a money table fair to every seat? Not a test.

    python bench/money_fairness.py [--walls 2000] [--long-walls 300] [--jobs 2] [--bot expert]

Every configuration a money table accepts (`chips.MONEY_SWITCHES`: the settlement,
red fives, open tanyao, on a one-hand and an East game of ``riichi-basic``) is played
by four equal bots on the same walls. Each match is settled as a money table of a bet
of 1,000 (`chips.settle`: tied scores share their places' money), and the result is
read twice: by seat (the first dealer is seat 0) and by entrant, the order people sat
down in the lobby (the person at a house table is entrant 0), each sitting where the
table's seed draws it (`tables.drawn_seats`). Printed per configuration: the walls,
each seat's mean result in bets with its 95% interval, and the same by entrant, which
is what a person can expect; the largest entrant mean beside its interval.
"""

from __future__ import annotations

import argparse
import math
import statistics
from concurrent.futures import ProcessPoolExecutor

from riichi.bots import make_bot
from riichi.bots.play import play_match
from riichi.game import Match
from riichi.platform.chips import check_money_rules, settle
from riichi.platform.tables import drawn_seats, feeder_of
from riichi.rules import Length, RuleSet, Settlement, find_ruleset

BET = 1000
SEED = 31_000_000  # walls no other bench plays


def configurations() -> list[tuple[str, RuleSet]]:
    base = find_ruleset("riichi-basic")
    out = []
    for length in (Length.ONE_HAND, Length.EAST):
        for settlement in (Settlement.WINNER_TAKES_ALL, Settlement.HOUSE):
            rules = base.replace(length=length, settlement=settlement)
            for label, changed in (
                ("preset", rules),
                ("red fives 3", rules.replace(red_fives=3)),
                ("no open tanyao", rules.replace(kuitan=False)),
            ):
                check_money_rules(changed, BET)  # only what a money table accepts
                out.append((f"{length.value}, {settlement.value}, {label}", changed))
    return out


def play(job: tuple[RuleSet, int, str]) -> tuple[list[float], list[float]]:
    """One wall: each seat's result and each entrant's, in bets."""
    rules, seed, bot = job
    bots = [make_bot(bot, f"{seed}:{s}") for s in range(rules.players)]
    match = play_match(Match(rules, seed, [b.name for b in bots]), bots)
    assert match.standings is not None
    by_seat = sorted(match.standings, key=lambda x: x.seat)
    won = settle(
        rules, BET, [x.place for x in by_seat], [x.score for x in by_seat], feeder_of(match)
    )
    seated = drawn_seats(f"fairness:{seed}", list(range(rules.players)))
    by_entrant = [won[seated.index(e)] / BET for e in range(rules.players)]
    return [w / BET for w in won], by_entrant


def interval(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--walls", type=int, default=2000, help="walls of a one-hand game")
    parser.add_argument("--long-walls", type=int, default=300, help="walls of an East game")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bot", default="expert")
    args = parser.parse_args()
    print(f"four {args.bot} bots, a bet of {BET}; results in bets, 95% intervals")
    print(f"{'configuration':<42}{'walls':>6}  {'by seat (seat 0 deals first)':<56}  by entrant")
    with ProcessPoolExecutor(args.jobs) as pool:
        for label, rules in configurations():
            walls = args.walls if rules.length is Length.ONE_HAND else args.long_walls
            jobs = [(rules, SEED + w, args.bot) for w in range(walls)]
            results = list(pool.map(play, jobs, chunksize=16))
            seats = [interval([r[0][s] for r in results]) for s in range(rules.players)]
            entrants = [interval([r[1][e] for r in results]) for e in range(rules.players)]
            cells = "  ".join(f"{m:+.3f}±{h:.3f}" for m, h in seats)
            mine = "  ".join(f"{m:+.3f}±{h:.3f}" for m, h in entrants)
            print(f"{label:<42}{walls:>6}  {cells:<56}  {mine}", flush=True)


if __name__ == "__main__":
    main()
