"""The routes of tournaments: the list, a new one, one's view and its actions."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.errors import excerpt
from riichi.server.feature import Feature
from riichi.server.hub import Server, paged
from riichi.server.protocol import NotFound
from riichi.server.tournaments.desk import TournamentDesk
from riichi.server.web import page, web_of


async def tournaments(request: Request) -> Response:
    web = web_of(request)
    desk = web.server.desk(TournamentDesk)
    if request.method == "POST":
        body = await web.read_json(request)
        session = await web.signed_in(request)
        return JSONResponse(await desk.create(session.account, body), status_code=201)
    limit, offset = web.paging(request)
    items, total = await desk.page(limit, offset)
    return JSONResponse(paged(items, total, limit, offset))


async def tournament(request: Request) -> Response:
    return JSONResponse(
        await web_of(request).server.desk(TournamentDesk).view(request.path_params["id"])
    )


async def tournament_action(request: Request) -> Response:
    web = web_of(request)
    body = await web.read_json(request)
    session = await web.signed_in(request)
    desk, tid = web.server.desk(TournamentDesk), request.path_params["id"]
    action = request.path_params["action"]
    if action == "register":
        return JSONResponse(await desk.register(session.account, tid))
    if action == "computers":
        count = body.get("count") if isinstance(body, dict) else None
        return JSONResponse(await desk.add_computers(session.account, tid, count))
    if action == "start":
        return JSONResponse(await desk.close_registration(session.account, tid))
    raise NotFound(f"no tournament action {excerpt(action)}")


ROUTES: list[BaseRoute] = [
    Route("/tournaments", page),
    Route("/tournament/{id}", page),
    Route("/api/tournaments", tournaments, methods=["GET", "POST"]),
    Route("/api/tournaments/{id}", tournament),
    Route("/api/tournaments/{id}/{action}", tournament_action, methods=["POST"]),
]


def setup(hub: Server) -> None:
    desk = TournamentDesk(hub.registry)
    desk.notify = hub.notices.send
    hub.provide(desk, run=desk.run)


FEATURE = Feature("tournaments", ROUTES, setup)
