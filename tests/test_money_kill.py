"""A server killed (SIGKILL) while a money table between people takes its last seat
and starts: after the restart each reserve is held exactly once, by the offer still
waiting or by the table that started, and the books balance."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

import httpx

from riichi.platform.chips import START_CHIPS, escrow, reserve
from riichi.server import Store
from riichi.server.ledger import ChipStore
from riichi.server.table import rules_of
from server_helpers import free_port, start_server

RULES = {
    "rules": "riichi-basic",
    "switches": {"settlement": "house", "length": "east"},
    "clock": "relaxed",
}


def person(port: int, n: int, name: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=f"127.0.5.{n}")
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=30)
    made = client.post("/api/register", json={"name": name, "password": "pw12345678"})
    assert made.status_code == 201, made.text
    return client


def test_a_kill_while_the_last_seat_is_taken_holds_each_reserve_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    held = reserve(rules_of(RULES), 60)
    # killed at once (the seat is not stored yet) and a little later (the table started)
    for attempt, delay in enumerate((0.0, 0.05)):
        port = free_port()
        process = start_server(db, port)
        try:
            names = [f"k{attempt}p{i}" for i in range(4)]
            people = [person(port, 10 * attempt + i + 1, n) for i, n in enumerate(names)]
            offer = people[0].post("/api/money", json={**RULES, "bet": 60}).json()
            for client in people[1:3]:
                assert client.post(f"/api/money/{offer['id']}/sit", json={}).status_code == 200
            path = f"/api/money/{offer['id']}/sit"
            last = threading.Thread(target=_quietly, args=(people[3], path), daemon=True)
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
            time.sleep(1.5)  # the money desk's runner opens a full offer left behind
            store = Store(db)
            try:
                chips = ChipStore(store.engine)
                in_escrow = chips.balance(escrow(offer["id"]))
                last_chips = chips.balance(f"account:{4 * attempt + 4}")
                waiting = httpx.get(f"http://127.0.0.1:{port}/api/money").json()["offers"]
                started = httpx.get(f"http://127.0.0.1:{port}/api/tables/{offer['id']}")
                if started.status_code == 200:  # the last seat and the start went through
                    assert in_escrow == 4 * held and last_chips == START_CHIPS - held
                    assert all(o["id"] != offer["id"] for o in waiting)
                else:  # the last seat never was: three reserves, the fourth untouched
                    assert in_escrow == 3 * held and last_chips == START_CHIPS
                    assert [len(o["seats"]) for o in waiting if o["id"] == offer["id"]] == [3]
                assert sum(chips.balances().values()) == 0 and chips.audit() == []
            finally:
                store.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


def _quietly(client: httpx.Client, path: str) -> None:
    with contextlib.suppress(httpx.HTTPError):  # the server died under it
        client.post(path, json={})
