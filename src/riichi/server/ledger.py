"""Reading and auditing the chip ledger; releasing the escrow of a game that will not
settle. The transfers themselves are written by ``storage.post`` inside the
transaction of the event behind them (``riichi.platform.chips`` says why).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, union_all, update
from sqlalchemy.engine import Connection, Engine

from riichi.platform.chips import BANK, HOUSE, escrow, release
from riichi.server.storage import (
    StorageError,
    balance,
    ledger,
    post,
    tables,
    tournaments,
)


class ChipStore:
    """Balances, statements and the books' audit, from the ``ledger`` table."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def balance(self, who: str) -> int:
        with self.engine.connect() as conn:
            return balance(conn, who)

    def statement(self, who: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        """An account's movements, newest first: each with its event and signed amount."""
        mine = (ledger.c.source == who) | (ledger.c.target == who)
        query = select(ledger).where(mine).order_by(ledger.c.seq.desc()).limit(limit).offset(offset)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            total = int(conn.execute(select(func.count()).where(mine)).scalar_one())
        items = [
            {
                "seq": r.seq,
                "event": r.event,
                "amount": r.amount if r.target == who else -r.amount,
                "other": r.source if r.target == who else r.target,
                "created": r.created,
            }
            for r in rows
        ]
        return items, total

    def balances(self) -> dict[str, int]:
        """Every ledger account's balance."""
        with self.engine.connect() as conn:
            return _balances(conn)

    def audit(self) -> list[str]:
        """What is wrong with the books, if anything: chips created or destroyed, a
        player or an escrow below zero, an escrow still holding chips after its game
        or tournament ended."""
        with self.engine.connect() as conn:
            books = _balances(conn)
            ended_tables = {
                row.id
                for row in conn.execute(
                    select(tables.c.id).where(tables.c.status != "live", tables.c.bet > 0)
                )
            }
            ended_tournaments = {
                row.id
                for row in conn.execute(
                    select(tournaments.c.id).where(tournaments.c.status.in_(("over", "cancelled")))
                )
            }
        problems = []
        if sum(books.values()) != 0:
            problems.append(f"the books sum to {sum(books.values())}, not 0")
        for who, amount in sorted(books.items()):
            if who not in (BANK, HOUSE) and amount < 0:
                problems.append(f"{who} holds {amount}")
            kind, _, ref = who.partition(":")
            if kind == "escrow" and amount and (ref in ended_tables or ref in ended_tournaments):
                problems.append(f"{who} still holds {amount} after its end")
        return problems

    def void_table(self, table_id: str, now: float) -> None:
        """A live table that can never be played on (its log will not load): end it as
        void and give every player back what it put up."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.status == "live")
                .values(status="void", finished=now)
            )
            if done.rowcount != 1:
                raise StorageError(f"table {table_id}: not a live table, so it cannot be voided")
            post(conn, f"table:{table_id}", release(table_id, held_by(conn, escrow(table_id))), now)


def held_by(conn: Connection, account: str) -> dict[str, int]:
    """What each contributor has in ``account`` (an escrow) now."""
    held: dict[str, int] = {}
    for row in conn.execute(select(ledger).where(ledger.c.target == account)):
        held[row.source] = held.get(row.source, 0) + row.amount
    for row in conn.execute(select(ledger).where(ledger.c.source == account)):
        held[row.target] = held.get(row.target, 0) - row.amount
    return held


def _balances(conn: Connection) -> dict[str, int]:
    moves = union_all(
        select(ledger.c.target.label("who"), ledger.c.amount.label("amount")),
        select(ledger.c.source.label("who"), (-ledger.c.amount).label("amount")),
    ).subquery()
    rows = conn.execute(select(moves.c.who, func.sum(moves.c.amount)).group_by(moves.c.who))
    return {str(who): int(amount) for who, amount in rows}
