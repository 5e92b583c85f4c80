"""The simplest players: uniformly random, and always-tsumogiri."""

from __future__ import annotations

import random

from riichi.bots.agent import Bot, winning
from riichi.game import Action, ActionType, Observation


class RandomBot(Bot):
    """Takes a win when it can, otherwise any legal action, uniformly (seeded)."""

    kind = "random"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.rng = random.Random(f"random-bot:{seed}")

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        return winning(legal) or legal[self.rng.randrange(len(legal))]


class TsumogiriBot(Bot):
    """Takes a win when it can; otherwise discards what it drew and never calls."""

    kind = "tsumogiri"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        win = winning(legal)
        if win is not None:
            return win
        for a in legal:
            if a.type is ActionType.PASS:
                return a
        if observation.drawn is not None:
            for a in legal:
                if a.type is ActionType.DISCARD and a.tile == observation.drawn:
                    return a
        return next(a for a in legal if a.type is ActionType.DISCARD)
