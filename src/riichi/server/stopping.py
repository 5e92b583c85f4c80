"""A process of a shared site that is told to stop (SIGTERM: a deploy, a rolling
restart by ``riichi serve --workers`` on SIGHUP) hands its tables over first.

Contract: on the first SIGTERM the hub hands every table back at once
(``Server.hand_over``: the action being committed is stored, the leases expire now,
the other processes are told and claim them, the viewers are told to move with the
close code they reconnect on), and only then is the server's own stop run (uvicorn
closes its connections and the app's shutdown follows). A second SIGTERM stops at
once. A process alone on its database has nobody to hand to: it stops as before and
restores its tables when it starts again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from riichi.server.hub import Server

log = logging.getLogger(__name__)


def hand_over_on_sigterm(hub: Server) -> None:
    """Put the hand-over before whatever SIGTERM did (the main thread only: signals
    are delivered there; a test client's app runs elsewhere and stops as it did)."""
    if not hub.registry.shared or threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    previous = signal.getsignal(signal.SIGTERM)
    tasks: set[asyncio.Task[None]] = set()  # held while they run

    def then_stop(sig: int, frame: FrameType | None) -> None:
        if callable(previous):
            previous(sig, frame)
        else:  # nobody else listened: the default, a stop
            signal.signal(signal.SIGTERM, previous)
            os.kill(os.getpid(), signal.SIGTERM)

    def on_term(sig: int, frame: FrameType | None) -> None:
        if hub.registry.draining:  # told again: stop now
            then_stop(sig, frame)
            return
        log.info("SIGTERM: handing the tables over before stopping")
        loop.call_soon_threadsafe(lambda: tasks.add(loop.create_task(hand_over())))

    async def hand_over() -> None:
        try:
            await hub.hand_over()
        except Exception:
            log.exception("the hand-over failed")
        then_stop(signal.SIGTERM, None)

    signal.signal(signal.SIGTERM, on_term)
