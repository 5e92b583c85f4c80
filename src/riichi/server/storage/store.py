"""``Store``: the database by URL, migrated on open, its tables, leases and actions;
``Writer``: the one thread that commits what has queued up in a single transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
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
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from riichi.platform.tables import (
    Final,
)
from riichi.server.schema import (
    CLOSED,
    accounts,
    actions,
    leaders,
    leases,
    metadata,
    players,
    queue_table,
    tables,
)
from riichi.server.storage.account_store import AccountStore
from riichi.server.storage.parts import OPENING
from riichi.server.storage.rows import (
    LeaseLost,
    NewTable,
    StorageError,
    StoredTable,
    Write,
    _filters,
    _stored,
)
from riichi.server.storage.writes import _check_stake, _finish, _write_all, post

log = logging.getLogger(__name__)

DEFAULT_URL = "sqlite:///riichi.db"


MIGRATIONS = Path(__file__).parent.parent / "migrations"


BASELINE = "0001"  # the schema databases had before migrations existed


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
        # a pooled connection is checked before use: after the database restarts, every
        # one the pool holds is dead, and each would fail its next write once
        self.engine: Engine = create_engine(url, pool_pre_ping=not url.startswith("sqlite"))
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
            for part in OPENING:
                part(conn, new)

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

    def hand_back(self, owner: str, now: float) -> list[str]:
        """Hand back every lease ``owner`` holds (a process that stops): expired now,
        so the first process to claim one takes it, with a new epoch."""
        with self.engine.begin() as conn:
            held = conn.execute(select(leases.c.table_id).where(leases.c.owner == owner))
            ids = [str(t) for t in held.scalars()]
            conn.execute(update(leases).where(leases.c.owner == owner).values(expires=now))
        return ids

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

    def action_count(self, table_id: str) -> int:
        """How many actions a table's log holds."""
        with self.engine.connect() as conn:
            count = conn.execute(
                select(func.count()).select_from(actions).where(actions.c.table_id == table_id)
            ).scalar_one()
        return int(count)

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

    def waiting(self) -> int:
        """Writes queued for the next group commit (a metric)."""
        return self._queue.qsize()

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
