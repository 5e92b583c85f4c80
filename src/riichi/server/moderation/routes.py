"""The routes of moderation: the operators' page and its acts, and a player's report."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from riichi.server.auth import Session
from riichi.server.feature import RATED_GAMES, TABLE_CHIPS, Feature, Missing
from riichi.server.hub import Server, paged
from riichi.server.moderation.store import ModerationError, ModerationStore
from riichi.server.protocol import CLOSED
from riichi.server.web import HttpError, page, web_of

ACTS_PER_MINUTE = "30 per minute"  # one operator's acts
REPORTS_PER_MINUTE = "5 per minute"  # one player's reports


async def operator(request: Request) -> Session:
    """A signed-in operator, at a bounded rate; anyone else is refused."""
    web = web_of(request)
    session = await web.signed_in(request)
    accounts = web.server.store.accounts
    if not await asyncio.to_thread(accounts.is_operator, session.account.id):
        raise HttpError("only the site's operators moderate", 403)
    if not web.server.rates.hit(ACTS_PER_MINUTE, f"moderation:{session.account.id}"):
        raise HttpError("too many moderation requests: wait a minute", 429)
    return session


async def moderation(request: Request) -> Response:
    """GET: the log (newest first, paged) and the open reports. POST: one act."""
    web = web_of(request)
    hub = web.server
    store = hub.desk(ModerationStore)
    body = await web.read_json(request) if request.method == "POST" else None
    session = await operator(request)
    if body is None:
        limit, offset = web.paging(request)
        entries, total = await asyncio.to_thread(store.log, limit, offset)
        found = await asyncio.to_thread(store.reports)
        return JSONResponse(
            {**paged([e.to_dict() for e in entries], total, limit, offset), "reports": found}
        )
    if not isinstance(body, dict):
        raise HttpError("send an object: act, and what it names", 400)
    entry = await act(hub, store, session.account.id, body)
    return JSONResponse({"entry": entry})


async def act(hub: Server, store: ModerationStore, by: int, body: dict[str, Any]) -> int:
    """Do the act ``body`` names; the moderation log's row."""
    now = hub.clock.now()
    kind, reason = body.get("act"), body.get("reason")
    try:
        if kind == "suspend":
            return await asyncio.to_thread(store.suspend, by, body.get("name"), reason, now)
        if kind == "restore":
            return await asyncio.to_thread(store.restore, by, body.get("name"), reason, now)
        if kind == "rename":
            name, new = body.get("name"), body.get("new")
            return await asyncio.to_thread(store.rename, by, name, new, reason, now)
        if kind == "chips":
            name, amount = body.get("name"), body.get("amount")
            return await asyncio.to_thread(store.chips, by, name, amount, reason, now)
        if kind == "void":
            return await asyncio.to_thread(store.void_game, by, body.get("table"), reason, now)
        if kind == "close":
            table = body.get("table")
            entry = await asyncio.to_thread(store.close_table, by, table, reason, now)
            assert isinstance(table, str)
            await hub.registry.let_go(table, CLOSED)  # here at once; elsewhere at renewal
            return entry
        if kind == "report":
            return await asyncio.to_thread(store.close_report, by, body.get("report"), reason, now)
    except ModerationError as exc:
        raise HttpError(str(exc), 409) from None
    raise HttpError("act is one of suspend, restore, rename, chips, void, close, report", 400)


async def report(request: Request) -> Response:
    """A player reports another from a finished game they both played."""
    web = web_of(request)
    body = await web.read_json(request)
    session = await web.signed_in(request)
    if not web.server.rates.hit(REPORTS_PER_MINUTE, f"report:{session.account.id}"):
        raise HttpError("too many reports: wait a minute", 429)
    if not isinstance(body, dict):
        raise HttpError("send an object: game, account and text", 400)
    store = web.server.desk(ModerationStore)
    game, reported, text = body.get("game"), body.get("account"), body.get("text")
    now = web.server.clock.now()
    try:
        made = await asyncio.to_thread(store.report, session.account.id, game, reported, text, now)
    except ModerationError as exc:
        raise HttpError(str(exc), 409) from None
    return JSONResponse({"report": made}, status_code=201)


ROUTES: list[BaseRoute] = [
    Route("/moderation", page),
    Route("/api/moderation", moderation, methods=["GET", "POST"]),
    Route("/api/report", report, methods=["POST"]),
]


def setup(hub: Server) -> None:
    def provided(key: Any) -> Any:
        try:
            return hub.desk(key)
        except Missing:
            return None

    hub.provide(ModerationStore(hub.store.engine, provided(RATED_GAMES), provided(TABLE_CHIPS)))


FEATURE = Feature("moderation", ROUTES, setup)
