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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from riichi.errors import RiichiError
from riichi.platform.accounts import name_key
from riichi.platform.chips import (
    BANK,
    HOUSE,
    START_CHIPS,
    ChipError,
    Transfer,
    account_ledger,
    check_stake,
    shortfall,
)
from riichi.platform.ratings import Rating, rate
from riichi.platform.tables import (
    GUEST,
    KINDS,
    Final,
    OpenPlan,
    SeatSpec,
    finishing,
)
from riichi.rules import RuleSet

DEFAULT_URL = "sqlite:///riichi.db"
MIGRATIONS = Path(__file__).parent / "migrations"
BASELINE = "0001"  # the schema databases had before migrations existed
DAY_SECONDS = 86_400.0

log = logging.getLogger(__name__)
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

players = Table(
    "players",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
)


ratings = Table(
    "ratings",
    metadata,
    Column("player", String(64), primary_key=True),  # account:<id> or computer:<kind>:<seat>
    Column("name", String(64), nullable=False),
    Column("computer", Boolean, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("shown", Integer, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),  # the order of application
    Column("player", String(64), nullable=False),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("finished", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Integer, nullable=False),
)

STAT_COLUMNS = (
    "hands",
    "wins",
    "deal_ins",
    "riichis",
    "calls",
    "draws",
    "tenpai_draws",
    "win_points",
    "deal_in_points",
)

game_stats = Table(
    "game_stats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(64), nullable=False),  # as in ratings, or guest
    Column("rated", Boolean, nullable=False),
    Column("finished", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("points", Float, nullable=False),
    *(Column(name, Integer, nullable=False) for name in STAT_COLUMNS),
)


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

daily_attempts = Table(
    "daily_attempts",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("started", Float, nullable=False),
    Column("hands", Text),  # JSON per hand, once finished
    Column("address", String(64)),  # hashed: one ranked attempt per address and day
    Column("device", String(64)),  # ... and per browser
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("organiser", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("rules", Text, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("bet", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("added", Integer, nullable=False),
    Column("payout", Text, nullable=False),  # JSON percentages by rank
    Column("pool", String(16), nullable=False),  # the tables' clock
    Column("closes", Float, nullable=False),  # registration closes; the first round starts
    Column("status", String(12), nullable=False),  # open, running, over, cancelled
    Column("round", Integer, nullable=False),  # the round in play (0 before the first)
    Column("seed", String(32), nullable=False),  # seating's random stream
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Column("standings", Text),  # JSON, once over
    Column("plan", Text),  # JSON seating of every round, stored once when it starts
)

entrants = Table(
    "entrants",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("seq", Integer, nullable=False),  # registration order: the last tie-break
    Column("name", String(64), nullable=False),
)

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("players", Text, nullable=False),  # JSON: entrant or null by seat
)

reviews = Table(
    "reviews",
    metadata,
    # a finished game's id, or "log-" and the digest of an uploaded log that was kept
    Column("game", String(80), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", String(40), primary_key=True),  # the reviewer's: a new one reviews anew
    Column("made", Float, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("agreement", Float, nullable=False),  # within the best value
    Column("top_choice", Float, nullable=True),  # the first choice played (0011 on)
    Column("lost_per_hand", Float, nullable=False),
    Column("body", LargeBinary, nullable=False),  # the review as zlib-packed JSON
    Column("log", LargeBinary, nullable=True),  # an uploaded log kept, packed the same way
    Column("owner", String(64), nullable=True),  # who kept it
)

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

# League seasons (003, riichi.server.leagues.desk): members (people or roster computers,
# in teams or alone), the tables of each round, and each seat's PT, written with the
# table's last action
leagues = Table(
    "leagues",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("organiser", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("rules", Text, nullable=False),  # RuleSet JSON
    Column("pool", String(16), nullable=False),
    Column("mode", String(12), nullable=False),  # individual or team
    Column("joining", String(12), nullable=False),  # open or invitation
    Column("invited", Text),  # JSON list of account ids, by invitation
    Column("rounds", Integer, nullable=False),
    Column("round", Integer, nullable=False, default=0),
    Column("status", String(12), nullable=False),  # open, running, over
    Column("play", String(12), nullable=False, default="schedule"),  # or open
    Column("meetings", Integer, nullable=False, default=0),  # open play: each pair's most
    Column("plan", Text),  # JSON: every round's tables of member keys, made at the start
    Column("created", Float, nullable=False),
)

league_members = Table(
    "league_members",
    metadata,
    Column("league_id", String(16), ForeignKey("leagues.id"), primary_key=True),
    Column("player", String(64), primary_key=True),  # account:<id> or computer:<name>
    Column("name", String(64), nullable=False),
    Column("team", String(40)),
    Column("seq", Integer, nullable=False),
)

# open play: the people of a season who wait for a table, oldest first
league_waiting = Table(
    "league_waiting",
    metadata,
    Column("league_id", String(16), ForeignKey("leagues.id"), primary_key=True),
    Column("player", String(64), primary_key=True),
    Column("since", Float, nullable=False),
)

league_tables = Table(
    "league_tables",
    metadata,
    Column("league_id", String(16), ForeignKey("leagues.id"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("players", Text, nullable=False),  # JSON: member key by seat
)

league_games = Table(
    "league_games",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("place", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("pt", Float, nullable=False),
    Column("finished", Float, nullable=False),
)

OPERATOR = "operator"  # the role that may add the house's chips
CLOSED = "closed"  # the status of an untimed table closed for want of play


class StorageError(RiichiError):
    """A write the log cannot take: a gap or a repeat in a table's sequence."""


class LeaseLost(StorageError):
    """A write for a table whose lease another process has taken: refused, always."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    rules: dict[str, Any]
    seed: str
    seats: list[dict[str, Any]]
    status: str
    created: float
    finished: float | None
    standings: list[dict[str, Any]] | None
    salt: str
    commitment: str
    bot_seed: str
    seed_public: bool
    kind: str = "private"
    pool: str = "untimed"
    clock: dict[str, Any] | None = None
    watchable: bool = False
    bet: int = 0
    reveal: float | None = None
    touched: float | None = None

    def revealed(self, now: float) -> bool:
        """Whether a game that is over may be shown to anyone."""
        return self.reveal is None or now >= self.reveal


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class NewTable:
    """Everything a table is created with."""

    id: str
    rules: dict[str, Any]
    seed: str
    salt: str
    commitment: str
    bot_seed: str
    seed_public: bool
    seats: list[dict[str, Any]]
    created: float
    kind: str = "private"
    pool: str = "untimed"
    clock: dict[str, Any] | None = None
    watchable: bool = False
    bet: int = 0
    reveal: float | None = None
    # what is written with it (riichi.platform.tables.opening): who sits where, a
    # desk's rows, reserves
    plan: OpenPlan = field(default_factory=OpenPlan)

    def stored(self) -> StoredTable:
        """The row as the store will read it back."""
        return StoredTable(
            id=self.id,
            rules=self.rules,
            seed=self.seed,
            seats=self.seats,
            status="live",
            created=self.created,
            finished=None,
            standings=None,
            salt=self.salt,
            commitment=self.commitment,
            bot_seed=self.bot_seed,
            seed_public=self.seed_public,
            kind=self.kind,
            pool=self.pool,
            clock=self.clock,
            watchable=self.watchable,
            bet=self.bet,
            reveal=self.reveal,
        )


@dataclass(frozen=True, slots=True)
class ActionRow:
    """Action number ``seq`` of a table; ``final`` when it ends the match; ``clock``
    the table's clock after it; ``timeout`` when the clock played it."""

    table_id: str
    seq: int
    seat: int
    action: dict[str, Any]
    final: Final | None = None
    clock: dict[str, Any] | None = None
    timeout: bool = False
    touched: float | None = None  # a person moved now (an untimed table's last touch)
    epoch: int | None = None  # the lease its writer holds (None: no lease is checked)


@dataclass(frozen=True, slots=True)
class ClockRow:
    """A timed table's clock, changed without an action (a result pause ended)."""

    table_id: str
    clock: dict[str, Any]
    epoch: int | None = None


Write = ActionRow | ClockRow


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest version, in place."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        found = inspect(conn)
        if found.has_table("tables") and not found.has_table("alembic_version"):
            command.stamp(config, BASELINE)
        command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    # WAL lets readers run beside the writer; FULL keeps each commit durable.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    """The database behind the server; synchronous calls that commit before returning."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)
        self.accounts = AccountStore(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, new: NewTable, lease: tuple[str, float] | None = None) -> None:
        """Store a new table and what its plan writes with it, in one transaction; with
        ``lease`` (owner, expiry), owned from the start at epoch 1."""
        plan = new.plan
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables).values(
                    id=new.id,
                    rules=json.dumps(new.rules),
                    seed=new.seed,
                    salt=new.salt,
                    commitment=new.commitment,
                    bot_seed=new.bot_seed,
                    seed_public=new.seed_public,
                    seats=json.dumps(new.seats),
                    status="live",
                    created=new.created,
                    kind=new.kind,
                    pool=new.pool,
                    clock=None if new.clock is None else json.dumps(new.clock),
                    watchable=new.watchable,
                    bet=new.bet,
                    reveal=new.reveal,
                )
            )
            for account, amount in plan.stakes:  # before this table's seats are written
                _check_stake(conn, account, amount, new.created)
            if plan.transfers:
                post(conn, f"table:{new.id}", list(plan.transfers), new.created)
            for row in plan.rows:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(metadata.tables[row.table]).values(**row.values))
                except IntegrityError:
                    if row.duplicate is None:
                        raise
                    raise StorageError(row.duplicate) from None
            if plan.offer is not None:
                _close_offer(conn, plan.offer, [seat.get("account") for seat in new.seats])
            if plan.dequeue:
                left = conn.execute(
                    delete(queue_table).where(queue_table.c.account_id.in_(plan.dequeue))
                )
                if left.rowcount != len(plan.dequeue):  # seated by another process first
                    raise StorageError(f"table {new.id}: its players are no longer waiting")
            if lease is not None:
                owner, expires = lease
                conn.execute(
                    insert(leases).values(table_id=new.id, owner=owner, epoch=1, expires=expires)
                )

    # ----------------------------------------------------------- leases

    def claim(self, table_id: str, owner: str, now: float, expires: float, force: bool) -> int:
        """Take a live table's lease: free (expired, or never held) or already ours, or
        whatever it is with ``force`` (one process alone on its database). Returns the
        epoch it now has, or 0 when another holds it."""
        with self.engine.begin() as conn:
            live = conn.execute(
                update(tables)  # written first: the claim is serialised per table
                .where(tables.c.id == table_id, tables.c.status == "live")
                .values(status=tables.c.status)
            )
            if live.rowcount != 1:
                return 0
            found = conn.execute(select(leases).where(leases.c.table_id == table_id)).first()
            if found is None:
                conn.execute(
                    insert(leases).values(table_id=table_id, owner=owner, epoch=1, expires=expires)
                )
                return 1
            if found.owner == owner and found.expires > now:
                conn.execute(
                    update(leases).where(leases.c.table_id == table_id).values(expires=expires)
                )
                return int(found.epoch)
            if not force and found.expires > now:
                return 0
            epoch = int(found.epoch) + 1
            conn.execute(
                update(leases)
                .where(leases.c.table_id == table_id)
                .values(owner=owner, epoch=epoch, expires=expires)
            )
            return epoch

    def renew(self, owner: str, expires: float) -> dict[str, int]:
        """Renew every lease ``owner`` still holds; the tables and their epochs (a lease
        another process took is not among them)."""
        with self.engine.begin() as conn:
            conn.execute(update(leases).where(leases.c.owner == owner).values(expires=expires))
            rows = conn.execute(
                select(leases.c.table_id, leases.c.epoch).where(leases.c.owner == owner)
            ).all()
        return {row.table_id: int(row.epoch) for row in rows}

    def free_tables(self, now: float, limit: int) -> list[str]:
        """Live tables no process holds: their lease expired, or they never had one."""
        query = (
            select(tables.c.id)
            .select_from(tables.outerjoin(leases, leases.c.table_id == tables.c.id))
            .where(
                tables.c.status == "live", or_(leases.c.expires.is_(None), leases.c.expires <= now)
            )
            .order_by(tables.c.created)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [str(row.id) for row in conn.execute(query).all()]

    def lead(self, duty: str, owner: str, now: float, expires: float) -> bool:
        """Hold (or take, if its holder let it lapse) the lease of a cluster-wide duty;
        whether ``owner`` holds it now."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(leaders)
                .where(
                    leaders.c.duty == duty, or_(leaders.c.owner == owner, leaders.c.expires <= now)
                )
                .values(owner=owner, expires=expires)
            )
            if done.rowcount == 1:
                return True
            try:
                with conn.begin_nested():
                    conn.execute(insert(leaders).values(duty=duty, owner=owner, expires=expires))
                return True
            except IntegrityError:  # another holds it
                return False

    def alive(self, now: float) -> int:
        """How many processes have said they are alive (``lead("alive:<id>")``) and
        not yet let it lapse."""
        query = select(func.count()).where(leaders.c.duty.like("alive:%"), leaders.c.expires > now)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def lease_owner(self, table_id: str) -> str | None:
        """The process that holds a table's lease, if any."""
        return self.lease_owners([table_id]).get(table_id)

    def lease_owners(self, table_ids: Iterable[str]) -> dict[str, str]:
        """The processes that hold these tables' leases (a table without one is left
        out)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(leases.c.table_id, leases.c.owner).where(
                    leases.c.table_id.in_(list(table_ids))
                )
            ).all()
        return {str(table_id): str(owner) for table_id, owner in rows}

    def release(self, table_id: str, owner: str) -> None:
        """Give up a lease (its game is over, or its table closed)."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(leases).where(leases.c.table_id == table_id, leases.c.owner == owner)
            )

    def append_action(self, row: Write) -> None:
        """Commit one action (and the match's end, if it ends it) in one transaction."""
        with self.engine.begin() as conn:
            _write_all(conn, [row])

    def append_actions(self, rows: list[Write]) -> list[Exception | None]:
        """Commit many actions in one transaction; if that fails, each on its own.

        Returns, per row, None when it is stored or the error that refused it,
        so one bad row never loses the others.
        """
        try:
            with self.engine.begin() as conn:
                _write_all(conn, rows)
            return [None] * len(rows)
        except Exception:
            if len(rows) == 1:
                raise
        results: list[Exception | None] = []
        for row in rows:
            try:
                self.append_action(row)
                results.append(None)
            except Exception as exc:  # handed to the row's own caller
                results.append(exc)
        return results

    def close_idle(self, table_id: str, now: float) -> bool:
        """End a live untimed table that nobody plays any more (status ``closed``); its
        log stays. False if it was no longer live."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.status == "live")
                .values(status=CLOSED, finished=now)
            )
            return done.rowcount == 1

    def finish(self, table_id: str, final: Final) -> None:
        """Mark a table over; for a log whose last action was stored without its end."""
        with self.engine.begin() as conn:
            _finish(conn, table_id, final)

    def load_actions(self, table_id: str) -> list[tuple[int, dict[str, Any]]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.seq, actions.c.seat, actions.c.action)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.seq)
            ).all()
        for expected, row in enumerate(rows):
            if row.seq != expected:
                raise StorageError(
                    f"table {table_id}: action log jumps from {expected} to {row.seq}"
                )
        return [(row.seat, json.loads(row.action)) for row in rows]

    def claim_seat(self, table_id: str, seat: int, account: int) -> str | None:
        """A signed-in person sits, by its link, in a seat no account holds: the seat is
        the account's from now on, under its name (the game counts on its page and in
        its figures); the name, or None when the seat is an account's already, or the
        account holds another seat of the table (one person, one seat)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(tables.c.seats).where(tables.c.id == table_id).with_for_update()
            ).one_or_none()
            name = conn.execute(
                select(accounts.c.name).where(accounts.c.id == account)
            ).scalar_one_or_none()
            if row is None or name is None:
                return None
            seats = json.loads(row.seats)
            if seats[seat].get("account") is not None or any(
                s.get("account") == account for s in seats
            ):
                return None
            seats[seat].update(account=account, name=name)
            conn.execute(
                update(tables).where(tables.c.id == table_id).values(seats=json.dumps(seats))
            )
            conn.execute(insert(players).values(table_id=table_id, seat=seat, account_id=account))
        return str(name)

    def timed_out(self, table_id: str) -> frozenset[int]:
        """The numbers of a table's actions that its clock played (a person's time ran
        out)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.seq).where(
                    actions.c.table_id == table_id, actions.c.timeout.is_(True)
                )
            ).scalars()
            return frozenset(int(seq) for seq in rows)

    def get_table(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if row is None else _stored(row)

    def list_tables(
        self,
        status: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        watchable: bool = False,
        shown_at: float | None = None,
    ) -> list[StoredTable]:
        """Tables newest first; ``limit`` and ``offset`` page through them; only those
        open to spectators when ``watchable``; only those that may be shown at time
        ``shown_at``, when given (a Daily Wall game stays hidden until its day ends)."""
        query = select(tables).order_by(tables.c.created.desc(), tables.c.id)
        query = query.where(*_filters(status, watchable, shown_at))
        query = query.offset(offset)
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [_stored(row) for row in conn.execute(query).all()]

    def count_tables(
        self, status: str | None = None, watchable: bool = False, shown_at: float | None = None
    ) -> int:
        where = _filters(status, watchable, shown_at)
        query = select(func.count()).select_from(tables).where(*where)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())


class AccountStore:
    """Accounts, sessions, the rated queue and the site's settings: the same database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def setting(self, key: str, make: Callable[[], str]) -> str:
        """The value of ``key``, made and stored by the first process that asks."""
        with self.engine.begin() as conn:
            found = conn.execute(select(settings.c.value).where(settings.c.key == key)).first()
            if found is not None:
                return str(found.value)
        value = make()
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(settings).values(key=key, value=value))
        except IntegrityError:  # another process made it first: theirs stands
            pass
        with self.engine.begin() as conn:
            return str(
                conn.execute(select(settings.c.value).where(settings.c.key == key)).scalar_one()
            )

    def create_account(self, name: str, key: str, password_hash: str, created: float) -> Account:
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    insert(accounts).values(
                        name=name, name_key=key, password_hash=password_hash, created=created
                    )
                )
                key_row = result.inserted_primary_key
                assert key_row is not None
                who = account_ledger(int(key_row[0]))
                post(conn, who, [Transfer(BANK, who, START_CHIPS)], created)
        except IntegrityError:
            raise StorageError(f"the name {name!r} is taken") from None
        assert key_row is not None
        return Account(int(key_row[0]), name)

    def account_login(self, key: str) -> tuple[Account, str] | None:
        """The account of a name (compared by ``name_key``) and its password hash."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == key)).first()
        return None if row is None else (Account(row.id, row.name), row.password_hash)

    def is_operator(self, account_id: int) -> bool:
        with self.engine.connect() as conn:
            role = conn.execute(
                select(accounts.c.role).where(accounts.c.id == account_id)
            ).scalar_one_or_none()
        return role == OPERATOR

    def set_role(self, key: str, role: str | None) -> Account | None:
        """Grant (or with None take back) a role to the account of a name key."""
        with self.engine.begin() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == key)).first()
            if row is None:
                return None
            conn.execute(update(accounts).where(accounts.c.id == row.id).values(role=role))
        return Account(row.id, row.name)

    def seen(self, account_id: int, address: str, now: float) -> None:
        """Note that the account was used from ``address`` (a keyed hash)."""
        key = (sightings.c.account_id == account_id) & (sightings.c.address == address)
        with self.engine.begin() as conn:
            done = conn.execute(update(sightings).where(key).values(last=now))
            if done.rowcount == 0:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            insert(sightings).values(
                                account_id=account_id, address=address, first=now, last=now
                            )
                        )
                except IntegrityError:  # seen at the same moment by another request
                    pass

    def was_seen(self, account_id: int, address: str) -> bool:
        key = (sightings.c.account_id == account_id) & (sightings.c.address == address)
        with self.engine.connect() as conn:
            return conn.execute(select(sightings.c.first).where(key)).first() is not None

    def created(self, account_id: int) -> float:
        with self.engine.connect() as conn:
            return float(
                conn.execute(
                    select(accounts.c.created).where(accounts.c.id == account_id)
                ).scalar_one()
            )

    def named(self, names: list[str]) -> dict[str, int]:
        """The accounts of these names (compared as names are: by ``name_key``), by the
        name as given; a name no account has is left out."""
        keys: dict[str, list[str]] = {}
        for name in names:
            keys.setdefault(name_key(name), []).append(name)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.id, accounts.c.name_key).where(accounts.c.name_key.in_(keys))
            ).all()
        return {name: row.id for row in rows for name in keys[row.name_key]}

    def names(self, account_ids: list[int]) -> dict[int, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(account_ids))
            ).all()
        return {row.id: row.name for row in rows}

    def password_hash(self, account_id: int) -> str:
        with self.engine.connect() as conn:
            return str(
                conn.execute(
                    select(accounts.c.password_hash).where(accounts.c.id == account_id)
                ).scalar_one()
            )

    def set_password(self, account_id: int, password_hash: str, keep_session: str) -> None:
        """A new password hash; every other session of the account ends with it."""
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )
            conn.execute(
                update(sessions)
                .where(sessions.c.account_id == account_id, sessions.c.id != keep_session)
                .values(revoked=True)
            )

    def create_session(self, session_id: str, account_id: int, now: float, expires: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    id=session_id, account_id=account_id, created=now, expires=expires
                )
            )

    def session_account(self, session_id: str, now: float) -> Account | None:
        """The account of a live session: not revoked, not expired."""
        query = (
            select(accounts.c.id, accounts.c.name)
            .select_from(sessions.join(accounts, sessions.c.account_id == accounts.c.id))
            .where(sessions.c.id == session_id, ~sessions.c.revoked, sessions.c.expires > now)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else Account(row.id, row.name)

    def revoke_session(self, session_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.id == session_id).values(revoked=True))

    def join_queue(
        self,
        account_id: int,
        pool: str,
        since: float,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(queue_table).where(queue_table.c.account_id == account_id))
            conn.execute(
                insert(queue_table).values(
                    account_id=account_id, pool=pool, since=since, address=address, device=device
                )
            )

    def leave_queue(self, account_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(queue_table).where(queue_table.c.account_id == account_id))

    def queue(self) -> list[tuple[int, str, float, str | None, str | None]]:
        """Everyone waiting: (account, pool, since, address hash, device hash)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(queue_table).order_by(queue_table.c.since)).all()
        return [(r.account_id, r.pool, r.since, r.address, r.device) for r in rows]

    def acquaintances(self, account_id: int, tables_back: int = 200) -> set[int]:
        """The accounts this one sat with at its last ``tables_back`` tables, and those
        it invited to a money table or that invited it."""
        mine = (
            select(players.c.table_id)
            .where(players.c.account_id == account_id)
            .order_by(players.c.table_id.desc())
            .limit(tables_back)
            .subquery()
        )
        with self.engine.connect() as conn:
            sat = conn.execute(
                select(players.c.account_id).where(players.c.table_id.in_(select(mine.c.table_id)))
            ).scalars()
            known = {int(a) for a in sat}
            for creator, invited in conn.execute(select(offers.c.creator, offers.c.invited)):
                listed = set(json.loads(invited)) if invited else set()
                if creator == account_id:
                    known |= listed
                elif account_id in listed:
                    known.add(creator)
        known.discard(account_id)
        return known

    def tables_of(self, account_id: int, status: str = "live") -> list[tuple[str, int, str]]:
        """(table id, seat, kind) of the tables where the account sits."""
        query = (
            select(players.c.table_id, players.c.seat, tables.c.kind)
            .select_from(players.join(tables, players.c.table_id == tables.c.id))
            .where(players.c.account_id == account_id, tables.c.status == status)
            .order_by(tables.c.created.desc())
        )
        with self.engine.connect() as conn:
            return [(r.table_id, r.seat, r.kind) for r in conn.execute(query).all()]


def _filters(status: str | None, watchable: bool, shown_at: float | None = None) -> list[Any]:
    out: list[Any] = []
    if shown_at is not None:
        out.append(or_(tables.c.reveal.is_(None), tables.c.reveal <= shown_at))
    if status is not None:
        out.append(tables.c.status == status)
    if watchable:
        always = [kind for kind, rules in KINDS.items() if rules.always_watched]
        out.append(or_(tables.c.kind.in_(always), tables.c.watchable))
    return out


def balance(conn: Connection, who: str) -> int:
    """A ledger account's chips: the sum of what came in less what went out."""
    came = conn.execute(
        select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.target == who)
    )
    went = conn.execute(
        select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.source == who)
    )
    return int(came.scalar_one()) - int(went.scalar_one())


