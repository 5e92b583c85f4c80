"""Secret seeds: a salt and a published commitment per table, bots' own seed,
seat tokens kept only as hashes, and an index for listing tables by status.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import hashlib
import json
import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _commitment(seed: str, salt: str) -> str:
    # frozen here: a migration must not change when the package does
    return hashlib.sha256(f"riichi-commit-v1\x00{salt}\x00{seed}".encode()).hexdigest()


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("salt", sa.String(32)))
        batch.add_column(sa.Column("commitment", sa.String(64)))
        batch.add_column(sa.Column("bot_seed", sa.String(32)))
        batch.add_column(
            sa.Column("seed_public", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.create_index("tables_status_created", ["status", "created"])
    tables = sa.table(
        "tables",
        sa.column("id", sa.String),
        sa.column("seed", sa.String),
        sa.column("seats", sa.Text),
        sa.column("salt", sa.String),
        sa.column("commitment", sa.String),
        sa.column("bot_seed", sa.String),
    )
    conn = op.get_bind()
    for row in conn.execute(sa.select(tables.c.id, tables.c.seed, tables.c.seats)).all():
        seats = json.loads(row.seats)
        for seat in seats:
            token = seat.pop("token", None)
            seat["token_hash"] = hashlib.sha256(token.encode()).hexdigest() if token else None
        salt = secrets.token_hex(16)
        conn.execute(
            sa.update(tables)
            .where(tables.c.id == row.id)
            .values(
                seats=json.dumps(seats),
                salt=salt,
                commitment=_commitment(row.seed, salt),
                bot_seed=secrets.token_hex(16),
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("tables_status_created")
        batch.drop_column("seed_public")
        batch.drop_column("bot_seed")
        batch.drop_column("commitment")
        batch.drop_column("salt")
