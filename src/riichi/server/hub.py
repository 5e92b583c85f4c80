"""The server's tables: created, loaded on demand, restored in the background, unloaded
when finished and unwatched; finished games served from bounded caches.

Nothing here blocks the event loop on the database or on a long replay: reads
and rebuilds run in worker threads, writes go through the store's writer.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from async_lru import alru_cache

from riichi.bots import ROSTER
from riichi.errors import RiichiError, excerpt
from riichi.formats.tenhou6 import write_tenhou6
from riichi.game import Match, commitment
from riichi.hand.decompose import prepare
from riichi.platform import POLICIES, ClockState, Pool, Waiting, seat_tables
from riichi.platform.chips import ChipError, check_house_table, check_money_rules, reserve
from riichi.platform.matchmaking import FILL_AFTER
from riichi.platform.spectating import HAND, Delay
from riichi.rules import Length, RuleSet, find_ruleset
from riichi.server.auth import Auth
from riichi.server.clock import Clock
from riichi.server.daily import DailyDesk
from riichi.server.ledger import ChipStore
from riichi.server.limits import Limits, RateLimits
from riichi.server.records import RecordStore
from riichi.server.storage import (
    Account,
    ChipsShort,
    NewTable,
    Store,
    StoredTable,
    Writer,
    ledger_account,
)
from riichi.server.table import (
    CLOSE_NO_TABLE,
    HUMAN,
    LiveTable,
    NotFound,
    ProtocolError,
    SeatSpec,
    final_of,
    fresh_table,
    load_match,
    public_info,
    roster_seat,
    rules_of,
    seat_specs,
    start_clocks,
)
from riichi.server.tournaments import TournamentDesk
from riichi.server.views import replay_frames

log = logging.getLogger(__name__)
SEED_LENGTH = 64
SWEEP_EVERY = 60.0  # seconds between looks for idle tables


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
        clock: Clock,
        limits: Limits | None = None,
        bot_delay: float = 0.0,
        fill_after: float = FILL_AFTER,
        delay: Delay = HAND,
    ) -> None:
        self.store = store
        self.records = RecordStore(store.engine)
        self.delay = delay
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
        self._matchmaker: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.fill_after = fill_after
        self.auth: Auth | None = None
        self._replays = asyncio.Semaphore(1)
        self.chips = ChipStore(store.engine)
        self.daily = DailyDesk(self)
        self.tournaments = TournamentDesk(self)
        self._tournaments: asyncio.Task[None] | None = None
        # per server: bounded caches of finished games and their downloads
        self.finished = alru_cache(maxsize=32)(self._finished)
        self.download = alru_cache(maxsize=8)(self._download)

    async def start(self) -> None:
        """Count the live tables and restore them in the background; serve meanwhile."""
        self.auth = await asyncio.to_thread(Auth, self.store.accounts, self.clock, self.rates)
        await asyncio.to_thread(prepare)  # the readings tables, before any table needs one
        self.live = await asyncio.to_thread(self.store.count_tables, "live")
        self._restore = asyncio.create_task(self._restore_all(), name="restore tables")
        self._matchmaker = asyncio.create_task(self._match_players(), name="matchmaker")
        self._collector = asyncio.create_task(_keep_collections_short(), name="gc")
        self._tournaments = asyncio.create_task(self.tournaments.run(), name="tournaments")
        self._sweeper = asyncio.create_task(self._sweep(), name="idle tables")

    async def _restore_all(self) -> None:
        stored = await asyncio.to_thread(self.store.list_tables, "live")
        for table in stored:
            if table.pool == Pool.UNTIMED.value and self._idle_since(table):
                # left alone past the limit (before the stop, or while down): closed
                # without the cost of replaying it
                if await asyncio.to_thread(self.store.close_idle, table.id, self.clock.now()):
                    self.live -= 1
                continue
            try:
                await self.table(table.id)
            except RiichiError:
                # its own log cannot be replayed (a gap, an action the rules refuse): it
                # never will be, so it ends as void and gives back what it holds
                log.exception("table %s: its log does not replay; void, chips released", table.id)
                await asyncio.to_thread(self.chips.void_table, table.id, self.clock.now())
                self.live -= 1
            except Exception:  # the database, say: the table stays live for a later start
                log.exception("table %s: could not be restored", table.id)
        log.info("restored %d live tables", len(stored))
        gc.freeze()  # what was restored lives long: keep it out of collections

    async def close(self) -> None:
        tasks = (self._restore, self._matchmaker, self._collector, self._tournaments, self._sweeper)
        for task in tasks:
            if task is not None:
                task.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        await asyncio.to_thread(self.writer.close)
        if self.auth is not None:
            self.auth.hashing.close()
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
            final = final_of(match, seats, self.clock.now())
            await asyncio.to_thread(self.store.finish, table_id, final)
            stored = replace(stored, status="over", finished=final.finished)
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
            delay=self.delay,
        )
        self.tables[stored.id] = table
        table.start()
        return table

    def _idle_since(self, stored: StoredTable) -> bool:
        last = stored.touched or stored.created
        return self.clock.now() - last >= self.limits.idle_seconds

    async def _sweep(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + SWEEP_EVERY)
            try:
                await self.sweep_idle()
            except Exception:
                log.exception("closing idle tables failed")

    async def sweep_idle(self) -> int:
        """Close every untimed table in play that no person has moved at or visited
        for ``limits.idle_seconds``: it stops counting against anyone's limits and
        leaves memory. Returns how many closed."""
        now = self.clock.now()
        closed = 0
        for table in list(self.tables.values()):
            if not table.idle(now, self.limits.idle_seconds):
                continue
            if await asyncio.to_thread(self.store.close_idle, table.id, now):
                closed += 1
                self.live -= 1
            table.closed = True
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
            for viewer in list(table.viewers):
                viewer.kick(f"table {table.id} closed: nobody played at it", CLOSE_NO_TABLE)
            await table.stop()
        return closed

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

    def _unload(self, table: LiveTable) -> None:
        """A finished table nobody watches leaves memory; storage serves it from now on."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if not table.closed and table.stored.status == "live":
            self.live -= 1
        table.closed = True

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
        kind = body.get("kind", "private")
        if kind == "rated":
            raise ProtocolError("rated tables come from the queue: join it (POST /api/queue)")
        if kind not in ("practice", "private"):
            raise ProtocolError(f"kind is practice or private, got {excerpt(kind)}")
        watchable = body.get("watchable", False)
        if not isinstance(watchable, bool):
            raise ProtocolError(f"watchable is true or false, got {excerpt(watchable)}")
        pool = body.get("clock", "untimed")
        if pool not in {p.value for p in Pool}:
            raise ProtocolError(f"clock is untimed, standard or relaxed, got {excerpt(pool)}")
        if kind == "practice" and (
            pool != "untimed" or kinds.count(HUMAN) != 1 or kinds[0] != HUMAN
        ):
            raise ProtocolError("a practice table is you against bots, untimed")
        bet = body.get("bet", 0)
        if not isinstance(bet, int) or isinstance(bet, bool) or bet < 0:
            raise ProtocolError(f"a bet is a whole number of chips, got {excerpt(bet)}")
        chosen = body.get("seed")
        if bet:
            if account is None:
                raise ProtocolError("a table with a bet is for a signed-in player")
            try:
                check_money_rules(rules, bet)
                check_house_table(
                    kinds, HUMAN, ROSTER, chosen is not None, pool != Pool.UNTIMED.value, bet
                )
            except ChipError as exc:
                raise ProtocolError(str(exc)) from None
        if account is not None:  # the creator sits first, by name
            names = [account.name, *(names or [])[1:]]
        try:
            seats, tokens = seat_specs(kinds, names)
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
        if account is not None:
            seats[0] = replace(seats[0], account=account.id)
        if chosen is not None and not (
            isinstance(chosen, str)
            and 0 < len(chosen) <= SEED_LENGTH
            and chosen.isascii()
            and chosen.isprintable()
        ):
            raise ProtocolError(
                f"a seed is 1 to {SEED_LENGTH} printable ASCII characters, got {excerpt(chosen)}"
            )
        # Bots draw from their own secret stream; at a table whose wall was chosen (and
        # is shown to all), they follow that seed too, so a practice deal replays exactly.
        new = fresh_table(
            rules,
            seats,
            kind,
            self.clock.now(),
            seed=chosen,
            bot_seed=None if chosen is None else commitment(chosen, "bots")[:32],
            seed_public=chosen is not None,
            pool=pool,
            watchable=watchable,
            bet=bet,
            reserves=tuple((ledger_account(s.to_dict()), reserve(rules, bet)) for s in seats)
            if bet
            else (),
        )
        try:
            table = await self.open_table(new, rules, seats)
        except ChipsShort as exc:
            raise ProtocolError(str(exc)) from None
        if account is None:
            table.opened_by = address
        return table, tokens

    async def open_table(
        self, new: NewTable, rules: RuleSet, seats: list[SeatSpec], from_queue: bool = False
    ) -> LiveTable:
        match = Match(rules, new.seed, [s.name for s in seats])
        policy = POLICIES.get(Pool(new.pool))
        if policy is not None:  # the first decision's clock is stored with the table
            state = ClockState.new(policy, rules.players)
            bots = {s for s, spec in enumerate(seats) if spec.is_bot}
            start_clocks(policy, state, match, bots, new.created)
            new = replace(new, clock=state.to_dict())
        await asyncio.to_thread(self.store.create_table, new, from_queue)
        self.live += 1
        return self._register(new.stored(), match, seats)

    # ----------------------------------------------------------- the rated queue

    async def join_queue(
        self, account: Account, pool: str, address: str = "unknown", device: str | None = None
    ) -> None:
        """Wait for a rated table of ``pool``: one at a time, never two; never at one
        table with an account that joined from the same address or browser."""
        if pool not in (Pool.STANDARD.value, Pool.RELAXED.value):
            raise ProtocolError(f"the rated pools are standard and relaxed, got {excerpt(pool)}")
        mine = await asyncio.to_thread(self.store.accounts.tables_of, account.id)
        if any(kind == "rated" for _, _, kind in mine):
            raise ProtocolError("you are at a rated table already: finish it first")
        assert self.auth is not None
        await asyncio.to_thread(
            self.store.accounts.join_queue,
            account.id,
            pool,
            self.clock.now(),
            self.auth.address_hash(address),
            None if device is None else self.auth.device_hash(device),
        )

    async def leave_queue(self, account: Account) -> None:
        await asyncio.to_thread(self.store.accounts.leave_queue, account.id)

    async def queue_view(self, account: Account | None) -> dict[str, Any]:
        """How many wait in each pool and for how long; where this account waits."""
        waiting = await asyncio.to_thread(self.store.accounts.queue)
        now = self.clock.now()
        pools = {
            pool.value: {"waiting": 0, "longest": 0.0} for pool in (Pool.STANDARD, Pool.RELAXED)
        }
        mine = None
        for account_id, pool, since, *_ in waiting:
            entry = pools.setdefault(pool, {"waiting": 0, "longest": 0.0})
            entry["waiting"] += 1
            entry["longest"] = max(entry["longest"], now - since)
            if account is not None and account_id == account.id:
                mine = {"pool": pool, "waited": now - since}
        return {"pools": pools, "mine": mine, "fill_after": self.fill_after}

    async def _match_players(self) -> None:
        """Seat the waiting players every second: four of a pool, or after the wait,
        whoever is there with roster computers in the empty seats."""
        while True:
            try:
                await self._seat_waiting()
            except Exception:
                log.exception("matchmaker: a round failed")
            await self.clock.sleep_until(self.clock.now() + 1.0)

    async def _seat_waiting(self) -> None:
        rows = await asyncio.to_thread(self.store.accounts.queue)
        waiting = [Waiting(a, p, t, address, device) for a, p, t, address, device in rows]
        for group in seat_tables(waiting, self.clock.now(), 4, self.fill_after):
            await self._open_rated(group)

    async def _open_rated(self, group: list[Waiting | None]) -> LiveTable:
        rules = find_ruleset("classic").replace(length=Length.EAST)  # 001's rated game
        names = await asyncio.to_thread(
            self.store.accounts.names, [w.account for w in group if w is not None]
        )
        seats = [
            roster_seat(seat, ROSTER)
            if entry is None
            else SeatSpec(HUMAN, names[entry.account], None, entry.account)
            for seat, entry in enumerate(group)
        ]
        pool = next(w.pool for w in group if w is not None)
        new = fresh_table(rules, seats, "rated", self.clock.now(), pool=pool)
        return await self.open_table(new, rules, seats, from_queue=True)

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
            loaded = await self.table(table_id)
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
            item["spectators"] = 0 if live is None else live.spectators
            items.append(item)
        return paged(items, total, limit, offset)

    def _page(
        self, status: str, limit: int, offset: int, watchable: bool
    ) -> tuple[list[StoredTable], int]:
        return (
            self.store.list_tables(status, limit, offset, watchable),
            self.store.count_tables(status, watchable),
        )

    # ----------------------------------------------------------- players

    async def leaderboard(self, limit: int, offset: int) -> dict[str, Any]:
        rows, total = await asyncio.to_thread(self.records.leaderboard, limit, offset)
        return paged([r.to_dict() for r in rows], total, limit, offset)

    async def player(self, key: str, limit: int, offset: int) -> dict[str, Any]:
        """A player's page: rating and its history, figures (rated and all), games."""
        name = await asyncio.to_thread(self._player_name, key)
        if name is None:
            raise NotFound("no such player")
        rating, history, totals, (games, total) = await asyncio.gather(
            asyncio.to_thread(self.records.rating, key),
            asyncio.to_thread(self.records.history, key),
            asyncio.to_thread(self.records.totals, key),
            asyncio.to_thread(self.records.games, key, limit, offset),
        )
        return {
            "player": key,
            "name": name,
            "computer": key.startswith("computer:"),
            "rating": rating,
            "history": history,
            "stats": {k: v.summary() for k, v in totals.items()},
            "games": paged(games, total, limit, offset),
        }

    def _player_name(self, key: str) -> str | None:
        kind, _, rest = key.partition(":")
        if kind == "account" and rest.isdigit() and len(rest) <= 18:  # a database integer
            return self.store.accounts.names([int(rest)]).get(int(rest))
        if kind == "computer":
            found = self.records.rating(key)
            return None if found is None else str(found["name"])
        return None

    # ----------------------------------------------------------- finished games

    async def _finished(self, game_id: str) -> Finished:
        """A finished game rebuilt from storage (cached; never a game in play)."""
        stored = await asyncio.to_thread(self.store.get_table, game_id)
        if stored is None or stored.status != "over":
            raise NotFound("no such finished game")
        match, seats = await asyncio.to_thread(load_match, stored, self.store)
        return Finished(stored, match, seats)

    async def game_file(self, game_id: str, fmt: str) -> bytes:
        """A finished game's download, once it may be shown (a Daily Wall game: after
        its day, to everyone alike)."""
        game = await self.finished(game_id)
        if not self.daily.may_see(game.stored):
            raise NotFound("this game is shown when its day is over")
        return await self.download(game_id, fmt)

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


FREEZE_EVERY = 5.0  # seconds
THAW_EVERY = 120  # freezes: every ten minutes the frozen objects are collected once again


async def _keep_collections_short() -> None:
    """Keep the cyclic garbage collector's full passes short.

    Matches in play hold millions of long-lived objects; a full collection that
    walks them all stalls every table for 100-200 ms (measured: p99 ack latency
    of 200 rated tables went from 300 ms to 16 ms with this). Freezing moves
    what is alive into the permanent generation, which collections skip;
    thawing now and then lets garbage that was frozen while alive (closed
    connections, unloaded tables) be collected after all.
    """
    freezes = 0
    while True:
        freezes += 1
        if freezes % THAW_EVERY == 0:
            gc.unfreeze()
        else:
            gc.freeze()
        await asyncio.sleep(FREEZE_EVERY)


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
