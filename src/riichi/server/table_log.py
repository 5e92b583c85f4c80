"""A live table's log: where its actions and clock rows are written, and what a failed
write leaves it sure of.

Contract:

- Every row goes through the group commit (``Writer``) under the table's lease
  (``epoch``); a refused lease means another process owns the table now: this copy
  lets go (``let_go(MOVED)``) and the refusal is raised.
- A write that fails otherwise leaves the log ``unsure``: the action may have been
  stored with its reply lost. Before the next write ``settle`` asks the log how many
  actions it holds: as many as the table holds, it goes on; one more, the log is the
  truth and the table is read again (``let_go(RELOADED)``); out of reach, the write is
  refused and nothing changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from riichi.server.protocol import MOVED, RELOADED, ProtocolError
from riichi.server.storage import ActionRow, ClockRow, LeaseLost, Store, Writer

log = logging.getLogger(__name__)


class TableLog:
    def __init__(
        self,
        table_id: str,
        store: Store,
        writer: Writer,
        epoch: int | None,
        let_go: Callable[[tuple[str, int]], None],
    ) -> None:
        self.table_id = table_id
        self.store = store
        self.writer = writer
        self.epoch = epoch  # the lease this process holds (None: no lease is checked)
        self.let_go = let_go  # this copy of the table stops; its viewers are told why
        self.unsure = False

    async def write(self, row: ActionRow | ClockRow) -> None:
        try:
            await self.writer.append(row)
        except LeaseLost:
            log.warning("table %s: lease lost to another process; let go", self.table_id)
            self.let_go(MOVED)
            raise

    async def settle(self, held: int) -> None:
        """Before a write, after one failed: whether the log holds the ``held`` actions
        this copy holds."""
        if not self.unsure:
            return
        try:
            stored = await asyncio.to_thread(self.store.action_count, self.table_id)
        except Exception:
            raise ProtocolError(f"table {self.table_id}: its log is out of reach; retry") from None
        if stored == held:
            self.unsure = False
            return
        log.warning(
            "table %s: the log holds %d actions, this copy %d; read again",
            self.table_id,
            stored,
            held,
        )
        self.let_go(RELOADED)
        raise ProtocolError(f"table {self.table_id}: read again from its log; reconnect")
