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
actions, accounts and their sessions) and each feature's ``schema`` module its own,
all in one metadata; ``rows`` the records read back, ``writes`` what is written in
one transaction (actions and clock rows, the lease fence, the end of a match with
its ratings, settlements and league points), ``store`` the ``Store`` and the group
commit ``Writer``, ``account_store`` the ``AccountStore``. This module names them all.
"""

from riichi.server.daily.schema import (
    daily_attempts,
)
from riichi.server.leagues.schema import (
    league_games,
    league_members,
    league_tables,
    league_waiting,
    leagues,
)
from riichi.server.money.schema import (
    ledger,
    offer_seats,
    offers,
)
from riichi.server.ratings.schema import (
    STAT_COLUMNS,
    game_stats,
    rating_history,
    ratings,
)
from riichi.server.review.schema import (
    reviews,
)
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
    rate_match,
)
from riichi.server.tournaments.schema import (
    entrants,
    tournament_tables,
    tournaments,
)

__all__ = [
    "BASELINE",
    "CLOSED",
    "DAY_SECONDS",
    "DEFAULT_URL",
    "MIGRATIONS",
    "OPERATOR",
    "STAT_COLUMNS",
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
    "balance",
    "daily_attempts",
    "entrants",
    "game_stats",
    "leaders",
    "league_games",
    "league_members",
    "league_tables",
    "league_waiting",
    "leagues",
    "leases",
    "ledger",
    "metadata",
    "migrate",
    "offer_seats",
    "offers",
    "players",
    "post",
    "queue_table",
    "rate_match",
    "rating_history",
    "ratings",
    "reviews",
    "sessions",
    "settings",
    "sightings",
    "tables",
    "tournament_tables",
    "tournaments",
]
