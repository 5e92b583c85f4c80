"""The ASGI app: a JSON API for tables and games, and one websocket per seat or spectator.

Protocol (JSON text frames). The server sends ``hello`` on connect, then an
``update`` per change (``from`` and ``version`` let a client spot a gap), an
``ack`` for each accepted action and an ``error`` for anything refused. A
client sends ``{"type": "action", "version": V, "action": {...}}`` with one of
``state.legal`` and the version of the state it answers, or ``{"type":
"sync"}`` for a full ``state`` message.

Every input is bounded (``limits.Limits``): body and message sizes, JSON
depth, message and creation rates, connections per address, page sizes.
Browsers are held to the same origin: a websocket or a POST from another
site's page is refused, and every page carries a strict content policy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from riichi.errors import excerpt
from riichi.platform import AccountError
from riichi.platform.chips import account_ledger
from riichi.platform.matchmaking import FILL_AFTER
from riichi.platform.spectating import HAND, Delay
from riichi.rules import PRESETS
from riichi.server.auth import (
    COOKIE,
    DEVICE_COOKIE,
    DEVICE_SECONDS,
    SESSION_SECONDS,
    AuthError,
    Session,
)
from riichi.server.clock import Clock, SystemClock
from riichi.server.hub import Server, paged
from riichi.server.limits import LimitError, Limits, Pace, parse_json
from riichi.server.notices import ONLINE_SECONDS
from riichi.server.registry import Elsewhere
from riichi.server.relay import CLOSE_RELAY, RemoteTable
from riichi.server.reviews import MAX_LOG, REVIEWERS, ReviewBusy
from riichi.server.storage import DEFAULT_URL, Account
from riichi.server.table import (
    CLOSE_MOVED,
    CLOSE_NO_TABLE,
    CLOSE_REFUSED,
    CLOSE_TOO_MANY,
    CLOSE_TOO_SLOW,
    CLOSE_UNSUPPORTED,
    Busy,
    LiveTable,
    NotFound,
    ProtocolError,
    Viewer,
)

STATIC = Path(__file__).parent / "static"
RELAY_ANSWER = 10.0  # seconds the owner of a relayed table has to answer a join
log = logging.getLogger(__name__)


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


class SecurityHeaders:
    """Adds the content policy and its friends to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


class RedactTokens(logging.Filter):
    """Keeps seat-link tokens out of access logs."""

    pattern = re.compile(r"(token=)[^&\s\"]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self.pattern.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args
            )
        return True


def same_origin(headers: Headers) -> bool:
    """No Origin (not a browser) or an Origin naming this very host."""
    origin = headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == headers.get("host", "").lower()


