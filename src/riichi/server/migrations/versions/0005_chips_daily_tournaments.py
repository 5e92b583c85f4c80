"""The chip ledger (with every existing account given its starting chips), bets on
tables, Daily Wall attempts, tournaments with their entrants and tables.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

START_CHIPS = 10_000  # riichi.platform.chips.START_CHIPS when this was written


def upgrade() -> None:
    ledger = op.create_table(
        "ledger",
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("event", sa.String(64), nullable=False),  # what moved the chips
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.CheckConstraint("amount > 0", name="ledger_positive"),
        sa.CheckConstraint("source <> target", name="ledger_two_accounts"),
    )
    op.create_index("ledger_source", "ledger", ["source"])
    op.create_index("ledger_target", "ledger", ["target"])
    op.create_index("ledger_event", "ledger", ["event"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("bet", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("reveal", sa.Float))
    op.create_table(
        "daily_attempts",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("hands", sa.Text),  # JSON per hand, once finished
        sa.UniqueConstraint("table_id", name="daily_attempts_table"),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("organiser", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("bet", sa.Integer, nullable=False),
        sa.Column("fee", sa.Integer, nullable=False),
        sa.Column("added", sa.Integer, nullable=False),
        sa.Column("payout", sa.Text, nullable=False),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("closes", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
        sa.Column("standings", sa.Text),
    )
    op.create_table(
        "entrants",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.UniqueConstraint("tournament_id", "seq", name="entrants_order"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("players", sa.Text, nullable=False),  # JSON: entrant or null by seat
        sa.UniqueConstraint("table_id", name="tournament_tables_table"),
    )
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("created", sa.Float))
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.created)).all()
    if rows:
        op.bulk_insert(
            ledger,
            [
                {
                    "event": f"account:{row.id}",
                    "source": "bank",
                    "target": f"account:{row.id}",
                    "amount": START_CHIPS,
                    "created": row.created,
                }
                for row in rows
            ],
        )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("entrants")
    op.drop_table("tournaments")
    op.drop_table("daily_attempts")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("reveal")
        batch.drop_column("bet")
    op.drop_index("ledger_event", "ledger")
    op.drop_index("ledger_target", "ledger")
    op.drop_index("ledger_source", "ledger")
    op.drop_table("ledger")