def post(conn: Connection, event: str, transfers: list[Transfer], now: float) -> None:
    """Write the transfers of one event inside the caller's transaction. A player or an
    escrow never goes below zero (the bank and the house may: they are the site)."""
    needed: dict[str, int] = {}
    for t in transfers:
        needed[t.source] = needed.get(t.source, 0) + t.amount
    for who, amount in needed.items():
        if who in (BANK, HOUSE):
            continue
        if who.startswith("account:"):  # one writer per account at a time on PostgreSQL
            conn.execute(
                select(accounts.c.id).where(accounts.c.id == int(who[8:])).with_for_update()
            )
        held = balance(conn, who)
        if held < amount:
            raise ChipsShort(
                shortfall(event, held, amount)
                if who.startswith("account:")
                else f"{who} holds {held} chips; {event} needs {amount}"
            )
    for t in transfers:
        conn.execute(
            insert(ledger).values(
                event=event, source=t.source, target=t.target, amount=t.amount, created=now
            )
        )


def _close_offer(conn: Connection, offer: str, accounts_by_seat: list[int | None]) -> None:
    """A money offer becomes its table: it must still seat exactly these accounts (one
    who left since would have taken its reserve back), in whatever seats the table drew
    for them; its rows go."""
    locked = conn.execute(update(offers).where(offers.c.id == offer).values(id=offers.c.id))
    seated = dict(
        conn.execute(
            select(offer_seats.c.seat, offer_seats.c.account_id).where(
                offer_seats.c.offer_id == offer
            )
        ).all()
    )
    if (
        locked.rowcount != 1
        or sorted(seated.values()) != sorted(a for a in accounts_by_seat if a is not None)
        or len(seated) != len(accounts_by_seat)
    ):
        raise StorageError(f"money table {offer}: its seats changed before it started")
    conn.execute(delete(offer_seats).where(offer_seats.c.offer_id == offer))
    conn.execute(delete(offers).where(offers.c.id == offer))


