"""A finished game's downloads: the replay's frames, our record, tenhou.net/6 JSON and
mjai, built off the event loop one at a time and kept in a small cache."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from async_lru import alru_cache

from riichi.errors import excerpt
from riichi.formats.mjai import to_jsonl, write_mjai
from riichi.formats.tenhou6 import write_tenhou6
from riichi.server.hub import Server
from riichi.server.protocol import NotFound
from riichi.server.views import replay_frames


class Downloads:
    def __init__(self, hub: Server) -> None:
        self.hub = hub
        self._replays = asyncio.Semaphore(1)
        self.download = alru_cache(maxsize=8)(self._download)

    async def game_file(self, game_id: str, fmt: str) -> bytes:
        """A finished game's download, once it may be shown (a Daily Wall game: after
        its day, to everyone alike)."""
        game = await self.hub.finished(game_id)
        if not self.hub.may_see(game.stored):
            raise NotFound("this game is shown when its day is over")
        return await self.download(game_id, fmt)

    async def _download(self, game_id: str, fmt: str) -> bytes:
        """A finished game as bytes: ``replay`` frames, our ``record``, ``tenhou6``
        (JSON) or ``mjai`` (JSON Lines)."""
        game = await self.hub.finished(game_id)
        players = [s.public() for s in game.seats]
        builders: dict[str, Callable[[], bytes]] = {
            "replay": lambda: _json_bytes(
                {
                    "players": players,
                    "frames": replay_frames(game.match, players, game.timeouts, game.stored.bet),
                }
            ),
            "record": lambda: _json_bytes(game.record()),
            "tenhou6": lambda: _json_bytes(write_tenhou6(game.match)),
            "mjai": lambda: to_jsonl(write_mjai(game.match)).encode(),  # JSON Lines
        }
        build = builders.get(fmt)
        if build is None:
            raise NotFound(f"unknown format {excerpt(fmt)}; known: record, tenhou6, mjai")
        async with self._replays:  # one rebuild at a time: the others wait, the loop does not
            return await asyncio.to_thread(build)


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value).encode()
