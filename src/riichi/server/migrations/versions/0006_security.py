"""Security: operators, names compared by their confusables skeleton, where accounts
were seen from (hashed addresses and devices), the address and device of a queue
entry and of a Daily Wall attempt,
a tournament's stored seating plan, and when an untimed table was last touched.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("role", sa.String(16)))  # "operator", or none
    with op.batch_alter_table("queue") as batch:
        batch.add_column(sa.Column("address", sa.String(64)))
        batch.add_column(sa.Column("device", sa.String(64)))
    with op.batch_alter_table("daily_attempts") as batch:
        batch.add_column(sa.Column("address", sa.String(64)))
        batch.add_column(sa.Column("device", sa.String(64)))
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("plan", sa.Text))  # JSON seating, stored once
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("touched", sa.Float))  # a person's last move or visit
    op.create_table(
        "sightings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        # a keyed hash of an address, or "d:" and one of a browser's device id
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("first", sa.Float, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
    )
    op.create_index("sightings_address", "sightings", ["address"])
    _skeleton_keys()


def _skeleton_keys() -> None:
    """Existing names get the skeleton key where no other name already reads the same;
    a name that would collide keeps its old key (it signs in by that one)."""
    from riichi.platform.accounts import skeleton

    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
    )
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)).all()
    taken = {row.name_key for row in rows}
    for row in sorted(rows, key=lambda r: r.id):
        key = skeleton(row.name)
        if key == row.name_key or key in taken:
            continue
        conn.execute(sa.update(accounts).where(accounts.c.id == row.id).values(name_key=key))
        taken.discard(row.name_key)
        taken.add(key)


def downgrade() -> None:
    op.drop_index("sightings_address", "sightings")
    op.drop_table("sightings")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("touched")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("plan")
    with op.batch_alter_table("daily_attempts") as batch:
        batch.drop_column("device")
        batch.drop_column("address")
    with op.batch_alter_table("queue") as batch:
        batch.drop_column("device")
        batch.drop_column("address")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("role")
