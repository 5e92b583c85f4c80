"""The server's public protocol: whole matches over websockets, refusals that change
nothing, durable tables that survive a restart and a killed process."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from riichi.formats import replay_path
from riichi.game import Match
from riichi.rules import PRESETS, Length
from riichi.server import Store, create_app
from server_helpers import (
    Seat,
    SyncSocket,
    choose,
    free_port,
    new_table,
    start_server,
    two_people_and_a_watcher,
)


def test_a_person_plays_a_whole_match_against_three_bots(db: str) -> None:
    with TestClient(create_app(db)) as client:
        table = new_table(client, rules="online", length="east", seed="protocol-1")
        assert [s["bot"] for s in table["seats"]] == [False, True, True, True]
        assert all("(bot)" in s["name"] for s in table["seats"][1:])
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
            seat = Seat(ws)
            assert seat.seat == 0
            sent = seat.play()
        assert sent > 10
        assert seat.state["standings"] is not None
        assert sum(s["score"] for s in seat.state["standings"]) <= 100_000
        # Only our own concealed tiles were ever sent to us.
        assert all(e.get("to") in (None, 0) for e in seat.events)
        games = client.get("/api/games").json()["items"]
        assert [g["id"] for g in games] == [table["id"]]
        record = client.get(f"/api/games/{table['id']}/record").json()
        rebuilt = Match.from_record(record)
        assert rebuilt.standings is not None
        assert [s.score for s in rebuilt.standings] == [s["score"] for s in seat.state["standings"]]
        log = client.get(f"/api/games/{table['id']}/tenhou6").json()
        assert len(log["log"]) == len(rebuilt.results)


def test_two_people_share_a_table_by_link_and_a_spectator_sees_no_hand(db: str) -> None:
    with TestClient(create_app(db)) as client:
        table = new_table(
            client,
            rules="tenhou",
            length="east",
            seats=["human", "human", "efficiency", "defensive"],
            watchable=True,
        )
        with two_people_and_a_watcher(client, table) as (east, south, watcher):
            assert (east.seat, south.seat, watcher.seat) == (0, 1, None)
            # a hand behind: nothing at all while the first hand is in play
            assert watcher.state is None and watcher.version == 1
            for _ in range(12):
                for person in (east, south):
                    if person.state["legal"]:
                        person.send(person.action(choose(person.state)))
                        answer = person.read_until("ack", "error")
                        # the table may have moved on since this person's sync (the
                        # other person acted, the bots answered): refused as stale
                        assert answer["type"] == "ack" or "stale" in answer["message"], answer
                for person in (east, south, watcher):
                    person.send({"type": "sync"})
                    state = person.read_until("state")
                    person.state, person.version = state["state"], state["version"]
            info = client.get(f"/api/tables/{table['id']}").json()
            live = client.app.state.server.tables[table["id"]].version  # type: ignore[attr-defined]
            assert "version" not in info and info["spectators"] == 1  # the public trails too
            assert live > 1 and east.version <= live
            if watcher.state is not None:  # the first hand ended: the watcher sees it
                assert watcher.state["hand"] is None
                assert watcher.version < live
            assert all(e.get("to") is None for e in watcher.events)
            assert all(e.get("to") in (None, 1) for e in south.events)


# Messages refused whatever the state; actions get the current version unless they name one.
REFUSALS = [
    ("not json {", "not JSON"),
    ([1, 2], "JSON object with a type"),
    ({"type": "shout"}, "unknown message type"),
    ({"type": "action", "action": {"type": "discard", "tile": 999}}, "malformed action"),
    ({"type": "action", "action": {"type": "discard", "tile": True}}, "malformed action"),
    ({"type": "action", "action": {"type": "teleport"}}, "malformed action"),
    ({"type": "action", "action": {"type": "discard", "tile": 0}, "seat": 2}, "not seat 2"),
    ({"type": "action", "version": None, "action": {"type": "pass"}}, "names the version"),
    ({"type": "action", "version": 1, "action": {"type": "pass"}}, "stale action"),
    ({"type": "action", "version": True, "action": {"type": "pass"}}, "names the version"),
    ("[" * 2000 + "]" * 2000, "deeper than"),
    ("[" * 20 + "]" * 20, "deeper than"),
    (json.dumps({"type": "sync", "pad": "x" * 5000}), "bytes; the limit"),
    ('{"type": "sync", "n": NaN}', "not a JSON number"),
]


def test_bad_messages_get_clear_errors_and_change_nothing(db: str) -> None:
    with TestClient(create_app(db)) as client:
        table = new_table(
            client,
            rules="online",
            seed="refusals",
            seats=["human", "human", "random", "random"],
            watchable=True,
        )
        with two_people_and_a_watcher(client, table) as (dealer, other, watcher):
            before = dealer.state
            version = dealer.version
            hand = dealer.state["hand"] + [dealer.state["drawn"]]
            not_mine = next(t for t in range(136) if t not in hand)
            cases = [
                *REFUSALS,
                (dealer.action({"type": "discard", "tile": not_mine}), "not legal"),
                (dealer.action({"type": "tsumo"}), "not legal"),
            ]
            for message, expected in cases:
                if isinstance(message, dict) and message["type"] == "action":
                    message = {"version": dealer.version, **message}
                dealer.send(message)
                error = dealer.read_until("error", "ack")
                assert error["type"] == "error" and expected in error["message"], (message, error)
            # Out of turn: seat 1 discards while the dealer is to play.
            other.send(other.action({"type": "discard", "tile": other.state["hand"][0]}))
            error = other.read_until("error", "ack")
            assert error["type"] == "error" and "not seat 1's turn" in error["message"]
            watcher.send(watcher.action(choose(before)))
            error = watcher.read_until("error", "ack")
            assert error["type"] == "error" and "spectators cannot act" in error["message"]
            dealer.send({"type": "sync"})
            state = dealer.read_until("state")
            assert state["version"] == version and state["state"] == before
        assert Store(db).load_actions(table["id"]) == []
        bad = client.post("/api/tables", json={"rules": "no-such-rules"})
        assert bad.status_code == 400 and "unknown ruleset" in bad.json()["error"]
        bad = client.post("/api/tables", json={"seats": ["human", "wizard", "random", "random"]})
        assert bad.status_code == 400 and "unknown bot" in bad.json()["error"]
        bad = client.post("/api/tables", json={"switches": {"kuitan": "maybe"}})
        assert bad.status_code == 400 and "kuitan" in bad.json()["error"]
        switched = new_table(client, rules="online", switches={"kuitan": False})
        assert switched["ruleset"]["kuitan"] is False
        wrong = client.websocket_connect(f"/ws/tables/{table['id']}?token=forged")
        with wrong as ws:
            assert "not valid" in json.loads(ws.receive_text())["message"]


def test_a_restarted_server_rebuilds_the_table_from_its_log(db: str) -> None:
    with TestClient(create_app(db)) as client:
        table = new_table(client, rules="online", seed="restart")
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url) as ws:
            seat = Seat(ws)
            seat.play(limit=25)
            seat.await_turn()
            before, version = seat.state, seat.version
    stored = Store(db).load_actions(table["id"])
    assert len(stored) >= 25
    with TestClient(create_app(db)) as client, client.websocket_connect(url) as ws:
        again = Seat(ws)
        assert again.version == version and again.state == before
        again.play()
        assert again.state["standings"] is not None


def test_a_write_the_database_refuses_is_undone_and_the_log_stays_whole(
    tmp_path: Path,
) -> None:
    """The database goes out of reach as a person acts (it refuses the write, and
    every read after it): the person is told to retry and nothing else changes; once
    the database is back the same action is stored where the refused one would have
    been, and the finished game's log has no gap."""
    from sqlalchemy.exc import OperationalError

    db = f"sqlite:///{tmp_path / 'down.db'}"
    with TestClient(create_app(db)) as client:
        table = new_table(client, rules="online", length="east", seed="down")
        store = client.app.state.server.store  # type: ignore[attr-defined]
        writes, reads = store.append_actions, store.get_table
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url) as ws:
            seat = Seat(ws)
            seat.play(limit=4)
            seat.await_turn()
            before, version = seat.state, seat.version

            def down(*args: object) -> None:
                raise OperationalError("INSERT", {}, Exception("the server closed the connection"))

            store.append_actions = store.get_table = down
            action = choose(seat.state)
            seat.send(seat.action(action))
            refused = seat.read_until("error", "ack")
            assert refused["type"] == "error" and "could not be stored" in refused["message"]
            store.append_actions, store.get_table = writes, reads
            seat.send({"type": "sync"})
            synced = seat.read_until("state")
            assert (synced["version"], synced["state"]) == (version, before)
            seat.send(seat.action(action))
            assert seat.read_until("ack", "error")["type"] == "ack"
            seat.play()
        record = client.get(f"/api/games/{table['id']}/record")
        assert record.status_code == 200, record.text
        assert Match.from_record(record.json()).standings is not None


