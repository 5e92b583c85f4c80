"""The Daily Wall on the server: one attempt per account per day on the day's walls,
the day's board, the hand-by-hand comparison, and who may see a day's games.

The day's seed never leaves the server before the day is over: each attempt is
a table of kind ``daily`` whose ``reveal`` is the end of its day, so its seed,
record, replay, standings and spectators stay closed until then, to everyone,
its own player included (what the rules of the board are, and why, is in
``riichi.platform.daily``). An attempt still in play when the day ends is left
off the board: by then anyone may know the walls.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from riichi.bots import BOT_LABEL, ROSTER
from riichi.game import commitment
from riichi.platform.daily import (
    DAY,
    SEAT,
    Attempt,
    DailyError,
    board,
    compare,
    daily_seed,
    day_of,
    day_over,
    day_start,
    parse_day,
    seed_commitment,
    unranked_reason,
)
from riichi.platform.tables import HUMAN, Row, SeatSpec, TableKind, fixed_rules, roster_seat
from riichi.server.daily.schema import daily_attempts
from riichi.server.protocol import ProtocolError
from riichi.server.ratings.schema import game_stats
from riichi.server.registry import Registry
from riichi.server.seating import fresh_table
from riichi.server.storage import Account, StorageError, StoredTable, accounts, tables

SECRET_KEY = "daily_secret"


class DailyStore:
    """The attempts of each day, from ``daily_attempts`` and the tables they played."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _query(self) -> Any:
        return select(
            daily_attempts.c.day,
            daily_attempts.c.account_id,
            daily_attempts.c.table_id,
            daily_attempts.c.hands,
            daily_attempts.c.address,
            daily_attempts.c.device,
            daily_attempts.c.started,
            accounts.c.created,
            tables.c.status,
            tables.c.finished,
            accounts.c.name,
            game_stats.c.score,
        ).select_from(
            daily_attempts.join(tables, daily_attempts.c.table_id == tables.c.id)
            .join(accounts, daily_attempts.c.account_id == accounts.c.id)
            .outerjoin(
                game_stats,
                (game_stats.c.table_id == tables.c.id) & (game_stats.c.seat == SEAT),
            )
        )

    def attempt(self, day: str, account_id: int) -> Any:
        query = self._query().where(
            daily_attempts.c.day == day, daily_attempts.c.account_id == account_id
        )
        with self.engine.connect() as conn:
            return conn.execute(query).first()

    def day_of_table(self, table_id: str) -> str | None:
        query = select(daily_attempts.c.day).where(daily_attempts.c.table_id == table_id)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar_one_or_none()
        return None if found is None else str(found)

    def finished(self, day: str) -> list[Attempt]:
        """The day's attempts that ended within the day, each ranked or with the reason
        it is not."""
        start = day_start(day)
        query = self._query().where(daily_attempts.c.day == day)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            players = [f"account:{row.account_id}" for row in rows]
            rated: dict[str, int] = dict(
                conn.execute(
                    select(game_stats.c.player, func.count())
                    .where(
                        game_stats.c.player.in_(players),
                        game_stats.c.rated,
                        game_stats.c.finished < start,
                    )
                    .group_by(game_stats.c.player)
                ).all()
            )
        first: dict[str, str] = {}  # address or browser -> the day's first attempt from it
        for row in sorted(rows, key=lambda r: (r.started, r.table_id)):
            for mark in _marks(row):
                first.setdefault(mark, row.table_id)
        return [
            _attempt(
                row,
                unranked_reason(
                    day,
                    row.created,
                    int(rated.get(f"account:{row.account_id}", 0)),
                    all(first[mark] == row.table_id for mark in _marks(row)),
                ),
            )
            for row in rows
            if row.status == "over" and row.finished < start + DAY
        ]

    def days(self, before: str, limit: int) -> list[str]:
        """Earlier days that were played, newest first."""
        query = (
            select(daily_attempts.c.day)
            .where(daily_attempts.c.day < before)
            .group_by(daily_attempts.c.day)
            .order_by(daily_attempts.c.day.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [str(day) for day in conn.execute(query).scalars()]


def _marks(row: Any) -> list[str]:
    """What two attempts of one person would share: the address, the browser."""
    return [f"{kind}:{value}" for kind, value in (("a", row.address), ("d", row.device)) if value]


def _attempt(row: Any, unranked: str | None = None) -> Attempt:
    return Attempt(
        player=f"account:{row.account_id}",
        name=row.name,
        table_id=row.table_id,
        score=int(row.score),
        finished=float(row.finished),
        hands=[
            {"label": hand["label"], "delta": hand["deltas"][SEAT]}
            for hand in json.loads(row.hands or "[]")
        ],
        unranked=unranked,
    )


class DailyDesk:
    """The server's Daily Wall: attempts are opened as tables through the server."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.store = DailyStore(registry.store.engine)
        self._secret: str | None = None

    async def secret(self) -> str:
        if self._secret is None:
            self._secret = await asyncio.to_thread(
                self.registry.store.accounts.setting, SECRET_KEY, lambda: secrets.token_hex(32)
            )
        return self._secret

    async def play(
        self, account: Account, marks: tuple[str | None, str | None] = (None, None)
    ) -> dict[str, Any]:
        """Today's attempt: opened now, or the one in play rejoined; refused once done.
        ``marks`` are the keyed hashes of the address and the browser it comes from."""
        day = day_of(self.registry.clock.now())
        found = await asyncio.to_thread(self.store.attempt, day, account.id)
        if found is not None:
            if found.status == "live":
                return {"table": found.table_id, "seat": SEAT, "day": day}
            raise ProtocolError(f"you have played the Daily Wall of {day}; come back tomorrow")
        seed = daily_seed(await self.secret(), day)
        rules = fixed_rules(TableKind.DAILY)
        seats = [SeatSpec(HUMAN, account.name, None, account.id)]
        seats += [
            roster_seat(s, ROSTER, f"daily {s + 1} {BOT_LABEL}") for s in range(1, rules.players)
        ]
        address, device = marks
        attempt = {"day": day, "account_id": account.id, "started": self.registry.clock.now()}
        new = fresh_table(
            rules,
            seats,
            TableKind.DAILY,
            self.registry.clock.now(),
            seed=seed,
            # the computers follow the day: the same play meets the same replies
            bot_seed=commitment(seed, "bots")[:32],
            reveal=day_start(day) + DAY,
            rows=[
                Row(
                    "daily_attempts",
                    {**attempt, "address": address, "device": device},
                    duplicate=f"you have played the Daily Wall of {day} already",
                )
            ],
        )
        try:
            table = await self.registry.open_table(new, rules, seats)
        except StorageError as exc:
            raise ProtocolError(str(exc)) from None
        return {"table": table.id, "seat": SEAT, "day": day}

    async def view(self, day_text: str | None, account: Account | None) -> dict[str, Any]:
        """A day's board (today's by default), its seed once it is over, and for an
        account that has finished its attempt (or any day that is over), the hands
        compared."""
        now = self.registry.clock.now()
        today = day_of(now)
        try:
            day = today if day_text is None else parse_day(day_text[:12])
        except DailyError as exc:
            raise ProtocolError(str(exc)) from None
        if day > today:
            raise ProtocolError(f"{day} has not begun")
        seed = daily_seed(await self.secret(), day)
        over = day_over(day, now)
        attempts = await asyncio.to_thread(self.store.finished, day)
        mine_row = (
            None
            if account is None
            else await asyncio.to_thread(self.store.attempt, day, account.id)
        )
        mine = next((a for a in attempts if mine_row and a.table_id == mine_row.table_id), None)
        earlier = await asyncio.to_thread(self.store.days, day, 14)
        return {
            "day": day,
            "today": day == today,
            "over": over,
            "ends": day_start(day) + DAY,
            "rules": fixed_rules(TableKind.DAILY).name,
            "commitment": seed_commitment(seed),
            "seed": seed if over else None,
            "board": [
                {
                    "rank": rank,
                    "player": a.player,
                    "name": a.name,
                    "score": a.score,
                    "finished": a.finished,
                    "game": a.table_id if over else None,
                }
                for rank, a in enumerate(board(attempts), start=1)
            ],
            "unranked": [
                {
                    "player": a.player,
                    "name": a.name,
                    "score": a.score,
                    "finished": a.finished,
                    "why": a.unranked,
                    "game": a.table_id if over else None,
                }
                for a in sorted(attempts, key=lambda a: (a.finished, a.table_id))
                if a.unranked is not None
            ],
            "mine": None
            if mine_row is None
            else {
                "table": mine_row.table_id,
                "status": mine_row.status,
                "score": None if mine is None else mine.score,
            },
            "compare": compare(attempts, mine, over) if over or mine is not None else None,
            "earlier": earlier,
        }

    def may_see(self, stored: StoredTable) -> bool:
        """Whether a finished game may be shown: once its time has come (a Daily Wall
        attempt: when its day is over everywhere), to anyone; before, to nobody."""
        return stored.revealed(self.registry.clock.now())
