"""Money tables between people before they start: offers and who sits at them.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("bet", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("creator", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("invited", sa.Text),
    )
    op.create_table(
        "offer_seats",
        sa.Column("offer_id", sa.String(32), sa.ForeignKey("offers.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64)),
        sa.Column("device", sa.String(64)),
        sa.Column("joined", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("offer_seats")
    op.drop_table("offers")
