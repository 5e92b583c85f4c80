"""Leagues' storage: a season's row, its members and teams, who waits to be seated,
its tables and rounds, and its games' points, each step one transaction."""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from riichi.platform.leagues import (
    MAX_MEMBERS,
    Game,
    LeagueError,
)
from riichi.server.leagues.schema import (
    league_games,
    league_members,
    league_tables,
    league_waiting,
    leagues,
)
from riichi.server.storage import tables

log = logging.getLogger(__name__)


class LeagueStore:
    """The seasons, their members, tables and games, in the site's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, row: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(leagues).values(**row))

    def get(self, league_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(leagues).where(leagues.c.id == league_id)).first()
        return None if row is None else dict(row._mapping)

    def organised(self, account_id: int) -> int:
        """The seasons an account organises that have not ended."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(leagues)
                    .where(leagues.c.organiser == account_id, leagues.c.status != "over")
                ).scalar_one()
            )

    def page(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(leagues).order_by(leagues.c.created.desc()).limit(100))
            return [dict(r._mapping) for r in rows]

    def members(self, league_id: str) -> list[tuple[str, str, str | None]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(league_members)
                .where(league_members.c.league_id == league_id)
                .order_by(league_members.c.seq)
            ).all()
        return [(r.player, r.name, r.team) for r in rows]

    def join(self, league_id: str, player: str, name: str, team: str | None) -> None:
        """Add a member while the season is open (the league's row written first: the
        status and the count are read under its lock)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(leagues)
                .where(leagues.c.id == league_id, leagues.c.status == "open")
                .values(status="open")
            )
            if done.rowcount != 1:
                raise LeagueError("this season has started: no one joins now")
            count = conn.execute(
                select(func.count()).where(league_members.c.league_id == league_id)
            ).scalar_one()
            if count >= MAX_MEMBERS:
                raise LeagueError(f"a season has {MAX_MEMBERS} members at most")
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(league_members).values(
                            league_id=league_id, player=player, name=name, team=team, seq=count
                        )
                    )
            except IntegrityError:
                raise LeagueError(f"{name} is a member already") from None

    def start(self, league_id: str, plan: list[list[list[str | None]]]) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(leagues)
                .where(leagues.c.id == league_id, leagues.c.status == "open")
                .values(status="running", round=1, plan=json.dumps(plan))
            )
            return done.rowcount == 1

    def wait(self, league_id: str, player: str, now: float, waiting: bool) -> None:
        """A person of a running open-play season waits for a table, or stops waiting."""
        with self.engine.begin() as conn:
            if not waiting:
                conn.execute(
                    delete(league_waiting).where(
                        league_waiting.c.league_id == league_id, league_waiting.c.player == player
                    )
                )
                return
            done = conn.execute(
                update(leagues)
                .where(
                    leagues.c.id == league_id,
                    leagues.c.status == "running",
                    leagues.c.play == "open",
                )
                .values(status="running")
            )
            if done.rowcount != 1:
                raise LeagueError("tables gather only in a running season of open play")
            member = conn.execute(
                select(league_members.c.player).where(
                    league_members.c.league_id == league_id, league_members.c.player == player
                )
            ).first()
            if member is None:
                raise LeagueError("only the season's members play its tables")
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(league_waiting).values(league_id=league_id, player=player, since=now)
                    )
            except IntegrityError:
                raise LeagueError("you wait for a table already") from None

    def waiting(self, league_id: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(league_waiting.c.player)
                .where(league_waiting.c.league_id == league_id)
                .order_by(league_waiting.c.since, league_waiting.c.player)
            ).scalars()
            return [str(r) for r in rows]

    def seated_from_waiting(self, league_id: str, players: list[str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                delete(league_waiting).where(
                    league_waiting.c.league_id == league_id,
                    league_waiting.c.player.in_(players),
                )
            )

    def end(self, league_id: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(leagues)
                .where(leagues.c.id == league_id, leagues.c.status == "running")
                .values(status="over")
            )
            conn.execute(delete(league_waiting).where(league_waiting.c.league_id == league_id))
            return done.rowcount == 1

    def running(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(leagues).where(leagues.c.status == "running"))
            return [dict(r._mapping) for r in rows]

    def tables(self, league_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    league_tables.c.round,
                    league_tables.c.number,
                    league_tables.c.table_id,
                    league_tables.c.players,
                    tables.c.status,
                )
                .select_from(league_tables.join(tables, tables.c.id == league_tables.c.table_id))
                .where(league_tables.c.league_id == league_id)
                .order_by(league_tables.c.round, league_tables.c.number)
            ).all()
        return [
            {
                "round": r.round,
                "number": r.number,
                "table": r.table_id,
                "players": json.loads(r.players),
                "over": r.status != "live",
            }
            for r in rows
        ]

    def advance(self, league_id: str, round_: int, last: bool) -> bool:
        """Round ``round_`` is over: the next one is due, or (``last``) the season is
        over. False when another step came first."""
        values: dict[str, Any] = {"status": "over"} if last else {"round": round_ + 1}
        with self.engine.begin() as conn:
            done = conn.execute(
                update(leagues)
                .where(
                    leagues.c.id == league_id,
                    leagues.c.round == round_,
                    leagues.c.status == "running",
                )
                .values(**values)
            )
            return done.rowcount == 1

    def games(self, league_id: str) -> list[Game]:
        """Every finished game of the season, a row a member."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    league_tables.c.table_id,
                    league_tables.c.round,
                    league_tables.c.players,
                    league_games.c.seat,
                    league_games.c.place,
                    league_games.c.score,
                    league_games.c.pt,
                    league_games.c.finished,
                )
                .select_from(
                    league_games.join(
                        league_tables, league_tables.c.table_id == league_games.c.table_id
                    )
                )
                .where(league_tables.c.league_id == league_id)
            ).all()
        out = []
        for r in rows:
            player = json.loads(r.players)[r.seat]
            if player is not None:
                out.append(Game(player, r.table_id, r.round, r.place, r.score, r.pt, r.finished))
        return out

    def recompute(self) -> int:
        """Rebuild every league game's row from its table's stored standings, in one
        transaction; how many rows."""
        count = 0
        with self.engine.begin() as conn:
            conn.execute(delete(league_games))
            rows = conn.execute(
                select(tables.c.id, tables.c.standings, tables.c.finished)
                .select_from(tables.join(league_tables, league_tables.c.table_id == tables.c.id))
                .where(tables.c.status == "over")
            ).all()
            for row in rows:
                for x in json.loads(row.standings):
                    conn.execute(
                        insert(league_games).values(
                            table_id=row.id,
                            seat=x["seat"],
                            place=x["place"],
                            score=x["score"],
                            pt=x["points"],
                            finished=row.finished,
                        )
                    )
                    count += 1
        return count