class ChipsShort(StorageError):
    """Fewer chips than a bet, a reserve or a buy-in needs, or more than the site lets
    one account stake."""


def _check_stake(conn: Connection, account_id: int, amount: int, now: float) -> None:
    """The money limits of one account, read inside the transaction that reserves (the
    table's row is written first, which holds SQLite's write lock; PostgreSQL locks the
    account's row): what it put up against the house today, its money tables in play."""
    who = account_ledger(account_id)
    conn.execute(select(accounts.c.id).where(accounts.c.id == account_id).with_for_update())
    today = now - now % DAY_SECONDS
    staked = conn.execute(
        select(func.coalesce(func.sum(ledger.c.amount), 0)).where(
            ledger.c.source == who,
            ledger.c.target.like("escrow:%"),
            ledger.c.event.like("table:%"),
            ledger.c.created >= today,
        )
    ).scalar_one()
    playing = conn.execute(
        select(func.count())
        .select_from(players.join(tables, players.c.table_id == tables.c.id))
        .where(players.c.account_id == account_id, tables.c.status == "live", tables.c.bet > 0)
    ).scalar_one()
    try:
        check_stake(int(staked), int(playing), amount)
    except ChipError as exc:
        raise ChipsShort(str(exc)) from None


def _write_all(conn: Connection, rows: list[Write]) -> None:
    """Rows of any tables in one transaction, in a few statements: every action in
    one insert, the tables' latest clocks and touches in one update for all (a
    statement per row cost a round trip each), then every lease checked at once
    (``_fence``), then the ends of the matches they end."""
    moves = [row for row in rows if isinstance(row, ActionRow)]
    if moves:
        try:
            conn.execute(
                insert(actions),
                [
                    {
                        "table_id": row.table_id,
                        "seq": row.seq,
                        "seat": row.seat,
                        "action": json.dumps(row.action),
                        "timeout": row.timeout,
                    }
                    for row in moves
                ],
            )
        except IntegrityError:
            which = f"action {moves[0].seq}" if len(moves) == 1 else "an action of the group"
            raise StorageError(f"table {moves[0].table_id}: {which} is already stored") from None
    changes: dict[str, dict[str, Any]] = {}  # each table's latest
    for row in rows:
        change = changes.setdefault(row.table_id, {})
        if row.clock is not None:
            change["clock"] = json.dumps(row.clock)
        if isinstance(row, ActionRow) and row.touched is not None:
            change["touched"] = row.touched
    alike: dict[tuple[str, ...], list[dict[str, Any]]] = {}  # by the columns changed
    for table_id, values in changes.items():
        if values:
            columns = tuple(sorted(values))
            alike.setdefault(columns, []).append(
                {"b_id": table_id, **{f"b_{k}": v for k, v in values.items()}}
            )
    for columns, params in alike.items():
        conn.execute(
            update(tables)
            .where(tables.c.id == bindparam("b_id"))
            .values({column: bindparam(f"b_{column}") for column in columns}),
            params,
        )
    _fence(conn, {(row.table_id, row.epoch) for row in rows if row.epoch is not None})
    for row in moves:
        if row.final is not None:
            _finish(conn, row.table_id, row.final)


