"""Leases: which process owns each live table, with the epoch every write checks;
and which process does each duty done once in a cluster (the rated queue, the
tournament runner).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("leases_owner", "leases", ["owner"])
    op.create_table(
        "leaders",
        sa.Column("duty", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leaders")
    op.drop_index("leases_owner", "leases")
    op.drop_table("leases")
