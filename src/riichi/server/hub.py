"""The site in one process: the lobby that opens tables (what it allows is
``riichi.platform.tables``), the lists, finished games served from bounded caches,
and the desks the features provide (``riichi.server.feature``: held by type, none
named here). The live tables themselves belong to the ``Registry``.

Nothing here blocks the event loop on the database or on a long replay: reads
and rebuilds run in worker threads, writes go through the store's writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from async_lru import alru_cache

from riichi.errors import excerpt
from riichi.formats.mjai import to_jsonl, write_mjai
from riichi.formats.tenhou6 import write_tenhou6
from riichi.game import Match, commitment
from riichi.hand.decompose import prepare
from riichi.platform import Pool
from riichi.platform.matchmaking import FILL_AFTER
from riichi.platform.spectating import HAND, Delay
from riichi.platform.tables import (
    SeatSpec,
    TableError,
    TableKind,
    check_lobby_table,
    drawn_seats,
    lobby_kind,
)
from riichi.rules import RuleSet
from riichi.server.auth import Auth
from riichi.server.clock import Clock
from riichi.server.collector import keep_collections_short
from riichi.server.feature import INVITATIONS, Desks, Feature, Missing
from riichi.server.limits import Limits, RateLimits
from riichi.server.notices import Notices
from riichi.server.protocol import Busy, NotFound, ProtocolError
from riichi.server.registry import Elsewhere, Registry
from riichi.server.relay import Relay
from riichi.server.seating import (
    accounts_named,
    clock_of,
    fresh_table,
    load_match,
    public_info,
    rules_of,
    seat_specs,
)
from riichi.server.storage import Account, ChipsShort, Store, StoredTable
from riichi.server.table import LiveTable
from riichi.server.thinkers import Thinkers
from riichi.server.views import replay_frames

log = logging.getLogger(__name__)
SEED_LENGTH = 64


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game rebuilt from storage."""

    stored: StoredTable
    match: Match
    seats: list[SeatSpec]
    timeouts: frozenset[int] = frozenset()  # the actions the clock played

    def record(self) -> dict[str, Any]:
        """Our record with the seed revealed, the salt and commitment to check it, and
        ``"timeout": true`` on each action the clock played."""
        record = self.match.record()
        for seq in self.timeouts:
            record["actions"][seq]["timeout"] = True
        return {**record, "commitment": self.stored.commitment, "salt": self.stored.salt}


