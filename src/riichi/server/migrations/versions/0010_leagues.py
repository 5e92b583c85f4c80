"""League seasons: members, the tables of each round (or of open play, and who waits
for one), each seat's PT.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("organiser", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("mode", sa.String(12), nullable=False),
        sa.Column("joining", sa.String(12), nullable=False),
        sa.Column("invited", sa.Text),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("play", sa.String(12), nullable=False, server_default="schedule"),
        sa.Column("meetings", sa.Integer, nullable=False, server_default="0"),
        sa.Column("plan", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "league_members",
        sa.Column("league_id", sa.String(16), sa.ForeignKey("leagues.id"), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("team", sa.String(40)),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    op.create_table(
        "league_waiting",
        sa.Column("league_id", sa.String(16), sa.ForeignKey("leagues.id"), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_table(
        "league_tables",
        sa.Column("league_id", sa.String(16), sa.ForeignKey("leagues.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False, unique=True
        ),
        sa.Column("players", sa.Text, nullable=False),
    )
    op.create_table(
        "league_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("pt", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("league_games", "league_tables", "league_waiting", "league_members", "leagues"):
        op.drop_table(name)
