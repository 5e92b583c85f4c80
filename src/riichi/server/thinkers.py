"""Bots that search, thinking in worker processes.

A searching bot's decision (`Bot.thinks`: `master` at its own turn after a draw)
takes a tenth of a second to a few tenths of CPU: on the event loop that serves
every table it would hold them all up. So it is worked out in a spawned process
pool; the table's owner awaits it, as it would a person, and commits it as any
other action (one owner per table: nothing else moves the match meanwhile).

Bounded: at most ``queue`` decisions wait for the ``workers``. Past that (the site
is busy), or if the pool broke (a worker killed), the table plays the bot's quick
choice (`Bot.quick`: for `master`, expert's) at once, so a busy pool slows no table
beyond its own turn, and no table waits on another's search.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from riichi.bots import make_bot
from riichi.game import Action, Observation

log = logging.getLogger("riichi.server")

QUEUE = 8


def decide(kind: str, seed: str, observation: Observation) -> Action:
    """In a worker: the bot's decision (bots are pure functions of seed and view)."""
    return make_bot(kind, seed).act(observation)


class Thinkers:
    """The process pool a site's searching bots think in."""

    def __init__(self, workers: int = 1, queue: int = QUEUE) -> None:
        self.workers = workers
        self.queue = queue
        self.waiting = 0
        self.served = 0  # decisions a worker made
        self.declined = 0  # decisions played quick because the pool was busy or broken
        self._pool: ProcessPoolExecutor | None = None

    async def decide(self, kind: str, seed: str, observation: Observation) -> Action | None:
        """The bot's decision from a worker; None when the pool is busy or broke (the
        caller plays the quick choice)."""
        if self.workers <= 0 or self.waiting >= self.queue + self.workers:
            self.declined += 1
            return None
        if self._pool is None:
            # spawned, not forked: a fork would copy the server's threads and sockets
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self._pool, decide, kind, seed, observation)
            self.served += 1
            return action
        except BrokenProcessPool:
            log.warning("the thinkers' pool broke; starting anew for the next decision")
            self.close()
            self.declined += 1
            return None
        finally:
            self.waiting -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
