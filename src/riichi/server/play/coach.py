"""The coach at practice tables: asked by a seat (``{"type": "coach"}``), the roster
computer's view of that seat's decision now, from the seat's own observation, said as
a review says it.

Contract: answered by the table's own task (the table hands the message over), so the
match is read by its one owner; refused at a table whose kind does not allow it, to a
spectator, and where the seat has nothing to decide; reckoned once a decision (asked
again at the same version, the same answer); the reckoning runs off the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any
from weakref import WeakKeyDictionary

from riichi.bots.review import advise
from riichi.bots.reviewers import ExpertReviewer
from riichi.platform.tables import kind_rules
from riichi.server.protocol import ProtocolError, Viewer
from riichi.server.table import LiveTable


class Coach:
    """Each table's adviser (made when first asked) and its last answer."""

    def __init__(self) -> None:
        self._advisers: WeakKeyDictionary[LiveTable, ExpertReviewer] = WeakKeyDictionary()
        # (version, options): the answer for the decision at that version
        self._advice: WeakKeyDictionary[LiveTable, tuple[int, list[dict[str, Any]]]] = (
            WeakKeyDictionary()
        )

    async def answer(self, table: LiveTable, viewer: Viewer) -> None:
        if not kind_rules(table.stored.kind).coach:
            raise ProtocolError(
                f"table {table.id}: the coach helps at practice tables only, not at a"
                f" {table.stored.kind} table"
            )
        seat = viewer.seat
        if seat is None:
            raise ProtocolError(f"table {table.id}: the coach speaks to a seat, not a spectator")
        if len(table.match.legal_actions().get(seat, ())) < 2:
            raise ProtocolError(f"table {table.id}: seat {seat} has nothing to decide now")
        known = self._advice.get(table)
        if known is None or known[0] != table.version:
            adviser = self._advisers.setdefault(table, ExpertReviewer())
            observation = table.match.observe(seat)
            reds = table.match.rules.red_fives
            options = await asyncio.to_thread(advise, observation, adviser, reds)
            known = self._advice[table] = (table.version, [o.to_dict() for o in options])
        version, advice = known
        viewer.put_json({"type": "coach", "version": version, "options": advice})
