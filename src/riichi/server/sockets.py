"""The websockets of live tables: each counted against its address's allowance, a seat
or a spectator joined to the table this process runs, or relayed to the process that
runs it (``relay``); what a viewer is sent is pumped from its outbox, what it sends is
read at a bounded pace and handed to the table.

``counted_socket`` is how every websocket of the site is served (the personal channel,
``riichi.server.channel``, too): accepted, held to this site's pages and to the
connection limits, then served by the function given.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from riichi.server.limits import LimitError, Pace, parse_json
from riichi.server.protocol import (
    CLOSE_MOVED,
    CLOSE_NO_TABLE,
    CLOSE_REFUSED,
    CLOSE_TOO_MANY,
    CLOSE_TOO_SLOW,
    CLOSE_UNSUPPORTED,
    ProtocolError,
    Viewer,
)
from riichi.server.registry import Elsewhere
from riichi.server.relay import CLOSE_RELAY, RemoteTable
from riichi.server.table import LiveTable
from riichi.server.web import client_address, same_origin, web_of

RELAY_ANSWER = 10.0  # seconds the owner of a relayed table has to answer a join

Refuse = Callable[[str, int], Awaitable[None]]
Serve = Callable[[WebSocket, str, Refuse], Awaitable[None]]


async def counted_socket(websocket: WebSocket, serve: Serve) -> None:
    """A websocket from this site's pages, counted against its address's allowance,
    served by ``serve(websocket, address, refuse)``."""
    address = client_address(websocket)
    await websocket.accept()

    async def refuse(message: str, code: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "message": message, "final": True})
            await websocket.close(code=code)

    if not same_origin(websocket.headers):
        await refuse("connections from another site's page are refused", CLOSE_REFUSED)
        return
    web = web_of(websocket)
    hub, limits = web.server, web.limits
    if hub.sockets[address] >= limits.sockets_per_address or hub.sockets.total() >= limits.sockets:
        await refuse("too many connections from your address", CLOSE_TOO_MANY)
        return
    shared = hub.relay.sockets if hub.relay is not None else None
    if shared is not None and not await shared.acquire(address, limits.sockets_per_address):
        await refuse("too many connections from your address", CLOSE_TOO_MANY)
        return
    hub.sockets[address] += 1
    try:
        await serve(websocket, address, refuse)
    finally:
        hub.sockets[address] -= 1
        if hub.sockets[address] <= 0:
            del hub.sockets[address]
        if shared is not None:
            await shared.release(address)


async def table_socket(websocket: WebSocket) -> None:
    await counted_socket(websocket, serve_viewer)


async def serve_viewer(websocket: WebSocket, address: str, refuse: Refuse) -> None:
    web = web_of(websocket)
    table_id = websocket.path_params["id"]
    try:
        table = await web.server.table(table_id)
    except Elsewhere as exc:
        if web.server.relay is None:
            await refuse(f"{exc}; reconnect there", CLOSE_MOVED)
        else:
            await serve_relayed(websocket, table_id, refuse)
        return
    if table is None:
        await refuse("no such table", CLOSE_NO_TABLE)
        return
    account = await web.account_of(websocket)
    try:
        viewer = await table.admit_person(
            websocket.query_params.get("token"), account.id if account is not None else None
        )
    except ProtocolError as exc:
        await refuse(str(exc), CLOSE_REFUSED)
        return
    while table is not None and not table.join(viewer):
        try:
            table = await web.server.table(table_id)  # it was unloaded meanwhile
        except Elsewhere as exc:
            await refuse(f"{exc}; reconnect there", CLOSE_MOVED)
            return
    if table is None:
        await refuse("no such table", CLOSE_NO_TABLE)
        return
    sender = feed(websocket, viewer)
    try:
        await listen(websocket, table, viewer)
    finally:
        # no await here: a closed connection's handler returns at once
        table.leave(viewer)
        sender.cancel()


async def serve_relayed(websocket: WebSocket, table_id: str, refuse: Refuse) -> None:
    """A table another process owns: the connection is relayed to it (see relay)."""
    web = web_of(websocket)
    hub = web.server
    assert hub.relay is not None
    owner = await asyncio.to_thread(hub.store.lease_owner, table_id)
    if owner is None:
        await refuse(f"table {table_id} is between servers; reconnect", CLOSE_MOVED)
        return
    account = await web.account_of(websocket)
    viewer = Viewer(None, web.limits)
    remote = RemoteTable(hub.relay, owner, table_id, viewer)
    remote.join(websocket.query_params.get("token"), account.id if account is not None else None)
    sender = feed(websocket, viewer)

    async def watch_owner() -> None:  # (a later takeover: Relay._watch_owners)
        await asyncio.sleep(RELAY_ANSWER)
        if not remote.answered:
            viewer.kick("the table's server did not answer; reconnect", CLOSE_RELAY)

    watcher = asyncio.create_task(watch_owner())
    try:
        await listen(websocket, remote, viewer)
    finally:
        remote.leave(viewer)
        sender.cancel()
        watcher.cancel()


def feed(websocket: WebSocket, viewer: Viewer) -> asyncio.Task[None]:
    """Send the viewer's outbox down the websocket (the task returned), and close the
    connection when the viewer is kicked."""
    sender = asyncio.create_task(pump(websocket, viewer))
    closing: list[asyncio.Task[None]] = []

    async def close_kicked() -> None:
        sender.cancel()  # it may be stuck writing to a reader that does not read
        transport = websocket.scope.get("extensions", {}).get("riichi.transport", {})
        if viewer.code == CLOSE_TOO_SLOW and "abort" in transport:
            # a close frame cannot get past what the peer has not read: drop it
            transport["abort"]()
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=viewer.code, reason=viewer.reason[:100]), 2)

    viewer.on_kick = lambda: closing.append(asyncio.create_task(close_kicked()))
    return sender


async def pump(websocket: WebSocket, viewer: Viewer) -> None:
    with contextlib.suppress(Exception):
        while True:
            await websocket.send_text(await viewer.next())


async def listen(websocket: WebSocket, table: LiveTable | RemoteTable, viewer: Viewer) -> None:
    limits = web_of(websocket).limits
    pace = Pace(limits.messages_per_second, limits.message_burst)
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while not viewer.kicked.is_set():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                viewer.kick(
                    "binary frames are not part of the protocol; send JSON text",
                    CLOSE_UNSUPPORTED,
                )
                return
            # past the rate, read more slowly: a flood waits in the client's socket
            while (wait := pace.wait()) > 0:
                await asyncio.sleep(wait)
            try:
                parsed = parse_json(text, limits.message_bytes, limits.json_depth)
            except LimitError as exc:
                viewer.put_json({"type": "error", "message": str(exc)})
                continue
            table.send(viewer, parsed)


ROUTES: list[BaseRoute] = [WebSocketRoute("/ws/tables/{id}", table_socket)]
