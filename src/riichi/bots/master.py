"""The master bot: `expert`, with a search where its best options are close.

At its own turn after a draw where it matters (another seat is likely ready, by
expert's reading of it, or it is the match's last hand, where places are all that
count) and `expert` values two or more of its options within CLOSE points of its
best (as the match weighs points), the master draws
``rollouts`` worlds of the tiles it has not seen (`riichi.bots.search`: the same
worlds for every option, so the options are compared on equal luck), plays each
of those options out in every world to the end of the hand, and values each by the
mean of its results, as `expert` weighs a change of scores: in points, and by the
places they move as the match's end nears (in its last hand, by places alone). It
leaves `expert`'s best for the option worth most on average only where that one
beats it by CONFIDENCE standard errors of their difference, world by world: a
close call the worlds cannot tell apart stays `expert`'s. Where an option looks
better by half that, but not yet surely, it draws as many worlds again, up to
``batches`` times: the search spends its time where the answer is in doubt.
In the match's last hand, where a place is all a result is worth and the errors
are too wide for that test, it plays the option the search and `expert` together
value most, where that is LAST_MARGIN above `expert`'s best.
An option `expert` values as folding is played out folding. With ``playout="expert"``
the worlds are played out by an `expert` at every seat instead of the fast policy
(calls, riichi and folding as `expert` plays them: the search then weighs each option
by how the hand goes on when experts play it, at some forty times the cost of a
world). With ``dama``, an option that lets a riichi go by is played out silent (the
fast policy would declare at the next discard; measured no different, off).
Everywhere else it plays as `expert` (with ``calls``, a chi or pon against the
pass is searched too; off, as it measured no better).

The worlds are drawn from the seed and the situation (the hand, the rivers, the
scores), so the same situation is played the same way.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.search import answering, option_values, worlds_for
from riichi.game import Action, Observation

# Options within this many points (as the match weighs them) of expert's best are
# searched; WIDTH of them at most, best first.
CLOSE = 1000.0
WIDTH = 3
# a seat is a threat worth a search when expert reads it ready with this chance or more
# (a riichi is sure); elsewhere the rollouts play a hand much as expert's own counts
# of tiles do, and the search would spend its time to agree with them (MasterBot's
# ``threat``; 0 searches at every turn)
THREAT = 0.5
ROLLOUTS = 48  # worlds in a batch: each option is played out in each
# whether a call on another's discard (a chi or pon against the pass) is searched
CALLS = False
BATCHES = 4  # batches at most, while an option looks better but not yet surely
# expert's best is left for another option only when the search finds that one worth
# more by this many standard errors of the difference (on the same worlds): with two
# options beside expert's and nothing between them, one time in twenty or so
CONFIDENCE = 2.0
# In the match's last hand a result is valued by the place it leaves, and a place
# moves by thousands of points: the means differ by much less than the spread of
# one world's results, so the errors are wide and two of them are seldom beaten,
# while on the true walls (bench/search_truth.py) the search's differences there
# are worth about what expert's are. There the master adds the two and leaves
# expert's best for the option they value most, when that is this much above it.
LAST_MARGIN = 100.0
# who plays the worlds out: the fast policy (search.play_out), or `expert` at every seat
PLAYOUTS = ("fast", "expert")
PLAYOUT = "fast"
# whether an option that lets a riichi go by is played out silent (the fast policy
# otherwise declares at the next discard: the silent option valued as a late riichi)
DAMA = False


@dataclass(frozen=True, slots=True)
class Searched:
    """One searched decision: the options as `expert` values them (its best first), the
    search's mean worth of each (as the match weighs points), the standard error of
    its difference with the best's (world by world), and its mean change of the
    seat's score, over ``worlds`` worlds; ``last``: in the match's last hand."""

    options: tuple[Valued, ...]
    means: tuple[float, ...]
    errors: tuple[float, ...]  # of each mean's difference with expert's best's
    points: tuple[float, ...]
    worlds: int
    last: bool


class MasterBot(ExpertBot):
    """`expert` with a search over the hidden tiles at close decisions."""

    kind = "master"

    def __init__(
        self,
        seed: int | str = 0,
        rollouts: int = ROLLOUTS,
        close: float = CLOSE,
        width: int = WIDTH,
        batches: int = BATCHES,
        threat: float = THREAT,
        calls: bool = CALLS,
        last_margin: float | None = LAST_MARGIN,
        playout: str = PLAYOUT,
        dama: bool = DAMA,
    ) -> None:
        super().__init__(seed)
        self.rollouts, self.close, self.width = rollouts, close, width
        self.batches, self.threat, self.calls = batches, threat, calls
        self.last_margin = last_margin  # None: by standard errors in the last hand too
        self.dama = dama
        self.searched: Searched | None = None  # the last decision searched, if it was
        if playout not in PLAYOUTS:
            raise ValueError(f"no playout {playout!r}: one of {', '.join(PLAYOUTS)}")
        self.players = None if playout == "fast" else [ExpertBot(f"{seed}:{s}") for s in range(4)]

    def evaluate(self, observation: Observation) -> list[Valued]:
        """As `expert`'s, with the searched options first, best first; the rest after
        them, as `expert` values them. A searched option is valued on `expert`'s scale:
        `expert`'s value of its own best, plus how much more the search found the option
        worth than that best."""
        valued = self.unsearched(observation)
        self.searched = None
        options = self.close_options(observation, valued)
        if len(options) < 2:
            return valued
        self.searched = found = self.search(observation, options)
        means, errors = found.means, found.errors
        margin = self.last_margin
        if found.last and margin is not None:
            chosen = choice(means, errors, [v.value or 0.0 for v in options], margin=margin)
        else:
            chosen = choice(means, errors)
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
        """At its own turn after a draw, not in riichi, where it matters: against a
        likely ready hand, or in the match's last hand; at a chi or pon, with ``calls``."""
        assert observation.seat is not None
        if self.rollouts <= 0:
            return False
        if answering(observation) is not None:
            return self.calls
        if observation.drawn is None or observation.riichi[observation.seat]:
            return False
        if self.threat <= 0:  # everywhere
            return True
        scene = self._scene(observation)
        return not scene.spread or any(t.ready >= self.threat for t in scene.threats)

    def quick(self, observation: Observation) -> Action:
        """The choice without a search."""
        return self.unsearched(observation)[0].action

    def unsearched(self, observation: Observation) -> list[Valued]:
        """The options as the bot values them before any search, its choice first:
        `expert`'s (a bot the search sits on gives its own)."""
        return super().evaluate(observation)

    def close_options(self, obs: Observation, valued: list[Valued]) -> list[Valued]:
        """The options worth a search where it thinks: those `expert` values within
        ``close`` of its best, when there are two or more."""
        best = valued[0].value if valued else None
        if best is None:  # a rule of the bot decides (a win, an abort, a kan)
            return []
        close = [
            v for v in valued[: self.width] if v.value is not None and best - v.value <= self.close
        ]
        # the cheap test first: most turns have one close option and need no scene read
        return close if len(close) > 1 and self.thinks(obs) else []

    def search(self, obs: Observation, options: list[Valued]) -> Searched:
        """Each option's mean worth over the sampled worlds (the same worlds for every
        option), with the error of its difference with expert's best, and its mean
        change of the seat's score: a batch of worlds, and more while an option looks
        better than expert's best but not yet surely."""
        seat = obs.seat
        assert seat is not None
        key, scene = self._key(obs), self._scene(obs)
        moves = [(v.action, v.win == 0) for v in options]
        worths: list[list[float]] = [[] for _ in options]
        changes: list[list[int]] = [[] for _ in options]
        for batch in range(max(1, self.batches)):
            worlds = worlds_for(obs, self.rollouts, f"{key}:{batch}")
            for i, ds in enumerate(option_values(obs, moves, worlds, self.players, self.dama)):
                worths[i] += [self._worth_after(scene, d) for d in ds]
                changes[i] += [d[seat] for d in ds]
            means = [statistics.fmean(w) for w in worths]
            errors = [_paired_error(w, worths[0]) for w in worths]
            best = max(
                sureness(m - means[0], e) for m, e in zip(means[1:], errors[1:], strict=True)
            )
            if best > 1 or best <= 0.5:  # sure, or not even half way there
                break
        points = tuple(statistics.fmean(c) for c in changes)
        return Searched(
            tuple(options), tuple(means), tuple(errors), points, len(worths[0]), not scene.spread
        )

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


