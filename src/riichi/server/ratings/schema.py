"""Ratings' tables: players, their ratings and rating history, and each seat's figures
of each rated game, written with the match's last action.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
)

from riichi.server.schema import metadata

ratings = Table(
    "ratings",
    metadata,
    Column("player", String(64), primary_key=True),  # account:<id> or computer:<kind>:<seat>
    Column("name", String(64), nullable=False),
    Column("computer", Boolean, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("shown", Integer, nullable=False),
)


rating_history = Table(
    "rating_history",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),  # the order of application
    Column("player", String(64), nullable=False),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("finished", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Integer, nullable=False),
)


STAT_COLUMNS = (
    "hands",
    "wins",
    "deal_ins",
    "riichis",
    "calls",
    "draws",
    "tenpai_draws",
    "win_points",
    "deal_in_points",
)


game_stats = Table(
    "game_stats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(64), nullable=False),  # as in ratings, or guest
    Column("rated", Boolean, nullable=False),
    Column("finished", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("points", Float, nullable=False),
    *(Column(name, Integer, nullable=False) for name in STAT_COLUMNS),
)
