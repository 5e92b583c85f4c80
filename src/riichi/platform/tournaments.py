"""Tournaments (002): seating by rounds, table points, standings and the payout.

An entrant is a player key (``account:<id>``, or ``computer:<kind>:<n>`` for a
roster computer entered by the organiser). Each round seats the entrants at
tables of the ruleset's size, keeping apart those who have met as far as it
can; where the count does not divide, roster computers that are not entrants
fill the empty seats (``None``), at most one per table while that is enough.

Standings order entrants by:

1. accumulated table points (002: 4/2/1/0 by place; ``RuleSet.table_points``);
2. total end score over their games;
3. head to head among the entrants still tied: who finished above the others
   of the tie more often at the tables they shared;
4. seat: the order in which they registered.

At the end the pot (the bets and any added money) is paid by final rank
through the payout structure: percentages of the pot for first, second, and
so on (``DEFAULT_PAYOUT`` unless the organiser sets one), shared in whole
chips by largest remainders.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from riichi.errors import RiichiError
from riichi.platform.chips import proportional
from riichi.rules import RuleSet

DEFAULT_PAYOUT = (50, 30, 20)  # percent of the pot to first, second and third
# Bounds that keep a tournament's tables and its seating plan small: 128 entrants over
# 12 rounds plan in well under a second (256 over 20 took about 40 s).
MAX_ROUNDS = 12
MAX_ENTRANTS = 128
SEATING_TRIES = 8  # shuffles tried for one round
PLAN_WORK = 4_000  # entrant-rounds of planning: whole schedules tried = this / (n * rounds)


class TournamentError(RiichiError):
    """A tournament setting or step that is not allowed."""


@dataclass(frozen=True, slots=True)
class TournamentLimits:
    """Who may organise what. The house backs the roster computers an organiser enters
    and pays what an operator adds, so both are bounded; an operator (a role the site
    grants, never one an account takes) is bounded only by the tournament's size."""

    per_organiser: int = 1  # open or running tournaments one account organises
    on_site: int = 20  # open or running tournaments at once, site-wide
    computers_per_person: int = 3  # roster computers entered per person registered


TOURNAMENTS = TournamentLimits()


def check_organiser(
    operator: bool,
    organising: int,
    on_site: int,
    added: int,
    limits: TournamentLimits = TOURNAMENTS,
) -> None:
    """Whether an account may create one more tournament now."""
    if added and not operator:
        raise TournamentError("only an operator adds the house's chips to a pot")
    if on_site >= limits.on_site:
        raise TournamentError(
            f"{on_site} tournaments are open or running; the site holds {limits.on_site}"
        )
    if not operator and organising >= limits.per_organiser:
        raise TournamentError(
            f"you organise {organising} tournament(s) that have not ended; the limit is "
            f"{limits.per_organiser}"
        )


def check_computers(
    operator: bool, people: int, computers: int, count: int, limits: TournamentLimits = TOURNAMENTS
) -> None:
    """Whether an organiser may enter ``count`` more roster computers (backed by the
    house): an operator as many as the tournament takes; anyone else as many per
    person registered as ``limits`` says, so computers fill tables and never make
    one."""
    if operator:
        return
    allowed = people * limits.computers_per_person
    if computers + count > allowed:
        raise TournamentError(
            f"{people} people are registered, so at most {allowed} computers may play; "
            f"{computers} are entered already"
        )


