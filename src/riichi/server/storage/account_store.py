"""``AccountStore``: accounts, sessions, sightings, settings and the rated queue."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from riichi.platform.accounts import name_key
from riichi.platform.chips import (
    BANK,
    START_CHIPS,
    Transfer,
    account_ledger,
)
from riichi.server.schema import (
    OPERATOR,
    accounts,
    players,
    queue_table,
    sessions,
    settings,
    sightings,
    tables,
)
from riichi.server.storage.rows import Account, StorageError
from riichi.server.storage.writes import post


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

    def is_suspended(self, account_id: int) -> bool:
        with self.engine.connect() as conn:
            when = conn.execute(
                select(accounts.c.suspended).where(accounts.c.id == account_id)
            ).scalar_one_or_none()
        return when is not None

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
        """The account of a live session: not revoked, not expired, not suspended."""
        query = (
            select(accounts.c.id, accounts.c.name)
            .select_from(sessions.join(accounts, sessions.c.account_id == accounts.c.id))
            .where(
                sessions.c.id == session_id,
                ~sessions.c.revoked,
                sessions.c.expires > now,
                accounts.c.suspended.is_(None),  # a suspended account has no live session
            )
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
        """The accounts this one sat with at its last ``tables_back`` tables (those it
        invited to a money table, or that invited it, are money's: ``INVITATIONS``)."""
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
