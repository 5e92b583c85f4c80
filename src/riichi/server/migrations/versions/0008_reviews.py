"""Game reviews: one row per (game, seat, reviewer version), the review packed; an
uploaded log's review is kept only when its owner asks, with the log.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game", sa.String(80), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("version", sa.String(40), primary_key=True),
        sa.Column("made", sa.Float, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("agreement", sa.Float, nullable=False),
        sa.Column("lost_per_hand", sa.Float, nullable=False),
        sa.Column("body", sa.LargeBinary, nullable=False),
        sa.Column("log", sa.LargeBinary, nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("reviews")
