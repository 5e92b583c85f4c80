"""The routes of leagues: the seasons, a new one, one's view and its actions."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.errors import excerpt
from riichi.server.feature import Feature
from riichi.server.hub import Server
from riichi.server.leagues.desk import LeagueDesk
from riichi.server.protocol import NotFound
from riichi.server.web import page, web_of


async def league_list(request: Request) -> Response:
    """The seasons (GET), or a new one (POST)."""
    web = web_of(request)
    desk = web.server.desk(LeagueDesk)
    if request.method == "POST":
        body = await web.read_json(request)
        session = await web.signed_in(request)
        return JSONResponse(await desk.create(session.account, body), status_code=201)
    return JSONResponse({"items": await desk.page()})


async def league(request: Request) -> Response:
    return JSONResponse(
        await web_of(request).server.desk(LeagueDesk).view(request.path_params["id"])
    )


async def league_action(request: Request) -> Response:
    web = web_of(request)
    body = await web.read_json(request)
    session = await web.signed_in(request)
    desk, league_id = web.server.desk(LeagueDesk), request.path_params["id"]
    action = request.path_params["action"]
    if action == "join":
        return JSONResponse(await desk.join(session.account, league_id, body))
    if action == "computers":
        return JSONResponse(await desk.add_computers(session.account, league_id, body))
    if action == "start":
        return JSONResponse(await desk.start(session.account, league_id))
    if action in ("wait", "stop-waiting"):
        return JSONResponse(await desk.wait(session.account, league_id, action == "wait"))
    if action == "end":
        return JSONResponse(await desk.end(session.account, league_id))
    raise NotFound(f"no league action {excerpt(action)}")


ROUTES: list[BaseRoute] = [
    Route("/leagues", page),
    Route("/league/{id}", page),
    Route("/api/leagues", league_list, methods=["GET", "POST"]),
    Route("/api/leagues/{id}", league),
    Route("/api/leagues/{id}/{action}", league_action, methods=["POST"]),
]


def setup(hub: Server) -> None:
    desk = LeagueDesk(hub.registry)
    hub.provide(desk, run=desk.run)


FEATURE = Feature("leagues", ROUTES, setup)
