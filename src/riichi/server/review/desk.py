"""Game reviews on the site: a finished game's seat, or an uploaded log, reviewed by
``expert`` (`riichi.bots.review`).

Contract:

- A review is computed in a pool of worker processes (``workers``, one by default),
  never on the event loop nor in its process: a review is pure Python that holds its
  interpreter, and play must not wait on it. At most ``queue`` reviews wait for a
  worker; past that the site says it is busy (HTTP 503), and whoever asks again later
  is served.
- One review at a time per person (an account, or a guest's address): a second one
  asked while the first runs is refused (HTTP 429), never queued.
- A finished game's review is stored per (game, seat, reviewer version) and computed
  once however many ask: those who ask while it runs wait for the same computation,
  those who come later read it. A new reviewer version reviews anew.
- Only a seat a person played is reviewed, and only once the game may be shown (a
  Daily Wall game after its day): a review opens that seat's whole hand.
- An uploaded log is untrusted input: its size is bounded (``MAX_LOG``) before it is
  read, it is parsed in the worker (a bad one gets a clear error and changes
  nothing), and nothing is stored unless the person asks to keep it; a kept review
  is stored with the log, under the log's digest, and shown to anyone with its link.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from riichi.bots.review import Review, review_match, seat_of
from riichi.bots.reviewers import ExpertReviewer, ReviewError
from riichi.errors import RiichiError, excerpt
from riichi.formats import LogFormatError, UnsupportedLogError
from riichi.formats.replay import load_match
from riichi.game import Match
from riichi.server.protocol import Busy, NotFound, ProtocolError
from riichi.server.ratings.schema import game_stats
from riichi.server.review.schema import reviews
from riichi.server.views import replay_frames

MAX_LOG = 1 << 20  # bytes: a Tenhou hanchan's XML is 30-60 kB, its mjai 100-200 kB
QUEUE = 8  # reviews waiting for a worker, beyond which the site is busy
LOG_PREFIX = "log-"
T = TypeVar("T")


class ReviewBusy(Busy):
    """No review now: yours is running (429), or too many wait (503)."""


# who reviews a site's games: expert, and master for a second opinion (expert with
# its search where its best options are close: several times the time)
REVIEWERS = ("expert", "master")


def version(by: str = "expert") -> str:
    """The reviewer's name and version: part of every stored review's key."""
    return ExpertReviewer(by).name


# ----------------------------------------------------------------- in the workers


@dataclass(frozen=True, slots=True)
class Reviewed:
    """A review as a worker hands it back: its JSON, ready to send as it is (the
    server's loop never encodes a review), and the figures the database keeps beside
    it; for an uploaded log, the replay's JSON too."""

    seat: int
    text: bytes
    decisions: int
    agreement: float
    lost_per_hand: float
    replay: bytes | None = None
    top_choice: float = 0.0


def _reviewed(review: Review, replay: bytes | None = None) -> Reviewed:
    total = review.total
    return Reviewed(
        review.seat,
        _json(review.to_dict()),
        total.decisions,
        round(total.agreement, 4),
        round(review.lost_per_hand, 1),
        replay,
        round(total.top_choice, 4),
    )


def review_record(record: dict[str, Any], seat: int, by: str = "expert") -> Reviewed:
    """A stored game's seat reviewed by ``by`` (run in a worker)."""
    return _reviewed(review_match(Match.from_record(record), seat, ExpertReviewer(by)))


def review_log(raw: bytes, seat: int | None, name: str | None) -> Reviewed | str:
    """An uploaded log's seat reviewed, with its replay (run in a worker); a text that
    says what is wrong with a log that will not do."""
    try:
        report, match = load_match(raw, "the log")
        reviewed = seat_of(match.players, seat, name)
        if match.standings is None:
            cut = f": {report.mismatches[0].what}" if report.mismatches else ""
            raise ReviewError(f"the log does not replay to the end of its game{cut}")
        notes = [str(m) for m in report.mismatches]
        review = review_match(match, reviewed, ExpertReviewer(), notes=notes)
    except (LogFormatError, UnsupportedLogError, ReviewError) as exc:
        return str(exc)
    except (RiichiError, ValueError, KeyError, TypeError, IndexError, RecursionError) as exc:
        return f"the log is not one we can read: {excerpt(str(exc))}"
    return _reviewed(review, _replay(match))


def replay_log(raw: bytes) -> bytes:
    """A kept log's replay: players and frames (run in a worker)."""
    return _replay(load_match(raw, "the log")[1])


def _replay(match: Match) -> bytes:
    players = [{"name": p, "bot": False} for p in match.players]
    return _json({"players": players, "frames": replay_frames(match, players)})


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def joined(**parts: bytes | Any) -> bytes:
    """A JSON object of parts, each JSON text already (bytes) or a value to encode."""
    items = [_json(k) + b":" + (v if isinstance(v, bytes) else _json(v)) for k, v in parts.items()]
    return b"{" + b",".join(items) + b"}"


# ----------------------------------------------------------------- on the server


class ReviewDesk:
    """Reviews asked of the site: computed in worker processes, stored, served as the
    JSON text they were stored as."""

    def __init__(self, engine: Engine, workers: int = 1, queue: int = QUEUE) -> None:
        self.engine = engine
        self.workers = workers
        self.queue = queue
        self.version = version()
        self.versions = {by: version(by) for by in REVIEWERS}
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[tuple[str, int, str], asyncio.Future[bytes]] = {}
        self._people: set[str] = set()  # who has a review running
        self._waiting = 0

    @property
    def waiting(self) -> int:
        """Reviews computing or queued for a worker (a metric)."""
        return self._waiting

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _work(self, who: str, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in a worker, for ``who``: one at a time each, a bounded queue."""
        if who in self._people:
            raise ReviewBusy("a review of yours is running: one at a time", 429)
        if self._waiting >= self.queue + self.workers:
            raise ReviewBusy("the reviewer is busy: try again in a minute", 503)
        if self._pool is None:
            # spawned, not forked: a fork would copy the server's threads and sockets
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        self._people.add(who)
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, job, *args)
        except BrokenProcessPool:
            self.close()  # a worker died (killed, out of memory): the next job starts anew
            raise ProtocolError("the reviewer stopped; try again") from None
        finally:
            self._waiting -= 1
            self._people.discard(who)

    # -------------------------------------------------------------- finished games

    async def of_game(
        self,
        game_id: str,
        seat: int,
        who: str,
        record: Callable[[], dict[str, Any]],
        by: str = "expert",
    ) -> bytes:
        """The review (JSON) of ``seat`` in a finished game the caller may show, by the
        reviewer ``by`` (``record`` gives its record, read only if the review must be
        computed): stored, running, or computed now."""
        stored = await asyncio.to_thread(self.stored, game_id, seat, by)
        if stored is not None:
            return stored
        key = (game_id, seat, by)
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            data = await asyncio.to_thread(record)
            reviewed = await self._work(who, review_record, data, seat, by)
            await asyncio.to_thread(self._store, game_id, reviewed, by=by)
            future.set_result(reviewed.text)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # read: nobody else may be waiting
            raise
        finally:
            del self._running[key]
        return reviewed.text

    def stored(self, game: str, seat: int, by: str = "expert") -> bytes | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(reviews.c.body).where(
                    reviews.c.game == game,
                    reviews.c.seat == seat,
                    reviews.c.version == self.versions[by],
                )
            ).first()
        return None if row is None else zlib.decompress(row.body)

    def _store(
        self,
        game: str,
        reviewed: Reviewed,
        log: bytes | None = None,
        owner: str | None = None,
        by: str = "expert",
    ) -> None:
        row = {
            "game": game,
            "seat": reviewed.seat,
            "version": self.versions[by],
            "made": time.time(),
            "decisions": reviewed.decisions,
            "agreement": reviewed.agreement,
            "top_choice": reviewed.top_choice,
            "lost_per_hand": reviewed.lost_per_hand,
            "body": zlib.compress(reviewed.text, 6),
            "log": None if log is None else zlib.compress(log, 6),
            "owner": owner,
        }
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(reviews).values(**row))
        except IntegrityError:
            pass  # another process stored the same review first: the same content

    def of_player(self, player: str) -> list[dict[str, Any]]:
        """The reviews of a player's seats, by when the games finished: the points
        lost a hand, the top-choice match and the share within the best value, game by
        game."""
        query = (
            select(
                reviews.c.game,
                reviews.c.seat,
                reviews.c.decisions,
                reviews.c.agreement,
                reviews.c.top_choice,
                reviews.c.lost_per_hand,
                game_stats.c.finished,
            )
            .select_from(
                reviews.join(
                    game_stats,
                    (game_stats.c.table_id == reviews.c.game)
                    & (game_stats.c.seat == reviews.c.seat),
                )
            )
            .where(game_stats.c.player == player, reviews.c.version == self.version)
            .order_by(game_stats.c.finished)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            {
                "game": r.game,
                "seat": r.seat,
                "finished": r.finished,
                "decisions": r.decisions,
                "agreement": r.agreement,
                "top_choice": r.top_choice,
                "lost_per_hand": r.lost_per_hand,
            }
            for r in rows
        ]

    # -------------------------------------------------------------- uploaded logs

    async def of_log(
        self, raw: bytes, seat: int | None, name: str | None, keep: bool, who: str
    ) -> bytes:
        """An uploaded log's review and replay (JSON: ``id``, ``review``, ``replay``);
        kept, with the log, only if asked."""
        if len(raw) > MAX_LOG:
            raise ProtocolError(f"the log is over {MAX_LOG >> 10} kB")
        if not raw.strip():
            raise ProtocolError("the log is empty")
        done = await self._work(who, review_log, raw, seat, name)
        if isinstance(done, str):
            raise ProtocolError(done)
        kept = None
        if keep:
            game = LOG_PREFIX + hashlib.sha256(raw).hexdigest()[:32]
            await asyncio.to_thread(self._store, game, done, raw, who)
            kept = f"{game}/{done.seat}"
        return joined(id=kept, review=done.text, replay=done.replay)

    async def kept(self, game: str, seat: int, who: str) -> bytes:
        """A kept upload's review and its replay (rebuilt from the kept log)."""
        if not game.startswith(LOG_PREFIX):
            raise NotFound("no such review")
        row = await asyncio.to_thread(self._kept_log, game, seat)
        if row is None:
            raise NotFound("no such review")
        body, log = row
        replay = await self._work(who, replay_log, log)
        return joined(id=f"{game}/{seat}", review=body, replay=replay)

    def _kept_log(self, game: str, seat: int) -> tuple[bytes, bytes] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(reviews.c.body, reviews.c.log).where(
                    reviews.c.game == game, reviews.c.seat == seat, reviews.c.log.is_not(None)
                )
            ).first()
        if row is None:
            return None
        return zlib.decompress(row.body), zlib.decompress(row.log)


def reviewable(seats: list[dict[str, Any]], seat: int) -> None:
    """Refuse a seat that is not at the table, or that a computer played."""
    if not 0 <= seat < len(seats):
        raise NotFound(f"no seat {seat} at this table")
    if seats[seat].get("bot"):
        raise ProtocolError(f"seat {seat} was played by a computer: only people's play is reviewed")


__all__ = [
    "MAX_LOG",
    "ReviewBusy",
    "ReviewDesk",
    "Reviewed",
    "joined",
    "review_log",
    "review_record",
    "reviewable",
]
