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
- Leases (``riichi.platform.leases``). This process owns a table only while it
  holds its lease, and every write checks the lease's epoch. Alone on its
  database (the default) a process takes every lease at start-up; ``shared``
  (several processes on one PostgreSQL) it takes only free ones, a few at a
  time, renews its own, and lets go of a table whose lease another took. When it
  stops it hands every table back at once (``hand_over``), and it claims at once
  the tables another hands back (``take_now``).

Nothing here blocks the event loop on the database or on a long replay: reads
and rebuilds run in worker threads, writes go through the store's writer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from riichi.errors import RiichiError
from riichi.game import Match
from riichi.platform import POLICIES, ClockState, Pool
from riichi.platform.clocks import start_clocks
from riichi.platform.leases import (
    LEASE_SECONDS,
    RENEW_EVERY,
    TAKE_AT_ONCE,
    TAKE_ROUNDS,
    share,
)
from riichi.platform.spectating import HAND, Delay
from riichi.platform.tables import SeatSpec, final_of
from riichi.rules import RuleSet
from riichi.server.clock import Clock
from riichi.server.limits import Limits
from riichi.server.metrics import Metrics
from riichi.server.planner import Planner
from riichi.server.protocol import IDLE, MOVED, Busy
from riichi.server.seating import load_match
from riichi.server.storage import NewTable, Store, StoredTable, Writer
from riichi.server.table import Handler, LiveTable
from riichi.server.thinkers import Thinkers

log = logging.getLogger(__name__)
SWEEP_EVERY = 60.0  # seconds between looks for idle tables


class Elsewhere(RiichiError):
    """The table is live, and another process holds its lease."""


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game's end is stored: its table, kind and when."""

    table_id: str
    kind: str
    finished: float


Listener = Callable[[GameFinished], Awaitable[None]]


