"""The routes of Daily Wall: today's (or a past day's) standings, and a play."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.server.daily.desk import DailyDesk
from riichi.server.feature import Feature
from riichi.server.hub import Server
from riichi.server.web import page, web_of


async def daily(request: Request) -> Response:
    web = web_of(request)
    hub = web.server
    if request.method == "POST":
        await web.read_json(request)
        player = await web.signed_in(request)
        play = await hub.desk(DailyDesk).play(player.account, web.marks(request))
        return JSONResponse(play, status_code=201)
    day = request.query_params.get("day")
    return JSONResponse(await hub.desk(DailyDesk).view(day, await web.account_of(request)))


ROUTES: list[BaseRoute] = [
    Route("/daily", page),
    Route("/api/daily", daily, methods=["GET", "POST"]),
]


def setup(hub: Server) -> None:
    desk = DailyDesk(hub.registry)
    hub.provide(desk)
    hub.shown.append(desk.may_see)


FEATURE = Feature("daily", ROUTES, setup)
