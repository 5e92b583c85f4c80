"""The rated queue: who sits down together, and when roster computers fill in.

One person's accounts never share a rated table: two entries that joined from
the same address or the same browser (keyed hashes of them) are seated at
different tables, so farming a rating with one's own accounts needs as many
addresses and browsers as accounts.
"""

from __future__ import annotations

from dataclasses import dataclass

FILL_AFTER = 30.0  # seconds a player waits before roster computers fill the table


@dataclass(frozen=True, slots=True)
class Waiting:
    account: int
    pool: str
    since: float
    address: str | None = None  # where it joined from, hashed; None: unknown
    device: str | None = None  # the browser it joined from, hashed; None: unknown

    @property
    def marks(self) -> set[str]:
        """What two entries of one person would share: the address, the browser."""
        out = set()
        if self.address:
            out.add(f"a:{self.address}")
        if self.device:
            out.add(f"d:{self.device}")
        return out


def seat_tables(
    waiting: list[Waiting], now: float, seats: int = 4, fill_after: float = FILL_AFTER
) -> list[list[Waiting | None]]:
    """Tables to start now: players of one pool, longest waiting first, never two from
    one address or browser at a table. A table is full of players, or (once its first player has
    waited ``fill_after``) as many as go together, with ``None`` for each seat a
    roster computer takes."""
    tables: list[list[Waiting | None]] = []
    pools: dict[str, list[Waiting]] = {}
    for entry in sorted(waiting, key=lambda w: (w.since, w.account)):
        pools.setdefault(entry.pool, []).append(entry)
    for queue in pools.values():
        while len(table := _apart(queue, seats)) == seats:
            tables.append(list(table))
            queue[:] = [w for w in queue if w not in table]
        if queue and now - queue[0].since >= fill_after:
            table = _apart(queue, seats)
            tables.append([*table, *[None] * (seats - len(table))])
    return tables


def _apart(queue: list[Waiting], seats: int) -> list[Waiting]:
    """The longest waiting first, then each next one from an address and a browser
    not yet seated."""
    table: list[Waiting] = []
    used: set[str] = set()
    for entry in queue:
        if entry.marks & used:
            continue
        table.append(entry)
        used |= entry.marks
        if len(table) == seats:
            break
    return table
