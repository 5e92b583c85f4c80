"""Clocks and the rated queue on a fake clock: timeouts play and are stored as such,
reserves run down and refill, results pause, restarts keep the time that was left, and
lone players get roster computers. No test sleeps for a deadline."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from starlette.testclient import TestClient

from riichi.rules import Length, find_ruleset
from riichi.server import Store, create_app
from riichi.server.auth import COOKIE
from riichi.server.clock import FakeClock
from server_helpers import Seat, stored_actions

TSUMOGIRI = ["human", "tsumogiri", "tsumogiri", "tsumogiri"]


def until(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    """Poll ``check`` until it is truthy (the server runs in another thread)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("the server did not get there")


def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'clocks.db'}"


def timed_table(client: TestClient, seed: str = "clock-1") -> dict[str, Any]:
    body = {"kind": "private", "clock": "standard", "seed": seed, "seats": TSUMOGIRI}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    return table


class Timed(Seat):
    """A seat that also follows the clock messages."""

    def __init__(self, ws: Any) -> None:
        self.clock: dict[str, Any] | None = None
        super().__init__(ws)

    def receive(self) -> dict[str, Any]:
        message = super().receive()
        if message.get("clock") is not None or message["type"] == "clock":
            self.clock = message["clock"]
        return message

    def wait_version_above(self, version: int) -> None:
        while self.version <= version:
            self.read_until("update")


def test_a_turn_timeout_discards_the_drawn_tile_and_uses_up_the_reserve(tmp_path: Path) -> None:
    clock = FakeClock()
    start = clock.now()
    with TestClient(create_app(sqlite(tmp_path), clock=clock)) as client:
        table = timed_table(client)
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url) as ws:
            seat = Timed(ws)
            assert seat.clock is not None and seat.clock["pool"] == "standard"
            deadline = seat.clock["decisions"]["0"]["until"]
            assert deadline == start + 5 + 20  # thinking time, then the whole reserve
            drawn = seat.state["drawn"]
            version = seat.version
            clock.advance(24.9)
            seat.send({"type": "sync"})
            assert seat.read_until("state")["version"] == version  # nothing yet
            clock.advance(0.2)
            seat.wait_version_above(version)
            discard = next(e for e in seat.events if e["type"] == "discard")
            assert discard["seat"] == 0 and discard["tile"] == drawn and discard["tsumogiri"]
            seat.await_turn()
            # the reserve is gone for this hand: 5 seconds and no more
            assert seat.clock["reserves"][0] == 0
            mine = seat.clock["decisions"]["0"]
            assert mine["until"] - mine["base"] == 0 and mine["base"] - clock.now() <= 5
    first = stored_actions(sqlite(tmp_path), table["id"])[0]
    assert first[0] == 0 and f'"tile": {drawn}' in first[1] and first[2] is True


def time_out_a_hand(seat: Timed, clock: FakeClock) -> dict[str, Any]:
    """Let the clock play for ``seat`` until a hand ends; the update that ended it. The
    clock moves only once the seat is deciding, so the pause that follows is not overrun."""
    for _ in range(400):
        while seat.clock is None or str(seat.seat) not in seat.clock["decisions"]:
            update = seat.read_until("update")
            if "ended" in update:
                return update
        clock.advance(26)  # past every deadline: the clock plays for the person
        update = seat.read_until("update")
        if "ended" in update:
            return update
    raise AssertionError("no hand ended in 400 timeouts")


