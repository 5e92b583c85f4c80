"""Durable storage: every table is (rules, seed, seats) plus its ordered action log.

SQLAlchemy Core, so the same code runs on the default SQLite file and on
PostgreSQL by URL. An action is committed before it is acknowledged; a
restarted server rebuilds each live table by replaying its log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from riichi.errors import RiichiError

DEFAULT_URL = "sqlite:///riichi.db"

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", Text, nullable=False),  # RuleSet JSON
    Column("seed", String(64), nullable=False),
    Column("seats", Text, nullable=False),  # JSON list of SeatSpec dicts
    Column("status", String(8), nullable=False),  # "live" or "over"
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Column("standings", Text),  # JSON, once over
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


class Store:
    """The database behind the server; synchronous calls that commit before returning."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(
        self,
        table_id: str,
        rules: dict[str, Any],
        seed: str,
        seats: list[dict[str, Any]],
        created: float,
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables).values(
                    id=table_id,
                    rules=json.dumps(rules),
                    seed=seed,
                    seats=json.dumps(seats),
                    status="live",
                    created=created,
                )
            )

    def append_action(self, table_id: str, seq: int, seat: int, action: dict[str, Any]) -> None:
        """Commit action number ``seq``; a duplicate ``seq`` is refused, never overwritten."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(actions).values(
                        table_id=table_id, seq=seq, seat=seat, action=json.dumps(action)
                    )
                )
        except IntegrityError:
            raise StorageError(f"table {table_id}: action {seq} is already stored") from None

    def finish(self, table_id: str, finished: float, standings: list[dict[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(status="over", finished=finished, standings=json.dumps(standings))
            )

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

    def list_tables(self, status: str | None = None) -> list[StoredTable]:
        query = select(tables).order_by(tables.c.created.desc())
        if status is not None:
            query = query.where(tables.c.status == status)
        with self.engine.connect() as conn:
            return [_stored(row) for row in conn.execute(query).all()]


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
    )
