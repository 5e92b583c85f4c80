"""Daily Wall's table: each account's attempt at a day's wall."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
)

from riichi.server.schema import metadata

daily_attempts = Table(
    "daily_attempts",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("started", Float, nullable=False),
    Column("hands", Text),  # JSON per hand, once finished
    Column("address", String(64)),  # hashed: one ranked attempt per address and day
    Column("device", String(64)),  # ... and per browser
)
