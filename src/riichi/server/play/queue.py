"""The rated queue: people wait for a rated table of a pool, one table at a time; every
second one process seats four of a pool, or, after ``fill_after`` seconds, whoever
waits with roster computers in the empty seats (``riichi.platform.matchmaking``),
never two accounts that joined from one address or browser at one table."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from riichi.bots import ROSTER
from riichi.errors import excerpt
from riichi.platform import Pool
from riichi.platform.matchmaking import FILL_AFTER, Waiting, seat_tables
from riichi.platform.tables import HUMAN, SeatSpec, TableKind, fixed_rules, roster_seat
from riichi.server.auth import Auth
from riichi.server.protocol import ProtocolError
from riichi.server.registry import Registry
from riichi.server.seating import fresh_table
from riichi.server.storage import Account
from riichi.server.table import LiveTable

log = logging.getLogger(__name__)


class RatedQueue:
    """The queue's desk: joining, leaving, what it looks like, and its matchmaker."""

    def __init__(
        self,
        registry: Registry,
        auth: Callable[[], Auth | None],
        notify: Callable[[int, dict[str, Any]], None],
        fill_after: float = FILL_AFTER,
    ) -> None:
        self.registry = registry
        self.auth = auth  # the site's keyed hashes, once the server has started
        self.notify = notify
        self.fill_after = fill_after

    async def join(
        self, account: Account, pool: str, address: str = "unknown", device: str | None = None
    ) -> None:
        """Wait for a rated table of ``pool``: one at a time, never two; never at one
        table with an account that joined from the same address or browser."""
        if pool not in (Pool.STANDARD.value, Pool.RELAXED.value):
            raise ProtocolError(f"the rated pools are standard and relaxed, got {excerpt(pool)}")
        mine = await asyncio.to_thread(self.registry.store.accounts.tables_of, account.id)
        if any(kind == TableKind.RATED.value for _, _, kind in mine):
            raise ProtocolError("you are at a rated table already: finish it first")
        auth = self.auth()
        assert auth is not None
        await asyncio.to_thread(
            self.registry.store.accounts.join_queue,
            account.id,
            pool,
            self.registry.clock.now(),
            auth.address_hash(address),
            None if device is None else auth.device_hash(device),
        )

    async def leave(self, account: Account) -> None:
        await asyncio.to_thread(self.registry.store.accounts.leave_queue, account.id)

    async def view(self, account: Account | None) -> dict[str, Any]:
        """How many wait in each pool and for how long; where this account waits."""
        waiting = await asyncio.to_thread(self.registry.store.accounts.queue)
        now = self.registry.clock.now()
        pools = {
            pool.value: {"waiting": 0, "longest": 0.0} for pool in (Pool.STANDARD, Pool.RELAXED)
        }
        mine = None
        for account_id, pool, since, *_ in waiting:
            entry = pools.setdefault(pool, {"waiting": 0, "longest": 0.0})
            entry["waiting"] += 1
            entry["longest"] = max(entry["longest"], now - since)
            if account is not None and account_id == account.id:
                mine = {"pool": pool, "waited": now - since}
        return {"pools": pools, "mine": mine, "fill_after": self.fill_after}

    async def run(self) -> None:
        """Seat the waiting players every second: four of a pool, or after the wait,
        whoever is there with roster computers in the empty seats."""
        while True:
            try:
                if await self.registry.leads("queue"):  # one process seats the queue
                    await self._seat_waiting()
            except Exception:
                log.exception("matchmaker: a round failed")
            await self.registry.clock.sleep_until(self.registry.clock.now() + 1.0)

    async def _seat_waiting(self) -> None:
        rows = await asyncio.to_thread(self.registry.store.accounts.queue)
        waiting = [Waiting(a, p, t, address, device) for a, p, t, address, device in rows]
        for group in seat_tables(waiting, self.registry.clock.now(), 4, self.fill_after):
            await self._open_rated(group)

    async def _open_rated(self, group: list[Waiting | None]) -> LiveTable:
        rules = fixed_rules(TableKind.RATED)
        names = await asyncio.to_thread(
            self.registry.store.accounts.names, [w.account for w in group if w is not None]
        )
        seats = [
            roster_seat(seat, ROSTER)
            if entry is None
            else SeatSpec(HUMAN, names[entry.account], None, entry.account)
            for seat, entry in enumerate(group)
        ]
        pool = next(w.pool for w in group if w is not None)
        new = fresh_table(rules, seats, TableKind.RATED, self.registry.clock.now(), pool=pool)
        table = await self.registry.open_table(new, rules, seats)
        for spec in seats:
            if spec.account is not None:
                self.notify(
                    spec.account,
                    {
                        "kind": "table",
                        "text": "your rated table is seated",
                        "link": f"/table/{table.id}",
                    },
                )
        return table