def choice(
    means: Sequence[float],
    errors: Sequence[float],
    experts: Sequence[float] | None = None,
    confidence: float = CONFIDENCE,
    margin: float = LAST_MARGIN,
) -> int:
    """Which option to play, of those searched (expert's best first, with each one's
    mean worth and the standard error of its difference with the best's): the best,
    unless others beat it by ``confidence`` standard errors; then the one worth most.
    In the match's last hand (``experts``: expert's values of the options) the one
    whose search and expert together value it most above the best, by ``margin``."""
    if experts is not None:
        above = [means[i] - means[0] + experts[i] - experts[0] - margin for i in range(len(means))]
        best = max(range(1, len(means)), key=lambda i: above[i], default=0)
        return best if best and above[best] > 0 else 0
    beating = [
        i for i in range(1, len(means)) if sureness(means[i] - means[0], errors[i], confidence) > 1
    ]
    return max(beating, key=lambda i: means[i]) if beating else 0


def sureness(diff: float, error: float, confidence: float = CONFIDENCE) -> float:
    """How surely a mean difference ``diff`` (over the same worlds, with standard error
    ``error``) says an option is better: in ``confidence`` standard errors (above 1:
    sure enough to leave expert's best)."""
    scaled = confidence * error
    if scaled == 0.0:  # the same difference in every world, or any will do
        return math.inf if diff > 0 else -math.inf
    return diff / scaled


def _paired_error(worths: list[float], base: list[float]) -> float:
    """The standard error of the mean difference of two options over the same worlds."""
    if worths is base or len(worths) < 2:
        return 0.0
    return statistics.stdev(a - b for a, b in zip(worths, base, strict=True)) / math.sqrt(
        len(worths)
    )
