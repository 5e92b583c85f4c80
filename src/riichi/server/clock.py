"""The time, injected: the server reads it and waits on it only through a ``Clock``.

``SystemClock`` is the wall clock. ``FakeClock`` stands still until a test moves
it, and wakes whoever waits for a time it has reached, so clock tests never
sleep.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once ``now() >= when``."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        delay = when - time.time()
        if delay > 0:
            await asyncio.sleep(delay)


class FakeClock:
    """A clock that moves only when told: ``advance(seconds)``, from any thread."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._waiters: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:  # checked and registered at once: no advance slips between
            if self._now >= when:
                return
            self._waiters.append((when, loop, future))
        try:
            await future
        finally:
            with self._lock:
                self._waiters = [w for w in self._waiters if w[2] is not future]

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
            due = [w for w in self._waiters if w[0] <= self._now]
        for _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


async def sleep_or_woken(clock: Clock, wake: float, woken: asyncio.Event) -> None:
    """Sleep until ``wake`` on ``clock``, or until ``woken`` is set (then cleared): how
    a desk's runner waits for its next step or for a table's end."""
    sleeper = asyncio.ensure_future(clock.sleep_until(wake))
    waiter = asyncio.ensure_future(woken.wait())
    try:
        await asyncio.wait({sleeper, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sleeper, waiter):
            task.cancel()
        await asyncio.gather(sleeper, waiter, return_exceptions=True)
    woken.clear()
