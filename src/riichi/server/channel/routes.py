"""The route of the personal channel: ``/ws/me``."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from riichi.server.feature import Feature
from riichi.server.limits import Pace
from riichi.server.notices import ONLINE_SECONDS
from riichi.server.protocol import CLOSE_REFUSED, CLOSE_TOO_MANY
from riichi.server.sockets import Refuse, counted_socket
from riichi.server.web import web_of


async def channel_socket(websocket: WebSocket) -> None:
    await counted_socket(websocket, serve_channel)


async def serve_channel(websocket: WebSocket, address: str, refuse: Refuse) -> None:
    """A signed-in person's live channel: ``hello``, then each notice as it comes; what
    the client sends is read (at most a message's size) and dropped."""
    web = web_of(websocket)
    account_of = await web.account_of(websocket)
    if account_of is None:
        await refuse("sign in first", CLOSE_REFUSED)
        return
    hub, limits = web.server, web.limits
    account = account_of.id
    channel = hub.notices.open(account)

    async def keep_online() -> None:
        while hub.relay is not None:
            with contextlib.suppress(Exception):
                await hub.relay.mark_online(account, ONLINE_SECONDS)
            await asyncio.sleep(ONLINE_SECONDS / 2)

    async def drain() -> None:
        # the client has nothing to say here: a flood past the pace is closed
        pace = Pace(limits.messages_per_second, limits.message_burst)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if pace.wait() > 0:
                await refuse(
                    f"more than {limits.messages_per_second:g} messages a second", CLOSE_TOO_MANY
                )
                return

    marker = asyncio.create_task(keep_online())
    reader = asyncio.create_task(drain())
    try:
        await websocket.send_json({"type": "hello", "account": account})
        while not reader.done():
            getter = asyncio.create_task(channel.queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            await websocket.send_json({"type": "notice", **getter.result()})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.notices.close(channel)
        for task in (marker, reader):
            task.cancel()


ROUTES: list[BaseRoute] = [WebSocketRoute("/ws/me", channel_socket)]

FEATURE = Feature("channel", ROUTES)
