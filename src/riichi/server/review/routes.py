"""The routes of review: a game's seat, an uploaded log, a kept review."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from riichi.errors import excerpt
from riichi.server.feature import PLAYER_REVIEWS, Feature
from riichi.server.hub import Server
from riichi.server.metrics import gauge
from riichi.server.protocol import NotFound
from riichi.server.review.desk import MAX_LOG, REVIEWERS, ReviewDesk, joined, reviewable
from riichi.server.web import HttpError, client_address, page, seat_param, web_of


async def reviewer_key(request: Request) -> str:
    """Who asks for a review: one at a time each (an account, or a guest's address); an
    address asks at a bounded rate, before anything it sent is read."""
    web = web_of(request)
    address = client_address(request)
    if not web.server.rates.hit(web.limits.reviews_per_address, f"review:{address}"):
        raise HttpError("too many review requests from your address: wait a minute", 429)
    account = await web.account_of(request)
    return f"account:{account.id}" if account is not None else f"address:{address}"


async def game_review(request: Request) -> Response:
    seat = seat_param(request.path_params["seat"])
    by = request.query_params.get("by", "expert")
    if by not in REVIEWERS:
        raise NotFound(f"no reviewer {excerpt(by)}: {', '.join(REVIEWERS)}")
    who = await reviewer_key(request)
    found = await seat_review(web_of(request).server, request.path_params["id"], seat, who, by)
    return Response(found, media_type="application/json")


async def seat_review(hub: Server, game_id: str, seat: int, who: str, by: str) -> bytes:
    """The review of a person's seat in a finished game that may be shown, by the
    reviewer ``by``, stored or computed now (`ReviewDesk`), as JSON: ``game``,
    ``players``, ``review``."""
    game = await hub.finished(game_id)
    if not hub.may_see(game.stored):
        raise NotFound("this game is shown when its day is over")
    players = [s.public() for s in game.seats]
    reviewable(players, seat)
    review = await hub.desk(ReviewDesk).of_game(game_id, seat, who, game.match.record, by)
    return joined(game=game_id, players=players, review=review)


async def upload_review(request: Request) -> Response:
    """Review a pasted or uploaded log: ``{"log": text, "seat": n | "name": s, "keep":
    bool}``."""
    web = web_of(request)
    who = await reviewer_key(request)
    body = await web.read_json(request, MAX_LOG + 4096)
    fields = body if isinstance(body, dict) else {}
    log, seat, name = fields.get("log"), fields.get("seat"), fields.get("name")
    if not isinstance(log, str):
        raise HttpError('send the log as text in "log"', 400)
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise HttpError('"seat" is a seat number', 400)
    if name is not None and (not isinstance(name, str) or len(name) > 64):
        raise HttpError('"name" is a player\'s name', 400)
    keep = fields.get("keep") is True
    done = await web.server.desk(ReviewDesk).of_log(log.encode(), seat, name, keep, who)
    return Response(done, media_type="application/json")


async def kept_review(request: Request) -> Response:
    seat = seat_param(request.path_params["seat"])
    who = await reviewer_key(request)
    game = request.path_params["game"]
    found = await web_of(request).server.desk(ReviewDesk).kept(game[:80], seat, who)
    return Response(found, media_type="application/json")


ROUTES: list[BaseRoute] = [
    Route("/review", page),
    Route("/review/{game}/{seat}", page),
    Route("/api/games/{id}/review/{seat}", game_review),
    Route("/api/reviews", upload_review, methods=["POST"]),
    Route("/api/reviews/{game}/{seat}", kept_review),
]


def setup(hub: Server) -> None:
    desk = ReviewDesk(hub.store.engine, hub.review_workers)
    hub.provide(desk, PLAYER_REVIEWS, close=desk.close)
    hub.registry.metrics.gauges.append(
        lambda: [gauge("riichi_reviews_waiting", "Reviews computing or queued.", desk.waiting)]
    )


FEATURE = Feature("review", ROUTES, setup)