def _fence(conn: Connection, held: set[tuple[str, int]]) -> None:
    """Refuse the transaction unless each writer still holds its table's lease at the
    epoch it names. Called after the tables' rows are written, so the check holds to
    the commit: on SQLite those writes hold the database's write lock, and on
    PostgreSQL the lease rows are share-locked, so a takeover's epoch bump waits for
    the commit, or was committed first and is seen here. One read for the whole
    group: a statement per row cost a third of the throughput."""
    if not held:
        return
    found = dict(
        conn.execute(
            select(leases.c.table_id, leases.c.epoch)
            .where(leases.c.table_id.in_(sorted({table for table, _ in held})))
            .with_for_update(read=True)
        ).all()
    )
    for table_id, epoch in sorted(held):
        if found.get(table_id) != epoch:
            raise LeaseLost(f"table {table_id}: the lease of epoch {epoch} was taken by another")


def _finish(conn: Connection, table_id: str, final: Final) -> None:
    """The end of a match, with what its plan writes (``riichi.platform.tables.
    finishing``: every seat's figures, ratings, a settlement, a desk's rows); all or
    nothing, with the action that ended it."""
    done = conn.execute(
        update(tables)
        .where(tables.c.id == table_id, tables.c.status == "live")
        .values(status="over", finished=final.finished, standings=json.dumps(final.standings))
    )
    if done.rowcount != 1:
        raise StorageError(f"table {table_id}: not a live table, so it cannot finish")
    row = conn.execute(
        select(tables.c.kind, tables.c.bet, tables.c.rules, tables.c.seats).where(
            tables.c.id == table_id
        )
    ).one()
    plan = finishing(
        row.kind,
        table_id,
        [SeatSpec(**s) for s in json.loads(row.seats)],
        RuleSet.from_dict(json.loads(row.rules)),
        row.bet or 0,
        final,
        STAT_COLUMNS,
    )
    for stats in plan.stats:
        conn.execute(insert(game_stats).values(**stats))
    if plan.rating:
        rate_match(conn, table_id, final.finished, list(plan.rating))
    if plan.transfers:
        post(conn, f"table:{table_id}", list(plan.transfers), final.finished)
    for change in plan.updates:
        target = metadata.tables[change.table]
        keys = [target.c[column] == value for column, value in change.where.items()]
        conn.execute(update(target).where(*keys).values(**change.values))
    for added in plan.rows:
        conn.execute(insert(metadata.tables[added.table]).values(**added.values))


