"""Connection limits uvicorn does not have: a deadline for each request's headers, a
cap on the connections one address holds open, and a way to drop a websocket
whose peer stopped reading.

Without them, a client that opens sockets and sends nothing (or a byte at a
time) keeps each one, and its file descriptor, forever. A connection must
send a request's headers within ``HEADER_SECONDS`` of opening (or of its last
response); an address may hold ``PER_ADDRESS`` connections that are still
plain HTTP (websockets are counted by the app once upgraded). A proxy the operator
names is not held to that cap: every visitor's connection arrives from its address,
and it keeps its own limits; the app's limits count the forwarded addresses.

Request targets are capped at ``MAX_URL`` bytes: the websocket handshake
itself hangs on a line over 8 KB. A request's whole head (its line and headers)
is capped at ``MAX_HEAD`` bytes, counted as they arrive, so a client cannot
make the parser buffer megabytes of one header.

The client's address is the connection's own: ``X-Forwarded-For`` and its kin
are read only from the proxies the operator names (``proxy_settings``), never
by default, since any local client or a proxy passing the header through
could otherwise choose the address every limit counts by.

A graceful close waits for the peer to read what is queued, which a peer that
never reads never does. ``GuardedWebSocket`` gives the app an ``abort`` (in
the scope's ``riichi.transport`` extension) and turns uvicorn's own closes
(a ping left unanswered) into aborts after ``CLOSE_GRACE`` seconds.
"""

from __future__ import annotations

import asyncio
import functools
import socket
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

HEADER_SECONDS = 10.0
PER_ADDRESS = 64
MAX_URL = 2048  # bytes; longer request targets get a 400 at once
MAX_HEAD = 32 * 1024  # bytes of a request's line and headers; more gets a 431
TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-length: 0\r\nconnection: close\r\n\r\n"
)


def proxy_settings(proxies: Sequence[str]) -> dict[str, Any]:
    """uvicorn's settings for forwarded addresses: believed only from ``proxies``."""
    if not proxies:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": list(proxies)}


@functools.cache  # one config a server: read once, not at every connection
def proxies_of(config: Any) -> frozenset[str]:
    """The proxy addresses uvicorn's ``config`` believes (none without proxy headers;
    a wildcard names no address)."""
    if not config.proxy_headers:
        return frozenset()
    named = config.forwarded_allow_ips
    if isinstance(named, str):
        named = named.split(",")
    return frozenset(a.strip() for a in named if a.strip() and a.strip() != "*")


CLOSE_GRACE = 5.0
SEND_BUFFER = 64 * 1024


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header deadline and a per-address cap."""

    open_by_address: ClassVar[Counter[str]] = Counter()  # one count for the whole process
    header_seconds = HEADER_SECONDS
    per_address = PER_ADDRESS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        self._head: int | None = 0  # bytes of the request head so far; None once read

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else "unknown"
        if address in proxies_of(self.config):
            self._arm()
            return
        if self.open_by_address[address] >= self.per_address:
            self.connections.discard(self)
            transport.abort()
            return
        self.open_by_address[address] += 1
        self._counted = address
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.abort()

    def _uncount(self) -> None:
        address, self._counted = self._counted, None
        if address is not None:
            self.open_by_address[address] -= 1
            if self.open_by_address[address] <= 0:
                del self.open_by_address[address]

    def data_received(self, data: bytes) -> None:
        if self._head is None:
            super().data_received(data)
            return
        # fed first: the same read may finish the head and carry the body (which the
        # app bounds by itself); only a head still open past the limit is refused
        self._head += len(data)
        super().data_received(data)
        if self._head is not None and self._head > MAX_HEAD:
            self._head = None
            self._disarm()
            if not self.transport.is_closing():
                self.transport.write(TOO_LARGE)
                self.transport.close()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_URL:
            # raised inside the parser: uvicorn answers 400 and closes
            raise ValueError(f"request target over {MAX_URL} bytes")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        self._head = None
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._head = 0
            self._arm()  # the next request's headers have the same deadline and size

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, with an abort the app can call and closes that end."""

    send_buffer = SEND_BUFFER

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # A small kernel buffer: a peer that stops reading is noticed (its outbox fills)
        # after kilobytes, not megabytes, and costs no more than that.
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"]["riichi.transport"] = {"abort": self.transport.abort}

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        # the close above waits for the peer to read; a dead peer never will
        self.loop.call_later(CLOSE_GRACE, self.transport.abort)
