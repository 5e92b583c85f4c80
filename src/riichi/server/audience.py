"""Who watches a table and what each is sent: a seat's full resync and its updates,
built once per seat and version however many viewers of that seat there are; the
spectators' delayed copy of the match (``DelayedView``), followed only while anyone
watches; the spectator count, sent at most once a ``SPECTATORS_EVERY``; and the
table's public facts as of the last version published.

The table's task is the only caller: nothing here is shared between tasks.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import orjson

from riichi.game.kyoku import Kyoku
from riichi.platform.spectating import shown_actions
from riichi.platform.tables import kind_rules, standings_of
from riichi.server.protocol import ProtocolError, Viewer, to_json
from riichi.server.seating import public_info
from riichi.server.spectators import DelayedView
from riichi.server.views import seat_state

if TYPE_CHECKING:
    from riichi.server.table import LiveTable

log = logging.getLogger(__name__)
SPECTATORS_EVERY = 1.0  # seconds: the spectator count is sent no more often


class Audience:
    """The viewers' side of one live table."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.view: DelayedView | None = None  # while anyone spectates
        self.spectators = 0
        self._count_sent = -SPECTATORS_EVERY  # when the count was last sent (loop time)
        self._count_later: asyncio.TimerHandle | None = None
        self._snapshots: dict[tuple[int | None, str], tuple[int, str]] = {}
        self.told: set[int] = set()  # seats told their clock runs, until they come back
        self.came: set[int] = set()  # seats a person has connected to in this process
        self.seated()

    def seated(self) -> None:
        """The seats changed (a person took one): the public facts again."""
        table = self.table
        self._public = public_info(table.stored, table.seats, table.match.rules)
        self._published = self._info()

    def close(self) -> None:
        if self._count_later is not None:
            self._count_later.cancel()

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table, as of the last published version."""
        return {**self._published, "spectators": self.spectators}

    @property
    def watchable(self) -> bool:
        """Open to spectators: a rated table, one its owner opened, any finished game
        whose time to be shown has come."""
        stored = self.table.stored
        return kind_rules(stored.kind).always_watched or stored.watchable or self.revealed

    @property
    def revealed(self) -> bool:
        """The game is over and may be shown: its seed, its record, its replay."""
        table = self.table
        return table.match.over and table.stored.revealed(table.clock.now())

    def count(self, change: int) -> None:
        table = self.table
        self.spectators += change
        if self.spectators == 0:
            self.view = None  # nobody watches: stop following
        elif self.view is None:
            self.view = DelayedView(table.match, table.delay)
        # At most one count a SPECTATORS_EVERY, the latest: a crowd arriving at once
        # would otherwise send each of its members a message per arrival (n^2) and
        # fill their outboxes before they read the first.
        if self._count_later is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._count_sent + SPECTATORS_EVERY - loop.time()
        if wait <= 0:
            self._send_count()
        else:
            self._count_later = loop.call_later(wait, self._send_count)

    def _send_count(self) -> None:
        table = self.table
        self._count_later = None
        self._count_sent = asyncio.get_running_loop().time()
        text = to_json({"type": "spectators", "count": self.spectators})
        for viewer in list(table.viewers):
            viewer.put(text)

    def _info(self) -> dict[str, Any]:
        # Public: how far the game has gone only as far as spectators see it (the live
        # version or live scores would tell the hand in play), and the end only once
        # it may be shown (a Daily Wall attempt's, when its day is over).
        table = self.table
        match = table.match
        return {
            **self._public,
            "over": match.over,
            "actions": shown_actions(table.delay, match.hand_ends, len(match.actions), match.over),
            "standings": standings_of(match) if self.revealed else None,
            "seed": match.seed if table.stored.seed_public or self.revealed else None,
        }

    def snapshot(self, seat: int | None, kind: str) -> str:
        """A full resync: the seat's observation and every event it may see (built once
        per seat and version, however many viewers ask)."""
        table = self.table
        if seat is None:
            return self._spectator_snapshot(kind)
        cached = self._snapshots.get((seat, kind))
        if cached is None or cached[0] != table.version:
            text = to_json(
                {
                    "type": kind,
                    "table": self.info(),
                    "seat": seat,
                    "version": table.version,
                    "events": [e.to_dict() for e in table.match.events if e.visible_to(seat)],
                    "state": seat_state(
                        table.match,
                        seat,
                        [s.public() for s in table.seats],
                        bet=table.stored.bet,
                    ),
                }
            )
            cached = self._snapshots[(seat, kind)] = (table.version, text)
        # the clocks and the spectators change without a new version: added fresh
        clock = orjson.dumps(self.clock_view(seat)).decode()
        text = f'{cached[1][:-1]},"clock":{clock},"spectators":{self.spectators}}}'
        ended = table.result_showing(seat)
        if ended is None:
            return text
        # back during a result pause it has not confirmed: the result over the final
        # board first, as a seat that never left saw it
        players = [s.public() for s in table.seats]
        board = orjson.dumps(
            seat_state(table.match, seat, players, ended, table.stored.bet)
        ).decode()
        return f'{text[:-1]},"ended":{board}}}'

    def _spectator_snapshot(self, kind: str) -> str:
        table = self.table
        view = self.view
        assert view is not None, "a spectator joined without the delayed view"
        cached = self._snapshots.get((None, kind))
        if cached is None or cached[0] != view.version:
            text = to_json(
                {
                    "type": kind,
                    "table": self.info(),
                    "seat": None,
                    "version": view.version,
                    "events": view.events(),
                    "state": view.state([s.public() for s in table.seats], table.stored.bet),
                    "delay": str(table.delay),
                    "clock": None,
                }
            )
            cached = self._snapshots[(None, kind)] = (view.version, text)
        return f'{cached[1][:-1]},"spectators":{self.spectators}}}'

    def publish(
        self, before: int, ended: Kyoku | None = None, timed_out: int | None = None
    ) -> None:
        """Send each viewer what is new since version ``before``; when a hand has just
        ended (``ended``), each seat's view of it as it stood at its end comes too, so
        the result is shown over the final board, not over the next deal. An action the
        clock played for seat ``timed_out`` says so to the table, as it happens."""
        table = self.table
        self._published = self._info()
        new = table.match.events[before:]
        players = [s.public() for s in table.seats]
        texts: dict[int | None, str] = {}
        if self.view is not None:
            shown = self.view.version
            if self.view.advance(table.match):
                texts[None] = to_json(
                    {
                        "type": "update",
                        "from": shown,
                        "version": self.view.version,
                        "events": self.view.events(shown),
                        "state": self.view.state(players, table.stored.bet),
                        "clock": None,
                    }
                )
        for viewer in list(table.viewers):
            text = texts.get(viewer.seat)
            if text is None:
                if viewer.seat is None:
                    continue  # the spectators' view has not moved
                message = {
                    "type": "update",
                    "from": before,
                    "version": table.version,
                    "events": [e.to_dict() for e in new if e.visible_to(viewer.seat)],
                    "state": seat_state(table.match, viewer.seat, players, bet=table.stored.bet),
                    "clock": self.clock_view(viewer.seat),
                }
                if timed_out is not None:
                    message["timeout"] = timed_out
                if ended is not None:
                    message["ended"] = seat_state(
                        table.match, viewer.seat, players, ended, table.stored.bet
                    )
                text = texts[viewer.seat] = to_json(message)
            viewer.put(text)

    def seat_of(self, token: str | None, account: int | None = None) -> int | None:
        """The seat a connection takes: the one whose link holds ``token``, else the one
        the signed-in ``account`` sits in; None (a spectator) without either. A seat
        that belongs to an account is refused to any other account."""
        table = self.table
        if token:
            for seat, spec in enumerate(table.seats):
                if spec.holds(token):
                    if account is not None and spec.account not in (None, account):
                        raise ProtocolError(
                            f"table {table.id}: that seat belongs to another player"
                        )
                    return seat
            raise ProtocolError(f"table {table.id}: that seat link is not valid")
        if account is not None:
            for seat, spec in enumerate(table.seats):
                if spec.account == account:
                    return seat
        return None

    def admit(self, token: str | None, account: int | None) -> Viewer:
        """A viewer for a connection: in the seat its link or account holds, or as a
        spectator where spectators may watch. Raises ``ProtocolError`` with the
        refusal."""
        table = self.table
        seat = self.seat_of(token, account)
        if seat is None and not self.watchable:
            raise ProtocolError(f"table {table.id} is not open to spectators")
        viewer = Viewer(seat, table.limits)
        viewer.account = account
        if token and account is not None and seat is not None:
            spec = table.seats[seat]
            viewer.claims = (
                spec.account is None
                and not spec.is_bot
                and not table.stored.bet  # a stake is reserved from an account at the start
                and not kind_rules(table.stored.kind).rated
                and all(s.account != account for s in table.seats)
            )
        return viewer

    def clock_view(self, seat: int | None) -> dict[str, Any] | None:
        """The clocks as ``seat`` may see them: server time, reserves, the deadlines of
        the seat to play and its own. Another seat's clock on a call would tell that it
        can call; spectators, a hand behind, see no clock at all."""
        table = self.table
        if table.timer is None or table.policy is None or seat is None:
            return None
        return {
            "pool": table.policy.pool.value,
            "per_turn": table.policy.per_turn,
            "per_call": table.policy.per_call,
            "now": table.clock.now(),
            "reserves": table.timer.reserves,
            "decisions": {
                str(s): {"until": d.until, "base": d.base, "call": d.call}
                for s, d in table.timer.decisions.items()
                if s == seat or not d.call
            },
            "pause_until": table.timer.pause_until,
        }

    def publish_clock(self) -> None:
        table = self.table
        texts: dict[int, str] = {}
        for viewer in list(table.viewers):
            if viewer.seat is None:
                continue
            text = texts.get(viewer.seat)
            if text is None:
                clock = self.clock_view(viewer.seat)
                text = texts[viewer.seat] = to_json(
                    {"type": "clock", "version": table.version, "clock": clock}
                )
            viewer.put(text)

    def tell_the_absent(self) -> None:
        """A person whose clock runs at this table while nothing of theirs is connected
        to their seat is told, once until they come back."""
        table = self.table
        if table.notify is None or table.timer is None or table.match.over:
            return
        present = {v.seat for v in table.viewers if v.seat is not None}
        for seat in table.match.legal_actions():
            account = table.seats[seat].account
            if account is None or seat in present or seat in self.told:
                continue
            self.told.add(seat)
            # a seat nobody has come to yet (a table that started without its person)
            # was never left
            text = (
                "your clock is running at a table you left"
                if seat in self.came
                else "your table has started and your clock is running: join it"
            )
            table.notify(account, {"kind": "clock", "text": text, "link": f"/table/{table.id}"})

    async def claim(self, seat: int, account: int) -> None:
        """The signed-in person who came by the seat's link takes the seat for their
        account; if storage fails, they play it as a guest all the same."""
        try:
            name = await asyncio.to_thread(
                self.table.store.claim_seat, self.table.id, seat, account
            )
            if name is None:
                return
        except Exception:
            log.exception(
                "table %s: seat %d could not be given to account %d", self.table.id, seat, account
            )
            return
        self.table.seats[seat] = replace(self.table.seats[seat], account=account, name=name)
        self.seated()
