"""The ratings feature's pages as data: the leaderboard and a player's page (rating
and its history, figures rated and all, games, reviews), read off the event loop."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from riichi.server.feature import PLAYER_REVIEWS
from riichi.server.hub import paged
from riichi.server.protocol import NotFound
from riichi.server.ratings.records import RecordStore

if TYPE_CHECKING:
    from riichi.server.hub import Server


async def leaderboard(hub: Server, limit: int, offset: int) -> dict[str, Any]:
    rows, total = await asyncio.to_thread(hub.desk(RecordStore).leaderboard, limit, offset)
    return paged([r.to_dict() for r in rows], total, limit, offset)


async def player(hub: Server, key: str, limit: int, offset: int) -> dict[str, Any]:
    """A player's page: rating and its history, figures (rated and all), games."""
    name = await asyncio.to_thread(player_name, hub, key)
    if name is None:
        raise NotFound("no such player")
    now = hub.clock.now()
    rating, history, totals, (games, total), reviewed = await asyncio.gather(
        asyncio.to_thread(hub.desk(RecordStore).rating, key),
        asyncio.to_thread(hub.desk(RecordStore).history, key),
        # today's Daily Wall attempts are shown when their day is over, not before
        asyncio.to_thread(hub.desk(RecordStore).totals, key, now),
        asyncio.to_thread(hub.desk(RecordStore).games, key, limit, offset, now),
        asyncio.to_thread(hub.desk(PLAYER_REVIEWS).of_player, key),
    )
    return {
        "player": key,
        "name": name,
        "computer": key.startswith("computer:"),
        "rating": rating,
        "history": history,
        "stats": {k: v.summary() for k, v in totals.items()},
        "games": paged(games, total, limit, offset),
        "reviews": reviewed,
    }


def player_name(hub: Server, key: str) -> str | None:
    kind, _, rest = key.partition(":")
    if kind == "account" and rest.isdigit() and len(rest) <= 18:  # a database integer
        return hub.store.accounts.names([int(rest)]).get(int(rest))
    if kind == "computer":
        found = hub.desk(RecordStore).rating(key)
        return None if found is None else str(found["name"])
    return None
