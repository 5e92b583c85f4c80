"""``learned``: the roster level that plays by a network trained here: on self-play
to choose as expert does, then on the corpus' games to choose as people did
(``riichi.bots.human``).

At each decision ``expert`` lists and values its options; where a rule of expert's
decides (a win, an abort, a kan) or only one option is valued, that is played.
Otherwise the network (``riichi.bots.network``) scores expert's best options (as
many as it was trained to weigh, ``Network.options``) from the seat's observation:
a network trained on options played out (``riichi.bots.training.played_out``) plays
the option its edge head rates highest where that beats expert's choice by the
network's margin, else expert's choice; a network trained on choices (expert's, or
people's) plays its policy head's first.
The weights ship with the package (``bots/weights/learned.npz``, numpy only);
``riichi learn`` trains them again from nothing (README: the learned player).
Deterministic for a seed: the network adds no randomness to expert's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from riichi.bots.agent import Bot
from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.features import option_features, state_features, weighed
from riichi.bots.network import EDGE, EDGE_UNIT, POLICY, WEIGHTS, Network, inputs
from riichi.game import Action, ActionType, Observation

CALLS = frozenset({ActionType.CHI, ActionType.PON, ActionType.KAN})

_LOADED: dict[Path, Network] = {}


def network_at(path: Path = WEIGHTS) -> Network:
    """The network stored at ``path``, read once a process."""
    if path not in _LOADED:
        _LOADED[path] = Network.load(path)
    return _LOADED[path]


class LearnedBot(Bot):
    kind = "learned"

    def __init__(
        self, seed: int | str = 0, network: Network | None = None, weights: Path = WEIGHTS
    ) -> None:
        super().__init__(seed)
        self.expert = ExpertBot(seed)
        self.network = network if network is not None else network_at(weights)

    def act(self, observation: Observation) -> Action:
        return self.choose(observation)[0].action

    def choose(self, observation: Observation) -> tuple[Valued, list[Valued], np.ndarray | None]:
        """The option played, the options weighed (expert's order) and the network's
        heads for them (None where expert's rule decided)."""
        options = self.expert.evaluate(observation)
        kept = weighed(options, self.network.options)
        if not kept:
            return options[0], kept, None
        heads = self.heads(observation, kept)
        return kept[self.pick(heads, kept)], kept, heads

    def pick(self, heads: np.ndarray, kept: list[Valued]) -> int:
        """The option played, by its index in expert's order (0: expert's choice)."""
        return pick_by(self.network, heads, kept)

    def heads(self, observation: Observation, options: list[Valued]) -> np.ndarray:
        return network_heads(self.network, observation, options)


def network_heads(network: Network, observation: Observation, options: list[Valued]) -> np.ndarray:
    """The network's heads for each of ``options`` (expert's best, in its order)."""
    rows = inputs(state_features(observation), option_features(observation, options))
    return network.forward(rows)[0]


def pick_by(network: Network, heads: np.ndarray, kept: list[Valued]) -> int:
    """The option ``network`` plays, by its index in expert's order (0: expert's
    choice): the policy's first, or the edge head's best where it beats expert's
    choice by the network's margin."""
    margin = network.margin
    if margin is None or heads.shape[1] <= EDGE:
        scores = heads[:, POLICY]
        if network.call_bias:
            calls = np.array([o.action.type in CALLS for o in kept])
            scores = scores + network.call_bias * calls
        return int(np.argmax(scores))
    edge = heads[:, EDGE] * EDGE_UNIT
    best = int(np.argmax(edge))
    return best if edge[best] - edge[0] > margin else 0


def pick_among(network: Network, observation: Observation, kept: list[Valued]) -> int:
    """The option ``network`` plays among ``kept``, by its index."""
    return pick_by(network, network_heads(network, observation, kept), kept)


__all__ = ["LearnedBot", "network_at", "network_heads", "pick_among", "pick_by"]
