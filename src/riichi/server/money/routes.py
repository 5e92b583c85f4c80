"""The routes of money: the lobby, a new money table, sitting and leaving, your chips."""

from __future__ import annotations

import asyncio

from prometheus_client.core import Metric
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.errors import excerpt
from riichi.platform.chips import HOUSE, account_ledger
from riichi.server.auth import Session
from riichi.server.feature import BALANCES, INVITATIONS, TABLE_CHIPS, Feature
from riichi.server.hub import Server, paged
from riichi.server.metrics import gauge
from riichi.server.money.desk import MoneyDesk
from riichi.server.money.ledger import ChipStore
from riichi.server.protocol import NotFound
from riichi.server.web import HttpError, page, web_of


async def money_session(request: Request) -> Session:
    """A signed-in person acting at the money lobby, at a bounded rate (each seat taken
    or left moves chips)."""
    web = web_of(request)
    session = await web.signed_in(request)
    key = f"money:{session.account.id}"
    if not web.server.rates.hit(web.limits.tables_per_address, key):
        raise HttpError("too many money table requests: wait a minute", 429)
    return session


async def money(request: Request) -> Response:
    """The money lobby (GET), or a new money table between people (POST)."""
    web = web_of(request)
    hub = web.server
    if request.method == "GET":
        return JSONResponse(await hub.desk(MoneyDesk).lobby(await web.account_of(request)))
    body = await web.read_json(request)
    session = await money_session(request)
    created = await hub.desk(MoneyDesk).create(session.account, body, web.marks(request))
    return JSONResponse(created, status_code=201)


async def money_action(request: Request) -> Response:
    web = web_of(request)
    body = await web.read_json(request)
    session = await money_session(request)
    hub = web.server
    offer, action = request.path_params["id"], request.path_params["action"]
    if action == "sit":
        return JSONResponse(
            await hub.desk(MoneyDesk).sit(session.account, offer, web.marks(request), body)
        )
    if action == "leave":
        return JSONResponse(await hub.desk(MoneyDesk).leave(session.account, offer))
    raise NotFound(f"no money table action {excerpt(action)}")


async def chips(request: Request) -> Response:
    """The signed-in account's chips and its movements, newest first."""
    web = web_of(request)
    session = await web.signed_in(request)
    limit, offset = web.paging(request)
    hub = web.server
    who = account_ledger(session.account.id)
    balance = await asyncio.to_thread(hub.desk(ChipStore).balance, who)
    items, total = await asyncio.to_thread(hub.desk(ChipStore).statement, who, limit, offset)
    return JSONResponse({"balance": balance, "statement": paged(items, total, limit, offset)})


ROUTES: list[BaseRoute] = [
    Route("/money", page),
    Route("/chips", page),
    Route("/api/money", money, methods=["GET", "POST"]),
    Route("/api/money/{id}/{action}", money_action, methods=["POST"]),
    Route("/api/chips", chips),
]


def chip_gauges(chips: ChipStore) -> list[Metric]:
    """The chips held in escrow for tables, tournaments and offers, and the most the
    house may still lose at the money tables in play (read at each scrape)."""
    books = chips.balances()
    held = sum(v for k, v in books.items() if k.startswith("escrow:"))
    return [
        gauge("riichi_chips_in_play", "Chips held in escrow (tables, tournaments, offers).", held),
        gauge("riichi_house_exposure", "The most the house may still lose.", chips.exposure()),
        gauge("riichi_house_chips", "The house's balance.", books.get(HOUSE, 0)),
    ]


def setup(hub: Server) -> None:
    chips = ChipStore(hub.store.engine)
    hub.provide(chips, BALANCES, TABLE_CHIPS)
    hub.registry.void = chips.void_table  # a table that cannot replay gives back its chips
    hub.registry.metrics.gauges.append(lambda: chip_gauges(chips))
    desk = MoneyDesk(hub.registry, hub.notices.send)
    hub.provide(desk, run=desk.run)
    hub.provide(desk.store, INVITATIONS)


FEATURE = Feature("money", ROUTES, setup)