class Bus:
    """Finished games, announced to whoever listens: in this process (the listeners
    run as tasks of their own, so a slow one never holds a table) and, where a relay
    is attached (``forward``), in every other process of the site."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._running: set[asyncio.Task[None]] = set()
        self.forward: Callable[[GameFinished], None] | None = None

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def publish(self, event: GameFinished) -> None:
        self.deliver(event)
        if self.forward is not None:
            self.forward(event)

    def deliver(self, event: GameFinished) -> None:
        """To this process's listeners only (an event from another process)."""
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
        shared: bool = False,
        thinkers: Thinkers | None = None,
        void: Callable[[str, float], None] | None = None,
    ) -> None:
        self.store = store
        self.thinkers = thinkers
        self.planner = Planner()  # competitions' schedules, made off the event loop
        self.shared = shared
        self.owner = secrets.token_hex(8)  # this process, in the leases it holds
        self.clock = clock
        self.limits = limits
        self.bot_delay = bot_delay
        self.delay = delay
        self.writer = Writer(store)
        self.metrics = Metrics()  # this process's (``riichi serve --metrics`` serves them)
        # releases the chips held for a table whose log does not replay (the money
        # feature's ledger; a site without money has none to release)
        self.void = void or (lambda table_id, now: None)
        self.bus = Bus()
        # tells a person something (the hub's live channel): each table is given it
        self.notify: Callable[[int, dict[str, Any]], None] | None = None
        self.tables: dict[str, LiveTable] = {}
        # message types a feature answers at every table (the play feature's coach)
        self.handlers: dict[str, Handler] = {}
        self.live = 0
        self._loading: dict[str, asyncio.Task[LiveTable | None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self.draining = False  # handing its tables over: it takes and opens none
        self._taking: set[asyncio.Task[None]] = set()
        self._background: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Count the live tables and restore them in the background; serve meanwhile."""
        self.live = await asyncio.to_thread(self.store.count_tables, "live")
        if self.shared:  # counted among the processes before taking any table
            await self.leads(f"alive:{self.owner}")
        self._tasks = [
            asyncio.create_task(self._sweep(), name="idle tables"),
            asyncio.create_task(self._keep_leases(), name="leases"),
        ]
        if not self.shared:  # alone on the database: every live table is this process's
            self._tasks.append(asyncio.create_task(self._restore_all(), name="restore tables"))

    def computer_tables(self) -> int:
        """Live tables of this process with no person at them."""
        return sum(
            1 for t in self.tables.values() if not t.match.over and all(s.is_bot for s in t.seats)
        )

    async def hand_over(self) -> list[str]:
        """A process that stops on a shared site: it takes and opens no more tables,
        stops each of its tables after the action it is committing, makes every
        queued write durable, hands back every lease at once (not by expiry) and tells
        the viewers to move; the tables handed back."""
        self.draining = True
        for task in self._tasks:
            task.cancel()
        tables = list(self.tables.values())
        for table in tables:
            self._unload(table)
            await table.stop()
        await asyncio.to_thread(self.writer.close)
        ids = await asyncio.to_thread(self.store.hand_back, self.owner, self.clock.now())
        for table in tables:
            table.kick_all(MOVED)
        self.metrics.handed_over.inc(len(ids))
        log.info("handed over %d tables", len(ids))
        return ids

    def take_now(self, table_ids: list[str]) -> None:
        """Tables another process handed back: claim them at once (the first claim
        of each wins), rather than at the next round of leases."""
        if self.draining:
            return
        for table_id in table_ids:
            task = asyncio.create_task(self._take(table_id))
            self._taking.add(task)
            task.add_done_callback(self._taking.discard)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        if self.thinkers is not None:
            self.thinkers.close()
        self.planner.close()
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
                await asyncio.to_thread(self.void, table.id, self.clock.now())
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
        epoch = None
        if stored.status == "live":
            if self.draining:
                raise Elsewhere(f"table {table_id}: this process is stopping")
            now = self.clock.now()
            epoch = await asyncio.to_thread(
                self.store.claim, table_id, self.owner, now, now + LEASE_SECONDS, not self.shared
            )
            if not epoch:
                raise Elsewhere(f"table {table_id} is served by another process")
            stored = await asyncio.to_thread(self.store.get_table, table_id)  # as of the claim
            assert stored is not None
        match, seats = await asyncio.to_thread(load_match, stored, self.store)
        if match.standings is not None and stored.status == "live":
            # the last action was stored but the end of the match was not (an older
            # version wrote them apart): finish it now
            final = final_of(match, seats, self.clock.now())
            await asyncio.to_thread(self.store.finish, table_id, final)
            stored = replace(stored, status="over", finished=final.finished)
            self._finished(stored)
        return self._register(stored, match, seats, epoch)

    def _register(
        self, stored: StoredTable, match: Match, seats: list[SeatSpec], epoch: int | None
    ) -> LiveTable:
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
            on_lost=self._unload,
            epoch=epoch,
            thinkers=self.thinkers,
            metrics=self.metrics,
            handlers=self.handlers,
        )
        table.notify = self.notify
        self.tables[stored.id] = table
        table.start()
        return table

    def _finished(self, stored: StoredTable) -> None:
        self.live -= 1
        self.bus.publish(GameFinished(stored.id, stored.kind, self.clock.now()))
        self._later(self.store.release, stored.id, self.owner)

    def _later(self, work: Callable[..., object], *args: object) -> None:
        """Storage work nobody waits for (in a thread; a failure is only logged)."""

        async def run() -> None:
            try:
                await asyncio.to_thread(work, *args)
            except Exception:
                log.exception("%s failed", getattr(work, "__name__", work))

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _unload(self, table: LiveTable) -> None:
        """The table leaves memory: finished and unwatched (storage serves it from now
        on), or another process took its lease (its viewers were told to reconnect)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.closed = True

    async def let_go(self, table_id: str, why: tuple[str, int]) -> None:
        """Drop a table this process plays, if it does (its stored state changed under
        it: an operator closed it)."""
        table = self.tables.get(table_id)
        if table is not None:
            await self._drop(table, why)

    async def _drop(self, table: LiveTable, why: tuple[str, int]) -> None:
        """Tell the viewers why, let the table go and stop its task."""
        table.kick_all(why)
        self._unload(table)
        await table.stop()

    async def open_table(self, new: NewTable, rules: RuleSet, seats: list[SeatSpec]) -> LiveTable:
        """Store a new table with what its plan writes, and start it."""
        if self.draining:
            raise Busy("this server is restarting: open the table again in a moment", 503)
        match = Match(rules, new.seed, [s.name for s in seats])
        policy = POLICIES.get(Pool(new.pool))
        if policy is not None:  # the first decision's clock is stored with the table
            state = ClockState.new(policy, rules.players)
            bots = {s for s, spec in enumerate(seats) if spec.is_bot}
            start_clocks(policy, state, match, bots, new.created)
            new = replace(new, clock=state.to_dict())
        lease = (self.owner, self.clock.now() + LEASE_SECONDS)
        await asyncio.to_thread(self.store.create_table, new, lease)
        self.live += 1
        return self._register(new.stored(), match, seats, 1)

    # ----------------------------------------------------------- leases

    async def leads(self, duty: str) -> bool:
        """Whether this process does ``duty`` (done once in a cluster) now: alone on
        its database, always; shared, while it holds the duty's lease."""
        if not self.shared:
            return True
        now = self.clock.now()
        return await asyncio.to_thread(self.store.lead, duty, self.owner, now, now + LEASE_SECONDS)

    async def _keep_leases(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + RENEW_EVERY)
            try:
                await self.keep_leases()
            except Exception:  # the database, say: the next round tries again
                log.exception("renewing leases failed")

    async def keep_leases(self) -> None:
        """Renew this process's leases, let go of tables whose lease another took, and
        (shared) take a few free tables over."""
        held = await asyncio.to_thread(
            self.store.renew, self.owner, self.clock.now() + LEASE_SECONDS
        )
        for table in list(self.tables.values()):
            mine = table.epoch is None or table.match.over or held.get(table.id) == table.epoch
            if mine:
                continue
            log.warning("table %s: its lease is another's now; let go", table.id)
            await self._drop(table, MOVED)
        if not self.shared:
            return
        # the site's count: other processes open and finish tables too
        self.live = await asyncio.to_thread(self.store.count_tables, "live")
        await self.leads(f"alive:{self.owner}")
        processes = await asyncio.to_thread(self.store.alive, self.clock.now())
        holding = sum(1 for t in self.tables.values() if t.epoch is not None and not t.match.over)
        budget = min(share(self.live, processes, holding), TAKE_AT_ONCE * TAKE_ROUNDS)
        while budget > 0:  # a batch at a time, yielding, so that the others take some too
            batch = min(budget, TAKE_AT_ONCE)
            free = await asyncio.to_thread(self.store.free_tables, self.clock.now(), batch)
            for table_id in free:
                await self._take(table_id)
            budget -= len(free)
            if len(free) < batch:
                return
            await asyncio.sleep(0)

    async def _take(self, table_id: str) -> None:
        if table_id in self.tables:
            return
        try:
            if await self.table(table_id) is not None:
                self.metrics.takeovers.inc()
            log.info("table %s: taken over", table_id)
        except Elsewhere:
            pass  # another process took it first
        except RiichiError:
            log.exception("table %s: its log does not replay; void, chips released", table_id)
            await asyncio.to_thread(self.void, table_id, self.clock.now())

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
            await self._drop(table, IDLE)
        return closed
