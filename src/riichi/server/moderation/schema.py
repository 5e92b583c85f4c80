"""Moderation's tables: the append-only log of every operator's act, and players'
reports (0012)."""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, Text, UniqueConstraint

from riichi.server.schema import metadata

moderation_log = Table(
    "moderation_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("operator", Integer, ForeignKey("accounts.id"), nullable=True),  # None: the CLI
    Column("act", String(16), nullable=False),
    Column("target", String(80), nullable=False),  # "account:ID" or "table:ID"
    Column("reason", Text, nullable=False),
    Column("detail", Text, nullable=False),  # JSON: what the act changed
)

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("reporter", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("reported", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("game", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("closed", Float, nullable=True),
    Column("closed_by", Integer, ForeignKey("accounts.id"), nullable=True),
    UniqueConstraint("reporter", "reported", "game"),
)
