"""League seasons (003): who may play, the schedule of a season's rounds, and its
standings in PT.

A game's PT is its final points under the season's rules: for ``league``,
M-League's conversion (the score less the 30,000 returned, in thousands, plus the
uma of the place, 30/10/-10/-30, with the oka to the first), ties broken as the
preset breaks them (the seat nearer the first dealer places higher). The engine's
standings hold exactly that (``Match._finish``); a season only adds them up.
Standings: per player, total PT, games, average place, best game; per team, the
total of its members' PT. Equal totals are ordered by average place, then by the
order the members joined.

A scheduled season is planned at its start, every round at once: each round seats
every member once at tables of the rules' size, as few repeat meetings as the tries
find (`tournaments.seat_round`); in a team season members of one team count as
having met already, so a team sits at a table twice only where the count allows
nothing else. When teams take turns (M-League's format), each round seats one member
of each team, the next in the team's order, so no team is ever twice at a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from riichi.errors import RiichiError
from riichi.platform.tournaments import pair, plan_rounds

MAX_ROUNDS = 40
MAX_MEMBERS = 64
# "turns": teams take turns, each sending one member a round (M-League's format)
MODES = ("individual", "team", "turns")
TEAM_MODES = ("team", "turns")
JOINING = ("open", "invitation")
PLAYS = ("schedule", "open")  # rounds planned at the start, or tables as members gather
MAX_MEETINGS = 20
# one team meeting counts as this many repeat meetings of two players
TEAM_WEIGHT = 3


class LeagueError(RiichiError):
    """A season, a member or a step refused, with the reason; nothing has changed."""


def check_season(
    mode: str, joining: str, rounds: int, players: int, play: str = "schedule", meetings: int = 0
) -> None:
    if play not in PLAYS:
        raise LeagueError(f"a season is played by {' or '.join(PLAYS)}, got {play[:20]!r}")
    if play == "open" and not 1 <= meetings <= MAX_MEETINGS:
        raise LeagueError(f"in open play each pair meets 1 to {MAX_MEETINGS} times at most")
    if mode not in MODES:
        raise LeagueError(f"a season is {' or '.join(MODES)}, got {mode[:20]!r}")
    if mode == "turns" and play != "schedule":
        raise LeagueError("teams take turns only in a scheduled season")
    if joining not in JOINING:
        raise LeagueError(f"joining is {' or '.join(JOINING)}, got {joining[:20]!r}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise LeagueError(f"a season has 1 to {MAX_ROUNDS} rounds, got {rounds}")
    if players not in (3, 4):
        raise LeagueError(f"a league table seats 3 or 4 players, not {players}")


def check_start(members: Mapping[str, str | None], mode: str, players: int) -> None:
    """Whether a season may start with these members (key: team or None)."""
    if mode == "turns":
        teams = set(members.values())
        if None in teams or len(teams) < players or len(teams) % players:
            raise LeagueError(
                f"teams that take turns fill whole tables of {players}, one member of each"
                f" team a round: every member in a team, and {len(teams)} teams do not"
            )
        return
    if len(members) < players or len(members) % players:
        raise LeagueError(
            f"a season seats every member each round: {len(members)} members do not make"
            f" whole tables of {players}"
        )
    if mode == "team":
        teams = {t for t in members.values()}
        if None in teams or len(teams) < 2:
            raise LeagueError("a team season needs every member in a team, and two teams")


def plan_season(
    members: Mapping[str, str | None], rounds: int, size: int, seed: str, mode: str = "team"
) -> list[list[list[str | None]]]:
    """Every round's tables of member keys (teams as ``members`` give them, in the order
    they joined). When teams take turns, round r seats each team's (r mod n)-th member."""
    if mode == "turns":
        teams: dict[str | None, list[str]] = {}
        for key, team in members.items():
            teams.setdefault(team, []).append(key)
        lineups = [[team[r % len(team)] for team in teams.values()] for r in range(rounds)]
        return plan_rounds(list(members), rounds, size, seed, lineups=lineups)
    teammates: dict[frozenset[str], int] = {}
    for a, b in combinations(members, 2):
        if members[a] is not None and members[a] == members[b]:
            teammates[pair(a, b)] = TEAM_WEIGHT
    return plan_rounds(list(members), rounds, size, seed, teammates)


def open_tables(
    waiting: Sequence[str],
    ready: Sequence[str],
    met: Mapping[frozenset[str], int],
    size: int,
    limit: int,
) -> list[list[str]]:
    """Open play: tables of ``size`` from the people ``waiting`` (oldest first), with
    members always ``ready`` (roster computers) to complete a table that has a person,
    no two at a table who have met ``limit`` times already."""
    taken: set[str] = set()
    tables = []
    for first in waiting:
        if first in taken:
            continue
        table = [first]
        for who in [*waiting, *ready]:
            if len(table) == size:
                break
            if who in taken or who in table:
                continue
            if all(met.get(pair(who, other), 0) < limit for other in table):
                table.append(who)
        if len(table) == size:
            tables.append(table)
            taken.update(table)
    return tables


def meetings_of(tables: Sequence[Sequence[str | None]]) -> dict[frozenset[str], int]:
    """How often each pair of members has sat at one table."""
    met: dict[frozenset[str], int] = {}
    for table in tables:
        seated = [p for p in table if p is not None]
        for a, b in combinations(seated, 2):
            met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    return met


@dataclass(frozen=True, slots=True)
class Game:
    """One member's result at one league table."""

    player: str
    table: str
    round: int
    place: int
    score: int
    pt: float
    finished: float


@dataclass
class Line:
    """A player's or a team's season so far."""

    key: str
    name: str
    team: str | None = None
    pt: float = 0.0
    games: int = 0
    places: int = 0  # their sum, for the average
    best: float | None = None
    series: list[float] = field(default_factory=list)  # PT after each game, in order

    @property
    def average_place(self) -> float | None:
        return None if not self.games else self.places / self.games

    def add(self, game: Game) -> None:
        self.pt = round(self.pt + game.pt, 1)
        self.games += 1
        self.places += game.place
        self.best = game.pt if self.best is None else max(self.best, game.pt)
        self.series.append(self.pt)

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "name": self.name,
            "team": self.team,
            "pt": self.pt,
            "games": self.games,
            "average_place": None if self.average_place is None else round(self.average_place, 2),
            "best": self.best,
            "series": self.series,
        }


def standings(
    members: Sequence[tuple[str, str, str | None]], games: Sequence[Game]
) -> tuple[list[Line], list[Line]]:
    """(players, teams) ranked by PT, from the members (key, name, team) in the order
    they joined and every finished game."""
    order = {key: i for i, (key, _, _) in enumerate(members)}
    players = {key: Line(key, name, team) for key, name, team in members}
    teams = {team: Line(team, team) for _, _, team in members if team is not None}
    for game in sorted(games, key=lambda g: (g.finished, g.table, g.player)):
        line = players.get(game.player)
        if line is not None:
            line.add(game)
            if line.team is not None:  # a team's line is its members' games together
                teams[line.team].add(game)

    def rank(line: Line) -> tuple[float, float, int]:
        average = line.average_place if line.average_place is not None else 99.0
        return (-line.pt, average, order.get(line.key, 0))

    return sorted(players.values(), key=rank), sorted(teams.values(), key=rank)


__all__ = [
    "TEAM_MODES",
    "Game",
    "LeagueError",
    "Line",
    "check_season",
    "check_start",
    "meetings_of",
    "open_tables",
    "plan_season",
    "standings",
]