def test_a_write_stored_though_its_reply_was_lost_is_found_in_the_log(tmp_path: Path) -> None:
    """The database stores an action but its reply is lost: the person is told to
    retry and the table undoes it, unsure; before it writes again it asks the log,
    finds the action there, and is read again from the log: the person reconnects to
    the table with the action played, and the game goes on to an end with no gap."""
    from sqlalchemy.exc import OperationalError

    from riichi.server.protocol import CLOSE_MOVED

    db = f"sqlite:///{tmp_path / 'lost.db'}"
    with TestClient(create_app(db)) as client:
        table = new_table(client, rules="online", length="east", seed="lost-reply")
        store = client.app.state.server.store  # type: ignore[attr-defined]
        writes = store.append_actions
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url) as ws:
            seat = Seat(ws)
            seat.play(limit=4)
            seat.await_turn()
            version, count = seat.version, len(store.load_actions(table["id"]))

            def stored_then_lost(rows: list[Any]) -> list[Any]:
                writes(rows)
                raise OperationalError("COMMIT", {}, Exception("connection reset by peer"))

            store.append_actions = stored_then_lost
            seat.send(seat.action(choose(seat.state)))
            refused = seat.read_until("error", "ack")
            assert "could not be stored" in refused["message"]
            store.append_actions = writes
            seat.send(seat.action(choose(seat.state)))  # the same decision, as it saw it
            with pytest.raises(WebSocketDisconnect) as closed:
                seat.read_until("ack")
            assert closed.value.code == CLOSE_MOVED
        assert len(store.load_actions(table["id"])) == count + 1  # the first try, stored
        with client.websocket_connect(url) as ws:
            again = Seat(ws)
            assert again.version > version
            again.play()
            assert again.state["over"]
        record = client.get(f"/api/games/{table['id']}/record")
        assert record.status_code == 200, record.text