def test_timeouts_play_a_whole_hand_then_the_result_pauses(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(create_app(sqlite(tmp_path), clock=clock)) as client:
        table = timed_table(client, "clock-2")
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url) as ws:
            seat = Timed(ws)
            time_out_a_hand(seat, clock)
            assert seat.clock is not None and seat.clock["pause_until"] is not None
            # while the result shows, nobody acts and nobody's clock runs
            if seat.state["legal"]:
                seat.send(seat.action(seat.state["legal"][0]))
                error = seat.read_until("error", "ack")
                assert error["type"] == "error" and "result is showing" in error["message"]
            assert seat.clock["decisions"] == {}
            seat.send({"type": "ready"})  # the one person confirms: play goes on
            seat.read_until("clock")
            assert seat.clock["pause_until"] is None
    timeouts = [a for a in stored_actions(sqlite(tmp_path), table["id"]) if a[2]]
    assert len(timeouts) >= 10 and all(s == 0 for s, _, _ in timeouts)
    store = Store(sqlite(tmp_path))
    try:
        stored = stored_actions(sqlite(tmp_path), table["id"])
        assert store.timed_out(table["id"]) == {i for i, a in enumerate(stored) if a[2]}
    finally:
        store.close()


def test_the_record_and_the_replay_show_what_the_clock_played() -> None:
    """A finished game's download marks each action the clock played, and still
    replays; the replay viewer's frame for it says so."""
    from riichi.game import Match
    from riichi.server.hub import Finished
    from riichi.server.table import SeatSpec
    from riichi.server.views import replay_frames

    rules = find_ruleset("online").replace(length=Length.EAST)
    match = Match(rules, "clock-record")
    rng = random.Random(1)
    while not match.over:
        seat, legal = next(iter(match.legal_actions().items()))
        match.apply(seat, rng.choice(list(legal)))
    seats = [SeatSpec("random", f"bot {s}") for s in range(4)]
    game = Finished(cast(Any, None), match, seats, frozenset({3, 7}))
    game = replace(game, stored=cast(Any, type("S", (), {"commitment": "c", "salt": "s"})))
    record = game.record()
    marked = [i for i, a in enumerate(record["actions"]) if a.get("timeout")]
    assert marked == [3, 7]
    assert Match.from_record(record).events == match.events  # still the same game
    players = [{"name": f"bot {s}"} for s in range(4)]
    labels = [f["label"] or "" for f in replay_frames(match, players, game.timeouts)]
    clocked = [x for x in labels if "played by the clock" in x]
    assert clocked == [
        f"{match.players[match.actions[i][0]]}: {match.actions[i][1]}"
        " (time ran out: played by the clock)"
        for i in (3, 7)
    ]


def test_a_seat_back_during_a_result_pause_sees_that_result_then_the_next_deal(
    tmp_path: Path,
) -> None:
    """Before it confirms, and after a restart too: the final board comes with the
    resync; once it has confirmed, only the next deal."""
    clock = FakeClock()
    url = ""
    with TestClient(create_app(sqlite(tmp_path), clock=clock)) as client:
        table = timed_table(client, "clock-5")
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url) as ws:
            ended = time_out_a_hand(Timed(ws), clock)["ended"]
        assert ended["discards"] != [[], [], [], []]  # the board as the hand ended
        with client.websocket_connect(url) as ws:
            hello = Timed(ws).hello
            assert hello["ended"] == ended
            assert hello["state"]["discards"] == [[], [], [], []]  # the next deal beside it
    with TestClient(create_app(sqlite(tmp_path), clock=clock)) as client:
        with client.websocket_connect(url) as ws:
            seat = Timed(ws)
            assert seat.hello["ended"] == ended  # rebuilt from the log
            seat.send({"type": "ready"})
            seat.read_until("clock")
        with client.websocket_connect(url) as ws:
            assert "ended" not in Timed(ws).hello


