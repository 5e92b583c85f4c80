"""The live tables of one process: opened, loaded on demand, restored at start-up,
closed when left idle, unloaded when finished and unwatched; and the bus that
announces each finished game.

The contract:

- One owner per table. ``Registry.table(id)`` returns the one ``LiveTable`` that
  owns a table's match in this process, loading it from its log the first time
  (concurrent callers share one load).
- Opening is one transaction: ``open_table`` stores the table's row with what
  its plan writes (``riichi.platform.tables.opening``), then registers it.
- A finished game is announced on the ``Bus`` once its end is stored; the desks
  (tournaments, the Daily Wall) listen instead of polling.
- ``live`` counts the tables in play, the figure every cap is checked against.

Nothing here blocks the event loop on the database or on a long replay: reads
and rebuilds run in worker threads, writes go through the store's writer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from riichi.errors import RiichiError
from riichi.game import Match
from riichi.platform import POLICIES, ClockState, Pool
from riichi.platform.spectating import HAND, Delay
from riichi.platform.tables import SeatSpec, final_of
from riichi.rules import RuleSet
from riichi.server.clock import Clock
from riichi.server.ledger import ChipStore
from riichi.server.limits import Limits
from riichi.server.storage import NewTable, Store, StoredTable, Writer
from riichi.server.table import (
    CLOSE_NO_TABLE,
    LiveTable,
    load_match,
    start_clocks,
)

log = logging.getLogger(__name__)
SWEEP_EVERY = 60.0  # seconds between looks for idle tables


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game's end is stored: its table, kind and when."""

    table_id: str
    kind: str
    finished: float


Listener = Callable[[GameFinished], Awaitable[None]]


class Bus:
    """Finished games, announced to whoever listens (in this process; the listeners
    run as tasks of their own, so a slow one never holds a table)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._running: set[asyncio.Task[None]] = set()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def publish(self, event: GameFinished) -> None:
        for listener in self._listeners:
            task = asyncio.create_task(self._deliver(listener, event))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    @staticmethod
    async def _deliver(listener: Listener, event: GameFinished) -> None:
        try:
            await listener(event)
        except Exception:
            log.exception("a listener failed on %s", event)


class Registry:
    """The live tables of this process, by id."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        limits: Limits,
        bot_delay: float = 0.0,
        delay: Delay = HAND,
    ) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits
        self.bot_delay = bot_delay
        self.delay = delay
        self.writer = Writer(store)
        self.chips = ChipStore(store.engine)
        self.bus = Bus()
        self.tables: dict[str, LiveTable] = {}
        self.live = 0
        self._loading: dict[str, asyncio.Task[LiveTable | None]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Count the live tables and restore them in the background; serve meanwhile."""
        self.live = await asyncio.to_thread(self.store.count_tables, "live")
        self._tasks = [
            asyncio.create_task(self._restore_all(), name="restore tables"),
            asyncio.create_task(self._sweep(), name="idle tables"),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        await asyncio.to_thread(self.writer.close)

    async def _restore_all(self) -> None:
        stored = await asyncio.to_thread(self.store.list_tables, "live")
        for table in stored:
            if table.pool == Pool.UNTIMED.value and self._idle_since(table):
                # left alone past the limit (before the stop, or while down): closed
                # without the cost of replaying it
                if await asyncio.to_thread(self.store.close_idle, table.id, self.clock.now()):
                    self.live -= 1
                continue
            try:
                await self.table(table.id)
            except RiichiError:
                # its own log cannot be replayed (a gap, an action the rules refuse): it
                # never will be, so it ends as void and gives back what it holds
                log.exception("table %s: its log does not replay; void, chips released", table.id)
                await asyncio.to_thread(self.chips.void_table, table.id, self.clock.now())
                self.live -= 1
            except Exception:  # the database, say: the table stays live for a later start
                log.exception("table %s: could not be restored", table.id)
        log.info("restored %d live tables", len(stored))
        gc.freeze()  # what was restored lives long: keep it out of collections

    # ----------------------------------------------------------- one table

    async def table(self, table_id: str) -> LiveTable | None:
        """The table in memory, loading it from storage first if need be."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.create_task(self._load(table_id))
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> LiveTable | None:
        stored = await asyncio.to_thread(self.store.get_table, table_id)
        if stored is None:
            return None
        match, seats = await asyncio.to_thread(load_match, stored, self.store)
        if match.standings is not None and stored.status == "live":
            # the last action was stored but the end of the match was not (an older
            # version wrote them apart): finish it now
            final = final_of(match, seats, self.clock.now())
            await asyncio.to_thread(self.store.finish, table_id, final)
            stored = replace(stored, status="over", finished=final.finished)
            self._finished(stored)
        return self._register(stored, match, seats)

    def _register(self, stored: StoredTable, match: Match, seats: list[SeatSpec]) -> LiveTable:
        table = LiveTable(
            stored,
            match,
            seats,
            self.store,
            self.writer,
            self.clock,
            self.limits,
            self.bot_delay,
            on_idle=self._unload,
            on_finish=lambda table: self._finished(table.stored),
            delay=self.delay,
        )
        self.tables[stored.id] = table
        table.start()
        return table

    def _finished(self, stored: StoredTable) -> None:
        self.live -= 1
        self.bus.publish(GameFinished(stored.id, stored.kind, self.clock.now()))

    def _unload(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory; storage serves it from now on."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.closed = True

    async def open_table(self, new: NewTable, rules: RuleSet, seats: list[SeatSpec]) -> LiveTable:
        """Store a new table with what its plan writes, and start it."""
        match = Match(rules, new.seed, [s.name for s in seats])
        policy = POLICIES.get(Pool(new.pool))
        if policy is not None:  # the first decision's clock is stored with the table
            state = ClockState.new(policy, rules.players)
            bots = {s for s, spec in enumerate(seats) if spec.is_bot}
            start_clocks(policy, state, match, bots, new.created)
            new = replace(new, clock=state.to_dict())
        await asyncio.to_thread(self.store.create_table, new)
        self.live += 1
        return self._register(new.stored(), match, seats)

    # ----------------------------------------------------------- idle tables

    def _idle_since(self, stored: StoredTable) -> bool:
        last = stored.touched or stored.created
        return self.clock.now() - last >= self.limits.idle_seconds

    async def _sweep(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + SWEEP_EVERY)
            try:
                await self.sweep_idle()
            except Exception:
                log.exception("closing idle tables failed")

    async def sweep_idle(self) -> int:
        """Close every untimed table in play that no person has moved at or visited
        for ``limits.idle_seconds``: it stops counting against anyone's limits and
        leaves memory. Returns how many closed."""
        now = self.clock.now()
        closed = 0
        for table in list(self.tables.values()):
            if not table.idle(now, self.limits.idle_seconds):
                continue
            if await asyncio.to_thread(self.store.close_idle, table.id, now):
                closed += 1
                self.live -= 1
            table.closed = True
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
            for viewer in list(table.viewers):
                viewer.kick(f"table {table.id} closed: nobody played at it", CLOSE_NO_TABLE)
            await table.stop()
        return closed
