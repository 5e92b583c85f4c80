"""A live table: one asyncio task owns the match and serialises every command.

A command is validated against the legal actions, committed to the store,
applied, then published: each viewer gets only the events it may see and its
own observation, tagged with the table version (the number of events so far),
so a client that sees a gap asks for a full resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from riichi.bots import BOT_LABEL, Bot, make_bot
from riichi.errors import RiichiError
from riichi.game import Action, IllegalActionError, Match, observe
from riichi.rules import RuleSet
from riichi.server.storage import Store, StoredTable
from riichi.server.views import seat_state, standings_of

HUMAN = "human"
log = logging.getLogger(__name__)


class ProtocolError(RiichiError):
    """A message the table refuses; nothing has changed."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: a person holding ``token``, or a built-in bot."""

    kind: str  # HUMAN or a bot name
    name: str
    token: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.is_bot}


def seat_specs(kinds: list[str], names: list[str] | None = None) -> list[SeatSpec]:
    """Seats from kinds (``"human"`` or a bot name); each human gets a fresh secret token."""
    specs = []
    for seat, kind in enumerate(kinds):
        if kind == HUMAN:
            given = names[seat] if names and seat < len(names) and names[seat] else None
            specs.append(SeatSpec(HUMAN, given or f"player {seat + 1}", secrets.token_urlsafe(16)))
        else:
            make_bot(kind)  # raises ValueError for an unknown bot
            specs.append(SeatSpec(kind, f"{kind} {seat + 1} {BOT_LABEL}"))
    return specs