class Server(Desks):
    """The site in one process: its live tables (``Registry``), the lobby, the lists
    and pages, the downloads of finished games, and the desks its features provide
    (``riichi.server.feature``)."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        limits: Limits | None = None,
        bot_delay: float = 0.0,
        fill_after: float = FILL_AFTER,
        delay: Delay = HAND,
        shared: bool = False,
        redis_url: str | None = None,
        review_workers: int = 1,
        search_workers: int = 1,
        features: Sequence[Feature] = (),
    ) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits or Limits()
        self.fill_after = fill_after
        self.review_workers = review_workers
        self.rates = RateLimits(redis_url)  # shared by the site's processes, with Redis
        self.sockets: Counter[str] = Counter()
        self.registry = Registry(
            store, clock, self.limits, bot_delay, delay, shared, Thinkers(search_workers)
        )
        # a connection to a table another process owns is relayed to it (shared sites)
        self.relay = None if redis_url is None else Relay(redis_url, self.registry, self.limits)
        self.registry.metrics.watch(self)
        self.auth: Auth | None = None
        self._replays = asyncio.Semaphore(1)
        self._tasks: list[asyncio.Task[None]] = []
        # per server: bounded caches of finished games and their downloads
        self.finished = alru_cache(maxsize=32)(self._finished)
        self.download = alru_cache(maxsize=8)(self._download)
        self.notices = Notices()
        self.registry.notify = self.notices.send
        if self.relay is not None:  # a notice reaches a channel on any process
            self.relay.deliver = self.notices.deliver
            self.notices.publish = self.relay.publish_notice
        Desks.__init__(self)
        for feature in features:
            feature.setup(self)

    @property
    def tables(self) -> dict[str, LiveTable]:
        return self.registry.tables

    @property
    def live(self) -> int:
        return self.registry.live

    async def table(self, table_id: str) -> LiveTable | None:
        return await self.registry.table(table_id)

    async def sweep_idle(self) -> int:
        return await self.registry.sweep_idle()

    async def start(self) -> None:
        """Restore the live tables in the background, seat the queue, run the desks;
        serve meanwhile."""
        self.auth = await asyncio.to_thread(Auth, self.store.accounts, self.clock, self.rates)
        await asyncio.to_thread(prepare)  # the readings tables, before any table needs one
        await self.registry.start()
        if self.relay is not None:
            await self.relay.start()
        self._tasks = [
            asyncio.create_task(keep_collections_short(), name="gc"),
            *(asyncio.create_task(run(), name=name) for name, run in self._loops),
        ]

    async def hand_over(self) -> None:
        """Before this process stops on a shared site: its tables handed back at once
        (``Registry.hand_over``) and announced, so another process plays on at once."""
        if not self.registry.shared or self.registry.draining:
            return
        released = await self.registry.hand_over()
        if self.relay is not None:
            await self.relay.publish_released(released)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for close in self._closing:
            close()
        if self.relay is not None:
            await self.relay.close()
        await self.registry.close()
        if self.auth is not None:
            self.auth.hashing.close()
        self.store.close()

    def marks(self, address: str, device: str | None) -> tuple[str, str | None]:
        """The keyed hashes the site keeps of where a request comes from."""
        assert self.auth is not None
        return (
            self.auth.address_hash(address),
            None if device is None else self.auth.device_hash(device),
        )

    def _room(self, address: str, account: Account | None) -> None:
        """Whether one more table may open for this guest address or account: guests
        share a small budget; a signed-in person with no table in play always may."""
        live = [t for t in self.tables.values() if not t.closed and not t.match.over]
        if account is None:
            guests = [t for t in live if t.guest]
            if self.live >= self.limits.live_tables or len(guests) >= self.limits.guest_tables:
                raise Busy("the server has no room for more guests' tables; sign in to play", 503)
            if sum(t.opened_by == address for t in guests) >= self.limits.guest_tables_per_address:
                raise Busy(
                    f"guests from your address have {self.limits.guest_tables_per_address} "
                    "tables in play; finish one or sign in",
                    429,
                )
            return
        mine = sum(any(s.account == account.id for s in t.seats) for t in live)
        if mine and self.live >= self.limits.live_tables:
            raise Busy("the server is full; finish a table you have in play", 503)
        if mine >= self.limits.tables_per_account:
            raise Busy(f"you have {mine} tables in play; finish one first", 429)

    async def create(
        self, body: Any, address: str, account: Account | None = None
    ) -> tuple[LiveTable, list[str | None]]:
        """A new practice or private table from the lobby; the tokens go to its creator,
        who sits in the first seat (as the signed-in account, if any)."""
        if not self.rates.hit(self.limits.tables_per_address, f"create:{address}"):
            raise Busy("too many new tables from your address; wait a minute", 429)
        self._room(address, account)
        if not isinstance(body, dict):
            raise ProtocolError("a new table is a JSON object")
        unknown = set(body) - {
            "rules",
            "length",
            "seats",
            "names",
            "seed",
            "switches",
            "kind",
            "clock",
            "watchable",
            "bet",
            "invite",
        }
        if unknown:
            raise ProtocolError(f"unknown fields {excerpt(sorted(unknown))}")
        rules = rules_of(body)
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
        watchable = body.get("watchable", False)
        if not isinstance(watchable, bool):
            raise ProtocolError(f"watchable is true or false, got {excerpt(watchable)}")
        pool = clock_of(body, Pool.UNTIMED.value)
        bet = body.get("bet", 0)
        if not isinstance(bet, int) or isinstance(bet, bool) or bet < 0:
            raise ProtocolError(f"a bet is a whole number of chips, got {excerpt(bet)}")
        chosen = body.get("seed")
        try:
            kind = lobby_kind(body.get("kind", TableKind.PRIVATE.value))
            check_lobby_table(
                kind, account is not None, kinds, pool, rules, bet, chosen is not None
            )
        except TableError as exc:
            raise ProtocolError(str(exc)) from None
        if account is not None:  # the creator sits first, by name
            names = [account.name, *(names or [])[1:]]
        try:
            seats, tokens = seat_specs(kinds, names)
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
        if account is not None:
            seats[0] = replace(seats[0], account=account.id)
        invited = await self._invite(body.get("invite"), seats, account)
        for seat, (other, name) in invited.items():
            seats[seat] = replace(seats[seat], name=name, account=other)
        if chosen is not None and not (
            isinstance(chosen, str)
            and 0 < len(chosen) <= SEED_LENGTH
            and chosen.isascii()
            and chosen.isprintable()
        ):
            raise ProtocolError(
                f"a seed is 1 to {SEED_LENGTH} printable ASCII characters, got {excerpt(chosen)}"
            )
        seed = chosen
        if bet:  # the person's seat is drawn: the house's computers take the others
            seed = secrets.token_hex(16)
            seats, tokens = drawn_seats(seed, seats), drawn_seats(seed, tokens)
        # Bots draw from their own secret stream; at a table whose wall was chosen (and
        # is shown to all), they follow that seed too, so a practice deal replays exactly.
        new = fresh_table(
            rules,
            seats,
            kind,
            self.clock.now(),
            seed=seed,
            bot_seed=None if chosen is None else commitment(chosen, "bots")[:32],
            seed_public=chosen is not None,
            pool=pool.value,
            watchable=watchable,
            bet=bet,
        )
        try:
            table = await self.registry.open_table(new, rules, seats)
        except ChipsShort as exc:
            raise ProtocolError(str(exc)) from None
        if account is None:
            table.opened_by = address
        for other, _ in invited.values():
            assert account is not None
            self.notices.send(
                other,
                {
                    "kind": "invited",
                    "text": f"{account.name} invites you to a {kind} table",
                    "link": f"/table/{table.id}",
                },
            )
        return table, tokens

    async def _invite(
        self, names: Any, seats: list[SeatSpec], account: Account | None
    ) -> dict[int, tuple[int, str]]:
        """The people's seats after the first given to the accounts invited by name, in
        order: {seat: (account, name)}. Their sessions find their seats."""
        if names is None:
            return {}
        if account is None:
            raise ProtocolError("sign in to invite people by their account names")
        open_seats = [s for s, spec in enumerate(seats) if s > 0 and not spec.is_bot]
        if (
            not isinstance(names, list)
            or not 0 < len(names) <= len(open_seats)
            or not all(isinstance(n, str) and 0 < len(n) <= 40 for n in names)
        ):
            raise ProtocolError(
                f"invite is a list of account names, at most one for each of the {len(open_seats)}"
                " other seats for people"
            )
        found = await accounts_named(self.store, names)
        ids = [found[n] for n in names]
        if account.id in ids or len(set(ids)) != len(ids):
            raise ProtocolError("invite each other person once, and not yourself")
        named = await asyncio.to_thread(self.store.accounts.names, ids)
        return {seat: (i, named[i]) for seat, i in zip(open_seats, ids, strict=False)}

    async def online(self, account: Account) -> list[dict[str, Any]]:
        """Who is online (a live channel open) among the people this account played
        with or invited, or who invited it: no one else."""
        known = await asyncio.to_thread(self.store.accounts.acquaintances, account.id)
        with contextlib.suppress(Missing):  # a site without money tables
            known |= await asyncio.to_thread(self.desk(INVITATIONS).invited_with, account.id)
        here = self.notices.online_here()
        on = {a for a in known if a in here}
        if self.relay is not None:
            with contextlib.suppress(Exception):  # Redis away: this process's own
                on |= await self.relay.online(sorted(known - on))
        names = await asyncio.to_thread(self.store.accounts.names, sorted(on))
        return [{"account": a, "name": names[a]} for a in sorted(on) if a in names]

    async def mine(self, account: Account) -> list[dict[str, Any]]:
        """The live tables this account sits at, to rejoin."""
        rows = await asyncio.to_thread(self.store.accounts.tables_of, account.id)
        out = []
        for table_id, seat, _ in rows:
            try:
                info = await self.info(table_id)
            except NotFound:
                continue
            out.append({**info, "my_seat": seat})
        return out

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
            try:
                loaded = await self.table(table_id)
            except Elsewhere:  # another process runs it: its stored facts will do
                return stored_info(stored, self.clock.now())
            assert loaded is not None
            return loaded.info()
        return stored_info(stored, self.clock.now())

    async def page(
        self, status: str, limit: int, offset: int, watchable: bool = False
    ) -> dict[str, Any]:
        """One page of the live tables or finished games, newest first; only those open
        to spectators when ``watchable``, with how many watch each."""
        rows, total = await asyncio.to_thread(self._page, status, limit, offset, watchable)
        items = []
        for row in rows:
            item = stored_info(row, self.clock.now())
            live = self.tables.get(row.id)
            item["spectators"] = 0 if live is None else live.audience.spectators
            items.append(item)
        return paged(items, total, limit, offset)

    def _page(
        self, status: str, limit: int, offset: int, watchable: bool
    ) -> tuple[list[StoredTable], int]:
        # a finished game is listed only once it may be opened
        shown = self.clock.now() if status == "over" else None
        return (
            self.store.list_tables(status, limit, offset, watchable, shown),
            self.store.count_tables(status, watchable, shown),
        )

    # ----------------------------------------------------------- finished games

    async def _finished(self, game_id: str) -> Finished:
        """A finished game rebuilt from storage (cached; never a game in play)."""
        stored = await asyncio.to_thread(self.store.get_table, game_id)
        if stored is None or stored.status != "over":
            raise NotFound("no such finished game")
        match, seats = await asyncio.to_thread(load_match, stored, self.store)
        timeouts = await asyncio.to_thread(self.store.timed_out, game_id)
        return Finished(stored, match, seats, timeouts)

    async def game_file(self, game_id: str, fmt: str) -> bytes:
        """A finished game's download, once it may be shown (a Daily Wall game: after
        its day, to everyone alike)."""
        game = await self.finished(game_id)
        if not self.may_see(game.stored):
            raise NotFound("this game is shown when its day is over")
        return await self.download(game_id, fmt)

    async def _download(self, game_id: str, fmt: str) -> bytes:
        """A finished game as bytes: ``replay`` frames, our ``record``, ``tenhou6``
        (JSON) or ``mjai`` (JSON Lines)."""
        game = await self.finished(game_id)
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


def paged(items: list[Any], total: int, limit: int, offset: int) -> dict[str, Any]:
    return {"items": items, "total": total, "offset": offset, "limit": limit}


def stored_info(stored: StoredTable, now: float) -> dict[str, Any]:
    """Public facts of a stored table; the seed only if chosen, or once the game is
    over and its time to be shown has come."""
    rules = RuleSet.from_dict(stored.rules)
    seats = [SeatSpec(**s) for s in stored.seats]
    over = stored.status == "over"
    shown = over and stored.revealed(now)
    return {
        **public_info(stored, seats, rules),
        "over": over,
        "finished": stored.finished,
        "standings": stored.standings if shown else None,
        "seed": stored.seed if shown or stored.seed_public else None,
        "shown": shown,
    }