def test_clocks_run_on_while_nobody_is_connected(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(create_app(sqlite(tmp_path), clock=clock)) as client:
        table = timed_table(client, "clock-3")
        before = live_version(client, table["id"])
        clock.advance(26)
        until(lambda: live_version(client, table["id"]) > before)


def test_a_restarted_server_resumes_the_clock_and_applies_what_passed(tmp_path: Path) -> None:
    clock = FakeClock()
    start = clock.now()
    with TestClient(create_app(sqlite(tmp_path), clock=clock)) as client:
        table = timed_table(client, "clock-4")
        version = live_version(client, table["id"])
    url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
    clock.advance(10)  # the server is down for 10 s of the 25 the dealer has
    app = create_app(sqlite(tmp_path), clock=clock)
    with TestClient(app) as client, client.websocket_connect(url) as ws:
        seat = Timed(ws)
        assert seat.version == version
        assert seat.clock is not None and seat.clock["decisions"]["0"]["until"] == start + 25
        clock.advance(14.9)
        seat.send({"type": "sync"})
        assert seat.read_until("state")["version"] == version
        clock.advance(0.2)
        seat.wait_version_above(version)
        seat.await_turn()
        version = seat.version
    clock.advance(100)  # down past the next deadline: it is applied on start-up
    with TestClient(create_app(sqlite(tmp_path), clock=clock)) as client:
        until(lambda: live_version(client, table["id"]) > version)


def live_version(client: TestClient, table_id: str) -> int:
    """How far a table has gone, from the server itself (the public sees only how far
    spectators may); -1 while it is not loaded yet."""
    table = client.app.state.server.tables.get(table_id)  # type: ignore[attr-defined]
    return -1 if table is None else int(table.version)


def register(client: TestClient, name: str) -> str:
    client.cookies.clear()
    response = client.post("/api/register", json={"name": name, "password": "correct horse"})
    assert response.status_code == 201
    cookie = client.cookies.get(COOKIE)
    assert cookie is not None
    return cookie


def test_a_lone_player_gets_roster_computers_after_the_wait(db: str) -> None:
    """On SQLite and on PostgreSQL: the queue, the clock and the seats all stored."""
    clock = FakeClock()
    with TestClient(create_app(db, clock=clock, fill_after=30)) as client:
        register(client, "Joe")
        queued = client.post("/api/queue", json={"pool": "standard"}).json()
        assert queued["mine"]["pool"] == "standard" and queued["pools"]["standard"]["waiting"] == 1
        clock.advance(29)
        time.sleep(0.2)
        assert client.get("/api/me").json()["tables"] == []
        clock.advance(2)
        (table,) = until(lambda: client.get("/api/me").json()["tables"])
        assert (table["kind"], table["pool"], table["rules"], table["length"]) == (
            "rated",
            "standard",
            "classic",
            "east",
        )
        names = [s["name"] for s in table["seats"]]
        assert names[table["my_seat"]] == "Joe"
        assert sum("(bot)" in n for n in names) == 3
        assert client.get("/api/me").json()["queue"]["mine"] is None
        again = client.post("/api/queue", json={"pool": "relaxed"})
        assert again.status_code == 409 and "rated table already" in again.json()["error"]
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:  # by session
            assert Seat(ws).seat == table["my_seat"]
        # leaving does not stop it: the clock plays for the absent player
        version = live_version(client, table["id"])
        clock.advance(60)
        until(lambda: live_version(client, table["id"]) > version)


def test_four_waiting_players_sit_down_together_at_once(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(create_app(sqlite(tmp_path), clock=clock, fill_after=30)) as client:
        cookies = [register(client, name) for name in ("Kay", "Lou", "Max", "Ned")]
        for n, cookie in enumerate(cookies):  # four people: four browsers, four addresses
            client.cookies.clear()
            client.cookies.set(COOKIE, cookie)
            client._transport.client = (f"10.3.0.{n}", 1)  # type: ignore[attr-defined]
            assert client.post("/api/queue", json={"pool": "relaxed"}).status_code == 200
        client.cookies.set(COOKIE, cookies[-1])
        clock.advance(1)
        (table,) = until(lambda: client.get("/api/me").json()["tables"])
        assert table["pool"] == "relaxed"
        assert sorted(s["name"] for s in table["seats"]) == ["Kay", "Lou", "Max", "Ned"]
        assert not any(s["bot"] for s in table["seats"])
        # a guest may not queue
        client.cookies.clear()
        assert client.post("/api/queue", json={"pool": "standard"}).status_code == 401
