"""What every feature's routes share: the request helpers, the errors and the headers.

A feature's handlers are plain module functions; each finds the app's ``Web`` (the
limits and the running ``Server``) with ``web_of(request)``, so no handler closes
over the app factory. ``Web`` reads a JSON body within the limits and from this
site only, pages a listing, finds the session behind a cookie and the browser's
device; ``keep`` and ``with_cookie`` set the cookies a page may not read.
``EXCEPTION_HANDLERS`` turns the errors a feature raises into JSON answers.
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from riichi.errors import excerpt
from riichi.platform import AccountError
from riichi.server.auth import COOKIE, DEVICE_COOKIE, SESSION_SECONDS, AuthError, Session
from riichi.server.hub import Server
from riichi.server.limits import LimitError, Limits, parse_json
from riichi.server.protocol import Busy, NotFound, ProtocolError
from riichi.server.storage import Account

STATIC = Path(__file__).parent / "static"

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


class HttpError(Exception):
    """An HTTP request refused with ``status`` (``close``: and its connection closed,
    its body unread)."""

    def __init__(self, message: str, status: int, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.close = close


def error(message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message[:500]}, status_code=status, headers=headers)


async def http_error(request: Request, exc: Exception) -> Response:
    answer = _refusal(exc)
    hub = web_of(request).hub
    if hub is not None:  # counted by status (riichi_refused)
        hub.registry.metrics.refused.labels(str(answer.status_code)).inc()
    return answer


def _refusal(exc: Exception) -> Response:
    if isinstance(exc, HttpError) and exc.close:
        return error(str(exc), exc.status, {"connection": "close"})
    if isinstance(exc, HttpError | AuthError):
        return error(str(exc), exc.status)
    if isinstance(exc, NotFound):
        return error(str(exc), 404)
    if isinstance(exc, Busy):
        return error(str(exc), exc.status)
    return error(str(exc), 400)  # a bad name or password, a request refused


async def not_found(request: Request, exc: Exception) -> Response:
    """A path nobody serves: JSON for the API, else the client's page, which says so
    and offers the way home (with the 404 status all the same)."""
    if request.url.path.startswith(("/api/", "/ws/", "/static/")):
        return error("not found", 404)
    return FileResponse(STATIC / "index.html", status_code=404)


EXCEPTION_HANDLERS: dict[Any, Any] = {
    404: not_found,
    **{kind: http_error for kind in (HttpError, NotFound, ProtocolError, AuthError, AccountError)},
}


def same_origin(headers: Headers) -> bool:
    """No Origin (not a browser) or an Origin naming this very host."""
    origin = headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == headers.get("host", "").lower()


def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "unknown"


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


def seat_param(text: str) -> int:
    if not text.isdigit() or len(text) > 1:
        raise NotFound(f"no seat {excerpt(text)}")
    return int(text)


async def page(request: Request) -> Response:
    """The one page of the browser client, which routes by the path itself."""
    return FileResponse(STATIC / "index.html")


class Web:
    """The limits every request is held to and the running ``Server`` (set when the
    app starts)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.hub: Server | None = None

    @property
    def server(self) -> Server:
        assert self.hub is not None, "the app has not started"
        return self.hub

    async def read_json(self, request: Request, most: int | None = None) -> Any:
        """The request's JSON body, at most ``most`` bytes (the limits' body size)."""
        # A refusal before the whole body is read closes the connection: what is left
        # of the body would otherwise be read as the next request on it.
        limits = self.limits
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

    def paging(self, request: Request) -> tuple[int, int]:
        limits = self.limits
        try:
            limit = int(request.query_params.get("limit", limits.page))
            offset = int(request.query_params.get("offset", 0))
        except ValueError:
            raise HttpError("limit and offset are whole numbers", 400) from None
        if not (1 <= limit <= limits.max_page and 0 <= offset <= 10**7):
            raise HttpError(f"limit is 1 to {limits.max_page}, offset 0 or more", 400)
        return limit, offset

    async def session_of(self, conn: HTTPConnection) -> Session | None:
        auth = self.server.auth
        assert auth is not None
        return await auth.session(conn.cookies.get(COOKIE))

    async def account_of(self, conn: HTTPConnection) -> Account | None:
        """The signed-in account, or None for a guest."""
        session = await self.session_of(conn)
        return session.account if session is not None else None

    async def signed_in(self, request: Request) -> Session:
        session = await self.session_of(request)
        if session is None:
            raise HttpError("sign in first", 401)
        return session

    def device_of(self, request: Request) -> tuple[str, str | None]:
        """The browser's device id, and a cookie to set when it had none (see auth)."""
        auth = self.server.auth
        assert auth is not None
        device = auth.device(request.cookies.get(DEVICE_COOKIE))
        if device is not None:
            return device, None
        return auth.new_device()

    def marks(self, request: Request) -> tuple[str, str | None]:
        """What ties a request to one person (its address and device), for the checks
        that keep one person's accounts apart at a table."""
        device, _ = self.device_of(request)
        return self.server.marks(client_address(request), device)


def web_of(conn: HTTPConnection) -> Web:
    """The app's ``Web``, for a feature's handler."""
    found: Web = conn.app.state.web
    return found


__all__ = [
    "EXCEPTION_HANDLERS",
    "STATIC",
    "HttpError",
    "RedactTokens",
    "SecurityHeaders",
    "Web",
    "account_json",
    "client_address",
    "error",
    "keep",
    "page",
    "same_origin",
    "seat_param",
    "web_of",
    "with_cookie",
]
