"""The server's garbage collection: frozen objects that become garbage are collected."""

from __future__ import annotations

import gc
import weakref

from riichi.server.collector import collect_frozen


class Node:
    """A cycle, as a finished match's objects form them: only the cyclic collector
    frees it."""

    def __init__(self) -> None:
        self.me = self


def test_garbage_frozen_while_alive_is_collected_at_the_thaw() -> None:
    """A finished game's objects were alive at a freeze and became garbage after it: a
    collection alone leaves them (frozen objects are skipped); the thaw's collection
    frees them, and what is still alive stays frozen."""
    try:
        gone, kept = Node(), Node()
        ref = weakref.ref(gone)
        gc.freeze()
        del gone
        gc.collect()
        assert ref() is not None  # frozen: skipped by every collection
        assert collect_frozen() >= 1
        assert ref() is None
        assert gc.get_freeze_count() > 0 and kept.me is kept
    finally:
        gc.unfreeze()
