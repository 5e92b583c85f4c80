"""Tournaments on the server: creation, registration with its buy-in, rounds seated
and played as tables of kind ``tournament``, and the payout at the end.

The runner (``TournamentDesk.run``) looks at every open or running tournament
once a second and takes the next step that is due; each step is one
transaction or can be repeated safely, so a restart carries on where the last
process stopped:

- registration closes (status ``closing``, in the transaction that reads the
  entrants, so no registration lands after the list is read): the whole
  seating plan is made from that list off the event loop and stored once with
  the step to ``running``; or the tournament is cancelled (fewer entrants than
  a table's seats) and every buy-in refunded;
- every table of the round is over: the next round is seated from the stored
  plan (a round seated in part before a crash is completed with the same
  tables; a plan is never made twice);
- the last round is over: the standings and the payout are written with the
  tournament's end, in one transaction.

Money (``riichi.platform.chips``): a registration moves the bet to the
tournament's escrow and the fee to the house in the transaction that records
the entrant; money the house adds goes in at creation, and only an operator
adds it; roster computers entered by the organiser are backed by the house, so
an organiser who is not an operator enters at most a few per person
(``riichi.platform.tournaments.TournamentLimits``).

Every check of a status, a count or an order happens inside the transaction
that writes on it: the transaction first writes the row it depends on (the
tournament's, or the organiser's account), which holds SQLite's write lock and
PostgreSQL's row lock until it commits.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from riichi.bots import BOT_LABEL, ROSTER
from riichi.errors import excerpt
from riichi.platform import Pool
from riichi.platform.accounts import AccountError, check_title
from riichi.platform.chips import MONEY, account_ledger
from riichi.platform.tables import Row, TableKind, desk_seats
from riichi.platform.tournaments import (
    DEFAULT_PAYOUT,
    MAX_ENTRANTS,
    MAX_ROUNDS,
    TournamentError,
    check_computers,
    check_payout,
    payouts,
    plan_rounds,
    standings,
)
from riichi.server.clock import sleep_or_woken
from riichi.server.protocol import Busy, NotFound, ProtocolError
from riichi.server.registry import GameFinished, Registry
from riichi.server.seating import clock_of, fresh_table, rules_of
from riichi.server.storage import (
    Account,
    StorageError,
)
from riichi.server.tournaments.store import (
    Tournament,
    TournamentStore,
    results_of,
)

log = logging.getLogger(__name__)
MAX_BET = 1_000_000
MAX_WAIT = 7 * 86_400.0  # registration stays open at most a week
TOURNAMENT_CHANGED = "tournament-entered"  # a bus event's kind: someone entered
IDLE_STEP = 60.0  # seconds: the runner looks at least this often
PLAN_RETRY = 5.0  # seconds: a plan the planner refused is asked for again


class TournamentDesk:
    """The server's tournaments: what the API asks, and the runner that plays them."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.store = TournamentStore(registry.store.engine)
        self._lock = asyncio.Lock()  # one step at a time
        self._woken = asyncio.Event()  # a tournament's table ended: step at once
        # tells a person their table started (the site's live channel sets it)
        self.notify: Callable[[int, dict[str, Any]], None] = lambda account, notice: None

    async def _operator(self, account: Account) -> bool:
        return await asyncio.to_thread(self.registry.store.accounts.is_operator, account.id)

    async def create(self, account: Account, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ProtocolError("a new tournament is a JSON object")
        known = {"name", "rules", "length", "switches", "rounds", "bet", "fee", "added", "payout"}
        known |= {"clock", "closes_in"}
        unknown = set(body) - known
        if unknown:
            raise ProtocolError(f"unknown fields {excerpt(sorted(unknown))}")
        try:
            name = check_title(body.get("name"), "a tournament's name", 64)
        except AccountError as exc:
            raise ProtocolError(str(exc)) from None
        rules = rules_of(body)
        rounds = _whole(body, "rounds", 1, MAX_ROUNDS, 4)
        bet = _whole(body, "bet", 0, MAX_BET, 0)
        fee = _whole(body, "fee", 0, MAX_BET, 0)
        added = _whole(body, "added", 0, MAX_BET, 0)
        closes_in = _whole(body, "closes_in", 0, int(MAX_WAIT), 600)
        payout = body.get("payout", list(DEFAULT_PAYOUT))
        if (
            not isinstance(payout, list)
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in payout)
            or len(payout) > MAX_ENTRANTS
        ):
            raise ProtocolError(f"a payout is a list of percentages, got {excerpt(payout)}")
        try:
            check_payout(payout)
        except TournamentError as exc:
            raise ProtocolError(str(exc)) from None
        pool = clock_of(body, Pool.STANDARD.value).value
        now = self.registry.clock.now()
        t = Tournament(
            id="t" + secrets.token_hex(7),
            name=" ".join(name.split()),
            organiser=account.id,
            rules=rules,
            rounds=rounds,
            bet=bet,
            fee=fee,
            added=added,
            payout=payout,
            pool=pool,
            closes=now + closes_in,
            status="open",
            round=0,
            seed=secrets.token_hex(16),
            created=now,
            finished=None,
            standings=None,
        )
        try:
            await asyncio.to_thread(self.store.create, t, await self._operator(account))
        except StorageError as exc:
            raise ProtocolError(str(exc)) from None
        return await self.view(t.id)

    async def _get(self, tournament_id: str) -> Tournament:
        t = await asyncio.to_thread(self.store.get, tournament_id[:20])
        if t is None:
            raise NotFound("no such tournament")
        return t

    async def register(self, account: Account, tournament_id: str) -> dict[str, Any]:
        t = await self._get(tournament_id)
        await self._enter(t, [(account_ledger(account.id), account.name)])
        return await self.view(t.id)

    async def add_computers(
        self, account: Account, tournament_id: str, count: Any
    ) -> dict[str, Any]:
        """The organiser enters roster computers, backed by the house."""
        t = await self._get(tournament_id)
        if account.id != t.organiser:
            raise ProtocolError("only the organiser adds computers")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 < count <= MAX_ENTRANTS:
            raise ProtocolError(f"count is 1 to {MAX_ENTRANTS}, got {excerpt(count)}")
        operator = await self._operator(account)
        if t.bet > MONEY.max_bet and not operator:
            raise ProtocolError(
                f"the house backs computers for a bet of at most {MONEY.max_bet}, not {t.bet}"
            )
        have = await asyncio.to_thread(self.store.entrants, t.id)
        start = sum(1 for p, _ in have if p.startswith("computer:")) + 1
        players = [
            (f"computer:{ROSTER}:{t.id}:{n}", f"{ROSTER} {n} {BOT_LABEL}")
            for n in range(start, start + count)
        ]

        def check(people: int, computers: int) -> None:
            check_computers(operator, people, computers, count)

        await self._enter(t, players, check)
        return await self.view(t.id)

    async def _enter(
        self,
        t: Tournament,
        players: list[tuple[str, str]],
        check: Callable[[int, int], None] | None = None,
    ) -> None:
        try:
            await asyncio.to_thread(self.store.enter, t, players, self.registry.clock.now(), check)
        except StorageError as exc:
            raise ProtocolError(str(exc)) from None
        self._changed(t.id)

    async def close_registration(self, account: Account, tournament_id: str) -> dict[str, Any]:
        """The organiser starts the tournament now rather than at the set time."""
        t = await self._get(tournament_id)
        if account.id != t.organiser:
            raise ProtocolError("only the organiser starts the tournament")
        if t.status not in ("open", "closing"):
            raise ProtocolError(f"the tournament is {t.status}")
        async with self._lock:
            await self._begin(t)
        return await self.view(t.id)

    async def page(self, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        rows, total = await asyncio.to_thread(self.store.page, limit, offset)
        return [t.to_dict() for t in rows], total

    async def view(self, tournament_id: str) -> dict[str, Any]:
        t = await self._get(tournament_id)
        people, rows = await asyncio.gather(
            asyncio.to_thread(self.store.entrants, t.id),
            asyncio.to_thread(self.store.tables, t.id),
        )
        names = dict(people)
        ranked = standings([p for p, _ in people], results_of(rows), t.rules)
        pot = t.bet * len(people) + t.added
        return {
            **t.to_dict(),
            "pot": pot,
            "entrants": [{"player": p, "name": n} for p, n in people],
            "tables": rows,
            "standings": t.standings
            if t.standings is not None
            else [{**s.to_dict(), "paid": 0} for s in ranked],
            "names": names,
        }

    # ----------------------------------------------------------- the runner

    async def run(self) -> None:
        """Step when a tournament's table ends (the registry's bus says so), when a
        registration closes, and once a minute in any case (a round that waited for
        room under the live-table cap)."""
        self.registry.bus.subscribe(self._on_finished)
        while True:
            wake = self.registry.clock.now() + IDLE_STEP
            try:
                async with self._lock:
                    if await self.registry.leads("tournaments"):  # one process runs them
                        wake = min(wake, await self.step())
            except Exception:
                log.exception("tournaments: a step failed")
            await self._sleep_until(wake)

    async def _on_finished(self, event: GameFinished) -> None:
        if event.kind in (TableKind.TOURNAMENT.value, TOURNAMENT_CHANGED):
            self._woken.set()

    def _changed(self, tournament_id: str) -> None:
        """Someone entered a tournament: the runner (in whichever process leads it)
        looks at once, instead of at its next minute (a registration that closes
        on entry starts then)."""
        now = self.registry.clock.now()
        self.registry.bus.publish(GameFinished(tournament_id, TOURNAMENT_CHANGED, now))

    async def _sleep_until(self, wake: float) -> None:
        await sleep_or_woken(self.registry.clock, wake, self._woken)

    async def step(self) -> float:
        """Take every step that is due (the runner's body, callable from tests); returns
        when the next registration closes."""
        wake = float("inf")
        for t in await asyncio.to_thread(self.store.pending):
            if t.status == "open" and self.registry.clock.now() < t.closes:
                wake = min(wake, t.closes)
            elif t.status in ("open", "closing"):  # closing: its plan not stored before a stop
                try:
                    await self._begin(t)
                except Busy as exc:
                    log.info("tournament %s: its plan waits (%s)", t.id, exc)
                    wake = min(wake, self.registry.clock.now() + PLAN_RETRY)
            elif t.status == "running":
                await self._advance(t)
        return wake

    async def _begin(self, t: Tournament) -> None:
        people = await asyncio.to_thread(self.store.close, t.id)
        if people is None:
            return  # another step came first
        if len(people) < t.rules.players:
            await asyncio.to_thread(self.store.cancel, t, self.registry.clock.now())
            return
        entered = [p for p, _ in people]
        # in the planner's worker, off the loop and its threads (still "closing": a plan
        # refused is made again at the runner's next step)
        plan = await self.registry.planner.plan(
            f"tournament:{t.id}", plan_rounds, entered, t.rounds, t.rules.players, t.seed
        )
        if await asyncio.to_thread(self.store.start, t.id, plan):
            await self._seat(await self._get(t.id), 1, people)

    async def _advance(self, t: Tournament) -> None:
        rows = await asyncio.to_thread(self.store.tables, t.id)
        people = await asyncio.to_thread(self.store.entrants, t.id)
        current = [r for r in rows if r["round"] == t.round]
        expected = -(-len(people) // t.rules.players)
        if len(current) < expected:  # seated in part before a stop: complete it
            await self._seat(t, t.round, people)
            return
        if not all(r["over"] for r in current):
            return
        results = results_of(rows)
        if t.round < t.rounds:
            await asyncio.to_thread(self.store.next_round, t.id, t.round + 1)
            await self._seat(t, t.round + 1, people)
            return
        ranked = standings([p for p, _ in people], results, t.rules)
        pot = t.bet * len(people) + t.added
        paid = payouts(pot, t.payout, [s.entrant for s in ranked])
        await asyncio.to_thread(self.store.finish, t, ranked, paid, self.registry.clock.now())

    async def _seat(
        self,
        t: Tournament,
        round_: int,
        people: list[tuple[str, str]],
    ) -> None:
        names = dict(people)
        assert t.plan is not None, f"tournament {t.id} runs without its plan"
        seating = t.plan[round_ - 1]
        have = {
            r["number"]
            for r in await asyncio.to_thread(self.store.tables, t.id)
            if r["round"] == round_
        }
        for number, seated in enumerate(seating, start=1):
            if number in have:
                continue
            if self.registry.live >= self.registry.limits.live_tables:
                return  # the site is full: the runner seats the rest when tables end
            seats = desk_seats(seated, names)
            row = {
                "tournament_id": t.id,
                "round": round_,
                "number": number,
                "players": json.dumps(list(seated)),
            }
            new = fresh_table(
                t.rules,
                seats,
                TableKind.TOURNAMENT,
                self.registry.clock.now(),
                pool=t.pool,
                watchable=True,
                rows=[Row("tournament_tables", row)],
            )
            table = await self.registry.open_table(new, t.rules, seats)
            for spec in seats:
                if spec.account is not None:
                    self.notify(
                        spec.account,
                        {
                            "kind": "table",
                            "text": f"{t.name}: your round {round_} table has started",
                            "link": f"/table/{table.id}",
                        },
                    )


def _whole(body: dict[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError(f"{key} is a whole number from {low} to {high}, got {excerpt(value)}")
    return value
