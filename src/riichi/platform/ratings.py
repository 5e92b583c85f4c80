"""Ratings from rated matches: openskill's Plackett-Luce model over the four places.

Why this model and not Tenhou's R: Tenhou's formula moves a rating by a fixed
amount per place, corrected by the table's average and a factor for the first
400 games. It knows nothing of how sure it is. Plackett-Luce keeps, for each
player, a skill ``mu`` and its uncertainty ``sigma``: a new account (sigma
high) moves fast and settles as sigma shrinks, which is the provisional period
without a separate rule; a result against strong opponents counts for more;
computers get ratings like anyone, so a game against them moves yours fairly;
and ties are handled. The shown rating is the conservative ``mu - 3 sigma``,
scaled to start near 1500. Everything here is deterministic: recomputing from
the stored matches, in order, gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 20  # an account's first rated games: marked provisional
# While provisional, the shown rating climbs at most this much a game above the start:
# a new account cannot be lifted high by a few games, whoever it lost them to.
PROVISIONAL_STEP = 20
START_MU = 25.0
START_SIGMA = START_MU / 3
SCALE = 60.0  # rating points per unit of mu
BASE = 1500.0

_MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The public rating: conservative (mu - 3 sigma), so new accounts start low;
        while provisional, no more than ``PROVISIONAL_STEP`` a game above the start."""
        rating = round(BASE + SCALE * (self.mu - 3 * self.sigma))
        if self.provisional:
            return min(rating, round(BASE) + PROVISIONAL_STEP * self.games)
        return rating

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Everyone's rating after one match: ``places`` 1 (first) to 4, seat by seat."""
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    updated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        Rating(team[0].mu, team[0].sigma, old.games + 1)
        for team, old in zip(updated, ratings, strict=True)
    ]
