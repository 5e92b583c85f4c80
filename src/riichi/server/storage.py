"""Durable storage: every table is (rules, seed, seats) plus its ordered action log.

SQLAlchemy Core, so the same code runs on the default SQLite file and on
PostgreSQL by URL; the schema is built and upgraded in place by Alembic
migrations (``migrations/``), so a database made by an older version keeps
working. An action is committed before it is acknowledged; a restarted
server rebuilds each live table by replaying its log.

``Store`` is synchronous. The server's writes go through ``Writer``: one
thread that commits whatever has queued up in a single transaction (a group
commit), so many tables share each disk sync and the event loop never waits
on the disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from riichi.errors import RiichiError

DEFAULT_URL = "sqlite:///riichi.db"
MIGRATIONS = Path(__file__).parent / "migrations"
BASELINE = "0001"  # the schema databases had before migrations existed

log = logging.getLogger(__name__)
metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", Text, nullable=False),  # RuleSet JSON
    Column("seed", String(64), nullable=False),  # secret until the match is over
    Column("seats", Text, nullable=False),  # JSON list of SeatSpec dicts (token hashes only)
    Column("status", String(8), nullable=False),  # "live" or "over"
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Column("standings", Text),  # JSON, once over
    Column("salt", String(32)),
    Column("commitment", String(64)),  # published at the start: hash of salt and seed
    Column("bot_seed", String(32)),  # the bots' own secret stream
    Column("seed_public", Boolean, nullable=False, default=False),  # a seed chosen at creation
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # Action.to_dict() JSON
)


class StorageError(RiichiError):
    """A write the log cannot take: a gap or a repeat in a table's sequence."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    rules: dict[str, Any]
    seed: str
    seats: list[dict[str, Any]]
    status: str
    created: float
    finished: float | None
    standings: list[dict[str, Any]] | None
    salt: str
    commitment: str
    bot_seed: str
    seed_public: bool


@dataclass(frozen=True, slots=True)
class NewTable:
    """Everything a table is created with."""

    id: str
    rules: dict[str, Any]
    seed: str
    salt: str
    commitment: str
    bot_seed: str
    seed_public: bool
    seats: list[dict[str, Any]]
    created: float


@dataclass(frozen=True, slots=True)
class ActionRow:
    """Action number ``seq`` of a table; ``standings`` when it ends the match."""

    table_id: str
    seq: int
    seat: int
    action: dict[str, Any]
    finished: float | None = None
    standings: list[dict[str, Any]] | None = None


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest version, in place."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        found = inspect(conn)
        if found.has_table("tables") and not found.has_table("alembic_version"):
            command.stamp(config, BASELINE)
        command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    # WAL lets readers run beside the writer; FULL keeps each commit durable.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    """The database behind the server; synchronous calls that commit before returning."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, new: NewTable) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables).values(
                    id=new.id,
                    rules=json.dumps(new.rules),
                    seed=new.seed,
                    salt=new.salt,
                    commitment=new.commitment,
                    bot_seed=new.bot_seed,
                    seed_public=new.seed_public,
                    seats=json.dumps(new.seats),
                    status="live",
                    created=new.created,
                )
            )

    def append_action(self, row: ActionRow) -> None:
        """Commit one action (and the match's end, if it ends it) in one transaction."""
        with self.engine.begin() as conn:
            _write(conn, row)

    def append_actions(self, rows: list[ActionRow]) -> list[Exception | None]:
        """Commit many actions in one transaction; if that fails, each on its own.

        Returns, per row, None when it is stored or the error that refused it,
        so one bad row never loses the others.
        """
        try:
            with self.engine.begin() as conn:
                for row in rows:
                    _write(conn, row)
            return [None] * len(rows)
        except Exception:
            if len(rows) == 1:
                raise
        results: list[Exception | None] = []
        for row in rows:
            try:
                self.append_action(row)
                results.append(None)
            except Exception as exc:  # handed to the row's own caller
                results.append(exc)
        return results

    def finish(self, table_id: str, finished: float, standings: list[dict[str, Any]]) -> None:
        """Mark a table over; for a log whose last action was stored without its end."""
        with self.engine.begin() as conn:
            _finish(conn, table_id, finished, standings)

    def load_actions(self, table_id: str) -> list[tuple[int, dict[str, Any]]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.seq, actions.c.seat, actions.c.action)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.seq)
            ).all()
        for expected, row in enumerate(rows):
            if row.seq != expected:
                raise StorageError(
                    f"table {table_id}: action log jumps from {expected} to {row.seq}"
                )
        return [(row.seat, json.loads(row.action)) for row in rows]

    def get_table(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if row is None else _stored(row)

    def list_tables(
        self, status: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[StoredTable]:
        """Tables newest first; ``limit`` and ``offset`` page through them."""
        query = select(tables).order_by(tables.c.created.desc(), tables.c.id)
        if status is not None:
            query = query.where(tables.c.status == status)
        query = query.offset(offset)
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [_stored(row) for row in conn.execute(query).all()]

    def count_tables(self, status: str | None = None) -> int:
        query = select(func.count()).select_from(tables)
        if status is not None:
            query = query.where(tables.c.status == status)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())


def _write(conn: Connection, row: ActionRow) -> None:
    try:
        conn.execute(
            insert(actions).values(
                table_id=row.table_id, seq=row.seq, seat=row.seat, action=json.dumps(row.action)
            )
        )
    except IntegrityError:
        raise StorageError(f"table {row.table_id}: action {row.seq} is already stored") from None
    if row.standings is not None:
        _finish(conn, row.table_id, row.finished or 0.0, row.standings)


def _finish(
    conn: Connection, table_id: str, finished: float, standings: list[dict[str, Any]]
) -> None:
    conn.execute(
        update(tables)
        .where(tables.c.id == table_id)
        .values(status="over", finished=finished, standings=json.dumps(standings))
    )


def _stored(row: Any) -> StoredTable:
    return StoredTable(
        id=row.id,
        rules=json.loads(row.rules),
        seed=row.seed,
        seats=json.loads(row.seats),
        status=row.status,
        created=row.created,
        finished=row.finished,
        standings=None if row.standings is None else json.loads(row.standings),
        salt=row.salt or "",
        commitment=row.commitment or "",
        bot_seed=row.bot_seed or "",
        seed_public=bool(row.seed_public),
    )


_Pending = tuple[ActionRow, Callable[[Exception | None], None]]


class Writer:
    """A thread that stores actions in group commits; ``await append(row)`` returns once
    ``row`` is durable, or raises what refused it."""

    MAX_GROUP = 512

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="riichi-writer", daemon=True)
        self._thread.start()
        self.groups = 0
        self.rows = 0

    async def append(self, row: ActionRow) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def done(error: Exception | None) -> None:
            loop.call_soon_threadsafe(_settle, future, error)

        self._queue.put((row, done))
        await future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            stop = False
            while len(group) < self.MAX_GROUP:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                group.append(item)
            try:
                results = self.store.append_actions([row for row, _ in group])
            except Exception as exc:
                log.exception("writer: a group of %d actions failed", len(group))
                results = [exc] * len(group)
            self.groups += 1
            self.rows += len(group)
            for (_, done), result in zip(group, results, strict=True):
                with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                    done(result)
            if stop:
                return


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
