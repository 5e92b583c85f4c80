"""How well `expert`'s model foresees its own hands: for each discard it plays on
from (tenpai, one- or two-shanten, closed or open, with or without a ready threat
on the table), the win it expected (chance x value, as the model computes them)
and the chance of tenpai at an exhaustive draw, against what the hand then won
and whether it ended tenpai at the draw. Four `expert`s a table. Not a test.

    python bench/calibration.py [--matches 40] [--rules online] [--seed 700]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass

from riichi.bots.expert import RON_DECLARED, RON_SILENT, ExpertBot, Scene, Valued, win_chance
from riichi.bots.play import play_match
from riichi.game import Action, ActionType, Match
from riichi.hand import ukeire
from riichi.rules import find_ruleset
from riichi.tiles import counts_of

Hand = tuple[int, int, int]  # round wind, dealer, honba: one hand of a match


@dataclass(frozen=True)
class Foresight:
    hand: Hand
    seat: int
    group: tuple[int, bool, bool]  # shanten after the discard, closed, a ready threat
    expected: float  # chance to win x value of the win
    ready: float  # chance of tenpai at the exhaustive draw


class Watched(ExpertBot):
    """`expert`, noting what it foresaw at each discard that plays on."""

    def __init__(self, seed: str, notes: list[Foresight]) -> None:
        super().__init__(seed)
        self.notes = notes

    def _discards(self, scene: Scene) -> list[Valued]:
        valued = super()._discards(scene)
        self._foresee(scene, valued[0].action)
        return valued

    def _foresee(self, scene: Scene, action: Action) -> None:
        obs = scene.obs
        if action.type not in (ActionType.DISCARD, ActionType.RIICHI) or action.tile is None:
            return
        assert obs.hand is not None and obs.seat is not None
        hand = list(obs.hand)
        hand.remove(action.tile)
        after = ukeire(counts_of(hand), scene.seen, len(scene.melds))
        best = ukeire(counts_of(obs.hand), scene.seen, len(scene.melds)).shanten
        if after.shanten > min(best, 2):
            return  # folding or too far off: nothing foreseen
        closed = scene.closed
        # the ron factors `_worth` takes: declared for a riichi (and a closed hand on its
        # way to one), silent for a dama or open wait
        if after.shanten == 0:
            riichi = closed and (obs.riichi[obs.seat] or action.type is ActionType.RIICHI)
            live = [4 - c for c in scene.out]
            ron = RON_DECLARED if riichi else RON_SILENT
            value, ron = self._tenpai_value(obs, hand, scene.melds, after.kinds, live, riichi, ron)
        else:
            ron = RON_DECLARED if closed else RON_SILENT
            value = self.rough_value(obs, hand, scene.melds)
        chance, _, ready = win_chance(
            after.shanten, after.tiles, scene.draws, scene.unseen, round(ron, 2), scene.hazard
        )
        threat = any(t.ready >= 0.9 for t in scene.threats)
        key = (obs.round_wind, obs.dealer, obs.honba)
        self.notes.append(
            Foresight(key, obs.seat, (after.shanten, closed, threat), chance * value, ready)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--rules", default="online")
    parser.add_argument("--seed", type=int, default=700)
    args = parser.parse_args()
    # by group: decisions, expected win, won, expected tenpai at the draw, tenpai at it
    sums: dict[tuple[int, bool, bool], list[float]] = defaultdict(lambda: [0.0] * 5)
    for m in range(args.matches):
        notes: list[Foresight] = []
        bots = [Watched(f"{args.seed + m}:{s}", notes) for s in range(4)]
        match = play_match(
            Match(find_ruleset(args.rules), args.seed + m, [b.name for b in bots]), bots
        )
        hands = [
            (e.data["round_wind"], e.data["dealer"], e.data["honba"])
            for e in match.events
            if e.type == "start_hand"
        ]
        results = dict(zip(hands, match.results, strict=True))
        for note in notes:
            result = results[note.hand]
            won = sum(score.points for w, _, score in result.wins if w == note.seat)
            tenpai = result.kind == "exhaustive" and note.seat in result.tenpai
            row = sums[note.group]
            for i, x in enumerate((1, note.expected, won, note.ready, tenpai)):
                row[i] += x
    print(
        f"{'shanten':>7} {'hand':>6} {'threat':>6} {'discards':>8}"
        f" {'expected win':>12} {'won':>6} {'tenpai at draw: expected':>24} {'was':>5}"
    )
    for (shanten, closed, threat), (n, expected, won, ready, tenpai) in sorted(sums.items()):
        print(
            f"{shanten:>7} {'closed' if closed else 'open':>6} {'yes' if threat else 'no':>6}"
            f" {n:>8.0f} {expected / n:>12.0f} {won / n:>6.0f}"
            f" {ready / n:>24.3f} {tenpai / n:>5.3f}"
        )


if __name__ == "__main__":
    main()
