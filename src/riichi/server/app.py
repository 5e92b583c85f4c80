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
from collections.abc import AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from riichi.platform.matchmaking import FILL_AFTER
from riichi.platform.spectating import HAND, Delay
from riichi.server import sockets
from riichi.server.accounts.routes import FEATURE as ACCOUNTS
from riichi.server.channel.routes import FEATURE as CHANNEL
from riichi.server.clock import Clock, SystemClock
from riichi.server.daily.routes import FEATURE as DAILY
from riichi.server.feature import Feature
from riichi.server.games.routes import FEATURE as GAMES
from riichi.server.hub import Server
from riichi.server.leagues.routes import FEATURE as LEAGUES
from riichi.server.limits import Limits
from riichi.server.moderation.routes import FEATURE as MODERATION
from riichi.server.money.routes import FEATURE as MONEY
from riichi.server.play.routes import FEATURE as PLAY
from riichi.server.ratings.routes import FEATURE as RATINGS
from riichi.server.review.routes import FEATURE as REVIEW
from riichi.server.stopping import hand_over_on_sigterm
from riichi.server.storage import DEFAULT_URL
from riichi.server.tournaments.routes import FEATURE as TOURNAMENTS
from riichi.server.web import (
    EXCEPTION_HANDLERS,
    STATIC,
    RedactTokens,
    SecurityHeaders,
    Web,
    web_of,
)

# The site's features (riichi.server.feature), each a package with its routes, its desk
# and its storage; a new feature is a package and a line here.
FEATURES: Sequence[Feature] = (
    PLAY,
    Feature("tables", sockets.ROUTES),  # the core's: a seat's or a spectator's socket
    GAMES,
    ACCOUNTS,
    CHANNEL,
    RATINGS,
    DAILY,
    TOURNAMENTS,
    MONEY,
    LEAGUES,
    REVIEW,
    MODERATION,  # after ratings and money, whose interfaces it uses
)


async def health(request: Request) -> Response:
    """What a load balancer probes: this process is up, which process it is (the owner
    named in the leases it holds) and how many tables it runs."""
    hub = web_of(request).server
    return JSONResponse(
        {
            "ok": True,
            "process": hub.registry.owner,
            "shared": hub.registry.shared,
            "tables": len(hub.registry.tables),
        }
    )


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
    features: Sequence[Feature] = FEATURES,
    metrics: str | None = None,
    metrics_span: int = 1,
) -> Starlette:
    """The whole web app on the database at ``db_url`` (SQLite file by default).

    ``clock`` is the time the server reads and waits on (the wall clock unless a
    test brings a ``FakeClock``); ``fill_after`` the seconds a rated player waits
    before roster computers fill the table; ``spectator_delay`` how far behind
    the game spectators are; ``shared`` that other processes serve the same
    database (tables are then held by lease, never taken by force); ``redis_url``
    the Redis that relays connections between them and shares rate limits;
    ``review_workers`` the processes that compute game reviews, ``search_workers``
    those in which searching computers think; ``features`` the site's features;
    ``metrics`` the HOST:PORT that serves this process's metrics (none by default),
    or the first free port of ``metrics_span`` from it (one a worker).
    """
    from riichi.server.storage import Store

    web = Web(limits or Limits())
    time_source: Clock = clock or SystemClock()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for name in ("uvicorn.access", "uvicorn.error"):  # the websocket lines log there
            logger = logging.getLogger(name)
            if not any(isinstance(f, RedactTokens) for f in logger.filters):
                logger.addFilter(RedactTokens())
        store = await asyncio.to_thread(Store, db_url)
        web.hub = app.state.server = Server(
            store,
            time_source,
            web.limits,
            bot_delay,
            fill_after,
            spectator_delay,
            shared,
            redis_url,
            review_workers,
            search_workers,
            features,
        )
        await web.server.start()
        hand_over_on_sigterm(web.server)
        if metrics is not None:
            port = web.server.registry.metrics.serve(metrics, metrics_span)
            logging.getLogger("riichi").info(
                "metrics on %s:%d", metrics.rpartition(":")[0] or "127.0.0.1", port
            )
        yield
        await web.server.close()

    routes: list[BaseRoute] = [route for feature in features for route in feature.routes]
    routes += [
        Route("/api/health", health),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers=EXCEPTION_HANDLERS,
    )
    app.state.web = web
    return app
