"""Money tables between people on the server: the money lobby's offers, seats taken
and left with their reserves, and the table each becomes when full
(`riichi.platform.offers` says who may sit where).

Contract:

- Taking a seat is one transaction: the offer's row is written first (SQLite's
  write lock, PostgreSQL's row lock), then the seat is checked and stored and its
  reserve moved from the account into the escrow of the table to be. Leaving
  before the start is one transaction the other way. A seat is never held
  without its reserve, nor a reserve without its seat.
- A full offer opens as a table of kind ``money`` under the offer's own id, in the
  transaction that deletes the offer (``storage._close_offer``: the seats must be
  the ones the table is made with, or nothing happens), so its escrow already
  holds every reserve and the settlement pays it out like any money table's.
- The last seat taken starts the table at once; the desk's runner (one process of
  a cluster, once a second) starts any full offer a crash left behind.
- Leaving after the start does not stop the table: the clock plays the seat.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from riichi.errors import excerpt
from riichi.platform import Pool
from riichi.platform.chips import Transfer, account_ledger, escrow, left_event, reserve
from riichi.platform.offers import OfferError, Sitter, check_offer, seat_for
from riichi.platform.tables import HUMAN, SeatSpec, TableKind, drawn_seats
from riichi.rules import RuleSet, changed_switches
from riichi.server.money.schema import offer_seats, offers
from riichi.server.protocol import NotFound, ProtocolError
from riichi.server.registry import Registry
from riichi.server.seating import accounts_named, clock_of, fresh_table, rules_of
from riichi.server.storage import Account, ChipsShort, StorageError, players, post, tables

log = logging.getLogger(__name__)
MAX_INVITED = 8  # names one offer may invite
OPEN_OFFERS = 200  # offers the lobby lists at most


@dataclass(frozen=True, slots=True)
class Offer:
    id: str
    rules: RuleSet
    pool: str
    bet: int
    created: float
    creator: int
    invited: frozenset[int] | None
    seats: dict[int, tuple[int, str]]  # seat: (account, name)

    @property
    def full(self) -> bool:
        return len(self.seats) == self.rules.players

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        return {
            "id": self.id,
            "rules": self.rules.name,
            "length": self.rules.length.value,
            "settlement": self.rules.settlement.value,
            # every switch that differs from the preset: shown before a seat is taken,
            # and sent back by whoever sits to confirm them
            "switches": changed_switches(self.rules),
            "players": self.rules.players,
            "clock": self.pool,
            "bet": self.bet,
            "reserve": reserve(self.rules, self.bet),
            "created": self.created,
            "by_invitation": self.invited is not None,
            "seats": [
                {"seat": s, "name": name, "mine": account == viewer}
                for s, (account, name) in sorted(self.seats.items())
            ],
        }


class OfferStore:
    """The offers and their seats, with the reserves they hold."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def invited_with(self, account_id: int) -> set[int]:
        """The accounts this one invited to a money table, or that invited it."""
        known: set[int] = set()
        with self.engine.connect() as conn:
            for creator, invited in conn.execute(select(offers.c.creator, offers.c.invited)):
                listed = set(json.loads(invited)) if invited else set()
                if creator == account_id:
                    known |= listed
                elif account_id in listed:
                    known.add(creator)
        known.discard(account_id)
        return known

    def create(self, offer: Offer, sitter: Sitter, name: str, now: float) -> None:
        """Store a new offer with its creator seated (and its reserve held)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(offers).values(
                    id=offer.id,
                    rules=json.dumps(offer.rules.to_dict()),
                    pool=offer.pool,
                    bet=offer.bet,
                    created=offer.created,
                    creator=offer.creator,
                    invited=None if offer.invited is None else json.dumps(sorted(offer.invited)),
                )
            )
            self._sit(conn, offer.id, sitter, name, now)

    def sit(self, offer_id: str, sitter: Sitter, name: str, now: float) -> Offer:
        """Seat ``sitter`` at an offer, its reserve into the escrow; the offer after."""
        with self.engine.begin() as conn:
            self._sit(conn, offer_id, sitter, name, now)
            found = _read(conn, offer_id)
        assert found is not None
        return found

    def _sit(self, conn: Connection, offer_id: str, who: Sitter, name: str, now: float) -> None:
        locked = conn.execute(update(offers).where(offers.c.id == offer_id).values(id=offers.c.id))
        offer = _read(conn, offer_id)
        if locked.rowcount != 1 or offer is None:
            raise NotFound("no such money table waiting for players (it may have started)")
        rows = conn.execute(select(offer_seats).where(offer_seats.c.offer_id == offer_id)).all()
        seated = [(r.seat, Sitter(r.account_id, r.address, r.device)) for r in rows]
        seat = seat_for(
            offer.rules.players, seated, who, offer.invited, _playing(conn, who.account)
        )
        conn.execute(
            insert(offer_seats).values(
                offer_id=offer_id,
                seat=seat,
                account_id=who.account,
                name=name,
                address=who.address,
                device=who.device,
                joined=now,
            )
        )
        held = reserve(offer.rules, offer.bet)
        post(
            conn,
            f"table:{offer_id}",
            [Transfer(account_ledger(who.account), escrow(offer_id), held)],
            now,
        )

    def leave(self, offer_id: str, account: int, now: float) -> Offer | None:
        """Unseat ``account`` before the start, its reserve back; the offer after (None:
        nobody is left, and the offer is gone)."""
        with self.engine.begin() as conn:
            locked = conn.execute(
                update(offers).where(offers.c.id == offer_id).values(id=offers.c.id)
            )
            offer = _read(conn, offer_id)
            if locked.rowcount != 1 or offer is None:
                raise NotFound("no such money table waiting for players (it may have started)")
            gone = conn.execute(
                delete(offer_seats).where(
                    offer_seats.c.offer_id == offer_id, offer_seats.c.account_id == account
                )
            )
            if gone.rowcount != 1:
                raise OfferError("you do not sit at this table")
            held = reserve(offer.rules, offer.bet)
            post(
                conn,
                left_event(offer_id),
                [Transfer(escrow(offer_id), account_ledger(account), held)],
                now,
            )
            after = _read(conn, offer_id)
            if after is not None and not after.seats:
                conn.execute(delete(offers).where(offers.c.id == offer_id))
                return None
            return after

    def get(self, offer_id: str) -> Offer | None:
        with self.engine.connect() as conn:
            return _read(conn, offer_id)

    def waiting(self) -> list[Offer]:
        """Every offer, oldest first."""
        with self.engine.connect() as conn:
            ids = (
                conn.execute(
                    select(offers.c.id).order_by(offers.c.created, offers.c.id).limit(OPEN_OFFERS)
                )
                .scalars()
                .all()
            )
            found = [_read(conn, i) for i in ids]
        return [o for o in found if o is not None]


def _read(conn: Connection, offer_id: str) -> Offer | None:
    row = conn.execute(select(offers).where(offers.c.id == offer_id)).first()
    if row is None:
        return None
    seats = conn.execute(select(offer_seats).where(offer_seats.c.offer_id == offer_id)).all()
    return Offer(
        id=row.id,
        rules=RuleSet.from_dict(json.loads(row.rules)),
        pool=row.pool,
        bet=row.bet,
        created=row.created,
        creator=row.creator,
        invited=None if row.invited is None else frozenset(json.loads(row.invited)),
        seats={s.seat: (s.account_id, s.name) for s in seats},
    )


def _playing(conn: Connection, account: int) -> int:
    """The money tables an account sits at: offers waiting, and tables in play."""
    waiting = conn.execute(
        select(func.count()).select_from(offer_seats).where(offer_seats.c.account_id == account)
    ).scalar_one()
    live = conn.execute(
        select(func.count())
        .select_from(players.join(tables, players.c.table_id == tables.c.id))
        .where(players.c.account_id == account, tables.c.status == "live", tables.c.bet > 0)
    ).scalar_one()
    return int(waiting) + int(live)


Notify = Callable[[int, dict[str, Any]], None]


class MoneyDesk:
    """The money lobby: offers made, seats taken and left, full offers opened."""

    def __init__(self, registry: Registry, notify: Notify | None = None) -> None:
        self.registry = registry
        self.store = OfferStore(registry.store.engine)
        self.notify = notify or (lambda account, notice: None)
        self._starting: set[str] = set()

    async def create(
        self, account: Account, body: Any, marks: tuple[str, str | None]
    ) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ProtocolError("a money table is a JSON object")
        unknown = set(body) - {"rules", "length", "switches", "clock", "bet", "invite"}
        if unknown:
            raise ProtocolError(f"unknown fields {excerpt(sorted(unknown))}")
        rules = rules_of(body)
        pool_name = clock_of(body, Pool.STANDARD.value).value
        bet = body.get("bet")
        if not isinstance(bet, int) or isinstance(bet, bool):
            raise ProtocolError(f"a bet is a whole number of chips, got {excerpt(bet)}")
        try:
            check_offer(rules, bet, Pool(pool_name))
        except OfferError as exc:
            raise ProtocolError(str(exc)) from None
        invited = await self._invited(body.get("invite"), account)
        offer = Offer(
            id=secrets.token_hex(8),
            rules=rules,
            pool=pool_name,
            bet=bet,
            created=self.registry.clock.now(),
            creator=account.id,
            invited=None if invited is None else frozenset({*invited.values(), account.id}),
            seats={},
        )
        await self._write(
            self.store.create, offer, Sitter(account.id, *marks), account.name, offer.created
        )
        for other in (invited or {}).values():
            self.notify(
                other,
                {
                    "kind": "invited",
                    "text": f"{account.name} invites you to a money table: {offer.bet:,} a seat",
                    "link": "/money",
                    "offer": offer.id,
                },
            )
        found = await asyncio.to_thread(self.store.get, offer.id)
        assert found is not None
        return found.view(account.id)

    async def _invited(self, names: Any, account: Account) -> dict[str, int] | None:
        if names is None:
            return None
        if (
            not isinstance(names, list)
            or not 0 < len(names) <= MAX_INVITED
            or not all(isinstance(n, str) and 0 < len(n) <= 40 for n in names)
        ):
            raise ProtocolError(f"invite is a list of 1 to {MAX_INVITED} account names")
        found = await accounts_named(self.registry.store, names)
        return {n: i for n, i in found.items() if i != account.id}

    async def _write(self, work: Callable[..., Any], *args: Any) -> Any:
        try:
            return await asyncio.to_thread(work, *args)
        except (OfferError, ChipsShort) as exc:
            raise ProtocolError(str(exc)) from None

    async def sit(
        self, account: Account, offer_id: str, marks: tuple[str, str | None], body: Any = None
    ) -> dict[str, Any]:
        """Take a seat, confirming the switches the offer changes from its preset
        (``body``'s ``switches``, as the lobby shows them); a full offer starts at once
        (``table``: its id)."""
        shown = await asyncio.to_thread(self.store.get, offer_id[:32])
        if shown is None:
            raise NotFound("no such money table waiting for players (it may have started)")
        changed = changed_switches(shown.rules)
        confirmed = body.get("switches", {}) if isinstance(body, dict) else None
        if changed and confirmed != changed:
            raise ProtocolError(
                f"this table changes {shown.rules.name}'s "
                f"{', '.join(f'{k} to {v}' for k, v in changed.items())}: "
                "sit with those switches to confirm them"
            )
        offer = await self._write(
            self.store.sit,
            offer_id[:32],
            Sitter(account.id, *marks),
            account.name,
            self.registry.clock.now(),
        )
        if offer.full:
            await self.start(offer)
            return {**offer.view(account.id), "table": offer.id}
        return dict(offer.view(account.id))

    async def leave(self, account: Account, offer_id: str) -> dict[str, Any]:
        offer = await self._write(
            self.store.leave, offer_id[:32], account.id, self.registry.clock.now()
        )
        return {"left": True, "offer": None if offer is None else offer.view(account.id)}

    async def lobby(self, account: Account | None) -> dict[str, Any]:
        """The offers this person may see: those open to all, and those inviting it."""
        viewer = None if account is None else account.id
        every = await asyncio.to_thread(self.store.waiting)
        shown = [
            o.view(viewer)
            for o in every
            if o.invited is None or (viewer is not None and viewer in o.invited)
        ]
        return {"offers": shown}

    async def start(self, offer: Offer) -> None:
        """Open a full offer as its table (once: another start finds it gone)."""
        if offer.id in self._starting:
            return
        self._starting.add(offer.id)
        try:
            seed = secrets.token_hex(16)
            seats = drawn_seats(
                seed,
                [
                    SeatSpec(HUMAN, name, None, account)
                    for _, (account, name) in sorted(offer.seats.items())
                ],
            )
            new = fresh_table(
                offer.rules,
                seats,
                TableKind.MONEY,
                self.registry.clock.now(),
                seed=seed,
                pool=offer.pool,
                bet=offer.bet,
                table_id=offer.id,
            )
            try:
                await self.registry.open_table(new, offer.rules, seats)
            except (StorageError, IntegrityError) as exc:
                log.info("money table %s did not start: %s", offer.id, exc)
                return
        finally:
            self._starting.discard(offer.id)
        for spec in seats:
            assert spec.account is not None
            self.notify(
                spec.account,
                {
                    "kind": "table",
                    "text": f"your money table is full and starting: {offer.bet:,} a seat",
                    "link": f"/table/{offer.id}",
                },
            )

    async def step(self) -> None:
        """Start every full offer (a crash may have left one between its last seat and
        its start)."""
        for offer in await asyncio.to_thread(self.store.waiting):
            if offer.full:
                await self.start(offer)

    async def run(self) -> None:
        while True:
            try:
                if await self.registry.leads("money"):
                    await self.step()
            except Exception:
                log.exception("money desk: a round failed")
            await self.registry.clock.sleep_until(self.registry.clock.now() + 1.0)


__all__ = ["MoneyDesk", "Offer", "OfferStore"]
