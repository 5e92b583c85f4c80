"""Each signed-in person's live channel: what the site tells them as it happens (a
rated table seated, a tournament round's table started, an invitation, a money table
full and starting), and who is online.

Contract:

- A notice is for one account. ``Notices.send`` delivers it to every channel that
  account has open in this process and, on a site of several processes, publishes
  it on the relay's broadcast channel so the others deliver it to theirs: a notice
  reaches a person whichever process their channel is on. A person with no channel
  open misses it; the lobby's lists still show what it said.
- A channel holds a bounded queue (``QUEUE``): a reader that does not keep up loses
  the oldest notices, never slows the sender.
- Online is "has a channel open": per process, and on a shared site a key in Redis
  each process refreshes while the channel lives. A person is told only about the
  people they played with or invited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)
QUEUE = 32  # notices waiting for one channel
ONLINE_SECONDS = 60  # a shared site's online mark lives this long unless refreshed

Publish = Callable[[int, dict[str, Any]], None]


class Channel:
    """One open channel of one account: the notices waiting for it."""

    def __init__(self, account: int) -> None:
        self.account = account
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE)

    def put(self, notice: dict[str, Any]) -> None:
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()  # the oldest goes: the sender never waits
        self.queue.put_nowait(notice)


class Notices:
    """The channels open in this process, and the way to the others'."""

    def __init__(self) -> None:
        self.channels: dict[int, set[Channel]] = {}
        # set on a shared site: a notice for the other processes (the relay publishes)
        self.publish: Publish | None = None

    def open(self, account: int) -> Channel:
        channel = Channel(account)
        self.channels.setdefault(account, set()).add(channel)
        return channel

    def close(self, channel: Channel) -> None:
        mine = self.channels.get(channel.account)
        if mine is not None:
            mine.discard(channel)
            if not mine:
                del self.channels[channel.account]

    def send(self, account: int, notice: dict[str, Any]) -> None:
        """Tell ``account`` now, wherever its channels are."""
        self.deliver(account, notice)
        if self.publish is not None:
            self.publish(account, notice)

    def deliver(self, account: int, notice: dict[str, Any]) -> None:
        """Put a notice in this process's channels of ``account``."""
        for channel in list(self.channels.get(account, ())):
            channel.put(notice)

    def online_here(self) -> set[int]:
        return set(self.channels)


__all__ = ["QUEUE", "Channel", "Notices"]
