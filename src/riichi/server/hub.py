"""The server's tables: created, loaded on demand, restored in the background, unloaded
when finished and unwatched; finished games served from bounded caches.

Nothing here blocks the event loop on the database or on a long replay: reads
and rebuilds run in worker threads, writes go through the store's writer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from async_lru import alru_cache

from riichi.errors import excerpt
from riichi.formats.tenhou6 import write_tenhou6
from riichi.game import Match, commitment
from riichi.rules import Length, RuleSet, find_ruleset
from riichi.server.limits import Limits, RateLimits
from riichi.server.storage import NewTable, Store, StoredTable, Writer
from riichi.server.table import (
    LiveTable,
    ProtocolError,
    SeatSpec,
    load_match,
    public_info,
    seat_specs,
)
from riichi.server.views import replay_frames, standings_of

log = logging.getLogger(__name__)
SEED_LENGTH = 64


class NotFound(ProtocolError):
    """No such table or game (HTTP 404)."""


class Busy(ProtocolError):
    """A limit on how much one address, or everyone, may start (HTTP 429 or 503)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game rebuilt from storage."""

    stored: StoredTable
    match: Match
    seats: list[SeatSpec]

    def record(self) -> dict[str, Any]:
        """Our record with the seed revealed, and the salt and commitment to check it."""
        return {
            **self.match.record(),
            "commitment": self.stored.commitment,
            "salt": self.stored.salt,
        }


class Server:
    """Live tables by id, and the store they are rebuilt from."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        limits: Limits | None = None,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.writer = Writer(store)
        self.clock = clock
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.rates = RateLimits()
        self.tables: dict[str, LiveTable] = {}
        self.sockets: Counter[str] = Counter()
        self.live = 0
        self._loading: dict[str, asyncio.Task[LiveTable | None]] = {}
        self._restore: asyncio.Task[None] | None = None
        self._replays = asyncio.Semaphore(1)
        # per server: bounded caches of finished games and their downloads
        self.finished = alru_cache(maxsize=32)(self._finished)
        self.download = alru_cache(maxsize=8)(self._download)

    async def start(self) -> None:
        """Count the live tables and restore them in the background; serve meanwhile."""
        self.live = await asyncio.to_thread(self.store.count_tables, "live")
        self._restore = asyncio.create_task(self._restore_all(), name="restore tables")

    async def _restore_all(self) -> None:
        stored = await asyncio.to_thread(self.store.list_tables, "live")
        for table in stored:
            try:
                await self.table(table.id)
            except Exception:
                log.exception("table %s: could not be restored", table.id)
        log.info("restored %d live tables", len(stored))

    async def close(self) -> None:
        if self._restore is not None:
            self._restore.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        await asyncio.to_thread(self.writer.close)
        self.store.close()

    # ----------------------------------------------------------- live tables

    async def table(self, table_id: str) -> LiveTable | None:
        """The table in memory, loading it from storage first if need be."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.create_task(self._load(table_id))
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> LiveTable | None:
        stored = await asyncio.to_thread(self.store.get_table, table_id)
        if stored is None:
            return None
        match, seats = await asyncio.to_thread(load_match, stored, self.store)
        if match.standings is not None and stored.status == "live":
            # the last action was stored but the end of the match was not (an older
            # version wrote them apart): finish it now
            standings = standings_of(match) or []
            await asyncio.to_thread(self.store.finish, table_id, self.clock(), standings)
            self.live -= 1
        table = self._register(stored, match, seats)
        return table

    def _register(self, stored: StoredTable, match: Match, seats: list[SeatSpec]) -> LiveTable:
        table = LiveTable(
            stored,
            match,
            seats,
            self.store,
            self.writer,
            self.clock,
            self.limits,
            self.bot_delay,
            on_idle=self._unload,
        )
        self.tables[stored.id] = table
        table.start()
        return table

    def _unload(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory; storage serves it from now on."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if not table.closed and table.stored.status == "live":
            self.live -= 1
        table.closed = True

    async def create(self, body: Any, address: str) -> tuple[LiveTable, list[str | None]]:
        """A new table from the lobby's request; the tokens go to its creator only."""
        if not self.rates.hit(self.limits.tables_per_address, f"create:{address}"):
            raise Busy("too many new tables from your address; wait a minute", 429)
        if self.live >= self.limits.live_tables:
            raise Busy("the server is full; try again later", 503)
        if not isinstance(body, dict):
            raise ProtocolError("a new table is a JSON object")
        unknown = set(body) - {"rules", "length", "seats", "names", "seed", "switches"}
        if unknown:
            raise ProtocolError(f"unknown fields {excerpt(sorted(unknown))}")
        rules = _rules(body)
        kinds = body.get("seats") or ["human", *["efficiency"] * (rules.players - 1)]
        if not isinstance(kinds, list) or len(kinds) != rules.players:
            raise ProtocolError(f"{rules.name} needs {rules.players} seats, got {excerpt(kinds)}")
        if not all(isinstance(k, str) for k in kinds):
            raise ProtocolError(f"each seat is 'human' or a bot name, got {excerpt(kinds)}")
        names = body.get("names")
        if names is not None and not (
            isinstance(names, list)
            and len(names) <= rules.players
            and all(isinstance(n, str | None) for n in names)
        ):
            raise ProtocolError(f"names is a list of strings, got {excerpt(names)}")
        try:
            seats, tokens = seat_specs(kinds, names)
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
        chosen = body.get("seed")
        if chosen is not None and not (
            isinstance(chosen, str)
            and 0 < len(chosen) <= SEED_LENGTH
            and chosen.isascii()
            and chosen.isprintable()
        ):
            raise ProtocolError(
                f"a seed is 1 to {SEED_LENGTH} printable ASCII characters, got {excerpt(chosen)}"
            )
        seed = chosen or secrets.token_hex(16)
        salt = secrets.token_hex(16)
        # Bots draw from their own secret stream; at a table whose wall was chosen (and
        # is shown to all), they follow that seed too, so a practice deal replays exactly.
        bot_seed = secrets.token_hex(16) if chosen is None else commitment(chosen, "bots")[:32]
        new = NewTable(
            id=secrets.token_hex(8),
            rules=rules.to_dict(),
            seed=seed,
            salt=salt,
            commitment=commitment(seed, salt),
            bot_seed=bot_seed,
            seed_public=chosen is not None,
            seats=[_seat_dict(s) for s in seats],
            created=self.clock(),
        )
        await asyncio.to_thread(self.store.create_table, new)
        self.live += 1
        stored = StoredTable(
            id=new.id,
            rules=new.rules,
            seed=new.seed,
            seats=new.seats,
            status="live",
            created=new.created,
            finished=None,
            standings=None,
            salt=new.salt,
            commitment=new.commitment,
            bot_seed=new.bot_seed,
            seed_public=new.seed_public,
        )
        match = Match(rules, seed, [s.name for s in seats])
        return self._register(stored, match, seats), tokens

    # ----------------------------------------------------------- lists

    async def info(self, table_id: str) -> dict[str, Any]:
        """A table's public facts: from memory while it is loaded, else from storage."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.info()
        stored = await asyncio.to_thread(self.store.get_table, table_id)
        if stored is None:
            raise NotFound("no such table")
        if stored.status == "live":
            loaded = await self.table(table_id)
            assert loaded is not None
            return loaded.info()
        return stored_info(stored)

    async def page(self, status: str, limit: int, offset: int) -> dict[str, Any]:
        """One page of the live tables or finished games, newest first."""
        rows, total = await asyncio.to_thread(self._page, status, limit, offset)
        return {
            "items": [stored_info(row) for row in rows],
            "total": total,
            "offset": offset,
            "limit": limit,
        }

    def _page(self, status: str, limit: int, offset: int) -> tuple[list[StoredTable], int]:
        return self.store.list_tables(status, limit, offset), self.store.count_tables(status)

    # ----------------------------------------------------------- finished games

    async def _finished(self, game_id: str) -> Finished:
        """A finished game rebuilt from storage (cached; never a game in play)."""
        stored = await asyncio.to_thread(self.store.get_table, game_id)
        if stored is None or stored.status != "over":
            raise NotFound("no such finished game")
        match, seats = await asyncio.to_thread(load_match, stored, self.store)
        return Finished(stored, match, seats)

    async def _download(self, game_id: str, fmt: str) -> bytes:
        """A finished game as JSON bytes: ``replay`` frames, our ``record``, or ``tenhou6``."""
        game = await self.finished(game_id)
        build: Callable[[], Any]
        if fmt == "replay":
            players = [s.public() for s in game.seats]
            build = lambda: {"players": players, "frames": replay_frames(game.match, players)}  # noqa: E731
        elif fmt == "record":
            build = game.record
        elif fmt == "tenhou6":
            build = lambda: write_tenhou6(game.match)  # noqa: E731
        else:
            raise NotFound(f"unknown format {excerpt(fmt)}; known: record, tenhou6")
        async with self._replays:  # one rebuild at a time: the others wait, the loop does not
            return await asyncio.to_thread(lambda: json.dumps(build()).encode())


def _seat_dict(spec: SeatSpec) -> dict[str, Any]:
    return {"kind": spec.kind, "name": spec.name, "token_hash": spec.token_hash}


def stored_info(stored: StoredTable) -> dict[str, Any]:
    """Public facts of a stored table; the seed only once the game is over or if chosen."""
    rules = RuleSet.from_dict(stored.rules)
    seats = [SeatSpec(**s) for s in stored.seats]
    over = stored.status == "over"
    return {
        **public_info(stored, seats, rules),
        "over": over,
        "finished": stored.finished,
        "standings": stored.standings,
        "seed": stored.seed if over or stored.seed_public else None,
    }


def _rules(body: dict[str, Any]) -> RuleSet:
    try:
        name = body.get("rules", "online")
        if not isinstance(name, str):
            raise ValueError(f"rules is a preset name, got {excerpt(name)}")
        rules = find_ruleset(name)
        length = body.get("length")
        if length:
            if not isinstance(length, str) or length not in {x.value for x in Length}:
                raise ValueError(
                    f"length {excerpt(length)} is not one of {', '.join(x.value for x in Length)}"
                )
            rules = rules.replace(length=Length(length))
        switches = body.get("switches") or {}
        if not isinstance(switches, dict):
            raise ValueError(f"switches is an object, got {excerpt(switches)}")
        if switches:
            rules = RuleSet.from_dict({**rules.to_dict(), **switches})
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None
    return rules
