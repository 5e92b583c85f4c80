"""The routes of accounts: register, sign in and out, change a password, ``me``, online."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.platform.chips import account_ledger
from riichi.server.accounts.presence import Presence
from riichi.server.auth import DEVICE_COOKIE, DEVICE_SECONDS
from riichi.server.feature import BALANCES, QUEUE_VIEW, Feature
from riichi.server.hub import Server
from riichi.server.web import account_json, client_address, keep, web_of, with_cookie


async def credentials(request: Request, new: bool) -> Response:
    """Register (``new``) or sign in with the body's name and password."""
    web = web_of(request)
    body = await web.read_json(request)
    auth = web.server.auth
    assert auth is not None
    fields = body if isinstance(body, dict) else {}
    device, fresh = web.device_of(request)
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
    web = web_of(request)
    await web.read_json(request)  # a POST like the others: JSON, from this site
    session = await web.session_of(request)
    auth = web.server.auth
    if session is not None and auth is not None:
        await auth.sign_out(session)
    return with_cookie(JSONResponse({"account": None}), request, None)


async def change_password(request: Request) -> Response:
    web = web_of(request)
    body = await web.read_json(request)
    session = await web.signed_in(request)
    auth = web.server.auth
    assert auth is not None
    fields = body if isinstance(body, dict) else {}
    await auth.change_password(session, fields.get("old"), fields.get("new"))
    return JSONResponse({"account": account_json(session.account)})


async def me(request: Request) -> Response:
    web = web_of(request)
    session = await web.session_of(request)
    hub = web.server
    if session is None:
        return JSONResponse(
            {"account": None, "tables": [], "queue": await hub.desk(QUEUE_VIEW).view(None)}
        )
    chips = await asyncio.to_thread(hub.desk(BALANCES).balance, account_ledger(session.account.id))
    return JSONResponse(
        {
            "account": account_json(session.account),
            "tables": await hub.desk(Presence).mine(session.account),
            "queue": await hub.desk(QUEUE_VIEW).view(session.account),
            "chips": chips,
        }
    )


async def online(request: Request) -> Response:
    """Who is online among the people you played with or invited."""
    web = web_of(request)
    session = await web.signed_in(request)
    return JSONResponse({"online": await web.server.desk(Presence).online(session.account)})


ROUTES: list[BaseRoute] = [
    Route("/api/register", register, methods=["POST"]),
    Route("/api/signin", sign_in, methods=["POST"]),
    Route("/api/signout", sign_out, methods=["POST"]),
    Route("/api/password", change_password, methods=["POST"]),
    Route("/api/me", me),
    Route("/api/online", online),
]


def setup(hub: Server) -> None:
    hub.provide(Presence(hub))


FEATURE = Feature("accounts", ROUTES, setup)
