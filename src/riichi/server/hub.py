"""The site in one process: the live tables (the ``Registry``), a table's public
facts, the lists of tables and games, finished games served from a bounded cache,
and the desks the features provide (``riichi.server.feature``: held by type, none
named here; the lobby's new tables are play's, downloads are games', who is online
is accounts').

Nothing here blocks the event loop on the database or on a long replay: reads
and rebuilds run in worker threads, writes go through the store's writer.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from async_lru import alru_cache

from riichi.game import Match
from riichi.hand.decompose import prepare
from riichi.platform.matchmaking import FILL_AFTER
from riichi.platform.spectating import HAND, Delay
from riichi.platform.tables import (
    SeatSpec,
)
from riichi.rules import RuleSet
from riichi.server.auth import Auth
from riichi.server.clock import Clock
from riichi.server.collector import keep_collections_short
from riichi.server.feature import Desks, Feature
from riichi.server.limits import Limits, RateLimits
from riichi.server.notices import Notices
from riichi.server.protocol import NotFound
from riichi.server.registry import Elsewhere, Registry
from riichi.server.relay import Relay
from riichi.server.seating import (
    load_match,
    public_info,
)
from riichi.server.storage import Store, StoredTable
from riichi.server.table import LiveTable
from riichi.server.thinkers import Thinkers

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game rebuilt from storage."""

    stored: StoredTable
    match: Match
    seats: list[SeatSpec]
    timeouts: frozenset[int] = frozenset()  # the actions the clock played

    def record(self) -> dict[str, Any]:
        """Our record with the seed revealed, the salt and commitment to check it, and
        ``"timeout": true`` on each action the clock played."""
        record = self.match.record()
        for seq in self.timeouts:
            record["actions"][seq]["timeout"] = True
        return {**record, "commitment": self.stored.commitment, "salt": self.stored.salt}


