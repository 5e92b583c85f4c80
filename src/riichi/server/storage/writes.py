"""What is written inside one transaction: actions and clock rows behind the lease
fence, chip postings and stake checks, and the end of a match (its plan from
``riichi.platform.tables.finishing``: settlements, a desk's rows and updates, and
each feature's part, ``parts``: figures and ratings) with the last action.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from riichi.platform.chips import (
    BANK,
    HOUSE,
    ChipError,
    Transfer,
    account_ledger,
    check_stake,
    shortfall,
)
from riichi.platform.tables import (
    Final,
    SeatSpec,
    finishing,
)
from riichi.rules import RuleSet
from riichi.server.schema import (
    DAY_SECONDS,
    accounts,
    actions,
    leases,
    ledger,
    metadata,
    players,
    tables,
)
from riichi.server.storage.parts import FINISHING
from riichi.server.storage.rows import ActionRow, ChipsShort, LeaseLost, StorageError, Write


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
    )
    if plan.transfers:
        post(conn, f"table:{table_id}", list(plan.transfers), final.finished)
    for change in plan.updates:
        target = metadata.tables[change.table]
        keys = [target.c[column] == value for column, value in change.where.items()]
        conn.execute(update(target).where(*keys).values(**change.values))
    for added in plan.rows:
        conn.execute(insert(metadata.tables[added.table]).values(**added.values))
    for part in FINISHING:
        part(conn, table_id, plan, final.finished)