def client_address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def create_app(
    db_url: str = DEFAULT_URL,
    clock: Clock | None = None,
    limits: Limits | None = None,
    bot_delay: float = 0.0,
    fill_after: float = FILL_AFTER,
    spectator_delay: Delay = HAND,
    shared: bool = False,
    redis_url: str | None = None,
    review_workers: int = 1,
    search_workers: int = 1,
) -> Starlette:
    """The whole web app on the database at ``db_url`` (SQLite file by default).

    ``clock`` is the time the server reads and waits on (the wall clock unless a
    test brings a ``FakeClock``); ``fill_after`` the seconds a rated player waits
    before roster computers fill the table; ``spectator_delay`` how far behind
    the game spectators are; ``shared`` that other processes serve the same
    database (tables are then held by lease, never taken by force); ``redis_url``
    the Redis that relays connections between them and shares rate limits;
    ``review_workers`` the processes that compute game reviews, ``search_workers``
    those in which searching computers think.
    """
    from riichi.server.storage import Store

    limits = limits or Limits()
    time_source: Clock = clock or SystemClock()
    holder: dict[str, Server] = {}

    def server() -> Server:
        return holder["server"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for name in ("uvicorn.access", "uvicorn.error"):  # the websocket lines log there
            logger = logging.getLogger(name)
            if not any(isinstance(f, RedactTokens) for f in logger.filters):
                logger.addFilter(RedactTokens())
        store = await asyncio.to_thread(Store, db_url)
        holder["server"] = app.state.server = Server(
            store,
            time_source,
            limits,
            bot_delay,
            fill_after,
            spectator_delay,
            shared,
            redis_url,
            review_workers,
            search_workers,
        )
        await server().start()
        yield
        await server().close()

    async def read_json(request: Request, most: int | None = None) -> Any:
        """The request's JSON body, at most ``most`` bytes (the limits' body size)."""
        # A refusal before the whole body is read closes the connection: what is left
        # of the body would otherwise be read as the next request on it.
        most = limits.body_bytes if most is None else most
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise HttpError("send JSON with Content-Type: application/json", 415, close=True)
        if not same_origin(request.headers):
            raise HttpError("requests from another site's page are refused", 403, close=True)
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > most):
            raise HttpError(f"the body is over {most} bytes", 413, close=True)
        body = bytearray()

        async def receive() -> None:
            async for chunk in request.stream():
                body.extend(chunk)
                if len(body) > most:
                    raise HttpError(f"the body is over {most} bytes", 413, close=True)

        try:
            await asyncio.wait_for(receive(), limits.body_seconds)
        except TimeoutError:
            raise HttpError("the body took too long to arrive", 408, close=True) from None
        try:
            return parse_json(bytes(body), most, limits.json_depth)
        except LimitError as exc:
            raise HttpError(str(exc), 400) from None

    def paging(request: Request) -> tuple[int, int]:
        try:
            limit = int(request.query_params.get("limit", limits.page))
            offset = int(request.query_params.get("offset", 0))
        except ValueError:
            raise HttpError("limit and offset are whole numbers", 400) from None
        if not (1 <= limit <= limits.max_page and 0 <= offset <= 10**7):
            raise HttpError(f"limit is 1 to {limits.max_page}, offset 0 or more", 400)
        return limit, offset

    async def session_of(conn: Request | WebSocket) -> Session | None:
        auth = server().auth
        assert auth is not None
        return await auth.session(conn.cookies.get(COOKIE))

    async def signed_in(request: Request) -> Session:
        session = await session_of(request)
        if session is None:
            raise HttpError("sign in first", 401)
        return session

    def keep(response: Response, request: Request, name: str, value: str, seconds: int) -> None:
        """A cookie only this site's pages send, and no script reads."""
        response.set_cookie(
            name,
            value,
            max_age=seconds,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )

    def with_cookie(response: Response, request: Request, value: str | None) -> Response:
        if value is None:
            response.delete_cookie(COOKIE, path="/")
        else:
            keep(response, request, COOKIE, value, SESSION_SECONDS)
        return response

    def account_json(account: Account) -> dict[str, Any]:
        return {"id": account.id, "name": account.name}

    def device_of(request: Request) -> tuple[str, str | None]:
        """The browser's device id, and a cookie to set when it had none (see auth)."""
        auth = server().auth
        assert auth is not None
        device = auth.device(request.cookies.get(DEVICE_COOKIE))
        if device is not None:
            return device, None
        return auth.new_device()

    async def credentials(request: Request, new: bool) -> Response:
        """Register (``new``) or sign in with the body's name and password."""
        body = await read_json(request)
        auth = server().auth
        assert auth is not None
        fields = body if isinstance(body, dict) else {}
        device, fresh = device_of(request)
        enter = auth.register if new else auth.sign_in
        account, cookie = await enter(
            fields.get("name"), fields.get("password"), client_address(request), device
        )
        response = JSONResponse({"account": account_json(account)}, status_code=201 if new else 200)
        if fresh is not None:
            keep(response, request, DEVICE_COOKIE, fresh, DEVICE_SECONDS)
        return with_cookie(response, request, cookie)

    async def register(request: Request) -> Response:
        return await credentials(request, new=True)

    async def sign_in(request: Request) -> Response:
        return await credentials(request, new=False)

    async def sign_out(request: Request) -> Response:
        await read_json(request)  # a POST like the others: JSON, from this site
        session = await session_of(request)
        auth = server().auth
        if session is not None and auth is not None:
            await auth.sign_out(session)
        return with_cookie(JSONResponse({"account": None}), request, None)

    async def change_password(request: Request) -> Response:
        body = await read_json(request)
        session = await signed_in(request)
        auth = server().auth
        assert auth is not None
        fields = body if isinstance(body, dict) else {}
        await auth.change_password(session, fields.get("old"), fields.get("new"))
        return JSONResponse({"account": account_json(session.account)})

    async def me(request: Request) -> Response:
        session = await session_of(request)
        hub = server()
        if session is None:
            return JSONResponse(
                {"account": None, "tables": [], "queue": await hub.queue_view(None)}
            )
        chips = await asyncio.to_thread(hub.chips.balance, account_ledger(session.account.id))
        return JSONResponse(
            {
                "account": account_json(session.account),
                "tables": await hub.mine(session.account),
                "queue": await hub.queue_view(session.account),
                "chips": chips,
            }
        )

    async def queue(request: Request) -> Response:
        hub = server()
        if request.method == "GET":
            session = await session_of(request)
            return JSONResponse(await hub.queue_view(session.account if session else None))
        body = await read_json(request)
        session = await signed_in(request)
        if request.method == "DELETE":
            await hub.leave_queue(session.account)
        else:
            pool = body.get("pool") if isinstance(body, dict) else None
            device, _ = device_of(request)  # a browser without one is a browser of its own
            try:
                await hub.join_queue(session.account, str(pool), client_address(request), device)
            except ProtocolError as exc:
                return _error(str(exc), 409)
        return JSONResponse(await hub.queue_view(session.account))

    async def create_table(request: Request) -> Response:
        body = await read_json(request)
        session = await session_of(request)
        try:
            table, tokens = await server().create(
                body, client_address(request), session.account if session else None
            )
        except Busy as exc:
            return _error(str(exc), exc.status)
        except ProtocolError as exc:
            return _error(str(exc))
        return JSONResponse({**table.info(), "tokens": tokens}, status_code=201)

    async def list_tables(request: Request) -> Response:
        limit, offset = paging(request)
        return JSONResponse(await server().page("live", limit, offset))

    async def table_info(request: Request) -> Response:
        return JSONResponse(await server().info(request.path_params["id"]))

    async def list_games(request: Request) -> Response:
        limit, offset = paging(request)
        return JSONResponse(await server().page("over", limit, offset))

    async def reviewer_key(request: Request) -> str:
        """Who asks for a review: one at a time each (an account, or a guest's address);
        an address asks at a bounded rate, before anything it sent is read."""
        address = client_address(request)
        if not server().rates.hit(limits.reviews_per_address, f"review:{address}"):
            raise HttpError("too many review requests from your address: wait a minute", 429)
        session = await session_of(request)
        if session is not None:
            return f"account:{session.account.id}"
        return f"address:{address}"

    def seat_param(text: str) -> int:
        if not text.isdigit() or len(text) > 1:
            raise NotFound(f"no seat {excerpt(text)}")
        return int(text)

    async def game_review(request: Request) -> Response:
        seat = seat_param(request.path_params["seat"])
        by = request.query_params.get("by", "expert")
        if by not in REVIEWERS:
            raise NotFound(f"no reviewer {excerpt(by)}: {', '.join(REVIEWERS)}")
        who = await reviewer_key(request)
        found = await server().review(request.path_params["id"], seat, who, by)
        return Response(found, media_type="application/json")

    async def upload_review(request: Request) -> Response:
        """Review a pasted or uploaded log: ``{"log": text, "seat": n | "name": s,
        "keep": bool}``."""
        who = await reviewer_key(request)
        body = await read_json(request, MAX_LOG + 4096)
        fields = body if isinstance(body, dict) else {}
        log, seat, name = fields.get("log"), fields.get("seat"), fields.get("name")
        if not isinstance(log, str):
            raise HttpError('send the log as text in "log"', 400)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise HttpError('"seat" is a seat number', 400)
        if name is not None and (not isinstance(name, str) or len(name) > 64):
            raise HttpError('"name" is a player\'s name', 400)
        keep = fields.get("keep") is True
        done = await server().reviews.of_log(log.encode(), seat, name, keep, who)
        return Response(done, media_type="application/json")

    async def kept_review(request: Request) -> Response:
        seat = seat_param(request.path_params["seat"])
        who = await reviewer_key(request)
        game = request.path_params["game"]
        found = await server().reviews.kept(game[:80], seat, who)
        return Response(found, media_type="application/json")

    async def money_session(request: Request) -> Session:
        """A signed-in person acting at the money lobby, at a bounded rate (each seat
        taken or left moves chips)."""
        session = await signed_in(request)
        key = f"money:{session.account.id}"
        if not server().rates.hit(limits.tables_per_address, key):
            raise HttpError("too many money table requests: wait a minute", 429)
        return session

    async def money(request: Request) -> Response:
        """The money lobby (GET), or a new money table between people (POST)."""
        hub = server()
        if request.method == "GET":
            session = await session_of(request)
            return JSONResponse(await hub.money.lobby(session.account if session else None))
        body = await read_json(request)
        session = await money_session(request)
        device, _ = device_of(request)
        marks = hub.marks(client_address(request), device)
        return JSONResponse(await hub.money.create(session.account, body, marks), status_code=201)

    async def money_action(request: Request) -> Response:
        body = await read_json(request)
        session = await money_session(request)
        hub = server()
        offer, action = request.path_params["id"], request.path_params["action"]
        if action == "sit":
            device, _ = device_of(request)
            marks = hub.marks(client_address(request), device)
            return JSONResponse(await hub.money.sit(session.account, offer, marks, body))
        if action == "leave":
            return JSONResponse(await hub.money.leave(session.account, offer))
        raise NotFound(f"no money table action {excerpt(action)}")

    async def league_list(request: Request) -> Response:
        """The seasons (GET), or a new one (POST)."""
        desk = server().leagues
        if request.method == "POST":
            body = await read_json(request)
            session = await signed_in(request)
            return JSONResponse(await desk.create(session.account, body), status_code=201)
        return JSONResponse({"items": await desk.page()})

    async def league(request: Request) -> Response:
        return JSONResponse(await server().leagues.view(request.path_params["id"]))

    async def league_action(request: Request) -> Response:
        body = await read_json(request)
        session = await signed_in(request)
        desk, league_id = server().leagues, request.path_params["id"]
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

    async def online(request: Request) -> Response:
        """Who is online among the people you played with or invited."""
        session = await signed_in(request)
        return JSONResponse({"online": await server().online(session.account)})

    async def watch_list(request: Request) -> Response:
        limit, offset = paging(request)
        return JSONResponse(await server().page("live", limit, offset, watchable=True))

    async def leaderboard(request: Request) -> Response:
        limit, offset = paging(request)
        return JSONResponse(await server().leaderboard(limit, offset))

    async def player(request: Request) -> Response:
        limit, offset = paging(request)
        key = request.path_params["key"]
        if len(key) > 64:
            raise NotFound("no such player")
        return JSONResponse(await server().player(key, limit, offset))

    async def chips(request: Request) -> Response:
        """The signed-in account's chips and its movements, newest first."""
        session = await signed_in(request)
        limit, offset = paging(request)
        hub = server()
        who = account_ledger(session.account.id)
        balance = await asyncio.to_thread(hub.chips.balance, who)
        items, total = await asyncio.to_thread(hub.chips.statement, who, limit, offset)
        return JSONResponse({"balance": balance, "statement": paged(items, total, limit, offset)})

    async def daily(request: Request) -> Response:
        hub = server()
        if request.method == "POST":
            await read_json(request)
            player = await signed_in(request)
            device, _ = device_of(request)
            marks = hub.marks(client_address(request), device)
            play = await hub.daily.play(player.account, marks)
            return JSONResponse(play, status_code=201)
        session = await session_of(request)
        day = request.query_params.get("day")
        return JSONResponse(await hub.daily.view(day, session.account if session else None))

    async def tournaments(request: Request) -> Response:
        desk = server().tournaments
        if request.method == "POST":
            body = await read_json(request)
            session = await signed_in(request)
            return JSONResponse(await desk.create(session.account, body), status_code=201)
        limit, offset = paging(request)
        items, total = await desk.page(limit, offset)
        return JSONResponse(paged(items, total, limit, offset))

    async def tournament(request: Request) -> Response:
        return JSONResponse(await server().tournaments.view(request.path_params["id"]))

    async def tournament_action(request: Request) -> Response:
        body = await read_json(request)
        session = await signed_in(request)
        desk, tid = server().tournaments, request.path_params["id"]
        action = request.path_params["action"]
        if action == "register":
            return JSONResponse(await desk.register(session.account, tid))
        if action == "computers":
            count = body.get("count") if isinstance(body, dict) else None
            return JSONResponse(await desk.add_computers(session.account, tid, count))
        if action == "start":
            return JSONResponse(await desk.close_registration(session.account, tid))
        raise NotFound(f"no tournament action {excerpt(action)}")

    async def health(request: Request) -> Response:
        """What a load balancer probes: this process is up, which process it is (the
        owner named in the leases it holds) and how many tables it runs."""
        hub = server()
        return JSONResponse(
            {
                "ok": True,
                "process": hub.registry.owner,
                "shared": hub.registry.shared,
                "tables": len(hub.registry.tables),
            }
        )

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

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def game_file(request: Request) -> Response:
        game_id, fmt = request.path_params["id"], request.path_params["fmt"]
        data = await server().game_file(game_id, fmt)
        headers = {}
        if fmt != "replay":
            name = f"riichi-{game_id}-{fmt}.{'mjson' if fmt == 'mjai' else 'json'}"
            headers["Content-Disposition"] = f'attachment; filename="{name}"'
        kind = "application/x-ndjson" if fmt == "mjai" else "application/json"
        return Response(data, media_type=kind, headers=headers)

    async def table_socket(websocket: WebSocket) -> None:
        await counted_socket(websocket, serve_viewer)

    async def channel_socket(websocket: WebSocket) -> None:
        await counted_socket(websocket, serve_channel)

    async def counted_socket(websocket: WebSocket, serve: Any) -> None:
        """A websocket from this site's pages, counted against its address's allowance,
        served by ``serve(websocket, address, refuse)``."""
        address = client_address(websocket)
        await websocket.accept()

        async def refuse(message: str, code: int) -> None:
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "message": message, "final": True})
                await websocket.close(code=code)

        if not same_origin(websocket.headers):
            await refuse("connections from another site's page are refused", CLOSE_REFUSED)
            return
        hub = server()
        if (
            hub.sockets[address] >= limits.sockets_per_address
            or hub.sockets.total() >= limits.sockets
        ):
            await refuse("too many connections from your address", CLOSE_TOO_MANY)
            return
        shared = hub.relay.sockets if hub.relay is not None else None
        if shared is not None and not await shared.acquire(address, limits.sockets_per_address):
            await refuse("too many connections from your address", CLOSE_TOO_MANY)
            return
        hub.sockets[address] += 1
        try:
            await serve(websocket, address, refuse)
        finally:
            hub.sockets[address] -= 1
            if hub.sockets[address] <= 0:
                del hub.sockets[address]
            if shared is not None:
                await shared.release(address)

    async def serve_channel(websocket: WebSocket, address: str, refuse: Any) -> None:
        """A signed-in person's live channel (``notices``): ``hello``, then each notice
        as it comes; what the client sends is read (at most a message's size) and
        dropped."""
        session = await session_of(websocket)
        if session is None:
            await refuse("sign in first", CLOSE_REFUSED)
            return
        hub = server()
        account = session.account.id
        channel = hub.notices.open(account)

        async def keep_online() -> None:
            while hub.relay is not None:
                with contextlib.suppress(Exception):
                    await hub.relay.mark_online(account, ONLINE_SECONDS)
                await asyncio.sleep(ONLINE_SECONDS / 2)

        async def drain() -> None:
            # the client has nothing to say here: a flood past the pace is closed
            pace = Pace(limits.messages_per_second, limits.message_burst)
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if pace.wait() > 0:
                    await refuse(
                        f"more than {limits.messages_per_second:g} messages a second",
                        CLOSE_TOO_MANY,
                    )
                    return

        marker = asyncio.create_task(keep_online())
        reader = asyncio.create_task(drain())
        try:
            await websocket.send_json({"type": "hello", "account": account})
            while not reader.done():
                getter = asyncio.create_task(channel.queue.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                await websocket.send_json({"type": "notice", **getter.result()})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.notices.close(channel)
            for task in (marker, reader):
                task.cancel()

    async def serve_viewer(websocket: WebSocket, address: str, refuse: Any) -> None:
        table_id = websocket.path_params["id"]
        try:
            table = await server().table(table_id)
        except Elsewhere as exc:
            if server().relay is None:
                await refuse(f"{exc}; reconnect there", CLOSE_MOVED)
            else:
                await serve_relayed(websocket, table_id, refuse)
            return
        if table is None:
            await refuse("no such table", CLOSE_NO_TABLE)
            return
        session = await session_of(websocket)
        try:
            viewer = table.admit(
                websocket.query_params.get("token"), session.account.id if session else None
            )
        except ProtocolError as exc:
            await refuse(str(exc), CLOSE_REFUSED)
            return
        while table is not None and not table.join(viewer):
            try:
                table = await server().table(table_id)  # it was unloaded meanwhile
            except Elsewhere as exc:
                await refuse(f"{exc}; reconnect there", CLOSE_MOVED)
                return
        if table is None:
            await refuse("no such table", CLOSE_NO_TABLE)
            return
        sender = feed(websocket, viewer)
        try:
            await listen(websocket, table, viewer)
        finally:
            # no await here: a closed connection's handler returns at once
            table.leave(viewer)
            sender.cancel()

    async def serve_relayed(websocket: WebSocket, table_id: str, refuse: Any) -> None:
        """A table another process owns: the connection is relayed to it (see relay)."""
        hub = server()
        assert hub.relay is not None
        owner = await asyncio.to_thread(hub.store.lease_owner, table_id)
        if owner is None:
            await refuse(f"table {table_id} is between servers; reconnect", CLOSE_MOVED)
            return
        session = await session_of(websocket)
        viewer = Viewer(None, limits)
        remote = RemoteTable(hub.relay, owner, table_id, viewer)
        remote.join(websocket.query_params.get("token"), session.account.id if session else None)
        sender = feed(websocket, viewer)

        async def watch_owner() -> None:  # (a later takeover: Relay._watch_owners)
            await asyncio.sleep(RELAY_ANSWER)
            if not remote.answered:
                viewer.kick("the table's server did not answer; reconnect", CLOSE_RELAY)

        watcher = asyncio.create_task(watch_owner())
        try:
            await listen(websocket, remote, viewer)
        finally:
            remote.leave(viewer)
            sender.cancel()
            watcher.cancel()

    def feed(websocket: WebSocket, viewer: Viewer) -> asyncio.Task[None]:
        """Send the viewer's outbox down the websocket (the task returned), and close
        the connection when the viewer is kicked."""
        sender = asyncio.create_task(pump(websocket, viewer))
        closing: list[asyncio.Task[None]] = []

        async def close_kicked() -> None:
            sender.cancel()  # it may be stuck writing to a reader that does not read
            transport = websocket.scope.get("extensions", {}).get("riichi.transport", {})
            if viewer.code == CLOSE_TOO_SLOW and "abort" in transport:
                # a close frame cannot get past what the peer has not read: drop it
                transport["abort"]()
                return
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    websocket.close(code=viewer.code, reason=viewer.reason[:100]), 2
                )

        viewer.on_kick = lambda: closing.append(asyncio.create_task(close_kicked()))
        return sender

    async def pump(websocket: WebSocket, viewer: Viewer) -> None:
        with contextlib.suppress(Exception):
            while True:
                await websocket.send_text(await viewer.next())

    async def listen(websocket: WebSocket, table: LiveTable | RemoteTable, viewer: Viewer) -> None:
        pace = Pace(limits.messages_per_second, limits.message_burst)
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while not viewer.kicked.is_set():
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:
                    viewer.kick(
                        "binary frames are not part of the protocol; send JSON text",
                        CLOSE_UNSUPPORTED,
                    )
                    return
                # past the rate, read more slowly: a flood waits in the client's socket
                while (wait := pace.wait()) > 0:
                    await asyncio.sleep(wait)
                try:
                    parsed = parse_json(text, limits.message_bytes, limits.json_depth)
                except LimitError as exc:
                    viewer.put_json({"type": "error", "message": str(exc)})
                    continue
                table.send(viewer, parsed)

    routes = [
        Route("/", page),
        Route("/table/{id}", page),
        Route("/replay/{id}", page),
        Route("/watch", page),
        Route("/leaderboard", page),
        Route("/player/{key}", page),
        Route("/daily", page),
        Route("/tournaments", page),
        Route("/tournament/{id}", page),
        Route("/chips", page),
        Route("/compare/{a}/{b}", page),
        Route("/review", page),
        Route("/money", page),
        Route("/leagues", page),
        Route("/league/{id}", page),
        Route("/review/{game}/{seat}", page),
        Route("/api/health", health),
        Route("/api/presets", presets),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/signin", sign_in, methods=["POST"]),
        Route("/api/signout", sign_out, methods=["POST"]),
        Route("/api/password", change_password, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/queue", queue, methods=["GET", "POST", "DELETE"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{id}", table_info),
        Route("/api/games", list_games),
        Route("/api/games/{id}/{fmt}", game_file),
        Route("/api/games/{id}/review/{seat}", game_review),
        Route("/api/reviews", upload_review, methods=["POST"]),
        Route("/api/money", money, methods=["GET", "POST"]),
        Route("/api/money/{id}/{action}", money_action, methods=["POST"]),
        Route("/api/online", online),
        Route("/api/leagues", league_list, methods=["GET", "POST"]),
        Route("/api/leagues/{id}", league),
        Route("/api/leagues/{id}/{action}", league_action, methods=["POST"]),
        Route("/api/reviews/{game}/{seat}", kept_review),
        Route("/api/watch", watch_list),
        Route("/api/leaderboard", leaderboard),
        Route("/api/players/{key}", player),
        Route("/api/chips", chips),
        Route("/api/daily", daily, methods=["GET", "POST"]),
        Route("/api/tournaments", tournaments, methods=["GET", "POST"]),
        Route("/api/tournaments/{id}", tournament),
        Route("/api/tournaments/{id}/{action}", tournament_action, methods=["POST"]),
        WebSocketRoute("/ws/tables/{id}", table_socket),
        WebSocketRoute("/ws/me", channel_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HttpError) and exc.close:
            return _error(str(exc), exc.status, {"connection": "close"})
        if isinstance(exc, HttpError | AuthError):
            return _error(str(exc), exc.status)
        if isinstance(exc, NotFound):
            return _error(str(exc), 404)
        if isinstance(exc, ReviewBusy | Busy):
            return _error(str(exc), exc.status)
        return _error(str(exc), 400)  # a bad name or password, a request refused

    return Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={
            HttpError: http_error,
            NotFound: http_error,
            ProtocolError: http_error,
            AuthError: http_error,
            AccountError: http_error,
        },
    )


class HttpError(Exception):
    """An HTTP request refused with ``status`` (``close``: and its connection closed,
    its body unread)."""

    def __init__(self, message: str, status: int, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.close = close


def _error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message[:500]}, status_code=status, headers=headers)
