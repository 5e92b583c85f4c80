"""Connections per address counted across processes (riichi.server.relay.SharedSockets):
connections from one address that arrive at once are each counted."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from riichi.server.relay import SharedSockets


class SlowRedis:
    """A Redis whose reads take a moment, as a real one's do, with one other process
    holding ``others`` connections from the address."""

    def __init__(self, others: int) -> None:
        self.hashes: dict[str, dict[str, int]] = {}
        self.others = others

    async def hgetall(self, key: str) -> dict[str, int]:
        await asyncio.sleep(0.01)
        return {**self.hashes.get(key, {}), "other": self.others}

    async def mget(self, keys: list[str]) -> list[Any]:
        await asyncio.sleep(0.01)
        return [1 for _ in keys]

    async def hset(self, key: str, field: str, value: int) -> None:
        self.hashes.setdefault(key, {})[field] = value

    async def expire(self, key: str, seconds: int) -> None:
        pass

    async def hdel(self, key: str, field: str) -> None:
        self.hashes.get(key, {}).pop(field, None)


def _sockets(others: int) -> SharedSockets:
    errors = SimpleNamespace(labels=lambda _: SimpleNamespace(inc=lambda: None))
    relay = SimpleNamespace(
        redis=SlowRedis(others),
        me="me",
        registry=SimpleNamespace(metrics=SimpleNamespace(redis_errors=errors)),
    )
    return SharedSockets(relay)  # type: ignore[arg-type]


def test_connections_arriving_at_once_are_each_counted() -> None:
    """A limit of 3 with another process holding 1: of five connections from one
    address at once, two are admitted, and this process counts both."""

    async def scenario() -> tuple[list[bool], int]:
        sockets = _sockets(others=1)
        admitted = await asyncio.gather(*(sockets.acquire("10.0.0.1", 3) for _ in range(5)))
        return list(admitted), sockets.local["10.0.0.1"]

    admitted, counted = asyncio.run(scenario())
    assert admitted.count(True) == 2 and counted == 2


def test_a_released_connection_lets_one_more_in() -> None:
    async def scenario() -> list[bool]:
        sockets = _sockets(others=0)
        first = [await sockets.acquire("10.0.0.2", 2) for _ in range(3)]
        await sockets.release("10.0.0.2")
        return [*first, await sockets.acquire("10.0.0.2", 2)]

    assert asyncio.run(scenario()) == [True, True, False, True]
