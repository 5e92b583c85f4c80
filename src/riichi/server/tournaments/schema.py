"""Tournaments' tables: tournaments, their entrants and their tables."""

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

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("organiser", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("rules", Text, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("bet", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("added", Integer, nullable=False),
    Column("payout", Text, nullable=False),  # JSON percentages by rank
    Column("pool", String(16), nullable=False),  # the tables' clock
    Column("closes", Float, nullable=False),  # registration closes; the first round starts
    Column("status", String(12), nullable=False),  # open, running, over, cancelled
    Column("round", Integer, nullable=False),  # the round in play (0 before the first)
    Column("seed", String(32), nullable=False),  # seating's random stream
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Column("standings", Text),  # JSON, once over
    Column("plan", Text),  # JSON seating of every round, stored once when it starts
)


entrants = Table(
    "entrants",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("seq", Integer, nullable=False),  # registration order: the last tie-break
    Column("name", String(64), nullable=False),
)


tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("players", Text, nullable=False),  # JSON: entrant or null by seat
)
