"""The ASGI app: a JSON API for tables and games, and one websocket per seat or spectator.

Protocol (JSON text frames). The server sends ``hello`` on connect, then an
``update`` per change (``from`` and ``version`` let a client spot a gap), an
``ack`` for each accepted action and an ``error`` for anything refused. A
client sends ``{"type": "action", "action": {...}}`` with one of
``state.legal``, or ``{"type": "sync"}`` for a full ``state`` message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from riichi.formats.tenhou6 import write_tenhou6
from riichi.game import Match
from riichi.rules import PRESETS, Length, RuleSet, find_ruleset
from riichi.server.storage import DEFAULT_URL, Store
from riichi.server.table import LiveTable, ProtocolError, SeatSpec, load_match, seat_specs
from riichi.server.views import replay_frames

STATIC = Path(__file__).parent / "static"


class Server:
    """Live tables by id, and the store they are rebuilt from."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}

    def restore(self) -> None:
        """Rebuild every live table from its log and start its task."""
        for stored in self.store.list_tables("live"):
            table = LiveTable.rebuild(stored, self.store, self.clock)
            self.tables[table.id] = table
            table.start()

    def create(self, body: Any) -> LiveTable:
        if not isinstance(body, dict):
            raise ProtocolError("a new table is a JSON object")
        rules = _rules(body)
        kinds = body.get("seats") or [
            "human",
            *["efficiency"] * (rules.players - 1),
        ]
        if not isinstance(kinds, list) or len(kinds) != rules.players:
            raise ProtocolError(f"{rules.name} needs {rules.players} seats, got {kinds!r}")
        if not all(isinstance(k, str) for k in kinds):
            raise ProtocolError(f"each seat is 'human' or a bot name, got {kinds!r}")
        names = body.get("names")
        if names is not None and not (
            isinstance(names, list) and all(isinstance(n, str | None) for n in names)
        ):
            raise ProtocolError(f"names is a list of strings, got {names!r}")
        try:
            seats = seat_specs(kinds, [n.strip()[:24] if n else "" for n in names or []])
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
        seed = str(body.get("seed") or secrets.token_hex(8))
        table_id = secrets.token_hex(6)
        table = LiveTable.create(table_id, rules, seed, seats, self.store, self.clock)
        self.tables[table_id] = table
        table.start()
        return table

    async def close(self) -> None:
        for table in self.tables.values():
            await table.stop()
        self.store.close()


def _rules(body: dict[str, Any]) -> RuleSet:
    try:
        rules = find_ruleset(str(body.get("rules", "online")))
        if body.get("length"):
            rules = rules.replace(length=Length(body["length"]))
        switches = body.get("switches") or {}
        if not isinstance(switches, dict):
            raise ValueError(f"switches is an object, got {switches!r}")
        if switches:
            rules = RuleSet.from_dict({**rules.to_dict(), **switches})
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None
    return rules


def create_app(db_url: str = DEFAULT_URL, clock: Callable[[], float] = time.time) -> Starlette:
    """The whole web app on the database at ``db_url`` (SQLite file by default)."""
    holder: dict[str, Server] = {}

    def server() -> Server:
        return holder["server"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        holder["server"] = Server(Store(db_url), clock)
        server().restore()
        yield
        await server().close()

    async def create_table(request: Request) -> Response:
        try:
            body = await request.json()
        except json.JSONDecodeError:
            return _error("the body is not JSON")
        try:
            table = server().create(body)
        except ProtocolError as exc:
            return _error(str(exc))
        return JSONResponse(
            {**table.info(), "tokens": [s.token for s in table.seats]}, status_code=201
        )

    async def list_tables(request: Request) -> Response:
        live = [t.info() for t in server().tables.values() if not t.match.over]
        return JSONResponse(live)

    async def table_info(request: Request) -> Response:
        table = server().tables.get(request.path_params["id"])
        if table is None:
            return _error("no such table", 404)
        return JSONResponse(table.info())

    async def list_games(request: Request) -> Response:
        games = [
            {
                "id": g.id,
                "rules": g.rules.get("name"),
                "players": [s["name"] for s in g.seats],
                "finished": g.finished,
                "standings": g.standings,
            }
            for g in server().store.list_tables("over")
        ]
        return JSONResponse(games)

    async def game_replay(request: Request) -> Response:
        found = _finished(server(), request.path_params["id"])
        if found is None:
            return _error("no such finished game", 404)
        match, seats = found
        players = [s.public() for s in seats]
        return JSONResponse({"players": players, "frames": replay_frames(match, players)})

    async def presets(request: Request) -> Response:
        return JSONResponse(
            [
                {
                    "name": r.name,
                    "players": r.players,
                    "length": r.length.value,
                    "lengths": [x.value for x in r.lengths],
                }
                for r in PRESETS.values()
            ]
        )

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def game_record(request: Request) -> Response:
        found = _finished(server(), request.path_params["id"])
        if found is None:
            return _error("no such finished game", 404)
        match = found[0]
        fmt = request.path_params["fmt"]
        if fmt == "record":
            data = match.record()
        elif fmt == "tenhou6":
            data = write_tenhou6(match)
        else:
            return _error(f"unknown format {fmt!r}; known: record, tenhou6", 404)
        name = f"riichi-{request.path_params['id']}-{fmt}.json"
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        table = server().tables.get(websocket.path_params["id"])
        if table is None:
            await websocket.send_json({"type": "error", "message": "no such table"})
            await websocket.close(code=4404)
            return
        try:
            viewer = table.join(websocket.query_params.get("token"))
        except ProtocolError as exc:
            await websocket.send_json({"type": "error", "message": str(exc)})
            await websocket.close(code=4403)
            return

        async def pump() -> None:
            while True:
                await websocket.send_json(await viewer.outbox.get())

        sender = asyncio.create_task(pump())
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = json.loads(text)
                except json.JSONDecodeError:
                    viewer.outbox.put_nowait(
                        {"type": "error", "message": f"not JSON: {text[:80]!r}"}
                    )
                    continue
                table.send(viewer, message)
        except WebSocketDisconnect:
            pass
        finally:
            table.leave(viewer)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    routes = [
        Route("/", page),
        Route("/table/{id}", page),
        Route("/replay/{id}", page),
        Route("/api/presets", presets),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{id}", table_info),
        Route("/api/games", list_games),
        Route("/api/games/{id}/replay", game_replay),
        Route("/api/games/{id}/{fmt}", game_record),
        WebSocketRoute("/ws/tables/{id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _finished(server: Server, game_id: str) -> tuple[Match, list[SeatSpec]] | None:
    table = server.tables.get(game_id)
    if table is not None:
        found = (table.match, table.seats)
    else:
        stored = server.store.get_table(game_id)
        if stored is None:
            return None
        found = load_match(stored, server.store)
    return found if found[0].standings is not None else None


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