class Viewer:
    """One connection's outbox; ``seat`` is None for a spectator."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()


@dataclass(slots=True)
class _Command:
    viewer: Viewer | None  # None: the table's own bot turn
    message: Any


class LiveTable:
    """The one owner of a match in play."""

    def __init__(
        self,
        table_id: str,
        match: Match,
        seats: list[SeatSpec],
        store: Store,
        clock: Callable[[], float],
    ) -> None:
        self.id = table_id
        self.match = match
        self.seats = seats
        self.store = store
        self.clock = clock
        self.viewers: set[Viewer] = set()
        self.bots: dict[int, Bot] = {
            s: make_bot(spec.kind, f"{match.seed}/{s}")
            for s, spec in enumerate(seats)
            if spec.is_bot
        }
        self._queue: asyncio.Queue[_Command] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    # ----------------------------------------------------------- construction

    @classmethod
    def create(
        cls,
        table_id: str,
        rules: RuleSet,
        seed: str,
        seats: list[SeatSpec],
        store: Store,
        clock: Callable[[], float],
    ) -> LiveTable:
        match = Match(rules, seed, [s.name for s in seats])
        store.create_table(table_id, rules.to_dict(), seed, [asdict(s) for s in seats], clock())
        return cls(table_id, match, seats, store, clock)

    @classmethod
    def rebuild(cls, stored: StoredTable, store: Store, clock: Callable[[], float]) -> LiveTable:
        """The table as it was: (rules, seed, seats) and every stored action, replayed."""
        match, seats = load_match(stored, store)
        return cls(stored.id, match, seats, store, clock)

    # ----------------------------------------------------------- the task

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table {self.id}")
            self._queue.put_nowait(_Command(None, None))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def join(self, token: str | None) -> Viewer:
        """A viewer for the seat whose token this is; no token watches as a spectator."""
        seat = None
        if token:
            seat = next((s for s, spec in enumerate(self.seats) if spec.token == token), None)
            if seat is None:
                raise ProtocolError(f"table {self.id}: that seat link is not valid")
        viewer = Viewer(seat)
        self.viewers.add(viewer)
        viewer.outbox.put_nowait(self.snapshot(viewer, "hello"))
        return viewer

    def leave(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)

    def send(self, viewer: Viewer, message: Any) -> None:
        """Queue a client's message; the table task answers in the viewer's outbox."""
        self._queue.put_nowait(_Command(viewer, message))

    async def _run(self) -> None:
        while True:
            command = await self._queue.get()
            try:
                self._handle(command)
            except ProtocolError as exc:
                self._refuse(command.viewer, str(exc))
            except Exception:  # a bug must not take the table down with it
                log.exception("table %s: command failed", self.id)
                self._refuse(command.viewer, f"table {self.id}: internal error")

    def _refuse(self, viewer: Viewer | None, message: str) -> None:
        if viewer is None:
            log.error("table %s: a bot's move was refused: %s", self.id, message)
        else:
            viewer.outbox.put_nowait({"type": "error", "message": message})

    # ----------------------------------------------------------- commands

    def _handle(self, command: _Command) -> None:
        viewer, message = command.viewer, command.message
        if viewer is None:
            self._play_bots()
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise ProtocolError(f"a message is a JSON object with a type, got {message!r}")
        kind = message["type"]
        if kind == "sync":
            viewer.outbox.put_nowait(self.snapshot(viewer, "state"))
        elif kind == "action":
            self._human_action(viewer, message)
            viewer.outbox.put_nowait({"type": "ack", "version": self.version})
            self._play_bots()
        else:
            raise ProtocolError(f"unknown message type {kind!r}; known: action, sync")

    def _human_action(self, viewer: Viewer, message: dict[str, Any]) -> None:
        if viewer.seat is None:
            raise ProtocolError(f"table {self.id}: spectators cannot act")
        if "seat" in message and message["seat"] != viewer.seat:
            raise ProtocolError(
                f"table {self.id}: you sit in seat {viewer.seat}, not seat {message['seat']!r}"
            )
        try:
            action = Action.from_dict(message.get("action"))
        except IllegalActionError as exc:
            raise ProtocolError(str(exc)) from None
        self._commit(viewer.seat, action)

    def _commit(self, seat: int, action: Action) -> None:
        """Validate, store, apply, publish: the order that makes an ack durable."""
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
        before = self.version
        self.store.append_action(self.id, len(self.match.actions), seat, action.to_dict())
        self.match.apply(seat, action)
        standings = standings_of(self.match)
        if standings is not None:
            self.store.finish(self.id, self.clock(), standings)
        self._publish(before)

    def _bot_to_move(self) -> int | None:
        return next((s for s in self.match.legal_actions() if s in self.bots), None)

    def _play_bots(self) -> None:
        """One bot decision, then a fresh command for the next, so people are never starved."""
        seat = self._bot_to_move()
        if seat is None:
            return
        self._commit(seat, self.bots[seat].act(observe(self.match, seat)))
        if self._bot_to_move() is not None:
            self._queue.put_nowait(_Command(None, None))

    # ----------------------------------------------------------- views

    @property
    def version(self) -> int:
        return len(self.match.events)

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table."""
        return {
            "id": self.id,
            "rules": self.match.rules.name,
            "length": self.match.rules.length.value,
            "ruleset": self.match.rules.to_dict(),
            "seats": [s.public() for s in self.seats],
            "over": self.match.over,
            "version": self.version,
            "standings": standings_of(self.match),
        }

    def state(self, seat: int | None) -> dict[str, Any]:
        return seat_state(self.match, seat, [s.public() for s in self.seats])

    def snapshot(self, viewer: Viewer, kind: str) -> dict[str, Any]:
        """A full resync: the viewer's observation and every event it may see."""
        return {
            "type": kind,
            "table": self.id,
            "seat": viewer.seat,
            "version": self.version,
            "events": [e.to_dict() for e in self.match.events if e.visible_to(viewer.seat)],
            "state": self.state(viewer.seat),
        }

    def _publish(self, before: int) -> None:
        new = self.match.events[before:]
        for viewer in self.viewers:
            viewer.outbox.put_nowait(
                {
                    "type": "update",
                    "from": before,
                    "version": self.version,
                    "events": [e.to_dict() for e in new if e.visible_to(viewer.seat)],
                    "state": self.state(viewer.seat),
                }
            )


def load_match(stored: StoredTable, store: Store) -> tuple[Match, list[SeatSpec]]:
    """A stored table's match, rebuilt from (rules, seed, seats) and its action log."""
    seats = [SeatSpec(**s) for s in stored.seats]
    match = Match(RuleSet.from_dict(stored.rules), stored.seed, [s.name for s in seats])
    for seat, action in store.load_actions(stored.id):
        match.apply(seat, Action.from_dict(action))
    return match, seats