def rate_match(
    conn: Connection, table_id: str, finished: float, seats: list[tuple[str, str, int]]
) -> None:
    """Apply one rated match to its players' ratings and record each change (a guest,
    who has no account, is rated as nobody)."""
    seats = [seat for seat in seats if seat[0] != GUEST]
    if len(seats) < 2:
        return
    keys = [player for player, _, _ in seats]
    if len(set(keys)) != len(keys):
        raise StorageError(f"table {table_id}: one player in two seats of a rated match")
    found = {
        row.player: Rating(row.mu, row.sigma, row.games)
        for row in conn.execute(select(ratings).where(ratings.c.player.in_(keys))).all()
    }
    after = rate([found.get(k, Rating()) for k in keys], [place for _, _, place in seats])
    for (player, name, place), new in zip(seats, after, strict=True):
        values = {
            "name": name,
            "computer": player.startswith("computer:"),
            "mu": new.mu,
            "sigma": new.sigma,
            "games": new.games,
            "shown": new.shown,
        }
        if player in found:
            conn.execute(update(ratings).where(ratings.c.player == player).values(**values))
        else:
            conn.execute(insert(ratings).values(player=player, **values))
        conn.execute(
            insert(rating_history).values(
                player=player,
                table_id=table_id,
                finished=finished,
                place=place,
                mu=new.mu,
                sigma=new.sigma,
                shown=new.shown,
            )
        )


