"""Money's tables: the chip ledger (postings that sum to zero) and the offers of money
tables between people with their seats.
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
)

from riichi.server.schema import metadata

# Money tables between people, before they start (riichi.server.money.desk): an offer and
# the accounts seated at it, each of whose reserve is in the escrow of the table to be
offers = Table(
    "offers",
    metadata,
    Column("id", String(32), primary_key=True),  # the table's id once it starts
    Column("rules", Text, nullable=False),  # RuleSet JSON
    Column("pool", String(16), nullable=False),
    Column("bet", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("creator", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("invited", Text),  # JSON list of account ids who may sit; null: anyone
)


offer_seats = Table(
    "offer_seats",
    metadata,
    Column("offer_id", String(32), ForeignKey("offers.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("address", String(64)),  # keyed hashes, as the rated queue keeps them
    Column("device", String(64)),
    Column("joined", Float, nullable=False),
)
