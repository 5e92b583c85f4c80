"""Leagues' tables: seasons, their members, who waits for a table, each round's
tables and each seat's points, written with the table's last action.
"""

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

# League seasons (003, riichi.server.leagues.desk): members (people or roster computers,
# in teams or alone), the tables of each round, and each seat's PT, written with the
# table's last action
leagues = Table(
    "leagues",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("organiser", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("rules", Text, nullable=False),  # RuleSet JSON
    Column("pool", String(16), nullable=False),
    Column("mode", String(12), nullable=False),  # individual or team
    Column("joining", String(12), nullable=False),  # open or invitation
    Column("invited", Text),  # JSON list of account ids, by invitation
    Column("rounds", Integer, nullable=False),
    Column("round", Integer, nullable=False, default=0),
    Column("status", String(12), nullable=False),  # open, running, over
    Column("play", String(12), nullable=False, default="schedule"),  # or open
    Column("meetings", Integer, nullable=False, default=0),  # open play: each pair's most
    Column("plan", Text),  # JSON: every round's tables of member keys, made at the start
    Column("created", Float, nullable=False),
)


league_members = Table(
    "league_members",
    metadata,
    Column("league_id", String(16), ForeignKey("leagues.id"), primary_key=True),
    Column("player", String(64), primary_key=True),  # account:<id> or computer:<name>
    Column("name", String(64), nullable=False),
    Column("team", String(40)),
    Column("seq", Integer, nullable=False),
)


# open play: the people of a season who wait for a table, oldest first
league_waiting = Table(
    "league_waiting",
    metadata,
    Column("league_id", String(16), ForeignKey("leagues.id"), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("since", Float, nullable=False),
)


league_tables = Table(
    "league_tables",
    metadata,
    Column("league_id", String(16), ForeignKey("leagues.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("players", Text, nullable=False),  # JSON: member key by seat
)


league_games = Table(
    "league_games",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("place", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("pt", Float, nullable=False),
    Column("finished", Float, nullable=False),
)
