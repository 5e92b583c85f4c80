"""Count, with every hand open, what the expert bot's danger tables estimate.

    python tools/expert_tables.py [--matches 60] [--seed 30000] [--jobs 2]

Plays arena matches (two `expert`, two `defensive`) and, at each discard, looks
at the other three hands as the engine holds them:

- how often a hand is tenpai, by its calls (or riichi) and its turn in threes
  (`READY_SILENT`, `READY_OPEN`, `READY_OPEN_VALUE` in `riichi.bots.expert`);
- of the tiles let go towards a tenpai hand, how often the tile is one of its
  waits, by the tile's kind as the bot reads it: genbutsu, passed after a riichi,
  an honour by copies left, a number tile by rank from the edge and suji
  (`HONOR_DANGER`, `NUMBER_DANGER`).

The tiles counted are those the bots chose to let go, so the rates are of tiles
as they are played, which is what the bot needs. Not a test.
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from riichi.bots import make_bot
from riichi.bots.expert import ExpertBot
from riichi.game import ActionType, Match, Observation, observe
from riichi.hand import shanten, waits
from riichi.rules import find_ruleset
from riichi.tiles import counts_of

Tally = Counter[tuple[str, ...]]
RANKS = ("1-9", "2-8", "3-7", "4-6", "5")


def kind_class(bot: ExpertBot, obs: Observation, threat: int, kind: int) -> str:
    """The tile as `ExpertBot.deal_in` reads it."""
    river = obs.discards[threat]
    own = {t >> 2 for t, *_ in river}
    if kind in own:
        return "genbutsu"
    if obs.riichi[threat]:
        declared = next((i for i, d in enumerate(river) if d[2]), len(river))
        if kind in bot._passed_since(obs, threat, declared):
            return "passed"
    out = bot._scene(obs).out
    if kind >= 27:
        return f"honour, {4 - out[kind]} left"
    rank = kind % 9
    low = rank >= 3 and kind - 3 in own
    high = rank <= 5 and kind + 3 in own
    suji = "both suji" if low and high else "one suji" if low or high else "no suji"
    wall = ", walled" if bot._walled(kind, out) else ""
    return f"{RANKS[min(rank, 8 - rank)]}, {suji}{wall}"


def count(seed: int) -> tuple[Tally, Tally, Tally, Tally]:
    """(tenpai, hands seen) by situation and (waits hit, tiles let go) by tile class."""
    m = Match(find_ruleset("online"), seed)
    bots = [make_bot("expert" if s % 2 == 0 else "defensive", f"{seed}:{s}") for s in range(4)]
    reader = ExpertBot(seed)
    ready: Tally = Counter()
    seen: Tally = Counter()
    hit: Tally = Counter()
    let_go: Tally = Counter()
    while not m.over:
        legal = m.legal_actions()
        seat = min(legal)
        obs = observe(m, seat)
        action = bots[seat].act(obs)
        if action.type in (ActionType.DISCARD, ActionType.RIICHI) and action.tile is not None:
            for s, other in enumerate(m.kyoku.seats):
                counts = counts_of(other.hand)
                if s == seat or sum(counts) % 3 != 1:
                    continue
                calls = len(other.melds)
                how = "riichi" if obs.riichi[s] else f"{calls} calls"
                if calls == 2 and not obs.riichi[s] and reader._open_threat(obs, s):
                    how += ", yaku and value shown"
                key = (how, f"turn {3 * min(len(obs.discards[s]) // 3, 6)}+")
                seen[key] += 1
                if shanten(counts, calls) != 0:
                    continue
                ready[key] += 1
                kind = action.tile >> 2
                where = "riichi" if obs.riichi[s] else "open" if calls else "silent"
                tile = (where, kind_class(reader, obs, s, kind))
                let_go[tile] += 1
                hit[tile] += kind in waits(counts, calls).kinds
        m.apply(seat, action)
    return ready, seen, hit, let_go


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--seed", type=int, default=30_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    ready: Tally = Counter()
    seen: Tally = Counter()
    hit: Tally = Counter()
    let_go: Tally = Counter()
    seeds = range(args.seed, args.seed + args.matches)
    with ProcessPoolExecutor(args.jobs) as pool:
        for r, s, h, g in pool.map(count, seeds, chunksize=2):
            ready += r
            seen += s
            hit += h
            let_go += g
    print("tenpai by calls and turn")
    for key in sorted(seen):
        print(f"  {' / '.join(key):<40} {ready[key] / seen[key]:6.3f}  of {seen[key]}")
    print("waits hit by the tile let go, towards a tenpai hand")
    for key in sorted(let_go):
        print(f"  {' / '.join(key):<40} {hit[key] / let_go[key]:6.3f}  of {let_go[key]}")


if __name__ == "__main__":
    main()
