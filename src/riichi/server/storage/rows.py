"""What the storage reads back and writes: stored tables, accounts, new tables, action
and clock rows, and the errors of storage.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    or_,
)

from riichi.errors import RiichiError
from riichi.platform.tables import (
    KINDS,
    Final,
    OpenPlan,
)
from riichi.server.schema import tables


class StorageError(RiichiError):
    """A write the log cannot take: a gap or a repeat in a table's sequence."""


class LeaseLost(StorageError):
    """A write for a table whose lease another process has taken: refused, always."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    rules: dict[str, Any]
    seed: str
    seats: list[dict[str, Any]]
    status: str
    created: float
    finished: float | None
    standings: list[dict[str, Any]] | None
    salt: str
    commitment: str
    bot_seed: str
    seed_public: bool
    kind: str = "private"
    pool: str = "untimed"
    clock: dict[str, Any] | None = None
    watchable: bool = False
    bet: int = 0
    reveal: float | None = None
    touched: float | None = None

    def revealed(self, now: float) -> bool:
        """Whether a game that is over may be shown to anyone."""
        return self.reveal is None or now >= self.reveal


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class NewTable:
    """Everything a table is created with."""

    id: str
    rules: dict[str, Any]
    seed: str
    salt: str
    commitment: str
    bot_seed: str
    seed_public: bool
    seats: list[dict[str, Any]]
    created: float
    kind: str = "private"
    pool: str = "untimed"
    clock: dict[str, Any] | None = None
    watchable: bool = False
    bet: int = 0
    reveal: float | None = None
    # what is written with it (riichi.platform.tables.opening): who sits where, a
    # desk's rows, reserves
    plan: OpenPlan = field(default_factory=OpenPlan)

    def stored(self) -> StoredTable:
        """The row as the store will read it back."""
        return StoredTable(
            id=self.id,
            rules=self.rules,
            seed=self.seed,
            seats=self.seats,
            status="live",
            created=self.created,
            finished=None,
            standings=None,
            salt=self.salt,
            commitment=self.commitment,
            bot_seed=self.bot_seed,
            seed_public=self.seed_public,
            kind=self.kind,
            pool=self.pool,
            clock=self.clock,
            watchable=self.watchable,
            bet=self.bet,
            reveal=self.reveal,
        )


@dataclass(frozen=True, slots=True)
class ActionRow:
    """Action number ``seq`` of a table; ``final`` when it ends the match; ``clock``
    the table's clock after it; ``timeout`` when the clock played it."""

    table_id: str
    seq: int
    seat: int
    action: dict[str, Any]
    final: Final | None = None
    clock: dict[str, Any] | None = None
    timeout: bool = False
    touched: float | None = None  # a person moved now (an untimed table's last touch)
    epoch: int | None = None  # the lease its writer holds (None: no lease is checked)


@dataclass(frozen=True, slots=True)
class ClockRow:
    """A timed table's clock, changed without an action (a result pause ended)."""

    table_id: str
    clock: dict[str, Any]
    epoch: int | None = None


Write = ActionRow | ClockRow


def _filters(status: str | None, watchable: bool, shown_at: float | None = None) -> list[Any]:
    out: list[Any] = []
    if shown_at is not None:
        out.append(or_(tables.c.reveal.is_(None), tables.c.reveal <= shown_at))
    if status is not None:
        out.append(tables.c.status == status)
    if watchable:
        always = [kind for kind, rules in KINDS.items() if rules.always_watched]
        out.append(or_(tables.c.kind.in_(always), tables.c.watchable))
    return out


class ChipsShort(StorageError):
    """Fewer chips than a bet, a reserve or a buy-in needs, or more than the site lets
    one account stake."""


def _stored(row: Any) -> StoredTable:
    return StoredTable(
        id=row.id,
        rules=json.loads(row.rules),
        seed=row.seed,
        seats=json.loads(row.seats),
        status=row.status,
        created=row.created,
        finished=row.finished,
        standings=None if row.standings is None else json.loads(row.standings),
        salt=row.salt or "",
        commitment=row.commitment or "",
        bot_seed=row.bot_seed or "",
        seed_public=bool(row.seed_public),
        kind=row.kind,
        pool=row.pool,
        clock=None if row.clock is None else json.loads(row.clock),
        watchable=bool(row.watchable),
        bet=row.bet or 0,
        reveal=row.reveal,
        touched=row.touched,
    )
