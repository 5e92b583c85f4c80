"""A live table: one asyncio task owns the match and serialises every command.

The contract:

- One owner. Only the table's task reads or changes the match. A viewer joins,
  syncs and acts by queueing a command; the task answers in the viewer's
  outbox. Between two commands (and between two bot moves) the task yields,
  so no table holds the event loop for more than one decision.
- Commit before acknowledge. An action is validated, applied, stored (with the
  match's end, when it ends it, in the same transaction) and only then
  published and acknowledged. If the store refuses it, the action is undone in
  memory and refused, and the log is asked before the next write whether it was
  stored after all (``table_log``).
- Versioned events. The version is the number of events so far. An action
  names the version of the state it answers; any other version is stale and
  refused, so a retry or a duplicate never answers a decision nobody saw.
- Each viewer gets only what its seat may see, built once per seat per event
  and shared by every viewer of that seat (``audience``: who watches, what each
  is sent, the clocks as each seat may see them). An outbox is bounded: a viewer too
  slow to read is disconnected and resyncs on its next connection.
- Secrets stay here. The seed and the bots' seed never leave this object
  while the match is in play; viewers get the commitment to the seed.
- Spectators (no seat) watch a delayed copy of the match (``spectators``):
  never the hand in play, never a concealed hand, never a clock. They may
  watch only tables open to them: rated ones, those their owner opened, and
  any finished game. Every viewer is told how many spectators there are.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from riichi.bots import Bot, make_bot
from riichi.errors import excerpt
from riichi.game import Action, Match, observe
from riichi.game.kyoku import Kyoku
from riichi.platform import POLICIES, ClockState, Pool, clocks, timeout_action
from riichi.platform.clocks import start_clocks
from riichi.platform.spectating import HAND, Delay
from riichi.platform.tables import SeatSpec, final_of, kind_rules
from riichi.server.audience import Audience
from riichi.server.clock import Clock
from riichi.server.limits import Limits
from riichi.server.metrics import Metrics
from riichi.server.protocol import (
    CLOSE_REFUSED,
    ProtocolError,
    Viewer,
    action_of,
)
from riichi.server.seating import ended_hand, without_last
from riichi.server.storage import ActionRow, ClockRow, LeaseLost, Store, StoredTable, Writer
from riichi.server.table_log import TableLog
from riichi.server.thinkers import Thinkers

TOUCH_EVERY = 60.0  # seconds: how stale the stored last touch of an untimed table may be

log = logging.getLogger(__name__)

# a feature's answer to a message type of its own, by the table's task (its one owner)
Handler = Callable[["LiveTable", Viewer], Awaitable[None]]


@dataclass(slots=True)
class _Command:
    viewer: Viewer
    kind: str  # "join", "leave" or "message"
    message: Any = None


class LiveTable:
    """The one owner of a match in play (or finished and being watched)."""

    def __init__(
        self,
        stored: StoredTable,
        match: Match,
        seats: list[SeatSpec],
        store: Store,
        writer: Writer,
        clock: Clock,
        limits: Limits,
        bot_delay: float = 0.0,
        on_idle: Callable[[LiveTable], None] | None = None,
        on_finish: Callable[[LiveTable], None] | None = None,
        delay: Delay = HAND,
        on_lost: Callable[[LiveTable], None] | None = None,
        epoch: int | None = None,
        thinkers: Thinkers | None = None,
        metrics: Metrics | None = None,
        handlers: Mapping[str, Handler] | None = None,
    ) -> None:
        self.id = stored.id
        self.metrics = metrics
        self.thinkers = thinkers  # where a searching bot thinks (None: its quick choice)
        self.stored = stored
        self.match = match
        self.seats = seats
        self.store = store
        self.clock = clock
        self.limits = limits
        self.bot_delay = bot_delay
        self.on_idle = on_idle
        self.on_finish = on_finish  # told once, when the match's end is stored
        self.on_lost = on_lost  # told when another process has taken the table's lease
        self.epoch = epoch  # the lease this process holds (None: no lease is checked)
        self.lost = False
        self.table_log = TableLog(stored.id, store, writer, epoch, self._let_go)
        # what a feature answers of a message type the table does not (the coach)
        self.handlers: Mapping[str, Handler] = handlers or {}
        self.viewers: set[Viewer] = set()
        self.delay = delay
        self.bots: dict[int, Bot] = {
            s: make_bot(spec.kind, f"{stored.bot_seed}/{s}")
            for s, spec in enumerate(seats)
            if spec.is_bot
        }
        self.people = [s for s, spec in enumerate(seats) if not spec.is_bot]
        self.policy = POLICIES.get(Pool(stored.pool))
        self.timer: ClockState | None = None
        if self.policy is not None:
            self.timer = (
                ClockState.from_dict(stored.clock)
                if stored.clock
                else ClockState.new(self.policy, match.rules.players)
            )
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._ended: Kyoku | None = None  # the hand whose result is showing, once known
        self.closed = False  # unloaded: the task ends once nobody is left
        # a person's last move or visit (an untimed table left alone too long closes);
        # ``_touch_stored`` is what the store has, written at most every TOUCH_EVERY
        self.touched = self._touch_stored = stored.touched or stored.created
        self.opened_by: str | None = None  # the guest address that opened it, if any
        # tells a person something (the site's live channel): a clock running while away
        self.notify: Callable[[int, dict[str, Any]], None] | None = None
        # a guest's table: nobody at it signed in (it counts against the guests' budget)
        self.guest = kind_rules(stored.kind).guests and all(spec.account is None for spec in seats)
        self.audience = Audience(self)

    # ----------------------------------------------------------- the task

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table {self.id}")

    async def stop(self) -> None:
        self.audience.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def join(self, viewer: Viewer) -> bool:
        """Seat ``viewer``; its ``hello`` arrives in its outbox. False if the table has
        been unloaded meanwhile (load it again)."""
        if self._task is None or self._task.done():
            return False
        self._queue.put_nowait(_Command(viewer, "join"))
        return True

    def leave(self, viewer: Viewer) -> None:
        self._queue.put_nowait(_Command(viewer, "leave"))

    def send(self, viewer: Viewer, message: Any) -> None:
        """Queue a client's message; the table task answers in the viewer's outbox."""
        self._queue.put_nowait(_Command(viewer, "message", message))

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        due = loop.time() + self.bot_delay
        if self.timer is not None and not self.match.over:
            self._start_clocks(self.clock.now())  # a fresh table, or one restored mid-hand
        while not (self.closed and not self.viewers and self._queue.empty()) and not self.lost:
            if self.timer is not None and await self._ticked():
                due = loop.time() + self.bot_delay
                await asyncio.sleep(0)
                continue
            seat = self._bot_to_move()
            command: _Command | None = None
            if not self._queue.empty():
                command = self._queue.get_nowait()
            elif seat is None:
                command = await self._next_command()
            elif self.bot_delay > 0 and loop.time() < due:
                # a bot moves long before any person's deadline: the queue alone will do
                with contextlib.suppress(TimeoutError):
                    command = await asyncio.wait_for(self._queue.get(), due - loop.time())
            if command is None and seat is None:
                continue  # the clock woke us: a deadline or the end of a result pause
            if command is None:
                assert seat is not None
                if not await self._guarded(None, self._bot_move(seat)):
                    await asyncio.sleep(1.0)  # a failing bot must not spin the loop
            else:
                version = self.version
                await self._guarded(command.viewer, self._handle(command))
                if self.version == version:
                    await asyncio.sleep(0)  # nothing happened: let the others run
                    continue
            due = loop.time() + self.bot_delay
            await asyncio.sleep(0)  # one decision at a time, then the other tables run

    async def _next_command(self) -> _Command | None:
        """The next command, or None when the table's clock wants attention first."""
        wake = None if self.timer is None else self.timer.deadline()
        if wake is None:
            return await self._queue.get()
        getter = asyncio.ensure_future(self._queue.get())
        sleeper = asyncio.ensure_future(self.clock.sleep_until(wake))
        try:
            await asyncio.wait({getter, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            if not getter.done():
                getter.cancel()
            # wait for the cancellations: a get that is cancelled leaves its item queued
            await asyncio.gather(getter, sleeper, return_exceptions=True)
        if getter.cancelled():
            return None
        return getter.result()

    async def _ticked(self) -> bool:
        try:
            return await self._tick()
        except LeaseLost:  # another process owns the table now: this copy stops
            return False

    async def _tick(self) -> bool:
        """Apply what the clock says is due: the end of a result pause, then timeouts.
        True when something changed."""
        assert self.timer is not None
        now = self.clock.now()
        if clocks.resume_if_due(self.timer, now, self.people):
            self._start_clocks(now)
            await self.table_log.write(ClockRow(self.id, self.timer.to_dict(), epoch=self.epoch))
            self.audience.publish_clock()
            return True
        expired = self.timer.expired(now)
        if not expired or self.match.over:
            return False
        seat = expired[0]
        legal = self.match.legal_actions().get(seat)
        if not legal:
            self.timer.decisions.pop(seat, None)
            return True
        drawn = self.match.kyoku.drawn if self.match.kyoku.current == seat else None
        await self._guarded(None, self._commit(seat, timeout_action(legal, drawn), timeout=True))
        return True

    def admit(self, token: str | None, account: int | None) -> Viewer:
        """A viewer for a connection (`Audience.admit`)."""
        return self.audience.admit(token, account)

    async def admit_person(self, token: str | None, account: int | None) -> Viewer:
        """``admit``, but never into a suspended account's seat (its clock plays it)."""
        viewer = self.admit(token, account)
        holder = None if viewer.seat is None else self.seats[viewer.seat].account
        if holder is not None and await asyncio.to_thread(self.store.accounts.is_suspended, holder):
            raise ProtocolError(f"table {self.id}: that seat's account is suspended")
        return viewer

    def _start_clocks(self, now: float) -> None:
        assert self.timer is not None and self.policy is not None
        start_clocks(self.policy, self.timer, self.match, set(self.bots), now)

    async def _guarded(self, viewer: Viewer | None, work: Any) -> bool:
        try:
            await work
            return True
        except ProtocolError as exc:
            if self.metrics is not None:
                self.metrics.refused.labels("table").inc()
            self._refuse(viewer, str(exc))
        except Exception:  # a bug must not take the table down with it
            log.exception("table %s: command failed", self.id)
            self._refuse(viewer, f"table {self.id}: internal error")
        return False

    def _refuse(self, viewer: Viewer | None, message: str) -> None:
        if viewer is None:
            log.error("table %s: a bot's move was refused: %s", self.id, message)
        else:
            viewer.put_json({"type": "error", "message": message})

    # ----------------------------------------------------------- commands

    async def _handle(self, command: _Command) -> None:
        viewer = command.viewer
        if command.kind == "join":
            if viewer.seat is None and not self.audience.watchable:
                viewer.kick(f"table {self.id} is not open to spectators", CLOSE_REFUSED)
                return
            if viewer.seat is None:
                self.audience.count(+1)
            else:
                self.touched = self.clock.now()
                self.audience.told.discard(viewer.seat)
                self.audience.came.add(viewer.seat)
            if viewer.claims and viewer.seat is not None and viewer.account is not None:
                await self.audience.claim(viewer.seat, viewer.account)
            self.viewers.add(viewer)
            viewer.put(self.audience.snapshot(viewer.seat, "hello"))
            return
        if command.kind == "leave":
            if viewer in self.viewers and viewer.seat is None:
                self.audience.count(-1)
            self.viewers.discard(viewer)
            if not self.viewers and self.match.over and self.on_idle is not None:
                self.on_idle(self)
            self.audience.tell_the_absent()  # a person who leaves while the clock runs: at once
            return
        message = command.message
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise ProtocolError(f"a message is a JSON object with a type, got {excerpt(message)}")
        kind = message["type"]
        if kind == "sync":
            viewer.put(self.audience.snapshot(viewer.seat, "state"))
        elif kind == "action":
            began = time.perf_counter()
            seat, action = action_of(self.id, viewer, message, self.version)
            if self.timer is not None and self.timer.pause_until is not None:
                raise ProtocolError(
                    f"table {self.id}: the hand's result is showing; send ready to go on"
                )
            await self._commit(seat, action, person=True)
            viewer.put_json({"type": "ack", "version": self.version})
            if self.metrics is not None:
                self.metrics.acks.observe(time.perf_counter() - began)
        elif kind in self.handlers:
            await self.handlers[kind](self, viewer)
        elif kind == "ready":
            if viewer.seat is None:
                raise ProtocolError(f"table {self.id}: spectators cannot act")
            if self.timer is not None and self.timer.pause_until is not None:
                self.timer.ready.add(viewer.seat)
        else:
            known = ", ".join(["action", "sync", "ready", *self.handlers])
            raise ProtocolError(f"unknown message type {excerpt(kind)}; known: {known}")

    @property
    def untimed(self) -> bool:
        return self.policy is None

    def idle(self, now: float, after: float) -> bool:
        """An untimed game in play that no person has moved at or visited for ``after``
        seconds, and that nobody is seated at now."""
        return (
            self.untimed
            and not self.match.over
            and now - self.touched >= after
            and not any(v.seat is not None for v in self.viewers)
        )

    async def _commit(
        self, seat: int, action: Action, timeout: bool = False, person: bool = False
    ) -> None:
        """Validate, apply, store, publish: an ack is only ever sent for a stored action."""
        if self.match.over:
            raise ProtocolError(f"table {self.id}: the match is over")
        legal = self.match.legal_actions()
        if seat not in legal:
            waiting = ", ".join(str(s) for s in legal)
            raise ProtocolError(f"table {self.id}: not seat {seat}'s turn (waiting on {waiting})")
        if action not in legal[seat]:
            options = "; ".join(str(a) for a in legal[seat])
            raise ProtocolError(
                f"table {self.id}: {action} is not legal for seat {seat} now (legal: {options})"
            )
        await self.table_log.settle(len(self.match.actions))
        before = self.version
        seq = len(self.match.actions)
        hands = len(self.match.results)
        now = self.clock.now()
        touched = None
        if person:
            self.touched = now
            if self.untimed and now - self._touch_stored >= TOUCH_EVERY:
                touched = now
        kyoku = self.match.kyoku
        timer_before = None if self.timer is None else self.timer.to_dict()
        self.match.apply(seat, action)
        standings = self.match.standings
        clock = None
        if self.timer is not None and self.policy is not None:
            clocks.answered(self.timer, seat, now)
            if len(self.match.results) > hands and not self.match.over:
                clocks.pause(self.policy, self.timer, now)  # the result shows first
            else:
                self._start_clocks(now)
            clock = self.timer.to_dict()
        row = ActionRow(
            self.id,
            seq,
            seat,
            action.to_dict(),
            final=None if standings is None else final_of(self.match, self.seats, now),
            clock=clock,
            timeout=timeout,
            touched=touched,
            epoch=self.epoch,
        )
        try:
            await self.table_log.write(row)
        except LeaseLost:
            raise ProtocolError(f"table {self.id} has moved to another server; reconnect") from None
        except Exception as exc:
            # undone in memory, not reloaded: the database that refused the write may be
            # out of reach, and a table that kept the action would store the next at the
            # wrong place in its log
            log.error("table %s: action %d not stored: %s", self.id, seq, exc)
            self.match = await asyncio.to_thread(without_last, self.match)
            if timer_before is not None:
                self.timer = ClockState.from_dict(timer_before)
            self.table_log.unsure = True
            raise ProtocolError(f"table {self.id}: the action could not be stored; retry") from None
        if self.metrics is not None:
            self.metrics.actions.inc()
        if touched is not None:
            self._touch_stored = touched
        if standings is not None and self.on_finish is not None:
            self.on_finish(self)
        ended = len(self.match.results) > hands
        if ended:
            self._ended = kyoku
        self._publish(before, kyoku if ended else None, seat if timeout else None)
        self.audience.tell_the_absent()

    def _let_go(self, why: tuple[str, int]) -> None:
        """This copy of the table stops (another process owns it, or the log is read
        again); its viewers reconnect."""
        self.lost = True
        self.kick_all(why)
        if self.on_lost is not None:
            self.on_lost(self)

    def kick_all(self, why: tuple[str, int]) -> None:
        """Disconnect every viewer with a reason (``{table}`` stands for the id) and a
        close code."""
        reason, code = why
        for viewer in list(self.viewers):
            viewer.kick(reason.format(table=self.id), code)

    def _bot_to_move(self) -> int | None:
        if not self.bots or (self.timer is not None and self.timer.pause_until is not None):
            return None
        return next((s for s in self.match.legal_actions() if s in self.bots), None)

    async def _bot_move(self, seat: int) -> None:
        bot, view = self.bots[seat], observe(self.match, seat)
        action = None
        if bot.thinks(view):
            # a search runs in a worker; while it does, this table's owner waits for it
            # as for a person, and the other tables run
            if self.thinkers is not None:
                action = await self.thinkers.decide(bot.kind, str(bot.seed), view)
            if action is None:
                action = bot.quick(view)
        await self._commit(seat, action if action is not None else bot.act(view))

    # ----------------------------------------------------------- views

    @property
    def version(self) -> int:
        return len(self.match.events)

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table, as of the last published version."""
        return self.audience.info()

    def _publish(
        self, before: int, ended: Kyoku | None = None, timed_out: int | None = None
    ) -> None:
        self.audience.publish(before, ended, timed_out)
        if self.match.over and not self.viewers and self.on_idle is not None:
            self.on_idle(self)

    def result_showing(self, seat: int) -> Kyoku | None:
        """The hand whose result pauses play, while ``seat`` has not confirmed it."""
        timer = self.timer
        if timer is None or timer.pause_until is None or seat in timer.ready:
            return None
        if self._ended is None:  # paused when the table was loaded: replay to that hand
            self._ended = ended_hand(self.match)
        return self._ended