class Server(Desks):
    """The site in one process: its live tables (``Registry``), the lists, finished
    games, and the desks its features provide (``riichi.server.feature``)."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        limits: Limits | None = None,
        bot_delay: float = 0.0,
        fill_after: float = FILL_AFTER,
        delay: Delay = HAND,
        shared: bool = False,
        redis_url: str | None = None,
        review_workers: int = 1,
        search_workers: int = 1,
        features: Sequence[Feature] = (),
    ) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits or Limits()
        self.fill_after = fill_after
        self.review_workers = review_workers
        self.rates = RateLimits(redis_url)  # shared by the site's processes, with Redis
        self.sockets: Counter[str] = Counter()
        self.registry = Registry(
            store, clock, self.limits, bot_delay, delay, shared, Thinkers(search_workers)
        )
        # a connection to a table another process owns is relayed to it (shared sites)
        self.relay = None if redis_url is None else Relay(redis_url, self.registry, self.limits)
        self.registry.metrics.watch(self)
        self.auth: Auth | None = None
        self._tasks: list[asyncio.Task[None]] = []
        # per server: a bounded cache of finished games
        self.finished = alru_cache(maxsize=32)(self._finished)
        self.notices = Notices()
        self.registry.notify = self.notices.send
        if self.relay is not None:  # a notice reaches a channel on any process
            self.relay.deliver = self.notices.deliver
            self.notices.publish = self.relay.publish_notice
        Desks.__init__(self)
        for feature in features:
            feature.setup(self)

    @property
    def tables(self) -> dict[str, LiveTable]:
        return self.registry.tables

    @property
    def live(self) -> int:
        return self.registry.live

    async def table(self, table_id: str) -> LiveTable | None:
        return await self.registry.table(table_id)

    async def sweep_idle(self) -> int:
        return await self.registry.sweep_idle()

    async def start(self) -> None:
        """Restore the live tables in the background, seat the queue, run the desks;
        serve meanwhile."""
        self.auth = await asyncio.to_thread(Auth, self.store.accounts, self.clock, self.rates)
        await asyncio.to_thread(prepare)  # the readings tables, before any table needs one
        await self.registry.start()
        if self.relay is not None:
            await self.relay.start()
        self._tasks = [
            asyncio.create_task(keep_collections_short(), name="gc"),
            *(asyncio.create_task(run(), name=name) for name, run in self._loops),
        ]

    async def hand_over(self) -> None:
        """Before this process stops on a shared site: its tables handed back at once
        (``Registry.hand_over``) and announced, so another process plays on at once."""
        if not self.registry.shared or self.registry.draining:
            return
        released = await self.registry.hand_over()
        if self.relay is not None:
            await self.relay.publish_released(released)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for close in self._closing:
            close()
        if self.relay is not None:
            await self.relay.close()
        await self.registry.close()
        if self.auth is not None:
            self.auth.hashing.close()
        self.store.close()

    def marks(self, address: str, device: str | None) -> tuple[str, str | None]:
        """The keyed hashes the site keeps of where a request comes from."""
        assert self.auth is not None
        return (
            self.auth.address_hash(address),
            None if device is None else self.auth.device_hash(device),
        )

    # ----------------------------------------------------------- lists

    async def info(self, table_id: str) -> dict[str, Any]:
        """A table's public facts: from memory while it is loaded, else from storage."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.info()
        stored = await asyncio.to_thread(self.store.get_table, table_id)
        if stored is None:
            raise NotFound("no such table")
        if stored.status == "live":
            try:
                loaded = await self.table(table_id)
            except Elsewhere:  # another process runs it: its stored facts will do
                return stored_info(stored, self.clock.now())
            assert loaded is not None
            return loaded.info()
        return stored_info(stored, self.clock.now())

    async def page(
        self, status: str, limit: int, offset: int, watchable: bool = False
    ) -> dict[str, Any]:
        """One page of the live tables or finished games, newest first; only those open
        to spectators when ``watchable``, with how many watch each."""
        rows, total = await asyncio.to_thread(self._page, status, limit, offset, watchable)
        items = []
        for row in rows:
            item = stored_info(row, self.clock.now())
            live = self.tables.get(row.id)
            item["spectators"] = 0 if live is None else live.audience.spectators
            items.append(item)
        return paged(items, total, limit, offset)

    def _page(
        self, status: str, limit: int, offset: int, watchable: bool
    ) -> tuple[list[StoredTable], int]:
        # a finished game is listed only once it may be opened
        shown = self.clock.now() if status == "over" else None
        return (
            self.store.list_tables(status, limit, offset, watchable, shown),
            self.store.count_tables(status, watchable, shown),
        )

    # ----------------------------------------------------------- finished games

    async def _finished(self, game_id: str) -> Finished:
        """A finished game rebuilt from storage (cached; never a game in play)."""
        stored = await asyncio.to_thread(self.store.get_table, game_id)
        if stored is None or stored.status != "over":
            raise NotFound("no such finished game")
        match, seats = await asyncio.to_thread(load_match, stored, self.store)
        timeouts = await asyncio.to_thread(self.store.timed_out, game_id)
        return Finished(stored, match, seats, timeouts)


def paged(items: list[Any], total: int, limit: int, offset: int) -> dict[str, Any]:
    return {"items": items, "total": total, "offset": offset, "limit": limit}


def stored_info(stored: StoredTable, now: float) -> dict[str, Any]:
    """Public facts of a stored table; the seed only if chosen, or once the game is
    over and its time to be shown has come."""
    rules = RuleSet.from_dict(stored.rules)
    seats = [SeatSpec(**s) for s in stored.seats]
    over = stored.status == "over"
    shown = over and stored.revealed(now)
    return {
        **public_info(stored, seats, rules),
        "over": over,
        "finished": stored.finished,
        "standings": stored.standings if shown else None,
        "seed": stored.seed if shown or stored.seed_public else None,
        "shown": shown,
    }
