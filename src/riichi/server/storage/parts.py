"""What a feature writes with a table's opening and a match's end, in that same
transaction.

Contract: a feature that keeps something of a table's start or end (money closes the
offer a table opens from; ratings write each seat's figures and rate the match)
registers its part here when its package is imported, as its tables join the one
metadata; every site imports every feature before it serves (``riichi.server``
imports the app that lists them). Storage writes its own part first (the table, its
seats, the chips its plan moves, the plan's generic rows and updates), then every
registered part in the order registered; a part that raises undoes the whole
transaction, the action that ended the match with it.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Connection

from riichi.platform.tables import FinishPlan
from riichi.server.storage.rows import NewTable

Opening = Callable[[Connection, NewTable], None]
Finishing = Callable[[Connection, str, FinishPlan, float], None]  # (table, plan, finished)

OPENING: list[Opening] = []
FINISHING: list[Finishing] = []


def at_opening(part: Opening) -> Opening:
    if part not in OPENING:
        OPENING.append(part)
    return part


def at_finish(part: Finishing) -> Finishing:
    if part not in FINISHING:
        FINISHING.append(part)
    return part
