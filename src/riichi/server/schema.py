"""The core's tables of the schema: tables and their actions, leases and leaders,
accounts with their sightings, sessions and settings, and the rated queue. Every
feature's ``schema`` module adds its own tables to the same ``metadata``; Alembic
migrations (``migrations/``) build and upgrade them all.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

DAY_SECONDS = 86_400.0


metadata = MetaData()


tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", Text, nullable=False),  # RuleSet JSON
    Column("seed", String(64), nullable=False),  # secret until the match is over
    Column("seats", Text, nullable=False),  # JSON list of SeatSpec dicts (token hashes only)
    Column("status", String(8), nullable=False),  # "live" or "over"
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Column("standings", Text),  # JSON, once over
    Column("salt", String(32)),
    Column("commitment", String(64)),  # published at the start: hash of salt and seed
    Column("bot_seed", String(32)),  # the bots' own secret stream
    Column("seed_public", Boolean, nullable=False, default=False),  # a seed chosen at creation
    Column("kind", String(16), nullable=False, default="private"),  # practice, private, rated
    Column("pool", String(16), nullable=False, default="untimed"),  # the clock
    Column("clock", Text),  # ClockState JSON, stored with each action of a timed table
    Column("watchable", Boolean, nullable=False, default=False),  # open to spectators
    Column("bet", Integer, nullable=False, default=0),  # chips each seat puts up (002)
    # the seed, the record and any view of the game stay private until then, even after
    # it ends (a Daily Wall: until the day is over everywhere)
    Column("reveal", Float),
    # a person's last move or visit at an untimed table: one left alone too long closes
    Column("touched", Float),
)


# which process owns each live table, and the epoch every write checks
# (riichi.platform.leases)
leases = Table(
    "leases",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("expires", Float, nullable=False),
)


# which process does each duty done once in a cluster (the rated queue, tournaments)
leaders = Table(
    "leaders",
    metadata,
    Column("duty", String(32), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("expires", Float, nullable=False),
)


actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # Action.to_dict() JSON
    Column("timeout", Boolean, nullable=False, default=False),  # played by the clock
)


accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(80), nullable=False, unique=True),
    Column("password_hash", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("role", String(16)),  # "operator": may add the house's chips; else none
    Column("suspended", Float),  # when an operator suspended it (0012); None: in good standing
)


# where each account was seen from (a keyed hash of the address, never the address,
# or "d:" and a keyed hash of a browser's device id): the reports pair accounts by
# them, and a known device passes the site-wide sign-in rate
sightings = Table(
    "sightings",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("first", Float, nullable=False),
    Column("last", Float, nullable=False),
)


sessions = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),  # sha256 of the token in the cookie
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
)


settings = Table(
    "settings",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)


queue_table = Table(
    "queue",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("pool", String(16), nullable=False),
    Column("since", Float, nullable=False),
    Column("address", String(64)),  # hashed, as in sightings
    Column("device", String(64)),  # the browser's device, hashed
)


OPERATOR = "operator"  # the role that may add the house's chips


CLOSED = "closed"  # the status of an untimed table closed for want of play


# the accounts seated at each table (a seat of a person without an account has no row)
players = Table(
    "players",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
)


# The chips of every account, escrow, the bank and the house: one row a transfer,
# posted by every feature that moves chips (money tables, tournaments, grants, refunds)
ledger = Table(
    "ledger",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("event", String(64), nullable=False),  # what moved the chips: a table, an account
    Column("source", String(64), nullable=False),
    Column("target", String(64), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("created", Float, nullable=False),
)
