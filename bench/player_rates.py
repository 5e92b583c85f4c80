"""How the bots play beside the strongest humans: win, deal-in, riichi and call rates
per hand and the average place. Not a test.

    python bench/player_rates.py [--walls 50] [--jobs 2] [--bots learned,expert]

The humans: every seat of the Phoenix-room (houou) four-player hanchan games in
``../shared/corpus``, replayed through the engine and counted as the site counts a
player's figures (`riichi.game.stats`). The bots: a duplicate arena of two of each
against each other on ``--walls`` walls in all six seatings (seeds from 95,000,000,
which no training or tuning used), counted the same way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from riichi.bots.arena import BotStats, SeatResult, run, summarise, tasks
from riichi.formats.replay import load_match
from riichi.game.stats import seat_stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from review import phoenix_games

SEED = 95_000_000


def humans(corpus: Path) -> BotStats:
    stats = BotStats("Phoenix players")
    for path in phoenix_games(corpus)[4]:
        _, match = load_match(path.read_bytes(), str(path))
        if match.standings is None:
            continue
        for x in seat_stats(match):
            stats.add(
                SeatResult(
                    "Phoenix", x.place, x.score, x.hands, x.wins, x.deal_ins, x.riichis, x.calls
                )
            )
    return stats


def row(name: str, stats: BotStats) -> str:
    cells = stats.table_row(4)
    place, half = cells["avg place"]
    rates = "".join(f"{cells[c][0]:>9.1%}" for c in ("win", "deal-in", "riichi", "call"))
    return f"{name:<18}{stats.matches:>8}{stats.hands:>8}  {place:.3f} ± {half:.3f}{rates}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--walls", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bots", default="learned,expert")
    here = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    parser.add_argument("--corpus", type=Path, default=here)
    args = parser.parse_args()
    top, low = args.bots.split(",")
    print(
        f"{'':<18}{'games':>8}{'hands':>8}  {'avg place':<13}"
        + "".join(f"{c:>9}" for c in ("win", "deal-in", "riichi", "call"))
    )
    print(row("Phoenix players", humans(args.corpus)))
    work = tasks([top, low, top, low], args.walls, "online", SEED, duplicate=True)
    bots = summarise(seats for seats, _ in run(work, args.jobs))
    for name in (top, low):
        print(row(name, bots[name]))


if __name__ == "__main__":
    main()
