"""Any process serves any socket: a connection to a table another process owns is
relayed to the owner over Redis pub/sub (the shape of lichess's lila-ws).

Each process listens on one channel of its own, ``riichi:proc:<id>`` (its id is
the one it holds leases by). A relayed connection is a pair of viewers:

- in the process the client reached, a local ``Viewer`` whose outbox feeds the
  websocket, and a ``RemoteTable`` that forwards the client's join, messages
  and leave to the owner's channel, tagged with the connection's id;
- in the owner, a ``Viewer`` joined to the ``LiveTable`` like any other, with
  the seat the owner itself works out from the token and account the client
  gave; everything the table puts in its outbox is published to the relaying
  process, for that connection alone.

So the owner builds each update once per seat and once for spectators, as for
its own sockets, and a relayed seat receives exactly what a direct one would:
its own messages, never another seat's. Versions and ``sync`` work as they do
directly. When the owner changes (a takeover) or Redis fails, the relayed
connection is closed with ``CLOSE_MOVED`` and the client reconnects and
resyncs; the owner keeps its tables either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import redis.asyncio as redis

from riichi.platform.leases import RENEW_EVERY
from riichi.server.limits import Limits
from riichi.server.protocol import (
    CLOSE_MOVED,
    CLOSE_NO_TABLE,
    CLOSE_REFUSED,
    MOVED,
    ProtocolError,
    Viewer,
)
from riichi.server.registry import Elsewhere, GameFinished, Registry
from riichi.server.table import LiveTable

log = logging.getLogger(__name__)
CLOSE_RELAY = 1011  # the relay itself failed (Redis): reconnect
REDIS_CONNECTIONS = 32  # per process: the channel's, and the publishes in flight
OUTGOING = 20_000  # messages waiting for one process before Redis counts as failed


EVENTS = "riichi:events"  # every process's bus events, to all the others


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def inbox(process: str) -> str:
    return f"riichi:proc:{process}"


class Relay:
    """This process's end of the relay: its channel, the connections it relays for
    clients, and those it serves as the owner for other processes."""

    def __init__(self, url: str, registry: Registry, limits: Limits) -> None:
        # bounded waits: a Redis that hangs is a Redis that failed (see _listen); a
        # bounded pool whose callers wait their turn, not one connection per publish in
        # flight (hundreds under load)
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=5.0,
            socket_timeout=5.0,
            socket_connect_timeout=5.0,
        )
        self.redis = redis.Redis.from_pool(pool)  # closed with it
        self.registry = registry
        self.limits = limits
        self.me = registry.owner
        self.local: dict[str, RemoteTable] = {}  # connection -> its end here (relayed out)
        self.heard: set[str] = set()  # ... those the owner has answered
        self.served: dict[str, tuple[LiveTable, Viewer, asyncio.Task[None]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._sent: set[asyncio.Task[None]] = set()
        # what waits to go to each process, in order, and the task sending it
        self._outgoing: dict[str, list[dict[str, Any]]] = {}
        self._flushing: dict[str, asyncio.Task[None]] = {}
        registry.bus.forward = self._broadcast
        self.sockets = SharedSockets(self)
        self._beat: asyncio.Task[None] | None = None
        self._owners: asyncio.Task[None] | None = None
        # puts a notice in this process's channels of an account (the hub's notices)
        self.deliver: Callable[[int, dict[str, Any]], None] | None = None

    def _broadcast(self, event: GameFinished) -> None:
        """A bus event of this process, for the listeners of the others."""
        message = {"op": "event", "from": self.me, **asdict(event)}

        async def send() -> None:
            try:
                await self.redis.publish(EVENTS, json.dumps(message))
            except Exception as exc:  # the others poll a minute later at worst
                log.warning("relay: an event was not sent (%s)", exc)

        task = asyncio.create_task(send())
        self._sent.add(task)
        task.add_done_callback(self._sent.discard)

    def publish_notice(self, account: int, notice: dict[str, Any]) -> None:
        """A notice for a person whose channel may be on another process."""
        message = {"op": "notice", "from": self.me, "account": account, "notice": notice}

        async def send() -> None:
            try:
                await self.redis.publish(EVENTS, json.dumps(message))
            except Exception as exc:  # a notice lost: the lobby's lists still show it
                log.warning("relay: a notice was not sent (%s)", exc)

        task = asyncio.create_task(send())
        self._sent.add(task)
        task.add_done_callback(self._sent.discard)

    async def publish_released(self, table_ids: list[str]) -> None:
        """Tables this process handed back as it stops: the others claim them at once."""
        message = {"op": "released", "from": self.me, "tables": table_ids}
        try:
            await self.redis.publish(EVENTS, json.dumps(message))
        except Exception as exc:  # the others take them at their next round of leases
            log.warning("relay: the tables handed back were not announced (%s)", exc)

    async def online(self, accounts: list[int]) -> set[int]:
        """Which of ``accounts`` have a channel open on any process."""
        if not accounts:
            return set()
        marks = await self.redis.mget([f"riichi:online:{a}" for a in accounts])
        return {a for a, mark in zip(accounts, marks, strict=True) if mark is not None}

    async def mark_online(self, account: int, seconds: int) -> None:
        await self.redis.set(f"riichi:online:{account}", self.me, ex=seconds)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen(), name="relay")
        self._beat = asyncio.create_task(self.sockets.heartbeat(), name="heartbeat")
        self._owners = asyncio.create_task(self._watch_owners(), name="relayed owners")

    async def close(self) -> None:
        tasks = [t for t in (self._task, self._beat, self._owners) if t is not None]
        tasks += self._flushing.values()
        for table, viewer, pump in list(self.served.values()):
            tasks.append(pump)
            table.leave(viewer)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)  # ended before the loop is
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def post(self, process: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``process``: what queues up for one process while a
        publish is in flight goes in the next one, in order (a publish per message
        cost a third of a relaying process's time under load). Redis too slow or gone
        past ``OUTGOING`` waiting messages is Redis failed."""
        waiting = self._outgoing.setdefault(process, [])
        waiting.append(message)
        if len(waiting) > OUTGOING:
            log.warning("relay: %d messages wait for %s; Redis is too slow", len(waiting), process)
            self._outgoing.pop(process, None)
            self._failed()
            return
        if process not in self._flushing:
            task = asyncio.create_task(self._flush(process))
            self._flushing[process] = task

    async def _flush(self, process: str) -> None:
        try:
            while batch := self._outgoing.pop(process, None):
                await self.redis.publish(inbox(process), json.dumps(batch))
        except Exception as exc:
            log.warning("relay: a publish to %s failed (%r)", process, exc)
            self._outgoing.pop(process, None)
            self._failed()
        finally:
            self._flushing.pop(process, None)

    async def _listen(self) -> None:
        """This process's channel, subscribed again (every few seconds) after Redis
        fails, for as long as the process lives."""
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(inbox(self.me), EVENTS)
                while True:
                    item = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if item is not None and item.get("type") == "message":
                        await self._safely(item["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis went away: relayed connections resync later
                log.warning("relay: the channel failed (%s); relayed connections closed", exc)
                self._failed()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]
                await asyncio.sleep(RENEW_EVERY)

    async def _safely(self, data: bytes | str) -> None:
        """One message; a bad one is logged and dropped, never taken for a failure of
        Redis (which would close every relayed connection)."""
        try:
            batch = json.loads(data)
            for message in batch if isinstance(batch, list) else [batch]:
                if isinstance(message, dict):
                    await self._dispatch(message)
        except (ValueError, KeyError, TypeError):
            log.exception("relay: a message could not be handled: %.200r", data)

    async def _watch_owners(self) -> None:
        """A takeover: every relayed connection to a table whose owner changed is told
        to reconnect (to the new owner). One query a round for all of them."""
        clock = self.registry.clock
        while True:
            await clock.sleep_until(clock.now() + RENEW_EVERY)
            remotes = list(self.local.values())
            if not remotes:
                continue
            try:
                tables = {remote.table_id for remote in remotes}
                owners = await asyncio.to_thread(self.registry.store.lease_owners, tables)
            except Exception:  # the database: the next round looks again
                log.exception("relay: the owners of relayed tables could not be read")
                continue
            for remote in remotes:
                if owners.get(remote.table_id) != remote.owner:
                    reason, code = MOVED
                    remote.viewer.kick(reason.format(table=remote.table_id), code)

    def _failed(self) -> None:
        """Every relayed connection, both ways, is closed: its client reconnects and
        resyncs once Redis is back; the tables this process owns play on."""
        for remote in list(self.local.values()):
            remote.viewer.kick("the relay to the table failed; reconnect", CLOSE_RELAY)
        for conn, (table, viewer, pump) in list(self.served.items()):
            pump.cancel()
            table.leave(viewer)
            self.served.pop(conn, None)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        op, conn = message.get("op"), str(message.get("conn"))
        if op == "event":
            if message.get("from") != self.me:
                fields = {k: message[k] for k in ("table_id", "kind", "finished")}
                self.registry.bus.deliver(GameFinished(**fields))
        elif op == "notice":
            if message.get("from") != self.me and self.deliver is not None:
                notice = message.get("notice")
                if isinstance(notice, dict):
                    self.deliver(int(message["account"]), notice)
        elif op == "released":
            if message.get("from") != self.me:
                self.registry.take_now([str(t) for t in message.get("tables", [])][:10_000])
        elif op == "out":  # for a client this process relays for
            remote = self.local.get(conn)
            if remote is not None:
                self.heard.add(conn)
                for text in message["texts"]:
                    remote.viewer.put(str(text))
        elif op == "close":
            remote = self.local.get(conn)
            if remote is not None:
                reason, code = str(message.get("reason", "")), int(message.get("code", CLOSE_MOVED))
                remote.viewer.kick(reason, code)
        elif op == "join":  # this process owns the table
            await self._join(conn, message)
        elif op == "message":
            served = self.served.get(conn)
            if served is not None:
                served[0].send(served[1], message.get("message"))
        elif op == "leave":
            served = self.served.pop(conn, None)
            if served is not None:
                table, viewer, pump = served
                pump.cancel()
                table.leave(viewer)

    async def _join(self, conn: str, message: dict[str, Any]) -> None:
        process = conn.split(":", 1)[0]

        def close(reason: str, code: int) -> None:
            self.post(process, {"op": "close", "conn": conn, "reason": reason, "code": code})

        table_id = str(message.get("table"))
        try:
            table = await self.registry.table(table_id)
        except Elsewhere as exc:
            close(f"{exc}; reconnect", CLOSE_MOVED)
            return
        if table is None or table.lost:
            close("no such table", CLOSE_NO_TABLE)
            return
        account = message.get("account")
        token = message.get("token")
        try:
            viewer = await table.admit_person(
                token if isinstance(token, str) else None,
                account if isinstance(account, int) else None,
            )
        except ProtocolError as exc:
            close(str(exc), CLOSE_REFUSED)
            return

        async def pump() -> None:
            while True:
                texts = [await viewer.next()]
                while viewer.waiting():
                    texts.append(await viewer.next())
                self.post(process, {"op": "out", "conn": conn, "texts": texts})

        def kicked() -> None:
            close(viewer.reason, viewer.code)
            self.served.pop(conn, None)

        viewer.on_kick = kicked
        if not table.join(viewer):
            close("the table was unloaded; reconnect", CLOSE_MOVED)
            return
        self.served[conn] = (table, viewer, asyncio.create_task(pump()))


class SharedSockets:
    """Websockets per address, counted across the site's processes: a Redis hash per
    address holds each process's count, and only processes whose heartbeat key is
    alive are summed, so a dead process's connections stop counting by themselves."""

    # seconds a process's heartbeat lasts; renewed every sixth of it, so that a busy
    # process (a loop late by seconds) is not taken for a dead one and its
    # connections forgotten
    HEARTBEAT = 30.0

    def __init__(self, relay: Relay) -> None:
        self.redis = relay.redis
        self.me = relay.me
        self.local: dict[str, int] = {}
        self.errors = relay.registry.metrics.redis_errors.labels("socket count")

    async def heartbeat(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.redis.set(f"riichi:alive:{self.me}", 1, ex=int(self.HEARTBEAT))
            await asyncio.sleep(self.HEARTBEAT / 6)

    async def acquire(self, address: str, limit: int) -> bool:
        """Count one more connection from ``address`` unless the site already holds
        ``limit``; while Redis is out of reach (a read failed twice), this process's
        own count decides."""
        others = 0
        for attempt in range(2):
            try:
                others = await self._others(address)
                break
            except Exception:
                self.errors.inc()
                if attempt == 0:
                    await asyncio.sleep(0.05)
        # this process's own count read after the awaits, and raised with no await
        # between: connections from one address admitted at once are each counted
        # (read before, two of them both saw the same count and were counted once)
        mine = self.local.get(address, 0)
        if mine + others >= limit:
            return False
        self.local[address] = mine + 1
        await self._publish(address)
        return True

    async def _others(self, address: str) -> int:
        """The connections from ``address`` the site's other live processes hold."""
        raw = await self.redis.hgetall(f"riichi:sockets:{address}")
        counts = {_text(k): int(v) for k, v in raw.items()}
        others = [p for p in counts if p != self.me]
        alive = await self.redis.mget([f"riichi:alive:{p}" for p in others]) if others else []
        return sum(counts[p] for p, up in zip(others, alive, strict=True) if up)

    async def release(self, address: str) -> None:
        left = self.local.get(address, 0) - 1
        if left > 0:
            self.local[address] = left
        else:
            self.local.pop(address, None)
        await self._publish(address)

    async def _publish(self, address: str) -> None:
        key = f"riichi:sockets:{address}"
        with contextlib.suppress(Exception):
            if address in self.local:
                await self.redis.hset(key, self.me, self.local[address])
                await self.redis.expire(key, 3600)
            else:
                await self.redis.hdel(key, self.me)


class RemoteTable:
    """A table another process owns, as a local connection sees it: what the client
    sends goes to the owner, in order; what the owner sends arrives in the local
    viewer."""

    def __init__(self, relay: Relay, owner: str, table_id: str, viewer: Viewer) -> None:
        self.relay = relay
        self.owner = owner
        self.table_id = table_id
        self.viewer = viewer
        self.conn = f"{relay.me}:{secrets.token_hex(8)}"

    def join(self, token: str | None, account: int | None) -> None:
        self.relay.local[self.conn] = self
        join = {"op": "join", "table": self.table_id, "token": token, "account": account}
        self.relay.post(self.owner, {"conn": self.conn, **join})

    def send(self, viewer: Viewer, message: Any) -> None:
        self.relay.post(self.owner, {"op": "message", "conn": self.conn, "message": message})

    @property
    def answered(self) -> bool:
        """Whether the owner has sent anything for this connection yet."""
        return self.conn in self.relay.heard

    def leave(self, viewer: Viewer) -> None:
        self.relay.local.pop(self.conn, None)
        self.relay.heard.discard(self.conn)
        self.relay.post(self.owner, {"op": "leave", "conn": self.conn})
