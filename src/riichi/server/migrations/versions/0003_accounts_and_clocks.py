"""Accounts and sessions, table kinds and clocks, the rated queue.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),  # sha256 of the session token
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("sessions_account", "sessions", ["account_id"])
    op.create_table(
        "settings",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "queue",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("players_account", "players", ["account_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="private"))
        batch.add_column(sa.Column("pool", sa.String(16), nullable=False, server_default="untimed"))
        batch.add_column(sa.Column("clock", sa.Text))  # ClockState JSON, for timed tables
    with op.batch_alter_table("actions") as batch:
        batch.add_column(
            sa.Column("timeout", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("timeout")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("clock")
        batch.drop_column("pool")
        batch.drop_column("kind")
    op.drop_index("players_account", "players")
    op.drop_table("players")
    op.drop_table("queue")
    op.drop_table("settings")
    op.drop_index("sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
