"""The routes of games: finished games, their downloads and replays, tables to watch."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.server.feature import Feature
from riichi.server.games.downloads import Downloads
from riichi.server.hub import Server
from riichi.server.web import page, web_of


async def list_games(request: Request) -> Response:
    web = web_of(request)
    limit, offset = web.paging(request)
    return JSONResponse(await web.server.page("over", limit, offset))


async def game_file(request: Request) -> Response:
    game_id, fmt = request.path_params["id"], request.path_params["fmt"]
    data = await web_of(request).server.desk(Downloads).game_file(game_id, fmt)
    headers = {}
    if fmt != "replay":
        name = f"riichi-{game_id}-{fmt}.{'mjson' if fmt == 'mjai' else 'json'}"
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
    kind = "application/x-ndjson" if fmt == "mjai" else "application/json"
    return Response(data, media_type=kind, headers=headers)


async def watch_list(request: Request) -> Response:
    web = web_of(request)
    limit, offset = web.paging(request)
    return JSONResponse(await web.server.page("live", limit, offset, watchable=True))


ROUTES: list[BaseRoute] = [
    Route("/replay/{id}", page),
    Route("/watch", page),
    Route("/api/games", list_games),
    Route("/api/games/{id}/{fmt}", game_file),
    Route("/api/watch", watch_list),
]


def setup(hub: Server) -> None:
    hub.provide(Downloads(hub))


FEATURE = Feature("games", ROUTES, setup)
