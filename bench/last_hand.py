"""What `master`'s rule for the match's last hand is worth, in places.

`master` chooses in the last hand (South 4, and any extension) by its own rule: the
option the search and expert together value most. Every hand before is played the
same with or without it, so the matches of an arena (its records, `riichi arena
--out DIR`) are taken up where their last hand begins and played on twice, the
masters with the rule and without it (by standard errors, as before the last hand),
the experts as they are: the difference of the masters' places is what the rule did,
with none of the luck of the hands before. Also checks that playing on with the rule
gives the recorded result. Not a test.

    python bench/last_hand.py DIR [--jobs 2] [--limit N]
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from riichi.bots import make_bot
from riichi.bots.expert import ExpertBot
from riichi.bots.master import LAST_MARGIN, MasterBot
from riichi.bots.play import play_match
from riichi.game import Match, observe
from riichi.game.stats import seat_stats


def in_last_hand(match: Match) -> bool:
    """Whether the hand in play is the match's last (or past it), as expert reads it."""
    return not ExpertBot()._place_spread(observe(match, 0))[0]


def one(path: str) -> tuple[float, bool] | None:
    """The masters' mean place without the rule, less with it, and whether playing on
    with it gave the recorded places (None: the match ended before its last hand)."""
    with open(path) as f:
        record = json.load(f)
    played = Match.from_record(record)
    names, match = played.players, played.restarted()
    for seat, action in played.actions:
        if in_last_hand(match):
            break
        match.apply(seat, action)
    if match.over or not in_last_hand(match):
        return None
    masters = [s for s, n in enumerate(names) if n.startswith("master")]
    places = []
    for margin in (LAST_MARGIN, None):
        bots: list[Any] = [
            MasterBot(f"{record['seed']}:{s}", last_margin=margin)
            if s in masters
            else make_bot("expert", f"{record['seed']}:{s}")
            for s in range(len(names))
        ]
        copy = play_match(match.copy(), bots)
        places.append([x.place for x in seat_stats(copy) if x.seat in masters])
    recorded = [x["place"] for x in record["standings"] if x["seat"] in masters]
    return statistics.fmean(places[1]) - statistics.fmean(places[0]), places[0] == recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    paths = sorted(glob.glob(f"{args.dir}/match-*.json"))
    if args.limit:
        paths = paths[: args.limit]
    with ProcessPoolExecutor(args.jobs) as pool:
        found = [r for r in pool.map(one, paths) if r is not None]
    diffs = [d for d, _ in found]
    same = sum(ok for _, ok in found)
    changed = sum(d != 0 for d in diffs)
    print(f"{len(paths)} matches, {len(found)} reached their last hand, {changed} placed otherwise")
    print(f"played on with the rule as recorded: {same} of {len(found)}")
    if len(diffs) < 2:  # no spread to tell a difference from chance
        return
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(f"the rule puts the masters ahead by {mean:+.4f} places a match (95% ± {half:.4f})")


if __name__ == "__main__":
    main()
