"""The routes of ratings: the leaderboard and a player's page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.server.feature import RATED_GAMES, Feature
from riichi.server.hub import Server
from riichi.server.protocol import NotFound
from riichi.server.ratings import pages
from riichi.server.ratings.records import RecordStore
from riichi.server.web import page, web_of


async def leaderboard(request: Request) -> Response:
    web = web_of(request)
    limit, offset = web.paging(request)
    return JSONResponse(await pages.leaderboard(web.server, limit, offset))


async def player(request: Request) -> Response:
    web = web_of(request)
    limit, offset = web.paging(request)
    key = request.path_params["key"]
    if len(key) > 64:
        raise NotFound("no such player")
    return JSONResponse(await pages.player(web.server, key, limit, offset))


ROUTES: list[BaseRoute] = [
    Route("/leaderboard", page),
    Route("/player/{key}", page),
    Route("/compare/{a}/{b}", page),
    Route("/api/leaderboard", leaderboard),
    Route("/api/players/{key}", player),
]


def setup(hub: Server) -> None:
    hub.provide(RecordStore(hub.store.engine), RATED_GAMES)


FEATURE = Feature("ratings", ROUTES, setup)
