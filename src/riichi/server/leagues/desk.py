"""League seasons on the server (003): a season made by an organiser, its members
(people who join, roster computers the organiser adds), its rounds seated from the
plan made at its start, and its standings in PT (`riichi.platform.leagues`).

Contract:

- Each league table's PT is written with its last action (the table kind's end
  plan, ``finishing``: a ``league_games`` row a seat, in the same transaction), so
  the standings are always the stored games added up; ``recompute`` rebuilds those
  rows from the tables' stored standings and gives the same standings.
- The runner (one process of a cluster) steps when a league table ends, and once a
  second in any case: a round whose tables are all over seats the next from the
  stored plan; a round seated in part before a stop is completed with the same
  tables; after the last round the season is over. Every step is one transaction
  or repeatable, so a restarted site carries on where it stopped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any

from riichi.bots import BOT_LABEL, ROSTER
from riichi.errors import excerpt
from riichi.platform import Pool
from riichi.platform.accounts import AccountError, check_title, skeleton
from riichi.platform.leagues import (
    MAX_MEMBERS,
    TEAM_MODES,
    LeagueError,
    check_season,
    check_start,
    meetings_of,
    open_tables,
    plan_season,
    standings,
)
from riichi.platform.tables import Row, TableKind, desk_seats
from riichi.rules import RuleSet
from riichi.server.clock import sleep_or_woken
from riichi.server.leagues.store import LeagueStore
from riichi.server.protocol import NotFound, ProtocolError
from riichi.server.registry import GameFinished, Registry
from riichi.server.seating import accounts_named, clock_of, fresh_table, rules_of
from riichi.server.storage import (
    Account,
)

log = logging.getLogger(__name__)
STEP_EVERY = 1.0  # seconds between the runner's looks, besides the tables' ends
NAME_LENGTH = 64
TEAM_LENGTH = 40
TEAM_SIZE = 8  # members of one team at most
MAX_COMPUTERS = 8  # roster computers an organiser adds at once
# What one account may make (an operator is not bounded by these): seasons not yet
# over, roster computers in one season (and never a season of computers alone, which
# would only load the site)
MAX_SEASONS = 3
MAX_SEASON_COMPUTERS = 12


class LeagueDesk:
    """What the API asks of seasons, and the runner that seats their rounds."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.store = LeagueStore(registry.store.engine)
        self._woken = asyncio.Event()
        self._lock = asyncio.Lock()

    async def create(self, account: Account, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ProtocolError("a season is a JSON object")
        unknown = set(body) - {
            "name", "rules", "length", "switches", "clock", "mode", "joining", "invite", "rounds",
            "play", "meetings",
        }  # fmt: skip
        if unknown:
            raise ProtocolError(f"unknown fields {excerpt(sorted(unknown))}")
        name = _title(body.get("name"), "a season's name", NAME_LENGTH)
        rules = rules_of({"rules": "league", **body})
        pool = clock_of(body, Pool.UNTIMED.value).value
        rounds = body.get("rounds", 4)
        mode, joining = body.get("mode", "individual"), body.get("joining", "open")
        play, meetings = body.get("play", "schedule"), body.get("meetings", 2)
        if not isinstance(play, str) or not isinstance(meetings, int) or isinstance(meetings, bool):
            raise ProtocolError("play is schedule or open; meetings a whole number")
        if not isinstance(rounds, int) or isinstance(rounds, bool):
            raise ProtocolError(f"rounds is a whole number, got {excerpt(rounds)}")
        if not isinstance(mode, str) or not isinstance(joining, str):
            raise ProtocolError("mode and joining are words")
        try:
            check_season(
                mode, joining, rounds if play == "schedule" else 1, rules.players, play, meetings
            )
        except LeagueError as exc:
            raise ProtocolError(str(exc)) from None
        invited: list[int] = []
        if joining == "invitation":
            names = body.get("invite") or []
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise ProtocolError("invite is a list of account names")
            found = await accounts_named(self.registry.store, names[:MAX_MEMBERS])
            invited = [account.id, *found.values()]
        organised = await asyncio.to_thread(self.store.organised, account.id)
        if organised >= MAX_SEASONS and not await self._operator(account):
            raise ProtocolError(
                f"you organise {organised} seasons that have not ended; the limit is {MAX_SEASONS}"
            )
        league_id = secrets.token_hex(6)
        row = {
            "id": league_id,
            "name": name,
            "organiser": account.id,
            "rules": json.dumps(rules.to_dict()),
            "pool": pool,
            "mode": mode,
            "joining": joining,
            "invited": json.dumps(invited) if joining == "invitation" else None,
            "rounds": rounds if play == "schedule" else 0,
            "round": 0,
            "status": "open",
            "play": play,
            "meetings": meetings if play == "open" else 0,
            "created": self.registry.clock.now(),
        }
        await asyncio.to_thread(self.store.create, row)
        return await self.view(league_id)

    async def _operator(self, account: Account) -> bool:
        return await asyncio.to_thread(self.registry.store.accounts.is_operator, account.id)

    async def _season(self, league_id: str) -> dict[str, Any]:
        found = await asyncio.to_thread(self.store.get, league_id[:16])
        if found is None:
            raise NotFound("no such league season")
        return found

    async def join(self, account: Account, league_id: str, body: Any) -> dict[str, Any]:
        season = await self._season(league_id)
        if season["joining"] == "invitation" and account.id not in json.loads(season["invited"]):
            raise ProtocolError("this season is by invitation")
        team = await self._team(season, body)
        await self._add(season["id"], f"account:{account.id}", account.name, team)
        return await self.view(season["id"])

    async def _team(self, season: dict[str, Any], body: Any, joining: int = 1) -> str | None:
        """The team a member joins: its name as given, or the existing team's it looks
        like (compared by skeleton, so "Alpha" and "Аlpha" with a Cyrillic А are one
        team, never two that read alike)."""
        team = body.get("team") if isinstance(body, dict) else None
        if season["mode"] not in TEAM_MODES:
            return None
        if team is None:
            raise ProtocolError(f"a team season: name your team (1 to {TEAM_LENGTH} characters)")
        team = _title(team, "a team's name", TEAM_LENGTH)
        listed = await asyncio.to_thread(self.store.members, season["id"])
        same = [t for _, _, t in listed if t is not None and skeleton(t) == skeleton(team)]
        if len(same) + joining > TEAM_SIZE:
            raise ProtocolError(f"the team {same[0]} has {TEAM_SIZE} members, the most a team has")
        return same[0] if same else team

    async def _add(self, league_id: str, player: str, name: str, team: str | None) -> None:
        try:
            await asyncio.to_thread(self.store.join, league_id, player, name, team)
        except LeagueError as exc:
            raise ProtocolError(str(exc)) from None

    async def add_computers(self, account: Account, league_id: str, body: Any) -> dict[str, Any]:
        """The organiser adds roster computers as members (a team's, in a team season)."""
        season = await self._season(league_id)
        if season["organiser"] != account.id:
            raise ProtocolError("only the season's organiser adds roster computers")
        count = body.get("count") if isinstance(body, dict) else None
        if not isinstance(count, int) or isinstance(count, bool) or not 0 < count <= MAX_COMPUTERS:
            raise ProtocolError(f"count is a whole number from 1 to {MAX_COMPUTERS}")
        team = await self._team(season, body, count)
        listed = await asyncio.to_thread(self.store.members, season["id"])
        have = len(listed)
        computers = sum(1 for key, _, _ in listed if not key.startswith("account:"))
        if computers + count > MAX_SEASON_COMPUTERS and not await self._operator(account):
            raise ProtocolError(
                f"a season has at most {MAX_SEASON_COMPUTERS} roster computers; "
                f"this one has {computers}"
            )
        for n in range(count):
            label = f"{ROSTER} {have + n + 1} {BOT_LABEL}"
            await self._add(season["id"], f"computer:{season['id']}:{have + n + 1}", label, team)
        return await self.view(season["id"])

    async def start(self, account: Account, league_id: str) -> dict[str, Any]:
        season = await self._season(league_id)
        if season["organiser"] != account.id:
            raise ProtocolError("only the season's organiser starts it")
        rules = RuleSet.from_dict(json.loads(season["rules"]))
        listed = await asyncio.to_thread(self.store.members, season["id"])
        members = {k: team for k, _, team in listed}
        if season["play"] == "open":  # no plan: tables as members gather
            if len(members) < rules.players:
                raise ProtocolError(f"open play needs {rules.players} members at least")
            await asyncio.to_thread(self.store.start, season["id"], [])
            return await self.view(season["id"])
        try:
            check_start(members, season["mode"], rules.players)
        except LeagueError as exc:
            raise ProtocolError(str(exc)) from None
        if not any(k.startswith("account:") for k in members) and not await self._operator(account):
            raise ProtocolError("a season of roster computers alone is an operator's to start")
        # in the planner's worker: a large season's plan takes seconds of CPU
        plan = await self.registry.planner.plan(
            f"account:{account.id}",
            plan_season,
            members,
            season["rounds"],
            rules.players,
            season["id"],
            season["mode"],
        )
        if await asyncio.to_thread(self.store.start, season["id"], plan):
            self._woken.set()
            await self.step()
        return await self.view(season["id"])

    async def wait(self, account: Account, league_id: str, waiting: bool) -> dict[str, Any]:
        """Open play: wait for a table (``waiting``), or stop waiting."""
        season = await self._season(league_id)
        now = self.registry.clock.now()
        player = f"account:{account.id}"
        try:
            await asyncio.to_thread(self.store.wait, season["id"], player, now, waiting)
        except LeagueError as exc:
            raise ProtocolError(str(exc)) from None
        await self.step()
        return await self.view(season["id"])

    async def end(self, account: Account, league_id: str) -> dict[str, Any]:
        """The organiser ends a season of open play (tables in play still count)."""
        season = await self._season(league_id)
        if season["organiser"] != account.id or season["play"] != "open":
            raise ProtocolError("only the organiser ends a season of open play")
        await asyncio.to_thread(self.store.end, season["id"])
        return await self.view(season["id"])

    async def page(self) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.page)
        return [
            {
                "id": r["id"],
                "name": r["name"],
                "status": r["status"],
                "mode": r["mode"],
                "rounds": r["rounds"],
                "round": r["round"],
            }
            for r in rows
        ]

    async def view(self, league_id: str) -> dict[str, Any]:
        """A season's page: its rules and state, members, standings by player and team
        with each one's PT over the season, and every table with its link."""
        season = await self._season(league_id)
        members, games, seated, waiting = await asyncio.gather(
            asyncio.to_thread(self.store.members, season["id"]),
            asyncio.to_thread(self.store.games, season["id"]),
            asyncio.to_thread(self.store.tables, season["id"]),
            asyncio.to_thread(self.store.waiting, season["id"]),
        )
        players, teams = standings(members, games)
        rules = RuleSet.from_dict(json.loads(season["rules"]))
        names = {k: n for k, n, _ in members}
        return {
            "id": season["id"],
            "name": season["name"],
            "organiser": season["organiser"],
            "rules": rules.name,
            "length": rules.length.value,
            "clock": season["pool"],
            "mode": season["mode"],
            "joining": season["joining"],
            "rounds": season["rounds"],
            "round": season["round"],
            "status": season["status"],
            "play": season["play"],
            "meetings": season["meetings"],
            "waiting": [names.get(k, k) for k in waiting],
            "members": [{"key": k, "name": n, "team": t} for k, n, t in members],
            "standings": [line.to_dict() for line in players],
            "teams": [line.to_dict() for line in teams],
            "tables": [
                {**t, "names": [names.get(p, "") if p else None for p in t["players"]]}
                for t in seated
            ],
        }

    # ----------------------------------------------------------- the runner

    async def run(self) -> None:
        self.registry.bus.subscribe(self._on_finished)
        while True:
            try:
                async with self._lock:
                    if await self.registry.leads("leagues"):
                        await self._step()
            except Exception:
                log.exception("leagues: a step failed")
            clock = self.registry.clock
            await sleep_or_woken(clock, clock.now() + STEP_EVERY, self._woken)

    async def _on_finished(self, event: GameFinished) -> None:
        if event.kind == TableKind.LEAGUE.value:
            self._woken.set()

    async def step(self) -> None:
        """Take every step that is due (the runner's body, callable from tests)."""
        async with self._lock:
            await self._step()

    async def _step(self) -> None:
        for season in await asyncio.to_thread(self.store.running):
            await self._advance(season)

    async def _advance(self, season: dict[str, Any]) -> None:
        if season["play"] == "open":
            await self._gather(season)
            return
        plan = json.loads(season["plan"])
        round_ = season["round"]
        seated = await asyncio.to_thread(self.store.tables, season["id"])
        current = [t for t in seated if t["round"] == round_]
        if len(current) < len(plan[round_ - 1]):
            await self._seat(season, round_, plan[round_ - 1], {t["number"] for t in current})
            return
        if not all(t["over"] for t in current):
            return
        last = round_ >= season["rounds"]
        moved = await asyncio.to_thread(self.store.advance, season["id"], round_, last)
        if moved and not last:
            await self._seat(season, round_ + 1, plan[round_], set())

    async def _gather(self, season: dict[str, Any]) -> None:
        """Open play: the people waiting, with roster computers where a table lacks
        people, at tables where no pair has met the season's limit."""
        rules = RuleSet.from_dict(json.loads(season["rules"]))
        seated = await asyncio.to_thread(self.store.tables, season["id"])
        playing = {p for t in seated if not t["over"] for p in t["players"] if p}
        listed = await asyncio.to_thread(self.store.waiting, season["id"])
        waiting = [p for p in listed if p not in playing]
        members = await asyncio.to_thread(self.store.members, season["id"])
        ready = [k for k, _, _ in members if not k.startswith("account:") and k not in playing]
        met = meetings_of([t["players"] for t in seated])
        groups = open_tables(waiting, ready, met, rules.players, season["meetings"])
        for n, group in enumerate(groups, start=len(seated) + 1):
            table: list[str | None] = list(group)
            await self._seat(season, 1, [table], set(), first=n)
            await asyncio.to_thread(self.store.seated_from_waiting, season["id"], group)

    async def _seat(
        self,
        season: dict[str, Any],
        round_: int,
        tables_: list[list[str | None]],
        have: set[int],
        first: int = 1,
    ) -> None:
        rules = RuleSet.from_dict(json.loads(season["rules"]))
        names = {k: n for k, n, _ in await asyncio.to_thread(self.store.members, season["id"])}
        for number, seated in enumerate(tables_, start=first):
            if number in have:
                continue
            if self.registry.live >= self.registry.limits.live_tables:
                return  # the site is full: the runner seats the rest when tables end
            seats = desk_seats(seated, names)
            if all(s.is_bot for s in seats) and self.registry.computer_tables() >= (
                self.registry.limits.computer_tables
            ):
                continue  # enough computers play alone: this table waits for one to end
            row = {
                "league_id": season["id"],
                "round": round_,
                "number": number,
                "players": json.dumps(seated),
            }
            new = fresh_table(
                rules,
                seats,
                TableKind.LEAGUE,
                self.registry.clock.now(),
                pool=season["pool"],
                watchable=True,
                rows=[Row("league_tables", row)],
            )
            await self.registry.open_table(new, rules, seats)


def _title(text: Any, what: str, longest: int) -> str:
    try:
        return check_title(text, what, longest)
    except AccountError as exc:
        raise ProtocolError(str(exc)) from None


__all__ = ["LeagueDesk", "LeagueStore"]
