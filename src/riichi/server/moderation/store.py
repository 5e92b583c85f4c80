"""The operators' acts and the players' reports, in the database.

Contract:

- Every act changes what it changes and writes its row of ``moderation_log`` in one
  transaction: no act without its row, no row without its act. The log is only ever
  appended to; its rows say who acted (an operator's account, or None for the
  command line), on what, why, and what changed.
- An act is refused (``ModerationError``, nothing changed) unless it would change
  something: suspending a suspended account, voiding a game that counts for no
  rating, charging more chips than an account holds, closing a table that is not
  live, a name the account rules refuse or another account has.
- Suspending ends the account's sessions and takes it out of the rated queue; the
  account cannot sign in, queue or take a seat until it is restored, and the seats
  it holds are played by their clocks (``LiveTable.admit_person``).
- Voiding a rated game takes its seats out of the ratings and rebuilds every rating
  from the other rated games, as ``riichi ratings --recompute`` would.
- Closing a live table ends it void, gives back what its escrow holds and moves its
  lease to no process with a new epoch, so the process playing it can write nothing
  more (its next write or lease renewal lets the table go).
- Chips refunded come from the bank and chips charged go back to it, as a ledger
  transfer whose event names the log's row: the books still sum to zero.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError

from riichi.errors import excerpt
from riichi.platform.accounts import check_name, name_key
from riichi.platform.chips import BANK, Transfer, account_ledger
from riichi.server.feature import RatedGames, TableChips
from riichi.server.moderation.schema import moderation_log, reports
from riichi.server.storage import (
    StorageError,
    accounts,
    balance,
    leases,
    players,
    post,
    queue_table,
    sessions,
    tables,
)

REASON = 500  # characters of a reason or a report, at most
MOST_CHIPS = 1_000_000  # one refund or charge
REPORTS_A_DAY = 10  # reports one account may file in a day
CLOSED_BY = "moderation"  # the owner a closed table's lease names: no process


class ModerationError(ValueError):
    """An act refused, with why."""


@dataclass(frozen=True)
class Entry:
    """A row of the moderation log."""

    id: int
    at: float
    operator: str  # the operator's name, or "command line"
    act: str
    target: str
    reason: str
    detail: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at,
            "operator": self.operator,
            "act": self.act,
            "target": self.target,
            "reason": self.reason,
            "detail": self.detail,
        }


def _reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ModerationError("give a reason: the moderation log keeps it")
    if len(reason) > REASON:
        raise ModerationError(f"a reason is at most {REASON} characters, not {len(reason)}")
    return reason.strip()


class ModerationStore:
    """The acts (each with its log row) and the reports, over the site's database;
    ``ratings`` and ``chips`` are what the ratings and money features provide (None on
    a site without them: a game then counts for no rating, a table holds no chips)."""

    def __init__(
        self, engine: Engine, ratings: RatedGames | None, chips: TableChips | None
    ) -> None:
        self.engine = engine
        self.ratings = ratings
        self.table_chips = chips

    # ----------------------------------------------------------- the log

    def _log(
        self,
        conn: Connection,
        by: int | None,
        act: str,
        target: str,
        reason: str,
        detail: dict[str, Any],
        now: float,
    ) -> int:
        row = conn.execute(
            insert(moderation_log).values(
                at=now,
                operator=by,
                act=act,
                target=target,
                reason=reason,
                detail=json.dumps(detail, sort_keys=True),
            )
        ).inserted_primary_key
        assert row is not None
        return int(row[0])

    def log(self, limit: int, offset: int = 0) -> tuple[list[Entry], int]:
        """The log, newest first, and how many rows it has."""
        with self.engine.connect() as conn:
            total = int(conn.execute(select(func.count()).select_from(moderation_log)).scalar_one())
            rows = conn.execute(
                select(moderation_log, accounts.c.name)
                .select_from(
                    moderation_log.outerjoin(accounts, accounts.c.id == moderation_log.c.operator)
                )
                .order_by(moderation_log.c.id.desc())
                .limit(limit)
                .offset(offset)
            ).all()
        return [
            Entry(
                r.id,
                r.at,
                r.name if r.operator is not None else "command line",
                r.act,
                r.target,
                r.reason,
                json.loads(r.detail),
            )
            for r in rows
        ], total

    # ----------------------------------------------------------- accounts

    @staticmethod
    def _account(conn: Connection, name: object) -> Row[Any]:
        if not isinstance(name, str) or not name or len(name) > 40:
            raise ModerationError("name an account")
        row = conn.execute(select(accounts).where(accounts.c.name_key == name_key(name))).first()
        if row is None:
            raise ModerationError(f"no account is named {excerpt(name)}")
        return row

    def suspend(self, by: int | None, name: object, reason: object, now: float) -> int:
        """Suspend an account; the log row's id."""
        why = _reason(reason)
        with self.engine.begin() as conn:
            row = self._account(conn, name)
            if row.suspended is not None:
                raise ModerationError(f"{row.name} is suspended already")
            conn.execute(update(accounts).where(accounts.c.id == row.id).values(suspended=now))
            ended = conn.execute(
                update(sessions)
                .where(sessions.c.account_id == row.id, ~sessions.c.revoked)
                .values(revoked=True)
            ).rowcount
            queued = conn.execute(
                queue_table.delete().where(queue_table.c.account_id == row.id)
            ).rowcount
            detail = {"name": row.name, "sessions_ended": ended, "left_queue": bool(queued)}
            return self._log(conn, by, "suspend", account_ledger(row.id), why, detail, now)

    def restore(self, by: int | None, name: object, reason: object, now: float) -> int:
        """Restore a suspended account (it signs in again; its old sessions stay ended)."""
        why = _reason(reason)
        with self.engine.begin() as conn:
            row = self._account(conn, name)
            if row.suspended is None:
                raise ModerationError(f"{row.name} is not suspended")
            conn.execute(update(accounts).where(accounts.c.id == row.id).values(suspended=None))
            detail = {"name": row.name, "suspended_since": row.suspended}
            return self._log(conn, by, "restore", account_ledger(row.id), why, detail, now)

    def rename(self, by: int | None, name: object, new: object, reason: object, now: float) -> int:
        """Give an account a new name (the account rules hold; nobody else's), shown
        from now on wherever the site names it, in its past games too."""
        why = _reason(reason)
        fresh = check_name(new)
        with self.engine.begin() as conn:
            row = self._account(conn, name)
            try:
                with conn.begin_nested():
                    conn.execute(
                        update(accounts)
                        .where(accounts.c.id == row.id)
                        .values(name=fresh, name_key=name_key(fresh))
                    )
            except IntegrityError:
                raise ModerationError(f"the name {fresh!r} is taken") from None
            games = _rename_seats(conn, row.id, fresh)
            if self.ratings is not None:
                self.ratings.rename(conn, account_ledger(row.id), fresh)
            detail = {"from": row.name, "to": fresh, "games": games}
            return self._log(conn, by, "rename", account_ledger(row.id), why, detail, now)

    def chips(
        self, by: int | None, name: object, amount: object, reason: object, now: float
    ) -> int:
        """Refund (a positive amount, from the bank) or charge (negative, back to it)
        an account's chips, as a ledger transfer named by the log's row."""
        why = _reason(reason)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
            raise ModerationError(
                "give a whole number of chips: positive refunds, negative charges"
            )
        if abs(amount) > MOST_CHIPS:
            raise ModerationError(f"at most {MOST_CHIPS:,} chips at once, not {abs(amount):,}")
        with self.engine.begin() as conn:
            row = self._account(conn, name)
            who = account_ledger(row.id)
            held = balance(conn, who)
            if held + amount < 0:
                raise ModerationError(f"{row.name} holds {held:,} chips: cannot charge {-amount:,}")
            detail = {"name": row.name, "amount": amount, "balance": held + amount}
            entry = self._log(conn, by, "chips", who, why, detail, now)
            move = Transfer(BANK, who, amount) if amount > 0 else Transfer(who, BANK, -amount)
            post(conn, f"moderation:{entry}", [move], now)
            return entry

    # ----------------------------------------------------------- games and tables

    def void_game(self, by: int | None, table: object, reason: object, now: float) -> int:
        """Take a finished rated game out of the ratings (every rating rebuilt)."""
        why = _reason(reason)
        with self.engine.begin() as conn:
            row = _table(conn, table)
            if row.status != "over" or self.ratings is None:
                raise ModerationError(f"table {row.id} is not a finished rated game")
            try:
                seats = self.ratings.void_rated(conn, row.id)
            except StorageError as exc:
                raise ModerationError(str(exc)) from None
            detail = {"kind": row.kind, "seats": seats}
            return self._log(conn, by, "void", f"table:{row.id}", why, detail, now)

    def close_table(self, by: int | None, table: object, reason: object, now: float) -> int:
        """End a live table as void, give back what it holds, and fence out the process
        that plays it."""
        why = _reason(reason)
        with self.engine.begin() as conn:
            row = _table(conn, table)
            done = conn.execute(
                update(tables)
                .where(tables.c.id == row.id, tables.c.status == "live")
                .values(status="void", finished=now)
            )
            if done.rowcount != 1:
                raise ModerationError(f"table {row.id} is not live ({row.status})")
            conn.execute(
                update(leases)
                .where(leases.c.table_id == row.id)
                .values(owner=CLOSED_BY, epoch=leases.c.epoch + 1, expires=now)
            )
            given = 0 if self.table_chips is None else self.table_chips.release(conn, row.id, now)
            detail = {"kind": row.kind, "chips_given_back": given}
            return self._log(conn, by, "close", f"table:{row.id}", why, detail, now)

    # ----------------------------------------------------------- reports

    def report(
        self, reporter: int, game: object, reported: object, text: object, now: float
    ) -> int:
        """A player's report of another from a finished game they both sat at."""
        why = _reason(text)
        if not isinstance(reported, int) or isinstance(reported, bool) or reported == reporter:
            raise ModerationError("report another player of the game by their account")
        with self.engine.begin() as conn:
            row = _table(conn, game)
            if row.status != "over":
                raise ModerationError(f"table {row.id}: report a player once the game is over")
            sat = {s.get("account") for s in json.loads(row.seats)}
            if reporter not in sat or reported not in sat:
                raise ModerationError(f"table {row.id}: you and they must both have played it")
            today = conn.execute(
                select(func.count())
                .select_from(reports)
                .where(reports.c.reporter == reporter, reports.c.at > now - 86_400)
            ).scalar_one()
            if today >= REPORTS_A_DAY:
                raise ModerationError(f"at most {REPORTS_A_DAY} reports a day")
            try:
                with conn.begin_nested():
                    made = conn.execute(
                        insert(reports).values(
                            at=now, reporter=reporter, reported=reported, game=row.id, text=why
                        )
                    ).inserted_primary_key
            except IntegrityError:
                raise ModerationError("you have reported this player for this game") from None
            assert made is not None
            return int(made[0])

    def reports(self, limit: int = 50) -> list[dict[str, Any]]:
        """The open reports, oldest first: who reported whom, from which game, why."""
        reporter, reported = accounts.alias("reporter"), accounts.alias("reported")
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    reports.c.id,
                    reports.c.at,
                    reports.c.game,
                    reports.c.text,
                    reporter.c.name.label("by"),
                    reported.c.name.label("against"),
                    reported.c.suspended,
                )
                .select_from(
                    reports.join(reporter, reporter.c.id == reports.c.reporter).join(
                        reported, reported.c.id == reports.c.reported
                    )
                )
                .where(reports.c.closed.is_(None))
                .order_by(reports.c.id)
                .limit(limit)
            ).all()
        return [
            {
                "id": r.id,
                "at": r.at,
                "game": r.game,
                "text": r.text,
                "by": r.by,
                "against": r.against,
                "suspended": r.suspended is not None,
            }
            for r in rows
        ]

    def close_report(self, by: int | None, report: object, reason: object, now: float) -> int:
        """Close an open report, with what was decided."""
        why = _reason(reason)
        if not isinstance(report, int) or isinstance(report, bool):
            raise ModerationError("name a report by its number")
        with self.engine.begin() as conn:
            done = conn.execute(
                update(reports)
                .where(reports.c.id == report, reports.c.closed.is_(None))
                .values(closed=now, closed_by=by)
            )
            if done.rowcount != 1:
                raise ModerationError(f"no open report {report}")
            return self._log(conn, by, "report", f"report:{report}", why, {}, now)


def _table(conn: Connection, table: object) -> Row[Any]:
    if not isinstance(table, str) or not table or len(table) > 64:
        raise ModerationError("name a table by its id")
    row = conn.execute(select(tables).where(tables.c.id == table)).first()
    if row is None:
        raise ModerationError(f"no table {excerpt(table)}")
    return row


def _rename_seats(conn: Connection, account_id: int, name: str) -> int:
    """The account's seats in every stored game named anew; how many games."""
    ids = conn.execute(
        select(players.c.table_id).where(players.c.account_id == account_id)
    ).scalars()
    changed = 0
    for table_id in list(ids):
        seats = json.loads(
            conn.execute(select(tables.c.seats).where(tables.c.id == table_id)).scalar_one()
        )
        for seat in seats:
            if seat.get("account") == account_id:
                seat["name"] = name
        conn.execute(update(tables).where(tables.c.id == table_id).values(seats=json.dumps(seats)))
        changed += 1
    return changed
