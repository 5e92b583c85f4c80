"""Review's table: the reviews kept, by game, seat and reviewer."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    Integer,
    LargeBinary,
    String,
    Table,
)

from riichi.server.schema import metadata

reviews = Table(
    "reviews",
    metadata,
    # a finished game's id, or "log-" and the digest of an uploaded log that was kept
    Column("game", String(80), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", String(40), primary_key=True),  # the reviewer's: a new one reviews anew
    Column("made", Float, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("agreement", Float, nullable=False),  # within the best value
    Column("top_choice", Float, nullable=True),  # the first choice played (0011 on)
    Column("lost_per_hand", Float, nullable=False),
    Column("body", LargeBinary, nullable=False),  # the review as zlib-packed JSON
    Column("log", LargeBinary, nullable=True),  # an uploaded log kept, packed the same way
    Column("owner", String(64), nullable=True),  # who kept it
)
