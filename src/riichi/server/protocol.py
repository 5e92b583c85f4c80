"""What a table's viewers are told and how they are refused: the close codes, the
protocol's errors, and a viewer (one connection) with its bounded outbox.

A viewer that lets too many messages pile up unread is disconnected (``CLOSE_TOO_SLOW``)
and resyncs on its next connection: a slow reader never slows the table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import orjson

from riichi.errors import RiichiError, excerpt
from riichi.game import Action, IllegalActionError
from riichi.server.limits import Limits

log = logging.getLogger(__name__)

# Close codes: the first two are final (a client must not retry), the others not.
CLOSE_REFUSED = 4403  # a bad seat link, or a page of another site
CLOSE_NO_TABLE = 4404
CLOSE_TOO_SLOW = 4408  # messages piled up unread
CLOSE_TOO_MANY = 4429  # too many connections from one address, or too many messages
CLOSE_UNSUPPORTED = 1003  # a binary frame
CLOSE_MOVED = 4410  # another process owns the table now: reconnect
MOVED = ("table {table} has moved to another server; reconnect", CLOSE_MOVED)
RELOADED = ("table {table} is read again from its log; reconnect", CLOSE_MOVED)
IDLE = ("table {table} closed: nobody played at it", CLOSE_NO_TABLE)
CLOSED = ("table {table} was closed by the site's operators", CLOSE_NO_TABLE)
LEFT = ("table {table} closed: its player left", CLOSE_NO_TABLE)


class ProtocolError(RiichiError):
    """A message the table refuses; nothing has changed."""


class Busy(ProtocolError):
    """A limit on how much one address, or everyone, may start (HTTP 429 or 503)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class NotFound(ProtocolError):
    """No such table, game, player or tournament (HTTP 404)."""


def to_json(message: dict[str, Any]) -> str:
    """A message as the JSON text every viewer of its kind gets (orjson: the publish path
    serialises one state per seat per event)."""
    return orjson.dumps(message).decode()


class Viewer:
    """One connection: its seat (None for a spectator) and its bounded outbox of JSON texts."""

    def __init__(self, seat: int | None, limits: Limits) -> None:
        self.seat = seat
        self.account: int | None = None  # signed in as
        self.claims = False  # signed in, by a link to a seat no account holds: takes it
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.limits = limits
        self.queued_bytes = 0
        self.kicked: asyncio.Event = asyncio.Event()
        self.reason = ""
        self.code = CLOSE_TOO_SLOW
        self.on_kick: Callable[[], None] | None = None  # the connection closes itself

    def put(self, text: str) -> None:
        """Queue a message; a viewer that lets too much pile up is disconnected instead."""
        if self.kicked.is_set():
            return
        if (
            self.outbox.qsize() >= self.limits.outbox_messages
            or self.queued_bytes + len(text) > self.limits.outbox_bytes
        ):
            log.info(
                "a viewer (seat %s) too slow: %d messages, %d bytes unread; disconnected",
                self.seat,
                self.outbox.qsize(),
                self.queued_bytes,
            )
            self.kick("too slow: messages piled up unread; reconnect to resync")
            return
        self.queued_bytes += len(text)
        self.outbox.put_nowait(text)

    def put_json(self, message: dict[str, Any]) -> None:
        self.put(to_json(message))

    def waiting(self) -> bool:
        """Whether a message is queued (``next`` would not wait)."""
        return not self.outbox.empty()

    async def next(self) -> str:
        text = await self.outbox.get()
        self.queued_bytes -= len(text)
        return text

    def kick(self, reason: str, code: int = CLOSE_TOO_SLOW) -> None:
        """Disconnect this viewer with ``code``; what was queued for it is dropped."""
        self.reason, self.code = reason, code
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued_bytes = 0
        if not self.kicked.is_set():
            self.kicked.set()
            if self.on_kick is not None:
                self.on_kick()


def action_of(
    table: str, viewer: Viewer, message: dict[str, Any], version: int
) -> tuple[int, Action]:
    """The seat and action a viewer's ``action`` message plays at ``table``, now at
    ``version``: refused from a spectator, for another seat, or naming any other version
    (a stale or replayed message never answers a decision nobody saw)."""
    if viewer.seat is None:
        raise ProtocolError(f"table {table}: spectators cannot act")
    if "seat" in message and message["seat"] != viewer.seat:
        raise ProtocolError(
            f"table {table}: you sit in seat {viewer.seat}, not seat {excerpt(message['seat'])}"
        )
    asked = message.get("version")
    if type(asked) is not int:
        raise ProtocolError(f"table {table}: an action names the version of the state it answers")
    if asked != version:
        raise ProtocolError(
            f"table {table}: stale action for version {asked}; the table is at version {version}"
        )
    try:
        action = Action.from_dict(message.get("action"))
    except IllegalActionError as exc:
        raise ProtocolError(str(exc)) from None
    return viewer.seat, action
