"""A server killed (SIGKILL) while a money table between people takes its last seat
and starts, and while it settles: after each restart each reserve is held exactly
once, by the offer still waiting or by the table that started, the settlement is paid
once, and the books balance."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from riichi.platform.chips import START_CHIPS, escrow, reserve, settle
from riichi.platform.tables import feeder_of
from riichi.server import Store
from riichi.server.money.ledger import ChipStore
from riichi.server.seating import load_match, rules_of
from server_helpers import Person, confirming, free_port, play_out, start_server
from test_money_people import ONE_HAND_WTA as ONE_HAND

RULES = {
    "rules": "riichi-basic",
    "switches": {"settlement": "house", "length": "east"},
    "clock": "relaxed",
}


def test_a_kill_while_the_last_seat_is_taken_holds_each_reserve_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    held = reserve(rules_of(RULES), 60)
    # killed at once (the seat is not stored yet) and a little later (the table started)
    for attempt, delay in enumerate((0.0, 0.05)):
        port = free_port()
        process = start_server(db, port)
        try:
            names = [f"k{attempt}p{i}" for i in range(4)]
            people = [Person(port, 10 * attempt + i + 1, n, block=5) for i, n in enumerate(names)]
            offer = people[0].post("/api/money", json={**RULES, "bet": 60}).json()
            for client in people[1:3]:
                assert (
                    client.post(f"/api/money/{offer['id']}/sit", json=confirming(offer)).status_code
                    == 200
                )
            path = f"/api/money/{offer['id']}/sit"
            last = threading.Thread(
                target=_quietly, args=(people[3].http, path, confirming(offer)), daemon=True
            )
            last.start()
            time.sleep(delay)
            os.kill(process.pid, signal.SIGKILL)  # no shutdown of any kind
            process.wait(timeout=10)
            last.join(timeout=35)
        finally:
            if process.poll() is None:
                process.kill()
        port = free_port()
        process = start_server(db, port)
        try:
            # the money desk's runner opens a full offer left behind: wait until the
            # offer is a table or is waiting with three seats, never on a full offer
            deadline = time.monotonic() + 30
            while True:
                # the table first: once started it stays, and the offer leaves the list
                started = httpx.get(f"http://127.0.0.1:{port}/api/tables/{offer['id']}")
                waiting = httpx.get(f"http://127.0.0.1:{port}/api/money").json()["offers"]
                seats = [len(o["seats"]) for o in waiting if o["id"] == offer["id"]]
                if started.status_code == 200 or seats == [3]:
                    break
                assert time.monotonic() < deadline, f"the offer was left with seats {seats}"
                time.sleep(0.2)
            store = Store(db)
            try:
                chips = ChipStore(store.engine)
                in_escrow = chips.balance(escrow(offer["id"]))
                last_chips = chips.balance(f"account:{4 * attempt + 4}")
                if started.status_code == 200:  # the last seat and the start went through
                    assert in_escrow == 4 * held and last_chips == START_CHIPS - held
                    assert all(o["id"] != offer["id"] for o in waiting)
                else:  # the last seat never was: three reserves, the fourth untouched
                    assert in_escrow == 3 * held and last_chips == START_CHIPS
                    assert seats == [3]
                assert sum(chips.balances().values()) == 0 and chips.audit() == []
            finally:
                store.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


def _quietly(client: httpx.Client, path: str, body: dict[str, Any]) -> None:
    with contextlib.suppress(httpx.HTTPError):  # the server died under it
        client.post(path, json=body)


# a one-hand game between people, winner takes all, on a clock that waits for them
ONE_HAND_WTA = {**ONE_HAND, "clock": "relaxed"}


def _may_end(state: dict[str, Any]) -> bool:
    """An action that may end a one-hand game: a win, or a move on an empty wall."""
    return state["live_left"] == 0 or any(a["type"] in ("tsumo", "ron") for a in state["legal"])


def test_kills_while_a_table_of_people_settles_pay_it_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'settle.db'}"
    held = reserve(rules_of(ONE_HAND_WTA), 80)
    port = free_port()
    process = start_server(db, port)
    try:
        everyone = [
            Person(port, i + 1, n, block=6) for i, n in enumerate(("Wen", "Xia", "Yun", "Zoe"))
        ]
        offer = everyone[0].post("/api/money", json={**ONE_HAND_WTA, "bet": 80}).json()
        table = offer["id"]
        for person in everyone[1:]:
            assert person.post(f"/api/money/{table}/sit", json=confirming(offer)).status_code == 200
        seats = everyone[0].get(f"/api/tables/{table}").json()["seats"]
        accounts = [f"account:{s['account']}" for s in seats]
        over = False
        # the action that may end the game is sent and the server killed under it, at
        # once or a little later: the settlement is in that action's transaction
        for delay in (0.0, 0.002, 0.01, 0.03, 0.1):
            with contextlib.suppress(ConnectionClosed, OSError, TimeoutError):
                over = play_out(everyone, table, last=_may_end)
            if over:
                break
            time.sleep(delay)
            os.kill(process.pid, signal.SIGKILL)  # no shutdown of any kind
            process.wait(timeout=10)
            process = start_server(db, port)
            _exactly_once(db, table, accounts, held)
        if not over:
            assert play_out(everyone, table)
        _exactly_once(db, table, accounts, held)
    finally:
        process.terminate()
        process.wait(timeout=10)


def _exactly_once(db: str, table: str, accounts: list[str], held: int) -> None:
    """Before the end all four reserves are in the table's escrow; after it the escrow
    is empty and each seat holds its start and its winnings, once."""
    store = Store(db)
    try:
        chips = ChipStore(store.engine)
        assert sum(chips.balances().values()) == 0 and chips.audit() == []
        stored = store.get_table(table)
        assert stored is not None
        match, _ = load_match(stored, store)
        balances = [chips.balance(a) for a in accounts]
        if match.standings is None:
            assert chips.balance(escrow(table)) == 4 * held
            assert balances == [START_CHIPS - held] * 4
        else:
            by_seat = sorted(match.standings, key=lambda x: x.seat)
            places, scores = [x.place for x in by_seat], [x.score for x in by_seat]
            won = settle(match.rules, 80, places, scores, feeder_of(match))
            assert chips.balance(escrow(table)) == 0
            assert balances == [START_CHIPS + w for w in won]
    finally:
        store.close()