def _stored(row: Any) -> StoredTable:
    return StoredTable(
        id=row.id,
        rules=json.loads(row.rules),
        seed=row.seed,
        seats=json.loads(row.seats),
        status=row.status,
        created=row.created,
        finished=row.finished,
        standings=None if row.standings is None else json.loads(row.standings),
        salt=row.salt or "",
        commitment=row.commitment or "",
        bot_seed=row.bot_seed or "",
        seed_public=bool(row.seed_public),
        kind=row.kind,
        pool=row.pool,
        clock=None if row.clock is None else json.loads(row.clock),
        watchable=bool(row.watchable),
        bet=row.bet or 0,
        reveal=row.reveal,
        touched=row.touched,
    )


_Pending = tuple[Write, Callable[[Exception | None], None]]


class Writer:
    """A thread that stores actions in group commits; ``await append(row)`` returns once
    ``row`` is durable, or raises what refused it."""

    MAX_GROUP = 512

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="riichi-writer", daemon=True)
        self._thread.start()
        self.groups = 0
        self.rows = 0

    async def append(self, row: Write) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def done(error: Exception | None) -> None:
            loop.call_soon_threadsafe(_settle, future, error)

        self._queue.put((row, done))
        await future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            stop = False
            while len(group) < self.MAX_GROUP:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                group.append(item)
            try:
                results = self.store.append_actions([row for row, _ in group])
            except LeaseLost as exc:  # its table is another process's now: said by the table
                results = [exc] * len(group)
            except Exception as exc:
                log.exception("writer: a group of %d actions failed", len(group))
                results = [exc] * len(group)
            self.groups += 1
            self.rows += len(group)
            for (_, done), result in zip(group, results, strict=True):
                with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                    done(result)
            if stop:
                return


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
