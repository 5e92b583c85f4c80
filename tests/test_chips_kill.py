"""A server killed (SIGKILL) again and again while a money table and a tournament
settle loses or doubles no chip: after the restarts the game settles once, the
tournament pays out once, every escrow is empty and the books balance."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from riichi.platform.chips import HOUSE, START_CHIPS, escrow, reserve, settle
from riichi.rules import RuleSet
from riichi.server import Store
from riichi.server.auth import COOKIE
from riichi.server.money.ledger import ChipStore
from server_helpers import Seat, SyncSocket, free_port, start_server


def kill(process: subprocess.Popen[bytes]) -> None:
    os.kill(process.pid, signal.SIGKILL)  # no shutdown of any kind
    process.wait(timeout=10)


def test_kills_while_settling_lose_and_double_no_chip(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_server(db, port)
    try:
        web = httpx.Client(base_url=base)
        assert web.post("/api/register", json={"name": "gambler", "password": "pw12345678"})
        cookie = web.cookies.get(COOKIE)
        money = web.post(
            "/api/tables",
            json={
                "rules": "riichi-basic",
                "length": "one-hand",
                "switches": {"settlement": "winner-takes-all"},
                "kind": "private",
                "clock": "relaxed",
                "seats": ["human", "expert", "expert", "expert"],
                "bet": 200,
            },
        )
        assert money.status_code == 201, money.text
        table = money.json()
        rules = RuleSet.from_dict(table["ruleset"])
        held = reserve(rules, 200)
        assert web.get("/api/chips").json()["balance"] == START_CHIPS - held
        # the organiser is made an operator (who may enter any number of computers)
        # with the staff's command, while the server runs
        subprocess.run(
            [sys.executable, "-m", "riichi.cli", "operator", "gambler", "--db", db], check=True
        )
        cup = web.post(
            "/api/tournaments",
            json={
                "name": "Kill cup",
                "rules": "riichi-basic",
                "length": "east",
                "rounds": 2,
                "bet": 100,
                "closes_in": 0,
            },
        )
        assert cup.status_code == 201, cup.text
        tid = cup.json()["id"]
        assert web.post(f"/api/tournaments/{tid}/computers", json={"count": 8}).status_code == 200
        ws_url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
        headers = {"Cookie": f"{COOKIE}={cookie}"}
        kills_while_running = 0
        for pause in (0.4, 0.9, 0.2, 1.3, 0.6):
            with connect(ws_url, additional_headers=headers) as ws:
                seat = Seat(SyncSocket(ws))
                if not seat.state["over"]:
                    seat.play(limit=3)  # a few acknowledged actions, then the kill
            time.sleep(pause)
            status = web.get(f"/api/tournaments/{tid}").json()["status"]
            kills_while_running += status == "running"
            kill(process)
            process = start_server(db, port)
        assert kills_while_running >= 1
        with connect(ws_url, additional_headers=headers) as ws:
            seat = Seat(SyncSocket(ws))
            seat.play()
            standings = seat.state["standings"]
        deadline = time.monotonic() + 120
        while web.get(f"/api/tournaments/{tid}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the tournament did not finish"
            time.sleep(0.2)
        final: dict[str, Any] = web.get(f"/api/tournaments/{tid}").json()
    finally:
        process.terminate()
        process.wait(timeout=10)
    store = Store(db)
    try:
        chips = ChipStore(store.engine)
        assert chips.audit() == []
        books = chips.balances()
        by_seat = sorted(standings, key=lambda x: x["seat"])
        won = settle(
            rules,
            200,
            [x["place"] for x in by_seat],
            [x["score"] for x in by_seat],
            _feeder(store, table["id"]),
        )
        # the person sits where the table's seed drew it
        mine = next(s for s, spec in enumerate(table["seats"]) if spec["account"] is not None)
        account = f"account:{table['seats'][mine]['account']}"
        assert books[account] == START_CHIPS + won[mine]
        # the house backed the three computers at the table and all eight entrants, and
        # was paid the whole tournament pot back: it holds what the person lost (and the
        # odd chips of a tie)
        assert books[HOUSE] == -won[mine]
        assert books.get(escrow(table["id"]), 0) == 0 and books.get(escrow(tid), 0) == 0
        assert sum(s["paid"] for s in final["standings"]) == 800
        assert len(final["tables"]) == 4 and all(t["over"] for t in final["tables"])
    finally:
        store.close()


def _feeder(store: Store, table_id: str) -> int | None:
    """Who dealt in the hand's winning tile, from the stored log."""
    from riichi.server.seating import load_match

    stored = store.get_table(table_id)
    assert stored is not None
    match, _ = load_match(stored, store)
    rons = [source for _, source, _ in match.results[-1].wins if source is not None]
    return rons[0] if rons else None
