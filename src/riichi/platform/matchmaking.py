"""The rated queue: who sits down together, and when roster computers fill in."""

from __future__ import annotations

from dataclasses import dataclass

FILL_AFTER = 30.0  # seconds a player waits before roster computers fill the table


@dataclass(frozen=True, slots=True)
class Waiting:
    account: int
    pool: str
    since: float


def seat_tables(
    waiting: list[Waiting], now: float, seats: int = 4, fill_after: float = FILL_AFTER
) -> list[list[Waiting | None]]:
    """Tables to start now: players of one pool, longest waiting first. A table is full
    of players, or (once its first player has waited ``fill_after``) as many as there
    are, with ``None`` for each seat a roster computer takes."""
    tables: list[list[Waiting | None]] = []
    pools: dict[str, list[Waiting]] = {}
    for entry in sorted(waiting, key=lambda w: (w.since, w.account)):
        pools.setdefault(entry.pool, []).append(entry)
    for queue in pools.values():
        while len(queue) >= seats:
            tables.append(list(queue[:seats]))
            del queue[:seats]
        if queue and now - queue[0].since >= fill_after:
            tables.append([*queue, *[None] * (seats - len(queue))])
    return tables
