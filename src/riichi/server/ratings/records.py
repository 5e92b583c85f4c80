"""What the site shows about players: the leaderboard, a player's rating history, figures
and games, and the recomputation of every rating from the stored matches.

The rows are written by the storage layer when a match ends (``storage._finish``);
this module only reads them, except ``recompute``, which rebuilds the ratings
in one transaction, and ``void_rated``, which takes a game out of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, case, delete, func, or_, select, update
from sqlalchemy.engine import Connection, Engine

from riichi.game.stats import Totals
from riichi.platform.integrity import SuspiciousPair, suspicious_pairs
from riichi.platform.ratings import PROVISIONAL_GAMES
from riichi.server.ratings.match_end import rate_match
from riichi.server.ratings.schema import STAT_COLUMNS, game_stats, rating_history, ratings
from riichi.server.storage import StorageError, sightings, tables


@dataclass(frozen=True, slots=True)
class Standing:
    """A leaderboard row."""

    rank: int
    player: str
    name: str
    computer: bool
    rating: int
    games: int
    provisional: bool
    average_place: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "computer": self.computer,
            "rating": self.rating,
            "games": self.games,
            "provisional": self.provisional,
            "average_place": self.average_place,
        }


class RecordStore:
    """Ratings, their history and every seat's figures per game: the same database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def leaderboard(self, limit: int, offset: int) -> tuple[list[Standing], int]:
        """Established players first, then provisional ones, each by rating."""
        places = (
            select(
                game_stats.c.player,
                func.avg(game_stats.c.place).label("average_place"),
            )
            .where(game_stats.c.rated)
            .group_by(game_stats.c.player)
            .subquery()
        )
        established = case((ratings.c.games >= PROVISIONAL_GAMES, 0), else_=1)
        query = (
            select(ratings, places.c.average_place)
            .select_from(ratings.outerjoin(places, places.c.player == ratings.c.player))
            .order_by(established, ratings.c.shown.desc(), ratings.c.games.desc(), ratings.c.player)
            .offset(offset)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            total = int(conn.execute(select(func.count()).select_from(ratings)).scalar_one())
        return [
            Standing(
                rank=offset + i + 1,
                player=row.player,
                name=row.name,
                computer=bool(row.computer),
                rating=row.shown,
                games=row.games,
                provisional=row.games < PROVISIONAL_GAMES,
                average_place=None if row.average_place is None else float(row.average_place),
            )
            for i, row in enumerate(rows)
        ], total

    def rating(self, player: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(ratings).where(ratings.c.player == player)).first()
        if row is None:
            return None
        return {
            "rating": row.shown,
            "mu": row.mu,
            "sigma": row.sigma,
            "games": row.games,
            "provisional": row.games < PROVISIONAL_GAMES,
            "computer": bool(row.computer),
            "name": row.name,
        }

    def history(self, player: str) -> list[dict[str, Any]]:
        """Every rated match of ``player`` in order: when, where it placed, the rating after."""
        query = (
            select(rating_history)
            .where(rating_history.c.player == player)
            .order_by(rating_history.c.seq)
        )
        with self.engine.connect() as conn:
            return [
                {
                    "table": row.table_id,
                    "finished": row.finished,
                    "place": row.place,
                    "rating": row.shown,
                }
                for row in conn.execute(query).all()
            ]

    def totals(self, player: str, now: float | None = None) -> dict[str, Totals]:
        """The player's figures summed over its rated games and over all of them (with
        ``now``, only the games that may be shown then: not today's Daily Wall)."""
        sums = [func.sum(game_stats.c[name]).label(name) for name in STAT_COLUMNS]
        query = (
            select(
                game_stats.c.rated,
                game_stats.c.place,
                func.count().label("games"),
                func.sum(game_stats.c.score).label("score"),
                *sums,
            )
            .select_from(game_stats.join(tables, tables.c.id == game_stats.c.table_id))
            .where(game_stats.c.player == player, *_shown(now))
            .group_by(game_stats.c.rated, game_stats.c.place)
        )
        out = {"rated": Totals(), "all": Totals()}
        with self.engine.connect() as conn:
            for row in conn.execute(query).all():
                figures = {name: int(getattr(row, name)) for name in STAT_COLUMNS}
                for key in ("all", "rated") if row.rated else ("all",):
                    out[key].add_games(row.place, int(row.games), int(row.score), figures)
        return out

    def games(
        self, player: str, limit: int, offset: int, now: float | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        """The player's finished games, newest first (with ``now``, those that may be
        shown then)."""
        query = (
            select(
                game_stats.c.table_id,
                game_stats.c.seat,
                game_stats.c.rated,
                game_stats.c.finished,
                game_stats.c.place,
                game_stats.c.score,
                tables.c.kind,
                tables.c.rules,
            )
            .select_from(game_stats.join(tables, tables.c.id == game_stats.c.table_id))
            .where(game_stats.c.player == player, *_shown(now))
            .order_by(game_stats.c.finished.desc(), game_stats.c.table_id)
            .offset(offset)
            .limit(limit)
        )
        count = (
            select(func.count())
            .select_from(game_stats.join(tables, tables.c.id == game_stats.c.table_id))
            .where(game_stats.c.player == player, *_shown(now))
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            total = int(conn.execute(count).scalar_one())
        return [
            {
                "table": row.table_id,
                "seat": row.seat,
                "rated": bool(row.rated),
                "kind": row.kind,
                "finished": row.finished,
                "place": row.place,
                "score": row.score,
            }
            for row in rows
        ], total

    def suspicious_pairs(self) -> list[SuspiciousPair]:
        """Pairs of accounts whose rated games together look arranged
        (``riichi.platform.integrity``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(game_stats.c.table_id, game_stats.c.player, game_stats.c.place).where(
                    game_stats.c.rated, game_stats.c.player.like("account:%")
                )
            ).all()
            seen = conn.execute(select(sightings.c.account_id, sightings.c.address)).all()
        games: dict[str, dict[str, int]] = {}
        for row in rows:
            games.setdefault(row.table_id, {})[row.player] = row.place
        addresses: dict[str, set[str]] = {}
        for sighting in seen:
            addresses.setdefault(f"account:{sighting.account_id}", set()).add(sighting.address)
        return suspicious_pairs(list(games.values()), addresses)

    def recompute(self) -> int:
        """Rebuild every rating from the stored rated matches, in the order they were
        first applied (matches never applied: by when they finished). Returns how many
        matches were rated; the numbers are those the live updates gave."""
        with self.engine.begin() as conn:
            return rebuild(conn)

    def void_rated(self, conn: Connection, table_id: str) -> int:
        """Take a rated game out of the ratings in ``conn``'s transaction: its seats'
        figures are no longer rated and every rating is rebuilt from the other games
        (as ``recompute`` would). Returns the seats it took out."""
        done = conn.execute(
            update(game_stats)
            .where(game_stats.c.table_id == table_id, game_stats.c.rated)
            .values(rated=False)
        )
        if done.rowcount == 0:
            raise StorageError(f"table {table_id}: not a rated game, or voided already")
        rebuild(conn)
        return int(done.rowcount)

    def rename(self, conn: Connection, player: str, name: str) -> None:
        """The name the leaderboard shows for ``player`` (an account renamed)."""
        conn.execute(update(ratings).where(ratings.c.player == player).values(name=name))


def rebuild(conn: Connection) -> int:
    """Every rating rebuilt from the rated matches stored (``RecordStore.recompute``)."""
    first_applied = (
        select(rating_history.c.table_id, func.min(rating_history.c.seq).label("seq"))
        .group_by(rating_history.c.table_id)
        .subquery()
    )
    order = func.coalesce(first_applied.c.seq, 2**31 - 1).cast(Integer)
    rated = (
        select(game_stats.c.table_id, game_stats.c.finished, order.label("applied"))
        .select_from(
            game_stats.outerjoin(first_applied, first_applied.c.table_id == game_stats.c.table_id)
        )
        .where(game_stats.c.rated)
        .distinct()
        .order_by("applied", game_stats.c.finished, game_stats.c.table_id)
    )
    matches = conn.execute(rated).all()
    seats = conn.execute(
        select(game_stats.c.table_id, game_stats.c.seat, game_stats.c.player)
        .add_columns(game_stats.c.place)
        .where(game_stats.c.rated)
        .order_by(game_stats.c.table_id, game_stats.c.seat)
    ).all()
    names = {row.player: row.name for row in conn.execute(select(ratings)).all()}
    by_table: dict[str, list[tuple[str, str, int]]] = {}
    for row in seats:
        by_table.setdefault(row.table_id, []).append(
            (row.player, names.get(row.player, row.player), row.place)
        )
    conn.execute(delete(rating_history))
    conn.execute(delete(ratings))
    for match in matches:
        rate_match(conn, match.table_id, match.finished, by_table[match.table_id])
    return len(matches)


def _shown(now: float | None) -> tuple[Any, ...]:
    """The condition that a table's game may be shown at ``now`` (none without it): a
    Daily Wall attempt only once its day is over everywhere."""
    if now is None:
        return ()
    return (or_(tables.c.reveal.is_(None), tables.c.reveal <= now),)
