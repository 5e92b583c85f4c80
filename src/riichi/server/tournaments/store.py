"""Tournaments' storage: a tournament's row, its entrants and tables, each step of its
life (registration, the plan, the rounds, the end with its payout, a cancellation
with its refunds) as one transaction that checks what it depends on."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine

from riichi.platform.chips import HOUSE, Transfer, backer, escrow
from riichi.platform.tournaments import (
    MAX_ENTRANTS,
    Standing,
    TableResult,
    TournamentError,
    check_organiser,
)
from riichi.rules import RuleSet
from riichi.server.storage import StorageError, accounts, post, tables
from riichi.server.tournaments.schema import entrants, tournament_tables, tournaments

log = logging.getLogger(__name__)
NOT_ENDED = ("open", "closing", "running")
Plan = list[list[list[str | None]]]


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    name: str
    organiser: int
    rules: RuleSet
    rounds: int
    bet: int
    fee: int
    added: int
    payout: list[int]
    pool: str
    closes: float
    status: str
    round: int
    seed: str
    created: float
    finished: float | None
    standings: list[dict[str, Any]] | None
    plan: Plan | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "organiser": self.organiser,
            "rules": self.rules.name,
            "length": self.rules.length.value,
            "players": self.rules.players,
            "rounds": self.rounds,
            "bet": self.bet,
            "fee": self.fee,
            "added": self.added,
            "payout": self.payout,
            "clock": self.pool,
            "closes": self.closes,
            "status": self.status,
            "round": self.round,
            "created": self.created,
            "finished": self.finished,
        }


def _tournament(row: Any) -> Tournament:
    return Tournament(
        id=row.id,
        name=row.name,
        organiser=row.organiser,
        rules=RuleSet.from_dict(json.loads(row.rules)),
        rounds=row.rounds,
        bet=row.bet,
        fee=row.fee,
        added=row.added,
        payout=json.loads(row.payout),
        pool=row.pool,
        closes=row.closes,
        status=row.status,
        round=row.round,
        seed=row.seed,
        created=row.created,
        finished=row.finished,
        standings=None if row.standings is None else json.loads(row.standings),
        plan=None if row.plan is None else json.loads(row.plan),
    )


def _entrants(conn: Any, tournament_id: str) -> list[tuple[str, str]]:
    rows = conn.execute(
        select(entrants.c.player, entrants.c.name)
        .where(entrants.c.tournament_id == tournament_id)
        .order_by(entrants.c.seq)
    ).all()
    return [(r.player, r.name) for r in rows]


def _claim(conn: Any, tournament_id: str) -> None:
    """Write the tournament's row first: what the transaction reads next cannot change
    under it (SQLite's write lock, PostgreSQL's row lock, both held to the commit)."""
    conn.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(status=tournaments.c.status)
    )


class TournamentStore:
    """Tournaments, entrants and their tables; each write one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, t: Tournament, operator: bool) -> None:
        """A new tournament, if its organiser may open one more (checked in the same
        transaction, after locking the organiser's row)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts).where(accounts.c.id == t.organiser).values(id=accounts.c.id)
            )
            ended = tournaments.c.status.in_(NOT_ENDED)
            on_site = conn.execute(select(func.count()).where(ended)).scalar_one()
            organising = conn.execute(
                select(func.count()).where(ended, tournaments.c.organiser == t.organiser)
            ).scalar_one()
            try:
                check_organiser(operator, int(organising), int(on_site), t.added)
            except TournamentError as exc:
                raise StorageError(str(exc)) from None
            conn.execute(
                insert(tournaments).values(
                    id=t.id,
                    name=t.name,
                    organiser=t.organiser,
                    rules=json.dumps(t.rules.to_dict()),
                    rounds=t.rounds,
                    bet=t.bet,
                    fee=t.fee,
                    added=t.added,
                    payout=json.dumps(t.payout),
                    pool=t.pool,
                    closes=t.closes,
                    status="open",
                    round=0,
                    seed=t.seed,
                    created=t.created,
                )
            )
            if t.added:
                post(
                    conn, f"tournament:{t.id}", [Transfer(HOUSE, escrow(t.id), t.added)], t.created
                )

    def get(self, tournament_id: str) -> Tournament | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        return None if row is None else _tournament(row)

    def page(self, limit: int, offset: int) -> tuple[list[Tournament], int]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tournaments)
                .order_by(tournaments.c.created.desc(), tournaments.c.id)
                .limit(limit)
                .offset(offset)
            ).all()
            total = int(conn.execute(select(func.count()).select_from(tournaments)).scalar_one())
        return [_tournament(r) for r in rows], total

    def pending(self) -> list[Tournament]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tournaments).where(tournaments.c.status.in_(NOT_ENDED))
            ).all()
        return [_tournament(r) for r in rows]

    def entrants(self, tournament_id: str) -> list[tuple[str, str]]:
        """(player, name) in registration order."""
        with self.engine.connect() as conn:
            return _entrants(conn, tournament_id)

    def enter(
        self,
        t: Tournament,
        players: Sequence[tuple[str, str]],
        now: float,
        check: Callable[[int, int], None] | None = None,
    ) -> None:
        """Register entrants, each paying its buy-in, in one transaction; only while
        registration is open, and never past the limit. ``check`` sees the people and
        computers entered so far and may refuse."""
        with self.engine.begin() as conn:
            _claim(conn, t.id)
            status = conn.execute(
                select(tournaments.c.status).where(tournaments.c.id == t.id)
            ).scalar_one()
            if status != "open":
                raise StorageError(f"tournament {t.id} is {status}: registration is closed")
            have = conn.execute(
                select(entrants.c.player, entrants.c.seq).where(entrants.c.tournament_id == t.id)
            ).all()
            if len(have) + len(players) > MAX_ENTRANTS:
                raise StorageError(f"a tournament takes at most {MAX_ENTRANTS} entrants")
            if check is not None:
                computers = sum(1 for row in have if row.player.startswith("computer:"))
                try:
                    check(len(have) - computers, computers)
                except TournamentError as exc:
                    raise StorageError(str(exc)) from None
            entered = {row.player for row in have}
            last = max((row.seq for row in have), default=0)
            for seq, (player, name) in enumerate(players, start=last + 1):
                if player in entered:
                    raise StorageError(f"{name} is registered already")
                entered.add(player)
                conn.execute(
                    insert(entrants).values(tournament_id=t.id, player=player, seq=seq, name=name)
                )
                payer = backer(player)
                moves = []
                if t.bet:
                    moves.append(Transfer(payer, escrow(t.id), t.bet))
                if t.fee and payer != HOUSE:
                    moves.append(Transfer(payer, HOUSE, t.fee))
                post(conn, f"tournament:{t.id}", moves, now)

    def close(self, tournament_id: str) -> list[tuple[str, str]] | None:
        """Registration closes: the entrants as they stand, read in the transaction
        that closes it (None if it was not open or closing)."""
        with self.engine.begin() as conn:
            _claim(conn, tournament_id)
            done = conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tournament_id,
                    tournaments.c.status.in_(("open", "closing")),
                )
                .values(status="closing")
            )
            if done.rowcount != 1:
                return None
            return _entrants(conn, tournament_id)

    def start(self, tournament_id: str, plan: Plan) -> bool:
        """Round 1 begins with the seating plan stored; False if it was stored already
        (the plan is made once and never again)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tournament_id,
                    tournaments.c.status == "closing",
                    tournaments.c.plan.is_(None),
                )
                .values(status="running", round=1, plan=json.dumps(plan))
            )
            return done.rowcount == 1

    def next_round(self, tournament_id: str, round_: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id, tournaments.c.round == round_ - 1)
                .values(round=round_)
            )

    def tables(self, tournament_id: str) -> list[dict[str, Any]]:
        """Every table of the tournament with its round, seats and, once over, its result."""
        query = (
            select(
                tournament_tables.c.round,
                tournament_tables.c.number,
                tournament_tables.c.table_id,
                tournament_tables.c.players,
                tables.c.status,
                tables.c.standings,
            )
            .select_from(
                tournament_tables.join(tables, tournament_tables.c.table_id == tables.c.id)
            )
            .where(tournament_tables.c.tournament_id == tournament_id)
            .order_by(tournament_tables.c.round, tournament_tables.c.number)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            {
                "round": r.round,
                "number": r.number,
                "table": r.table_id,
                "players": json.loads(r.players),
                "over": r.status != "live",  # over, or void (its log would not replay)
                "standings": None if r.standings is None else json.loads(r.standings),
            }
            for r in rows
        ]

    def finish(
        self, t: Tournament, ranked: list[Standing], paid: dict[str, int], now: float
    ) -> None:
        """The end: standings and payout, all or nothing."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tournaments)
                .where(tournaments.c.id == t.id, tournaments.c.status == "running")
                .values(
                    status="over",
                    finished=now,
                    standings=json.dumps(
                        [{**s.to_dict(), "paid": paid.get(s.entrant, 0)} for s in ranked]
                    ),
                )
            )
            if done.rowcount != 1:
                return  # another process finished it
            moves = [Transfer(escrow(t.id), backer(who), amount) for who, amount in paid.items()]
            post(conn, f"tournament:{t.id}", moves, now)

    def cancel(self, t: Tournament, now: float) -> None:
        """Too few entrants: every bet, fee and added chip goes back where it came from."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tournaments)
                .where(tournaments.c.id == t.id, tournaments.c.status.in_(("open", "closing")))
                .values(status="cancelled", finished=now)
            )
            if done.rowcount != 1:
                return
            players = conn.execute(
                select(entrants.c.player).where(entrants.c.tournament_id == t.id)
            ).scalars()
            moves = []
            for player in players:
                payer = backer(player)
                if t.bet:
                    moves.append(Transfer(escrow(t.id), payer, t.bet))
                if t.fee and payer != HOUSE:
                    moves.append(Transfer(HOUSE, payer, t.fee))
            if t.added:
                moves.append(Transfer(escrow(t.id), HOUSE, t.added))
            post(conn, f"tournament:{t.id}", moves, now)


def results_of(rows: list[dict[str, Any]]) -> list[TableResult]:
    out = []
    for row in rows:
        if row["standings"] is None:  # in play, or void: nobody scores there
            continue
        by_seat = sorted(row["standings"], key=lambda x: x["seat"])
        out.append(
            TableResult(
                row["round"],
                row["players"],
                [x["place"] for x in by_seat],
                [x["score"] for x in by_seat],
            )
        )
    return out
