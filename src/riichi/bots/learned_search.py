"""``learned-search``: the learned player's choice, with `master`'s search on top.

`learned` (``riichi.bots.learned``) orders expert's best options by its network and
plays the first; `master` (``riichi.bots.master``) searches expert's close options
over sampled worlds where it matters and leaves expert's best only for an option the
worlds find surely better. This bot is the two together: the network's choice is the
one the search must beat, so the search corrects the policy where it can tell and
the policy decides everywhere else. Deterministic for a seed, as both are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from riichi.bots.expert import Valued
from riichi.bots.features import weighed
from riichi.bots.learned import network_at, pick_among
from riichi.bots.master import MasterBot
from riichi.bots.network import WEIGHTS, Network
from riichi.game import Observation


class LearnedSearchBot(MasterBot):
    """`master`'s search over `learned`'s choice."""

    kind = "learned-search"

    def __init__(
        self,
        seed: int | str = 0,
        network: Network | None = None,
        weights: Path = WEIGHTS,
        **search: Any,
    ) -> None:
        """``search``: `master`'s settings (``rollouts``, ``batches``, ``dama`` and
        the rest; measured with ``dama`` off and on, both level with `learned`)."""
        super().__init__(seed, **search)
        self.network = network if network is not None else network_at(weights)

    def unsearched(self, observation: Observation) -> list[Valued]:
        """Expert's options, the network's choice among its best first (where a rule of
        expert's decides, as expert has them)."""
        options = super().unsearched(observation)
        kept = weighed(options, self.network.options)
        if not kept:
            return options
        chosen = kept[pick_among(self.network, observation, kept)]
        return [chosen, *(o for o in options if o is not chosen)]


__all__ = ["LearnedSearchBot"]
