"""The master bot: `expert`, with a search where its best options are close.

At its own turn after a draw, where `expert` values two or more of its options
within CLOSE points of its best (as the match weighs points), the master draws
``rollouts`` worlds of the tiles it has not seen (`riichi.bots.search`: the same
worlds for every option, so the options are compared on equal luck), plays each
of those options out in every world to the end of the hand, and values each by the
mean of its results, as `expert` weighs a change of scores: in points, and by the
places they move as the match's end nears (in its last hand, by places alone). It
leaves `expert`'s best for the option worth most on average only where that one
beats it by CONFIDENCE standard errors of their difference, world by world: a
close call the worlds cannot tell apart stays `expert`'s. An option `expert` values
as folding is played out folding.
Everywhere else it plays as `expert`.

The worlds are drawn from the seed and the situation (the hand, the rivers, the
scores), so the same situation is played the same way.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import statistics
from dataclasses import dataclass

from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.search import option_values, worlds_for
from riichi.game import Action, Observation

# Options within this many points (as the match weighs them) of expert's best are
# searched; WIDTH of them at most, best first.
CLOSE = 1000.0
WIDTH = 3
ROLLOUTS = 48  # worlds per decision searched: each option is played out in each
# expert's best is left for another option only when the search finds that one worth
# more by this many standard errors of the difference (on the same worlds)
CONFIDENCE = 1.0


@dataclass(frozen=True, slots=True)
class Searched:
    """One searched decision: the options as `expert` values them (its best first), the
    search's mean worth of each (as the match weighs points), the standard error of
    its difference with the best's (world by world), and its mean change of the
    seat's score, over ``worlds`` worlds."""

    options: tuple[Valued, ...]
    means: tuple[float, ...]
    errors: tuple[float, ...]  # of each mean's difference with expert's best's
    points: tuple[float, ...]
    worlds: int


class MasterBot(ExpertBot):
    """`expert` with a search over the hidden tiles at close decisions."""

    kind = "master"

    def __init__(
        self,
        seed: int | str = 0,
        rollouts: int = ROLLOUTS,
        close: float = CLOSE,
        width: int = WIDTH,
    ) -> None:
        super().__init__(seed)
        self.rollouts, self.close, self.width = rollouts, close, width
        self.searched: Searched | None = None  # the last decision searched, if it was

    def evaluate(self, observation: Observation) -> list[Valued]:
        """As `expert`'s, with the searched options first, best first; the rest after
        them, as `expert` values them. A searched option is valued on `expert`'s scale:
        `expert`'s value of its own best, plus how much more the search found the option
        worth than that best."""
        valued = super().evaluate(observation)
        self.searched = None
        options = self.close_options(observation, valued)
        if len(options) < 2:
            return valued
        worths, points = self.search(observation, options)
        means = [statistics.fmean(w) for w in worths]
        errors = [_paired_error(w, worths[0]) for w in worths]
        self.searched = Searched(
            tuple(options), tuple(means), tuple(errors), tuple(points), self.rollouts
        )
        # expert's best stands unless an option beats it by CONFIDENCE standard errors
        # of the difference: a close call the worlds cannot tell apart stays expert's
        beating = [
            i for i in range(1, len(options)) if means[i] - means[0] > CONFIDENCE * errors[i]
        ]
        chosen = max(beating, key=lambda i: means[i]) if beating else 0
        rest = sorted((i for i in range(len(options)) if i != chosen), key=lambda i: -means[i])
        anchor = options[0].value or 0.0  # expert's best: not a rule's choice, so valued
        # an option the worlds found better by less than the noise is valued no higher
        # than the choice: the first is what it plays, and the best it knows of
        top = means[chosen]
        first = [
            dataclasses.replace(options[i], value=anchor + min(means[i], top) - means[0])
            for i in (chosen, *rest)
        ]
        return first + [v for v in valued if v not in options]

    def thinks(self, observation: Observation) -> bool:
        assert observation.seat is not None
        return (
            self.rollouts > 0
            and observation.drawn is not None
            and not observation.riichi[observation.seat]
        )

    def quick(self, observation: Observation) -> Action:
        """`expert`'s choice."""
        return super().evaluate(observation)[0].action

    def close_options(self, obs: Observation, valued: list[Valued]) -> list[Valued]:
        """The options worth a search: at the seat's own turn after a draw (not in
        riichi), those `expert` values within ``close`` of its best."""
        if not self.thinks(obs) or not valued:
            return []
        best = valued[0].value
        if best is None:  # a rule of the bot decides (a win, an abort, a kan)
            return []
        return [
            v for v in valued[: self.width] if v.value is not None and best - v.value <= self.close
        ]

    def search(
        self, obs: Observation, options: list[Valued]
    ) -> tuple[list[list[float]], list[float]]:
        """Each option's worth in each sampled world (the same worlds for every option),
        and its mean change of the seat's score."""
        seat = obs.seat
        assert seat is not None
        worlds = worlds_for(obs, self.rollouts, self._key(obs))
        scene = self._scene(obs)
        results = option_values(obs, [(v.action, v.win == 0) for v in options], worlds)
        worths = [[self._worth_after(scene, d) for d in ds] for ds in results]
        return worths, [statistics.fmean(d[seat] for d in ds) for ds in results]

    def _key(self, obs: Observation) -> str:
        """The worlds' seed: this bot's seed and everything the seat sees."""
        where = repr(
            (
                self.seed,
                obs.seat,
                obs.round_wind,
                obs.dealer,
                obs.honba,
                obs.scores,
                obs.hand,
                obs.drawn,
                obs.discards,
                obs.meld_tiles,
            )
        )
        return hashlib.sha256(where.encode()).hexdigest()


def _paired_error(worths: list[float], base: list[float]) -> float:
    """The standard error of the mean difference of two options over the same worlds."""
    if worths is base or len(worths) < 2:
        return 0.0
    return statistics.stdev(a - b for a, b in zip(worths, base, strict=True)) / math.sqrt(
        len(worths)
    )
