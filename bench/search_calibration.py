"""How well `master`'s search foresees its hands: at each decision it searched, the
change of its score the search expected from the option it played, against the
change the hand then brought; by how much it expected, and apart for the decisions
where it left `expert`'s choice. Also how often its turns are searched, how often
the search leaves expert's choice, and the time per decision. Two `master`s
against two `expert`s a table. Not a test.

    python bench/search_calibration.py [--matches 4] [--rules online] [--seed 900]
        [--rollouts 48]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from riichi.bots import make_bot
from riichi.bots.expert import Valued
from riichi.bots.master import MasterBot
from riichi.game import Action, Match, Observation, observe
from riichi.rules import find_ruleset

BINS = (-8000, -3000, -1000, 0, 1000, 3000, 8000)


@dataclass
class Note:
    hand: int  # hands finished before this decision
    seat: int
    score: int  # the seat's, at the decision
    expected: float  # the search's mean change of the seat's score, for the option played
    left_expert: bool
    change: int | None = None  # what the hand's end made of the seat's score


class Watched:
    """`master`, noting each searched decision and the time each decision takes."""

    def __init__(self, seed: str, seat: int, rollouts: int, notes: list[Note]) -> None:
        self.bot = MasterBot(seed, rollouts=rollouts)
        self.name = self.bot.name
        self.seat, self.notes = seat, notes
        self.match: Match | None = None
        self.turns = self.searched = 0
        self.spent: list[float] = []

    def act(self, observation: Observation) -> Action:
        started = time.perf_counter()
        valued: list[Valued] = self.bot.evaluate(observation)
        self.spent.append(time.perf_counter() - started)
        self.turns += observation.drawn is not None and not observation.riichi[self.seat]
        found = self.bot.searched
        if found is not None and self.match is not None:
            self.searched += 1
            played = valued[0].action
            i = next(i for i, o in enumerate(found.options) if o.action == played)
            at = observation.scores[self.seat]
            note = Note(len(self.match.results), self.seat, at, found.points[i], i != 0)
            self.notes.append(note)
        return valued[0].action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--rules", default="online")
    parser.add_argument("--seed", type=int, default=900)
    parser.add_argument("--rollouts", type=int, default=48)
    args = parser.parse_args()
    notes: list[Note] = []
    masters: list[Watched] = []
    pairs: list[tuple[float, int, bool]] = []  # expected, happened, left expert
    for m in range(args.matches):
        seed = args.seed + m
        first = len(notes)
        seats = [Watched(f"{seed}:{s}", s, args.rollouts, notes) for s in (0, 2)]
        agents: list[Any] = [
            seats[0],
            make_bot("expert", f"{seed}:1"),
            seats[1],
            make_bot("expert", f"{seed}:3"),
        ]
        match = Match(find_ruleset(args.rules), seed, [a.name for a in agents])
        for w in seats:
            w.match = match
        while not match.over:
            seat = next(iter(match.legal_actions()))
            hands = len(match.results)
            match.apply(seat, agents[seat].act(observe(match, seat)))
            if len(match.results) > hands:  # a hand ended: the scores as it left them
                for note in notes[first:]:
                    if note.hand == hands:
                        note.change = match.scores[note.seat] - note.score
        masters += seats
        pairs += [
            (n.expected, n.change, n.left_expert) for n in notes[first:] if n.change is not None
        ]
    turns = sum(w.turns for w in masters)
    searched = sum(w.searched for w in masters)
    left = sum(1 for _, _, x in pairs if x)
    print(
        f"{args.matches} matches, {turns} own turns after a draw: {searched} searched"
        f" ({searched / max(1, turns):.0%}), expert's choice left at {left}"
        f" ({left / max(1, searched):.0%} of those searched)"
    )
    spent = sorted(t for w in masters for t in w.spent)
    print(
        f"time per decision, one core: median {statistics.median(spent) * 1000:.0f} ms,"
        f" p99 {spent[int(len(spent) * 0.99)] * 1000:.0f} ms, slowest {spent[-1] * 1000:.0f} ms"
    )
    for label, chosen in (("all searched", None), ("expert's choice left", True)):
        groups: dict[int, list[tuple[float, int]]] = defaultdict(list)
        for expected, happened, left_expert in pairs:
            if chosen is None or left_expert == chosen:
                groups[sum(expected >= b for b in BINS)].append((expected, happened))
        print(f"\n{label}: expected change of score against what the hand brought")
        print(f"{'expected':>18}{'decisions':>11}{'expected':>10}{'happened':>10}{'± 95%':>8}")
        for b in sorted(groups):
            rows = groups[b]
            low = f"{BINS[b - 1]:+}" if b else "-inf"
            high = f"{BINS[b]:+}" if b < len(BINS) else "inf"
            mean_e = statistics.fmean(e for e, _ in rows)
            changes = [h for _, h in rows]
            mean_h = statistics.fmean(changes)
            half = 1.96 * statistics.stdev(changes) / len(rows) ** 0.5 if len(rows) > 1 else 0.0
            print(
                f"{low + '..' + high:>18}{len(rows):>11}{mean_e:>10.0f}{mean_h:>10.0f}{half:>8.0f}"
            )


if __name__ == "__main__":
    main()
