"""Reading and auditing the chip ledger; releasing the escrow of a game that will not
settle. The transfers themselves are written by ``storage.post`` inside the
transaction of the event behind them (``riichi.platform.chips`` says why).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select, union_all, update
from sqlalchemy.engine import Connection, Engine

from riichi.platform.chips import (
    BANK,
    HOUSE,
    LEFT,
    MONEY,
    MoneyLimits,
    Played,
    escrow,
    movement,
    out_of_line,
    release,
)
from riichi.server.money.schema import offers
from riichi.server.schema import ledger
from riichi.server.storage import StorageError, balance, post, tables
from riichi.server.tournaments.schema import tournaments


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
        items = []
        for r in rows:
            amount = r.amount if r.target == who else -r.amount
            other = r.source if r.target == who else r.target
            items.append(
                {
                    "seq": r.seq,
                    "event": r.event,
                    "amount": amount,
                    "other": other,
                    "created": r.created,
                    **movement(r.event, other, amount),
                }
            )
        return items, total

    def balances(self) -> dict[str, int]:
        """Every ledger account's balance."""
        with self.engine.connect() as conn:
            return _balances(conn)

    def audit(self, limits: MoneyLimits = MONEY) -> list[str]:
        """What is wrong with the books, if anything: chips created or destroyed, a
        player or an escrow below zero, an escrow still holding chips after its game
        or tournament ended, or holding chips for nothing there is; and what is out of
        line: a house that has lost more than its floor (counting what it may still
        lose at the money tables in play), an account whose winnings at money tables
        stand far above fair play's."""
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
            # what an escrow may hold for: a table, a tournament, a money offer waiting
            known = {
                *conn.execute(select(tables.c.id)).scalars(),
                *conn.execute(select(tournaments.c.id)).scalars(),
                *conn.execute(select(offers.c.id)).scalars(),
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
            elif kind == "escrow" and amount and ref not in known:
                problems.append(f"{who} holds {amount} for no table, tournament or offer")
        house = books.get(HOUSE, 0)
        exposure = self.exposure()
        if house - exposure < limits.house_floor:
            problems.append(
                f"the house holds {house} and may lose {exposure} more at the tables in "
                f"play: past its floor of {limits.house_floor}"
            )
        for who, played in sorted(self.money_play().items()):
            z = out_of_line(played, limits)
            if z is not None and z > limits.suspicious_z:
                won = sum(p.won for p in played)
                problems.append(
                    f"{who} has won {won} chips over {len(played)} money tables, {z:.1f} "
                    "standard deviations above what fair play wins: review its games"
                )
        return problems

    def exposure(self) -> int:
        """The most the house can still lose at the money tables in play: what the
        people there have put up, times the seats the house backs (a winner takes
        at most its reserve from each loser)."""
        total = 0
        with self.engine.connect() as conn:
            live = conn.execute(
                select(tables.c.id, tables.c.seats).where(
                    tables.c.status == "live", tables.c.bet > 0
                )
            ).all()
            for row in live:
                seats = json.loads(row.seats)
                backed = sum(1 for s in seats if s.get("account") is None)
                for who, amount in held_by(conn, escrow(row.id)).items():
                    if who != HOUSE:
                        total += amount * backed
        return total

    def money_play(self) -> dict[str, list[Played]]:
        """Each account's settled money tables: what it reserved and what it won."""
        with self.engine.connect() as conn:
            settled = {
                row.id: int(json.loads(row.rules)["players"])
                for row in conn.execute(
                    select(tables.c.id, tables.c.rules).where(
                        tables.c.status == "over", tables.c.bet > 0
                    )
                )
            }
            rows = conn.execute(
                select(ledger.c.event, ledger.c.source, ledger.c.target, ledger.c.amount).where(
                    ledger.c.event.like("table:%")
                )
            ).all()
        moves: dict[tuple[str, str], list[int]] = {}
        for row in rows:
            ref = row.event[len("table:") :].removesuffix(LEFT)
            if ref not in settled:
                continue
            if row.source.startswith("account:"):  # the reserve, into the escrow
                moves.setdefault((row.source, ref), [0, 0])[0] += row.amount
            elif row.target.startswith("account:"):  # the payout, out of it
                moves.setdefault((row.target, ref), [0, 0])[1] += row.amount
        out: dict[str, list[Played]] = {}
        for (who, ref), (put, got) in sorted(moves.items()):
            out.setdefault(who, []).append(Played(put, got - put, settled[ref]))
        return out

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
            self.release(conn, table_id, now)

    def release(self, conn: Connection, table_id: str, now: float) -> int:
        """Give every player of a table that ended void back what its escrow holds for
        them, in ``conn``'s transaction; the chips given back."""
        given = release(table_id, held_by(conn, escrow(table_id)))
        post(conn, f"table:{table_id}", given, now)
        return sum(t.amount for t in given)


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
