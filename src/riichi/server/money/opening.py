"""Money's part of a table's opening, written in the transaction that stores the
table: the offer it opens from is closed (its rows go) if it still seats exactly the
table's accounts."""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from riichi.server.money.schema import offer_seats, offers
from riichi.server.storage import NewTable, StorageError, at_opening


@at_opening
def close_the_offer(conn: Connection, new: NewTable) -> None:
    if new.plan.offer is not None:
        _close_offer(conn, new.plan.offer, [seat.get("account") for seat in new.seats])


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
