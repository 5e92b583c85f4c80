"""The lobby's new tables: a practice or private table from a request, with the room a
guest or an account has for one more, and the people invited to it by name."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import replace
from typing import Any

from riichi.errors import excerpt
from riichi.game import commitment
from riichi.platform import Pool
from riichi.platform.tables import (
    SeatSpec,
    TableError,
    TableKind,
    check_lobby_table,
    drawn_seats,
    lobby_kind,
)
from riichi.server.hub import Server
from riichi.server.protocol import Busy, ProtocolError
from riichi.server.seating import (
    accounts_named,
    clock_of,
    fresh_table,
    rules_of,
    seat_specs,
)
from riichi.server.storage import Account, ChipsShort
from riichi.server.table import LiveTable

SEED_LENGTH = 64


class Lobby:
    """Opens the lobby's tables on this process's registry."""

    def __init__(self, hub: Server) -> None:
        self.hub = hub

    def _room(self, address: str, account: Account | None) -> None:
        """Whether one more table may open for this guest address or account: guests
        share a small budget; a signed-in person with no table in play always may."""
        hub, limits = self.hub, self.hub.limits
        live = [t for t in hub.tables.values() if not t.closed and not t.match.over]
        if account is None:
            guests = [t for t in live if t.guest]
            if hub.live >= limits.live_tables or len(guests) >= limits.guest_tables:
                raise Busy("the server has no room for more guests' tables; sign in to play", 503)
            if sum(t.opened_by == address for t in guests) >= limits.guest_tables_per_address:
                raise Busy(
                    f"guests from your address have {limits.guest_tables_per_address} "
                    "tables in play; finish one or sign in",
                    429,
                )
            return
        mine = sum(any(s.account == account.id for s in t.seats) for t in live)
        if mine and hub.live >= limits.live_tables:
            raise Busy("the server is full; finish a table you have in play", 503)
        if mine >= limits.tables_per_account:
            raise Busy(f"you have {mine} tables in play; finish one first", 429)

    async def create(
        self, body: Any, address: str, account: Account | None = None
    ) -> tuple[LiveTable, list[str | None]]:
        """A new practice or private table from the lobby; the tokens go to its creator,
        who sits in the first seat (as the signed-in account, if any)."""
        if not self.hub.rates.hit(self.hub.limits.tables_per_address, f"create:{address}"):
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
            self.hub.clock.now(),
            seed=seed,
            bot_seed=None if chosen is None else commitment(chosen, "bots")[:32],
            seed_public=chosen is not None,
            pool=pool.value,
            watchable=watchable,
            bet=bet,
        )
        try:
            table = await self.hub.registry.open_table(new, rules, seats)
        except ChipsShort as exc:
            raise ProtocolError(str(exc)) from None
        if account is None:
            table.opened_by = address
        for other, _ in invited.values():
            assert account is not None
            self.hub.notices.send(
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
        found = await accounts_named(self.hub.store, names)
        ids = [found[n] for n in names]
        if account.id in ids or len(set(ids)) != len(ids):
            raise ProtocolError("invite each other person once, and not yourself")
        named = await asyncio.to_thread(self.hub.store.accounts.names, ids)
        return {seat: (i, named[i]) for seat, i in zip(open_seats, ids, strict=False)}
