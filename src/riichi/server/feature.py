"""A feature as the site assembles it, and the narrow interfaces features meet through.

Contract:

- A feature is a package under ``riichi.server`` with its routes, its storage and its
  desk (the service that holds its state in this process). It joins the site as one
  ``Feature`` in ``app.FEATURES``: its ``routes`` are mounted, and ``setup`` is called
  once with the hub before the site serves, to build its desk and hand it to the hub
  (``Server.provide``) with the loop it runs and what to close at the end.
- A feature finds its own desk with ``Server.desk(TheDesk)``. It never imports another
  feature: what it needs of one is an ``Interface`` here (a name and a protocol),
  which the feature that has it provides; a site without that feature answers
  ``Missing``.
- The core imports no feature: the hub holds desks by type, and each feature hooks
  what it adds to every table (a game hidden until its day ends, chips given back
  when a table is voided) through the hub's hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from sqlalchemy.engine import Connection
from starlette.routing import BaseRoute

from riichi.server.storage import Account, StoredTable

if TYPE_CHECKING:
    from riichi.server.hub import Server


def _nothing(hub: Server) -> None:
    """A feature of routes alone."""


@dataclass(frozen=True)
class Feature:
    name: str
    routes: Sequence[BaseRoute]
    setup: Callable[[Server], None] = _nothing


class Missing(ValueError):
    """A desk or interface no feature of this site provides."""


T = TypeVar("T")


@dataclass(frozen=True)
class Interface(Generic[T]):
    """A named interface: what one feature offers the others, typed by its protocol."""

    name: str


class Balances(Protocol):
    """A ledger account's chips (money)."""

    def balance(self, who: str) -> int: ...


class QueueView(Protocol):
    """What the rated queue shows a person (play)."""

    async def view(self, account: Account | None) -> dict[str, Any]: ...


class PlayerReviews(Protocol):
    """A player's reviewed games, with their figures (review)."""

    def of_player(self, player: str) -> list[dict[str, Any]]: ...


class Invitations(Protocol):
    """The accounts one invited to a money table, or that invited it (money)."""

    def invited_with(self, account_id: int) -> set[int]: ...


class RatedGames(Protocol):
    """A rated game taken out of the ratings, and a player's name changed where the
    ratings show it, in the caller's transaction (ratings)."""

    def void_rated(self, conn: Connection, table_id: str) -> int: ...

    def rename(self, conn: Connection, player: str, name: str) -> None: ...


class TableChips(Protocol):
    """What a table that ended void holds, given back in the caller's transaction
    (money)."""

    def release(self, conn: Connection, table_id: str, now: float) -> int: ...


BALANCES: Interface[Balances] = Interface("balances")
INVITATIONS: Interface[Invitations] = Interface("invitations")
RATED_GAMES: Interface[RatedGames] = Interface("rated games")
TABLE_CHIPS: Interface[TableChips] = Interface("table chips")
QUEUE_VIEW: Interface[QueueView] = Interface("queue view")
PLAYER_REVIEWS: Interface[PlayerReviews] = Interface("player reviews")


class Desks:
    """The hub's side that features fill: desks by type and interface, the loops they
    run while the site serves, what they close, and who may hide a finished game."""

    def __init__(self) -> None:
        self._desks: dict[type | Interface[Any], object] = {}
        self._loops: list[tuple[str, Callable[[], Coroutine[Any, Any, None]]]] = []
        self._closing: list[Callable[[], None]] = []
        self.shown: list[Callable[[StoredTable], bool]] = []

    def provide(
        self,
        desk: object,
        *interfaces: Interface[Any],
        run: Callable[[], Coroutine[Any, Any, None]] | None = None,
        close: Callable[[], None] | None = None,
    ) -> None:
        """A feature's desk, found by its type and by each interface it serves; ``run``
        the loop it runs while the site serves, ``close`` what ends it."""
        keys: list[type | Interface[Any]] = [type(desk), *interfaces]
        for key in keys:
            if key in self._desks:
                raise ValueError(f"two features provide {key}")
            self._desks[key] = desk
        if run is not None:
            self._loops.append((type(desk).__name__, run))
        if close is not None:
            self._closing.append(close)

    def desk(self, key: type[T] | Interface[T]) -> T:
        """The desk of that type, or serving that interface, a feature provided."""
        found = self._desks.get(key)
        if found is None:
            raise Missing(f"no feature of this site provides {key}")
        return found  # type: ignore[return-value]  # provide keyed it by this type

    def may_see(self, stored: StoredTable) -> bool:
        """Whether a finished game may be shown yet: every feature that may hide one
        agrees (a Daily Wall game waits for its day to end)."""
        return all(shown(stored) for shown in self.shown)


__all__ = [
    "BALANCES",
    "INVITATIONS",
    "PLAYER_REVIEWS",
    "QUEUE_VIEW",
    "RATED_GAMES",
    "TABLE_CHIPS",
    "Balances",
    "Desks",
    "Feature",
    "Interface",
    "Invitations",
    "Missing",
    "PlayerReviews",
    "QueueView",
    "RatedGames",
    "TableChips",
]
