"""The ladder of roster computers: duplicate arenas, each rung against the one below.

Each rung plays two of one bot against two of the other on the same walls in
every seating (duplicate: the six ways to seat them), so luck of the deal cancels.
The top rungs, `master` against `expert` and `expert` against `defensive`, play
``--walls`` walls (x6 seatings: 2,000 walls are 12,000 hanchans, for 95% intervals
of about ±0.014 places; `master`'s rung takes hours on a few cores, ``--rungs``
picks rungs); the lower rungs a quarter as many. Per bot: average place with its
95% interval, first and last rates, and the win, deal-in, riichi and call rates of
its hands. Then the time
`expert`, `learned` and `master` take per decision on one core (``--times`` for
that alone). Not a test.

    python bench/ladder.py [--walls 2000] [--rules online] [--jobs 2] [--rungs master]
        [--ray [ADDRESS]] [--times]
"""

from __future__ import annotations

import argparse
import statistics
import time

from riichi.bots import make_bot
from riichi.bots.arena import BotStats, run, summarise, tasks
from riichi.bots.play import play_match
from riichi.game import Action, Match, Observation
from riichi.hand.decompose import prepare
from riichi.rules import find_ruleset

# (top, low, share): a rung plays --walls // share walls; `master` searches, and takes
# about 200 times as long a match as `expert`
RUNGS = (
    ("master", "expert", 1),
    ("expert", "defensive", 1),
    ("defensive", "efficiency", 4),
    ("efficiency", "random", 4),
)


def rung(
    top: str, low: str, walls: int, rules: str, seed: int, jobs: int, ray: str | None = None
) -> dict[str, BotStats]:
    work = tasks([top, low, top, low], walls, rules, seed, duplicate=True)
    started = time.perf_counter()
    stats = summarise(seats for seats, _ in run(work, jobs, ray=ray))
    took = time.perf_counter() - started
    print(
        f"\n{top} against {low}: {len(work)} hanchans ({walls} walls x 6 seatings) in {took:.0f} s"
    )
    columns = ("avg place", "1st", "last", "win", "deal-in", "riichi", "call")
    print(f"{'bot':<12}" + "".join(f"{c:>18}" for c in columns))
    for name in (top, low):
        row = stats[name].table_row(4)
        cells = []
        for c in columns:
            mean, half = row[c]
            cells.append(
                f"{mean:.3f} ± {half:.3f}" if c == "avg place" else f"{mean:.1%} ± {half:.1%}"
            )
        print(f"{name:<12}" + "".join(f"{x:>18}" for x in cells))
    (a_mean, a_half), (b_mean, b_half) = (stats[top].mean_place(), stats[low].mean_place())
    apart = a_mean + a_half < b_mean - b_half
    print(
        f"{top} ahead by {b_mean - a_mean:.3f} places; "
        f"95% intervals {'do not overlap' if apart else 'overlap'}"
    )
    return stats


def decision_times(rules: str, seed: int, matches: int, bot: str = "expert") -> list[float]:
    """Seconds per decision of ``bot``, four of them at a table, one core."""
    spent: list[float] = []

    class Timed:
        def __init__(self, seat: int) -> None:
            self.bot = make_bot(bot, f"{seed}:{seat}")
            self.name = self.bot.name

        def act(self, observation: Observation) -> Action:
            t = time.perf_counter()
            action = self.bot.act(observation)
            spent.append(time.perf_counter() - t)
            return action

    for m in range(matches):
        agents = [Timed(s) for s in range(4)]
        play_match(Match(find_ruleset(rules), seed + m, [a.name for a in agents]), agents)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--walls", type=int, default=2000)
    parser.add_argument("--rules", default="online")
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--rungs", default="", help="the top bots of the rungs to play (default: every rung)"
    )
    parser.add_argument(
        "--ray", nargs="?", const="", default=None, help="as Ray tasks (at a cluster's ADDRESS)"
    )
    parser.add_argument("--times", action="store_true", help="the decision times alone")
    args = parser.parse_args()
    chosen = {x.strip() for x in args.rungs.split(",") if x.strip()}
    for top, low, share in RUNGS:
        if not args.times and (not chosen or top in chosen):
            walls = max(1, args.walls // share)
            rung(top, low, walls, args.rules, args.seed, args.jobs, args.ray)
    prepare()  # the scoring tables a server builds at start, not in the first decision
    for bot, matches in (("expert", 8), ("learned", 8), ("master", 1)):
        spent = sorted(decision_times(args.rules, args.seed, matches, bot))
        p99 = spent[int(len(spent) * 0.99)]
        print(
            f"\n{bot}, one core: {len(spent)} decisions,"
            f" median {statistics.median(spent) * 1000:.2f} ms,"
            f" p99 {p99 * 1000:.2f} ms, slowest {spent[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
