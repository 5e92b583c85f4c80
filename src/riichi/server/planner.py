"""Planning a competition's rounds off the request path.

A season's or a tournament's schedule is pure computation (`plan_rounds` tries whole
schedules for the fewest repeat meetings): seconds for a large season. On the event
loop, or in one of its threads (which hold the interpreter's lock while they
compute), it would hold up every table and request of the process. So plans are
made in one spawned worker process, bounded three ways: one plan waiting per owner
(an account asks again only once its plan is made), ``queue`` plans waiting in all,
and ``seconds`` for each (past that the worker is stopped and started anew, and the
plan refused). A refusal changes nothing: the season or tournament stays as it was.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from riichi.server.protocol import Busy

log = logging.getLogger("riichi.server")
T = TypeVar("T")

QUEUE = 4
SECONDS = 60.0


class Planner:
    """The worker process plans are made in."""

    def __init__(self, queue: int = QUEUE, seconds: float = SECONDS) -> None:
        self.queue = queue
        self.seconds = seconds
        self.owners: set[str] = set()
        self.made = 0
        self._pool: ProcessPoolExecutor | None = None

    async def plan(self, owner: str, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in the worker, for ``owner`` (an account's key); ``Busy`` when
        the owner has a plan waiting, the queue is full, or it ran out of time."""
        if owner in self.owners:
            raise Busy("a plan of yours is being made: wait until it is done", 429)
        if len(self.owners) >= self.queue:
            raise Busy("the site is planning other competitions: try again in a minute", 429)
        if self._pool is None:
            # spawned, not forked: a fork would copy the server's threads and sockets
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self.owners.add(owner)
        try:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._pool, work, *args)
            result = await asyncio.wait_for(future, self.seconds)
            self.made += 1
            return result
        except TimeoutError:
            log.warning("a plan for %s ran past %s s: its worker is stopped", owner, self.seconds)
            self.close()
            raise Busy(f"planning took over {self.seconds:.0f} s and was stopped", 503) from None
        except BrokenProcessPool:
            self.close()
            raise Busy("the planner stopped: try again", 503) from None
        finally:
            self.owners.discard(owner)

    def close(self) -> None:
        if self._pool is not None:
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.kill()  # a plan past its time would hold the worker
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = ["Planner"]
