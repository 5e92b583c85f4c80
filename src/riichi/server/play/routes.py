"""The routes of play: the queue, making and listing tables, the presets, the pages."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.errors import excerpt
from riichi.platform.tables import TableKind
from riichi.rules import PRESETS
from riichi.server.feature import QUEUE_VIEW, Feature
from riichi.server.hub import Server
from riichi.server.play.coach import Coach
from riichi.server.play.lobby import Lobby
from riichi.server.play.queue import RatedQueue
from riichi.server.protocol import LEFT, Busy, NotFound, ProtocolError
from riichi.server.registry import Elsewhere
from riichi.server.web import client_address, error, page, web_of


async def queue(request: Request) -> Response:
    web = web_of(request)
    hub = web.server
    if request.method == "GET":
        return JSONResponse(await hub.desk(RatedQueue).view(await web.account_of(request)))
    body = await web.read_json(request)
    session = await web.signed_in(request)
    if request.method == "DELETE":
        await hub.desk(RatedQueue).leave(session.account)
    else:
        pool = body.get("pool") if isinstance(body, dict) else None
        device, _ = web.device_of(request)  # a browser without one is a browser of its own
        try:
            await hub.desk(RatedQueue).join(
                session.account, str(pool), client_address(request), device
            )
        except ProtocolError as exc:
            return error(str(exc), 409)
    return JSONResponse(await hub.desk(RatedQueue).view(session.account))


async def create_table(request: Request) -> Response:
    web = web_of(request)
    body = await web.read_json(request)
    account = await web.account_of(request)
    try:
        table, tokens = await web.server.desk(Lobby).create(body, client_address(request), account)
    except Busy as exc:
        return error(str(exc), exc.status)
    except ProtocolError as exc:
        return error(str(exc))
    return JSONResponse({**table.info(), "tokens": tokens}, status_code=201)


async def leave_table(request: Request) -> Response:
    """A person leaves their seat: a practice table ends at once (it frees a guest's
    place); at any other table the clock plays the seat from now, as its rules say."""
    web = web_of(request)
    body = await web.read_json(request)
    token = body.get("token") if isinstance(body, dict) else None
    hub, table_id = web.server, request.path_params["id"]
    account = await web.account_of(request)
    try:
        table = await hub.table(table_id)
    except Elsewhere as exc:
        return error(f"{exc}; leave it there", 409)
    if table is None or table.stored.status != "live" or table.closed:
        raise NotFound(f"no table {excerpt(table_id)} in play")
    seat = table.audience.seat_of(
        token if isinstance(token, str) else None, None if account is None else account.id
    )
    if seat is None:
        return error(f"table {table.id}: you have no seat there to leave", 403)
    ended = table.stored.kind == TableKind.PRACTICE.value and not table.match.over
    if ended:
        closed = await asyncio.to_thread(hub.store.close_idle, table.id, hub.clock.now())
        await hub.registry.let_go(table.id, LEFT)
        hub.registry.live -= closed
    return JSONResponse({"table": table.id, "seat": seat, "ended": ended})


async def list_tables(request: Request) -> Response:
    web = web_of(request)
    limit, offset = web.paging(request)
    return JSONResponse(await web.server.page("live", limit, offset))


async def table_info(request: Request) -> Response:
    return JSONResponse(await web_of(request).server.info(request.path_params["id"]))


async def presets(request: Request) -> Response:
    return JSONResponse(
        [
            {
                "name": r.name,
                "players": r.players,
                "length": r.length.value,
                "lengths": [x.value for x in r.lengths],
                "ruleset": r.to_dict(),
            }
            for r in PRESETS.values()
        ]
    )


ROUTES: list[BaseRoute] = [
    Route("/", page),
    Route("/table/{id}", page),
    Route("/api/presets", presets),
    Route("/api/queue", queue, methods=["GET", "POST", "DELETE"]),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{id}/leave", leave_table, methods=["POST"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables/{id}", table_info),
]


def setup(hub: Server) -> None:
    queue = RatedQueue(hub.registry, lambda: hub.auth, hub.notices.send, hub.fill_after)
    hub.provide(queue, QUEUE_VIEW, run=queue.run)
    hub.provide(Lobby(hub))
    hub.registry.handlers["coach"] = Coach().answer


FEATURE = Feature("play", ROUTES, setup)
