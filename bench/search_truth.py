"""How `master`'s searched choices fare on the walls as they truly lie.

Four `expert`s play; at each turn where `master` (same seed) would search, its
search runs on what the seat saw, and then every option it searched is played on
the true match (a copy) with `expert` at every seat to the hand's end, and valued
as the search values a result (`expert`'s weighing of a change of scores, by places
alone in the last hand). One true world a decision is noisy, but the same for every
option, and many decisions average it out: this measures what the search's choices
are worth when expert plays on, and how that depends on how sure the search was.
Not a test.

    python bench/search_truth.py [--matches 8] [--seed 700] [--jobs 2] [--rollouts 48]
        [--threat 0.5] [--out decisions.jsonl]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from riichi.bots import make_bot
from riichi.bots.master import THREAT, MasterBot, choice
from riichi.game import Action, Match, observe
from riichi.rules import find_ruleset

SURENESS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)  # the thresholds to compare (in standard errors)


def truth(match: Match, seat: int, action: Action, bots: list[Any]) -> list[int]:
    """Each seat's change of score when ``seat`` plays ``action`` and experts play on
    to the hand's end, on the true walls."""
    copy = match.copy()
    before = list(copy.kyoku.scores)
    hand = len(copy.results)
    copy.apply(seat, action)
    while len(copy.results) == hand and not copy.over:
        s = next(iter(copy.legal_actions()))
        copy.apply(s, bots[s].act(observe(copy, s)))
    return [a - b for a, b in zip(copy.scores, before, strict=True)]


def one_match(job: tuple[int, str, int, float]) -> list[dict[str, Any]]:
    seed, rules, rollouts, threat = job
    match = Match(find_ruleset(rules), seed, ["a", "b", "c", "d"])
    bots = [make_bot("expert", f"{seed}:{s}") for s in range(4)]
    masters = [MasterBot(f"{seed}:{s}", rollouts=rollouts, threat=threat) for s in range(4)]
    notes = []
    while not match.over:
        seat = next(iter(match.legal_actions()))
        obs = observe(match, seat)
        master = masters[seat]
        master.evaluate(obs)
        found = master.searched
        if found is not None:
            scene = master._scene(obs)
            worths, points = [], []
            for option in found.options:
                deltas = truth(match, seat, option.action, bots)
                worths.append(master._worth_after(scene, deltas))
                points.append(deltas[seat])
            threatened = any(t.ready >= THREAT for t in scene.threats)
            notes.append(
                {
                    "seed": seed,
                    "last": not scene.spread,
                    "threat": threatened,
                    "riichi": sum(obs.riichi) - obs.riichi[seat],
                    "fold": [o.win == 0 for o in found.options],
                    "expert": [o.value for o in found.options],
                    "means": list(found.means),
                    "errors": list(found.errors),
                    "worlds": found.worlds,
                    "truth": worths,
                    "points": points,
                }
            )
        match.apply(seat, bots[seat].act(obs))
    return notes


def chosen(note: dict[str, Any], sure: float) -> int:
    return choice(note["means"], note["errors"], sure)


def report(notes: list[dict[str, Any]]) -> None:
    print(f"{len(notes)} searched decisions")
    groups = {
        "all": notes,
        "last hand": [n for n in notes if n["last"]],
        "a riichi": [n for n in notes if n["riichi"]],
        "a likely ready hand, no riichi": [n for n in notes if n["threat"] and not n["riichi"]],
        "quiet (searched with --threat 0)": [n for n in notes if not n["threat"] and not n["last"]],
    }
    head = ("where", "sure", "left", "gain/decision", "± 95%", "per left")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (32, 5, 6, 14, 7, 9), strict=True)))
    for name, group in groups.items():
        for sureness in SURENESS:
            gains = []
            left = 0
            for n in group:
                i = chosen(n, sureness)
                left += i != 0
                gains.append(n["truth"][i] - n["truth"][0])
            if not gains:
                continue
            mean = statistics.fmean(gains)
            half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0
            per = sum(gains) / left if left else 0.0
            print(f"{name:>32} {sureness:5.1f} {left:6d} {mean:14.1f} {half:7.1f} {per:9.0f}")
    # what the best option by the truth would have been worth, for scale
    best = statistics.fmean(max(n["truth"]) - n["truth"][0] for n in notes)
    print(f"an oracle that knew the walls: {best:.1f} a decision")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--seed", type=int, default=700)
    parser.add_argument("--rules", default="online")
    parser.add_argument("--rollouts", type=int, default=48)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=None)
    parser.add_argument(
        "--threat",
        type=float,
        default=THREAT,
        help="search against a hand this likely ready (0: at every turn)",
    )
    args = parser.parse_args()
    jobs = [(args.seed + g, args.rules, args.rollouts, args.threat) for g in range(args.matches)]
    notes: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for found in pool.map(one_match, jobs):
            notes.extend(found)
    if args.out:
        with open(args.out, "w") as f:
            for n in notes:
                f.write(json.dumps(n) + "\n")
    report(notes)


if __name__ == "__main__":
    main()
