"""Ratings and their history, every seat's figures per game, watchable tables.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(64), primary_key=True),  # account:<id> or computer:<kind>
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("computer", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("shown", sa.Integer, nullable=False),
    )
    op.create_index("ratings_shown", "ratings", ["shown"])
    op.create_table(
        "rating_history",
        sa.Column("seq", sa.Integer, primary_key=True),  # the order ratings were applied in
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("shown", sa.Integer, nullable=False),
    )
    op.create_index("rating_history_player", "rating_history", ["player"])
    op.create_table(
        "game_stats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("deal_ins", sa.Integer, nullable=False),
        sa.Column("riichis", sa.Integer, nullable=False),
        sa.Column("calls", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("tenpai_draws", sa.Integer, nullable=False),
        sa.Column("win_points", sa.Integer, nullable=False),
        sa.Column("deal_in_points", sa.Integer, nullable=False),
    )
    op.create_index("game_stats_player", "game_stats", ["player"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("watchable", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("watchable")
    op.drop_index("game_stats_player", "game_stats")
    op.drop_table("game_stats")
    op.drop_index("rating_history_player", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ratings_shown", "ratings")
    op.drop_table("ratings")
