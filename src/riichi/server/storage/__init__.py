"""Durable storage: every table is (rules, seed, seats) plus its ordered action log.

SQLAlchemy Core, so the same code runs on the default SQLite file and on
PostgreSQL by URL; the schema is built and upgraded in place by Alembic
migrations (``migrations/``), so a database made by an older version keeps
working. An action is committed before it is acknowledged; a restarted
server rebuilds each live table by replaying its log.

``Store`` is synchronous. The server's writes go through ``Writer``: one
thread that commits whatever has queued up in a single transaction (a group
commit), so many tables share each disk sync and the event loop never waits
on the disk.

The package: ``riichi.server.schema`` holds the core's tables (tables, leases,
actions, accounts and their sessions) and each feature's ``schema`` module its own
(imported from there), all in one metadata; ``rows`` the records read back,
``writes`` what is written in
one transaction (actions and clock rows, the lease fence, the end of a match with
its ratings, settlements and league points), ``store`` the ``Store`` and the group
commit ``Writer``, ``account_store`` the ``AccountStore``. This module names them all.
"""

from riichi.server.schema import (
    CLOSED,
    DAY_SECONDS,
    OPERATOR,
    accounts,
    actions,
    leaders,
    leases,
    metadata,
    players,
    queue_table,
    sessions,
    settings,
    sightings,
    tables,
)
from riichi.server.storage.account_store import (
    AccountStore,
)
from riichi.server.storage.parts import at_finish, at_opening
from riichi.server.storage.rows import (
    Account,
    ActionRow,
    ChipsShort,
    ClockRow,
    LeaseLost,
    NewTable,
    StorageError,
    StoredTable,
    Write,
)
from riichi.server.storage.store import (
    BASELINE,
    DEFAULT_URL,
    MIGRATIONS,
    Store,
    Writer,
    migrate,
)
from riichi.server.storage.writes import (
    balance,
    post,
)

__all__ = [
    "BASELINE",
    "CLOSED",
    "DAY_SECONDS",
    "DEFAULT_URL",
    "MIGRATIONS",
    "OPERATOR",
    "Account",
    "AccountStore",
    "ActionRow",
    "ChipsShort",
    "ClockRow",
    "LeaseLost",
    "NewTable",
    "StorageError",
    "Store",
    "StoredTable",
    "Write",
    "Writer",
    "accounts",
    "actions",
    "at_finish",
    "at_opening",
    "balance",
    "leaders",
    "leases",
    "metadata",
    "migrate",
    "players",
    "post",
    "queue_table",
    "sessions",
    "settings",
    "sightings",
    "tables",
]
