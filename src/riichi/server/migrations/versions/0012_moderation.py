"""Moderation: a suspended account, the moderation log and players' reports.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("suspended", sa.Float, nullable=True))
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("operator", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("act", sa.String(16), nullable=False),
        sa.Column("target", sa.String(80), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("reporter", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("reported", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("closed", sa.Float, nullable=True),
        sa.Column("closed_by", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.UniqueConstraint("reporter", "reported", "game"),
    )


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("moderation_log")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("suspended")