def check_payout(payout: Sequence[int]) -> None:
    if not payout or any(p < 0 for p in payout) or sum(payout) != 100:
        raise TournamentError(f"a payout is percentages of the pot summing to 100, got {payout}")
    if list(payout) != sorted(payout, reverse=True):
        raise TournamentError(f"a payout never pays a lower rank more, got {payout}")


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def plan_rounds(
    entrants: Sequence[str],
    rounds: int,
    size: int,
    seed: str,
    met_before: Mapping[frozenset[str], int] | None = None,
    lineups: Sequence[Sequence[str]] | None = None,
) -> list[list[list[str | None]]]:
    """Every round's tables, planned when registration closes: the schedule with the
    fewest repeat meetings the tries find (sixteen at fours over four rounds: none),
    counting ``met_before`` as meetings already made (a season's teammates). Each round
    seats every entrant, or ``lineups[round]`` where given. Deterministic for a seed, so
    a restarted server seats the same tables."""
    budget = max(1, PLAN_WORK // max(1, len(entrants) * rounds))
    # a large competition tries fewer shuffles a round: its plan stays within seconds
    tries = max(1, min(SEATING_TRIES, PLAN_WORK // max(1, len(entrants) * rounds)))
    best: list[list[list[str | None]]] = []
    best_cost = -1
    for attempt in range(budget):
        met: dict[frozenset[str], int] = dict(met_before or {})
        plan = []
        for round_ in range(1, rounds + 1):
            seated_now = entrants if lineups is None else lineups[round_ - 1]
            tables = seat_round(seated_now, met, size, f"{seed}/{attempt}/{round_}", tries)
            plan.append(tables)
            for table in tables:
                seated = [p for p in table if p is not None]
                for a, b in combinations(seated, 2):
                    met[pair(a, b)] = met.get(pair(a, b), 0) + 1
        cost = sum(n - 1 for n in met.values())
        if best_cost < 0 or cost < best_cost:
            best, best_cost = plan, cost
        if cost == 0:
            break
    return best


def seat_round(
    entrants: Sequence[str],
    met: Mapping[frozenset[str], int],
    size: int,
    seed: str,
    tries: int = SEATING_TRIES,
) -> list[list[str | None]]:
    """Tables for one round: every entrant once, as few repeat meetings as ``tries``
    shuffles find, ``None`` for a roster computer's seat. Deterministic for a seed."""
    if not entrants:
        return []
    count = -(-len(entrants) // size)
    # the humans per table as even as it goes: 17 at fours is 4, 4, 3, 3, 3
    room = [len(entrants) // count + (i < len(entrants) % count) for i in range(count)]
    best: list[list[str]] = []
    best_cost = -1
    for attempt in range(tries):
        order = _shuffled(entrants, f"{seed}/{attempt}")
        tables: list[list[str]] = [[] for _ in room]
        for who in order:
            open_tables = [i for i, t in enumerate(tables) if len(t) < room[i]]
            i = min(open_tables, key=lambda i: _cost_with(who, tables[i], met))
            tables[i].append(who)
        cost = _improve(tables, met)
        if best_cost < 0 or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    return [[*t, *[None] * (size - len(t))] for t in best]


def _shuffled(items: Sequence[str], seed: str) -> list[str]:
    """``items`` in an order fixed by ``seed`` (a keyed hash, not a global stream)."""
    return sorted(items, key=lambda x: hashlib.sha256(f"{seed}/{x}".encode()).digest())


def _cost_with(who: str, others: Sequence[str], met: Mapping[frozenset[str], int]) -> int:
    return sum(met.get(pair(who, o), 0) for o in others if o != who)


def _improve(tables: list[list[str]], met: Mapping[frozenset[str], int]) -> int:
    """Swap two players of different tables while a swap lowers the repeats; returns
    the repeats left."""
    while _improving_swap(tables, met):
        pass
    return sum(met.get(pair(p, q), 0) for t in tables for p, q in combinations(t, 2))


def _improving_swap(tables: list[list[str]], met: Mapping[frozenset[str], int]) -> bool:
    for a, b in combinations(range(len(tables)), 2):
        for i, x in enumerate(tables[a]):
            for j, y in enumerate(tables[b]):
                now = _cost_with(x, tables[a], met) + _cost_with(y, tables[b], met)
                then = _cost_with(y, [p for p in tables[a] if p != x], met) + _cost_with(
                    x, [p for p in tables[b] if p != y], met
                )
                if then < now:
                    tables[a][i], tables[b][j] = y, x
                    return True
    return False


def meetings(results: Iterable[TableResult]) -> dict[frozenset[str], int]:
    """How often each two entrants have sat at one table."""
    out: dict[frozenset[str], int] = {}
    for result in results:
        seated = [p for p in result.players if p is not None]
        for a, b in combinations(seated, 2):
            out[pair(a, b)] = out.get(pair(a, b), 0) + 1
    return out


@dataclass(frozen=True, slots=True)
class TableResult:
    """One finished table of a round: who sat where, places 1.. and end scores by seat."""

    round: int
    players: list[str | None]
    places: list[int]
    scores: list[int]


@dataclass(slots=True)
class Standing:
    entrant: str
    seat: int  # the registration order, the last tie-break
    points: int = 0
    score: int = 0
    games: int = 0
    places: list[int] = field(default_factory=list)
    rank: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "entrant": self.entrant,
            "rank": self.rank,
            "points": self.points,
            "score": self.score,
            "games": self.games,
            "places": self.places,
        }


def standings(
    entrants: Sequence[str], results: Sequence[TableResult], rules: RuleSet
) -> list[Standing]:
    """The entrants ranked by the rules of this module's docstring."""
    rows = {e: Standing(e, i) for i, e in enumerate(entrants)}
    for result in results:
        for seat, who in enumerate(result.players):
            if who is None:
                continue
            row = rows[who]
            row.points += rules.table_points[result.places[seat] - 1]
            row.score += result.scores[seat]
            row.games += 1
            row.places.append(result.places[seat])
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.score))
    out: list[Standing] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and (ordered[j].points, ordered[j].score) == (
            ordered[i].points,
            ordered[i].score,
        ):
            j += 1
        tied = ordered[i:j]
        if len(tied) > 1:
            wins = _head_to_head({r.entrant for r in tied}, results)
            tied.sort(key=lambda r: (-wins.get(r.entrant, 0), r.seat))
        out.extend(tied)
        i = j
    for rank, row in enumerate(out, start=1):
        row.rank = rank
    return out


def _head_to_head(tied: set[str], results: Sequence[TableResult]) -> dict[str, int]:
    """For each tied entrant, how many times it finished above another of the tie."""
    wins: dict[str, int] = {}
    for result in results:
        seats = [s for s, who in enumerate(result.players) if who in tied]
        for a, b in combinations(seats, 2):
            winner = a if result.places[a] < result.places[b] else b
            name = result.players[winner]
            assert name is not None
            wins[name] = wins.get(name, 0) + 1
    return wins


def payouts(pot: int, payout: Sequence[int], ranking: Sequence[str]) -> dict[str, int]:
    """The pot paid by rank; with fewer entrants than paid places, the paid places'
    percentages are shared among those there are."""
    paid = list(payout[: len(ranking)])
    shares = proportional(pot, paid)
    return {who: share for who, share in zip(ranking, shares, strict=False) if share}