def test_a_killed_server_loses_no_acknowledged_action(db: str) -> None:
    port = free_port()
    process = start_server(db, port)
    try:
        table = httpx.post(
            f"http://127.0.0.1:{port}/api/tables", json={"rules": "online", "seed": "kill"}
        ).json()
        url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with connect(url) as ws:
            seat = Seat(SyncSocket(ws))
            seat.play(limit=15)
            seat.await_turn()
            before, version = seat.state, seat.version
            os.kill(process.pid, signal.SIGKILL)  # mid-hand, no shutdown of any kind
            process.wait(timeout=10)
    finally:
        process.kill()
    process = start_server(db, port)
    try:
        with connect(url) as ws:
            again = Seat(SyncSocket(ws))
            assert again.version == version and again.state == before
            again.play(limit=5)
            assert again.version > version
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_download_replays_exactly(preset: str, tmp_path: Path) -> None:
    """A finished game of every preset, four- and three-player, downloaded as our
    record, as tenhou.net/6 and as mjai, replays hand for hand (to the same final
    points where the format has them): a download carries the rules it was played
    under."""
    rules = PRESETS[preset]
    length = min(rules.lengths, key=lambda x: list(Length).index(x)).value
    kinds = ["human"] + ["efficiency"] * (rules.players - 1)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}")) as client:
        table = new_table(client, rules=preset, length=length, seats=kinds, seed=f"dl-{preset}")
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
            Seat(ws).play()
        for fmt in ("record", "tenhou6", "mjai"):
            answer = client.get(f"/api/games/{table['id']}/{fmt}")
            assert answer.status_code == 200, answer.text
            path = tmp_path / f"{fmt}.{'mjson' if fmt == 'mjai' else 'json'}"
            path.write_bytes(answer.content)
            report = replay_path(path)
            assert report.mismatches == [] and report.read_errors == [], (fmt, report)
            assert report.hands > 0 and report.matched == report.hands, (fmt, report)
            assert report.final_ok or (fmt == "mjai" and report.final_ok is None), (fmt, report)
