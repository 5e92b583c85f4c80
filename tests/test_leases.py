"""Leases: one process owns each live table; a write without the lease is refused;
a dead or paused owner's tables are taken over by another process on the same
PostgreSQL, which goes on from the log (riichi.platform.leases)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from riichi.platform.leases import LEASE_SECONDS, TAKEOVER_BOUND
from riichi.server import Store, create_app
from riichi.server.clock import FakeClock
from riichi.server.protocol import CLOSE_MOVED
from riichi.server.seating import load_match
from server_helpers import (
    Postgres,
    Redis,
    Seat,
    SyncSocket,
    choose,
    free_port,
    free_ports,
    metric_value,
    start_server,
    stored_actions,
    write_tables,
)
from test_server_security import Recorder, leaks_in

TABLE = {
    "rules": "classic",
    "length": "one-hand",
    "seats": ["human", "human", "efficiency", "efficiency"],
}


STILL = 60.0  # seconds a table may stand still (its bots to move, or a person refused)


def play_turns(seats: list[Seat], turns: int) -> None:
    """The people at a table act ``turns`` times (or until the end), each time as the
    table stands: every seat resyncs before anyone acts, so none waits on news. A table
    that stops moving, its bots idle or a person's every action refused, fails the test
    at once with what it last said, not at the suite's limit."""
    acted = 0
    moved, last = time.monotonic(), -1
    answer: dict[str, Any] | None = None
    while acted < turns and not seats[0].state["over"]:
        for seat in seats:
            seat.send({"type": "sync"})
            synced = seat.read_until("state")
            seat.state, seat.version = synced["state"], synced["version"]
        if seats[0].version != last:
            moved, last = time.monotonic(), seats[0].version
        assert time.monotonic() - moved < STILL, (
            f"the table stood still {STILL:.0f} s at version {last}; last answer {answer}:"
            f" {seats[0].state}"
        )
        movers = [seat for seat in seats if seat.state["legal"]]
        if not movers:
            time.sleep(0.05)  # the bots are moving
            continue
        mover = movers[0]
        mover.send(mover.action(choose(mover.state)))
        # refused when the table moved on between the two syncs: look again
        answer = mover.read_until("ack", "error")
        acted += answer["type"] == "ack"


def test_a_write_without_the_lease_is_refused_and_the_table_let_go(tmp_path: Path) -> None:
    """Another process takes the lease (here by force, as a takeover would): the next
    action this process tries is refused, nothing is stored, and the table leaves
    this process with its viewers told to reconnect."""
    url = f"sqlite:///{tmp_path / 'l.db'}"
    clock = FakeClock()
    with TestClient(create_app(url, clock=clock)) as client:
        hub = client.app.state.server  # type: ignore[attr-defined]
        alone = {**TABLE, "seats": ["human", "efficiency", "efficiency", "efficiency"]}
        table = client.post("/api/tables", json=alone).json()
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
            seat = Seat(ws)
            seat.act()
            seat.await_turn()
            stored = len(stored_actions(url, table["id"]))
            now = clock.now()
            epoch = hub.store.claim(table["id"], "elsewhere", now, now + LEASE_SECONDS, True)
            assert epoch == 2
            seat.send(seat.action(seat.state["legal"][0]))
            with pytest.raises(WebSocketDisconnect) as closed:  # refused: go to the owner
                while True:
                    seat.receive()
            assert closed.value.code == CLOSE_MOVED and "moved" in closed.value.reason
        assert len(stored_actions(url, table["id"])) == stored
        assert table["id"] not in hub.tables
        # a renewal finds the same: a lease taken while nobody wrote is let go too
        other = client.post("/api/tables", json=TABLE).json()
        hub.store.claim(other["id"], "elsewhere", clock.now(), clock.now() + 60, True)
        client.portal.call(hub.registry.keep_leases)  # type: ignore[union-attr]
        assert other["id"] not in hub.tables


@pytest.fixture
def shared(postgres: Postgres) -> Iterator[str]:
    yield postgres.new_database()


def alone_at(port: int) -> dict[str, Any]:
    """A new table at the process on ``port``: one person and three bots."""
    body = {**TABLE, "seats": ["human", "efficiency", "efficiency", "efficiency"]}
    table: dict[str, Any] = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
    return table


def seat_socket(port: int, table: dict[str, Any], seat: int) -> Any:
    return connect(
        f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={table['tokens'][seat]}",
        open_timeout=10,
    )


def reconnect(port: int, table: dict[str, Any], seat: int, seconds: float) -> tuple[Any, Seat]:
    """Connect a seat to the process at ``port``, retrying while it says the table is
    another process's (before the takeover)."""
    deadline = time.monotonic() + seconds
    while True:
        ws = seat_socket(port, table, seat)
        try:
            return ws, Seat(SyncSocket(ws))
        except (AssertionError, ConnectionClosed):
            ws.close()
            assert time.monotonic() < deadline, "the table was not taken over in time"
            time.sleep(0.5)


def test_a_killed_owners_tables_are_taken_over_and_play_on(shared: str, tmp_path: Path) -> None:
    """kill -9 the owner mid-game: the other process takes the table over within the
    stated bound, the players reconnect there at their last acknowledged version, and
    the finished log replays whole."""
    ports = free_ports(2)
    owner = start_server(shared, ports[0], tmp_path / "a.log", "--shared")
    other = start_server(shared, ports[1], tmp_path / "b.log", "--shared")
    try:
        table = alone_at(ports[0])
        with seat_socket(ports[0], table, 0) as east:
            seat = Seat(SyncSocket(east))
            for _ in range(3):
                seat.await_turn()
                acked = seat.act()["version"]
            with pytest.raises(ConnectionClosed):  # the other process does not own it
                ws = seat_socket(ports[1], table, 0)
                message = json.loads(ws.recv(timeout=10))
                assert message["type"] == "error" and "another process" in message["message"]
                ws.recv(timeout=10)
            os.kill(owner.pid, signal.SIGKILL)
            owner.wait(10)
        killed = time.monotonic()
        ws0, again = reconnect(ports[1], table, 0, TAKEOVER_BOUND + 10)
        took = time.monotonic() - killed
        assert took < TAKEOVER_BOUND + 5, f"taken over after {took:.1f} s"
        with ws0:
            assert again.version >= acked  # nothing acknowledged is lost
            assert again.events[: len(seat.events)] == seat.events  # nor changed
            again.play()
        store = Store(shared)
        try:
            stored = store.get_table(table["id"])
            assert stored is not None and stored.status == "over"
            match, _ = load_match(stored, store)  # one history: it replays to its end
            assert match.over and len(match.events) == again.version
        finally:
            store.close()
    finally:
        for process in (owner, other):
            if process.poll() is None:
                process.terminate()
                process.wait(10)


def test_a_paused_owner_that_lost_its_lease_never_writes_again(shared: str, tmp_path: Path) -> None:
    """SIGSTOP the owner past its lease, let the other take the table over, SIGCONT
    it: the bot move it had pending is refused, and the game is the one the new
    owner plays."""
    ports = free_ports(2)
    owner = start_server(shared, ports[0], tmp_path / "a.log", "--shared", "--bot-delay", "3")
    other = start_server(shared, ports[1], tmp_path / "b.log", "--shared")
    try:
        table = alone_at(ports[0])
        with seat_socket(ports[0], table, 0) as east:
            seat = Seat(SyncSocket(east))
            while not seat.state["legal"]:
                seat.read_until("update")
            seat.act()  # the bots' turns follow, each after 3 s
        os.kill(owner.pid, signal.SIGSTOP)  # paused with a bot move pending
        paused = time.monotonic()
        ws, moved = reconnect(ports[1], table, 0, TAKEOVER_BOUND + 10)
        with ws:
            assert time.monotonic() - paused > LEASE_SECONDS - 1
            while not moved.state["legal"]:
                moved.read_until("update")
            taken_version = moved.version
            os.kill(owner.pid, signal.SIGCONT)  # wakes up, its bot move due at once
            deadline = time.monotonic() + 15
            log = tmp_path / "a.log"
            while "lease" not in log.read_text(errors="replace"):
                assert time.monotonic() < deadline, "the old owner never tried to write"
                time.sleep(0.2)
            store = Store(shared)
            try:
                stored = store.get_table(table["id"])
                assert stored is not None
                match, _ = load_match(stored, store)
                assert len(match.events) == taken_version  # nothing of the old owner's
            finally:
                store.close()
            moved.act()  # and the new owner goes on
    finally:
        for process in (owner, other):
            if process.poll() is None:
                os.kill(process.pid, signal.SIGCONT)
                process.terminate()
                process.wait(10)


def test_a_connection_to_any_process_is_relayed_to_the_owner(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """Two processes on one PostgreSQL and one Redis: one seat plays through the
    process that owns the table, the other and a spectator through the other
    process. The relayed seat gets what a direct one gets and nothing of another
    seat's; the game plays to its end. When the owner dies, the relayed seat is
    told to reconnect, and does, to the process that took the table over."""
    ports = free_ports(2)
    options = ("--shared", "--redis", redis_server.url)
    owner = start_server(shared, ports[0], tmp_path / "a.log", *options)
    relay = start_server(shared, ports[1], tmp_path / "b.log", *options)
    try:
        body = {**TABLE, "watchable": True}
        table = httpx.post(f"http://127.0.0.1:{ports[0]}/api/tables", json=body).json()
        watch = f"ws://127.0.0.1:{ports[1]}/ws/tables/{table['id']}"
        with (
            seat_socket(ports[0], table, 0) as east_ws,
            seat_socket(ports[1], table, 1) as south_ws,
            connect(watch, open_timeout=10) as watcher_ws,
        ):
            east, south = Seat(SyncSocket(east_ws)), Recorder(SyncSocket(south_ws))
            watcher = Recorder(SyncSocket(watcher_ws))
            assert (east.seat, south.seat, watcher.seat) == (0, 1, None)
            assert south.version == east.version  # the same table, relayed
            play_turns([east, south], 8)
            assert all(e.get("to") in (None, 1) for e in south.events)  # its own, no other's
            public = [[e for e in s.events if e.get("to") is None] for s in (east, south)]
            shared_part = min(len(p) for p in public)
            assert shared_part > 10 and public[0][:shared_part] == public[1][:shared_part]
            south.send({"type": "sync"})
            synced = south.read_until("state")
            assert synced["version"] == south.version and synced["seat"] == 1
            os.kill(owner.pid, signal.SIGKILL)
            owner.wait(10)
            with pytest.raises(ConnectionClosed) as closed:  # the owner is gone: reconnect
                while True:
                    south.receive()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_MOVED
        ws, again = reconnect(ports[1], table, 1, TAKEOVER_BOUND + 10)
        with ws, seat_socket(ports[1], table, 0) as east_again:
            assert again.version >= south.version and again.seat == 1
            east = Seat(SyncSocket(east_again))
            play_turns([east, again], 10_000)  # to its end, on the new owner
        record = httpx.get(f"http://127.0.0.1:{ports[1]}/api/games/{table['id']}/record").json()
        problems, _ = leaks_in(record, [south, watcher])  # what the relay carried
        assert problems == []
    finally:
        for process in (owner, relay):
            if process.poll() is None:
                process.terminate()
                process.wait(10)


def test_several_workers_on_one_port_share_the_tables(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """riichi serve --workers 2: two processes behind one port, each owning some of
    the tables; a seat reaches its table whichever process accepts the connection.
    With SQLite or without Redis, more than one worker is refused in one line."""
    import subprocess
    import sys

    refused = subprocess.run(
        [sys.executable, "-m", "riichi.cli", "serve", "--workers", "2", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "PostgreSQL" in refused.stderr and "Redis" in refused.stderr
    port, scraped = free_ports(2)
    options = ("--workers", "2", "--redis", redis_server.url, "--metrics", f"127.0.0.1:{scraped}")
    server = start_server(shared, port, tmp_path / "w.log", *options)
    try:
        body = {**TABLE, "seats": ["human", "efficiency", "efficiency", "efficiency"]}
        made = []
        store = Store(shared)
        try:
            for n in range(40):  # a new connection each (either process may take it)
                transport = httpx.HTTPTransport(local_address=f"127.0.4.{n + 1}")
                with httpx.Client(transport=transport) as fresh:
                    answer = fresh.post(f"http://127.0.0.1:{port}/api/tables", json=body)
                assert answer.status_code == 201, answer.text
                made.append(answer.json())
                owners = {store.lease_owner(t["id"]) for t in made}
                if len(owners) == 2 and len(made) >= 6:
                    break
            assert len(owners) == 2, "one process took every table"
        finally:
            store.close()
        for table in made:  # a person acts at each, so both processes commit
            with seat_socket(port, table, 0) as ws:
                seat = Seat(SyncSocket(ws))
                assert seat.seat == 0
                seat.await_turn()
                seat.act()
        # each worker serves its own metrics, on the first free port of four from the
        # one named; together they count every table and every action
        pages = []
        for metrics_port in range(scraped, scraped + 4):
            with contextlib.suppress(httpx.TransportError):
                pages.append(httpx.get(f"http://127.0.0.1:{metrics_port}/metrics").text)
        assert len(pages) == 2
        live = sum(metric_value(p, 'riichi_live_tables{kind="private"}', 0) for p in pages)
        assert live == len(made)
        assert all(metric_value(p, "riichi_actions_committed_total") > 0 for p in pages)
    finally:
        server.terminate()
        server.wait(15)


def test_the_queue_and_a_tournament_run_once_across_processes(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """Three processes: ten accounts join the rated queue through different processes
    and each is seated once (two tables of four; two wait); a tournament of roster
    computers is run once and pays once; the ledger's audit is clean."""
    import subprocess
    import sys

    from riichi.server.auth import COOKIE
    from riichi.server.money.ledger import ChipStore

    ports = free_ports(3)
    options = ("--shared", "--redis", redis_server.url)
    servers = [
        start_server(shared, p, tmp_path / f"{n}.log", *options) for n, p in enumerate(ports)
    ]
    try:
        cookies = []
        for n in range(10):
            base = f"http://127.0.0.1:{ports[n % 3]}"
            made = httpx.post(
                f"{base}/api/register", json={"name": f"queuer{n}", "password": "pw12345678"}
            )
            assert made.status_code == 201, made.text
            cookies.append(made.cookies[COOKIE])
        for n, cookie in enumerate(cookies):  # each from its own browser and address
            transport = httpx.HTTPTransport(local_address=f"127.0.3.{n + 1}")
            with httpx.Client(transport=transport) as person:
                joined = person.post(
                    f"http://127.0.0.1:{ports[(n + 1) % 3]}/api/queue",
                    json={"pool": "standard"},
                    cookies={COOKIE: cookie},
                )
            assert joined.status_code == 200, joined.text
        store = Store(shared)
        try:
            deadline = time.monotonic() + 20
            while len(store.accounts.queue()) > 2:
                assert time.monotonic() < deadline, "the queue was not seated"
                time.sleep(0.2)
            seated = [
                account
                for n in range(10)
                for account in [n + 1]
                if store.accounts.tables_of(account)
            ]
            assert len(seated) == 8
            assert all(len(store.accounts.tables_of(a)) == 1 for a in seated)  # once each
            subprocess.run(
                [sys.executable, "-m", "riichi.cli", "operator", "queuer0", "--db", shared],
                check=True,
            )
            base = f"http://127.0.0.1:{ports[2]}"
            cup = {"name": "Cluster cup", "rules": "classic", "length": "one-hand", "rounds": 1}
            made = httpx.post(
                f"{base}/api/tournaments",
                json={**cup, "bet": 50, "added": 100, "closes_in": 0},
                cookies={COOKIE: cookies[0]},
            ).json()
            entered = httpx.post(
                f"{base}/api/tournaments/{made['id']}/computers",
                json={"count": 8},
                cookies={COOKIE: cookies[0]},
            )
            assert entered.status_code == 200, entered.text
            deadline = time.monotonic() + 240
            while httpx.get(f"{base}/api/tournaments/{made['id']}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the tournament did not finish"
                time.sleep(0.5)
            final = httpx.get(f"{base}/api/tournaments/{made['id']}").json()
            assert len(final["tables"]) == 2  # seated once, not once per process
            assert sum(s["paid"] for s in final["standings"]) == 8 * 50 + 100  # paid once
            assert ChipStore(store.engine).audit() == []
        finally:
            store.close()
    finally:
        for process in servers:
            process.terminate()
            process.wait(15)


def test_a_dead_redis_closes_relayed_connections_and_loses_nothing(
    shared: str, tmp_path: Path
) -> None:
    """Redis dies: the owner plays on with its direct connections, relayed ones are
    closed with a clear reason, the lobby still opens tables; Redis comes back and the
    relayed seat reconnects and resyncs to where the table is."""
    import shutil

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (tools/system_deps.sh installs it)")
    cache = Redis(binary)
    ports = free_ports(2)
    options = ("--shared", "--redis", cache.url)
    owner = start_server(shared, ports[0], tmp_path / "a.log", *options)
    relay = start_server(shared, ports[1], tmp_path / "b.log", *options)
    try:
        table = httpx.post(f"http://127.0.0.1:{ports[0]}/api/tables", json=TABLE).json()
        with (
            seat_socket(ports[0], table, 0) as east_ws,
            seat_socket(ports[1], table, 1) as south_ws,
        ):
            east, south = Seat(SyncSocket(east_ws)), Seat(SyncSocket(south_ws))
            assert south.seat == 1 and south.version == east.version
            cache.stop()
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    south.receive()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
            assert "relay" in closed.value.rcvd.reason
            east.await_turn()
            version = east.act()["version"]  # the owner plays on
            made = httpx.post(f"http://127.0.0.1:{ports[1]}/api/tables", json=TABLE)
            assert made.status_code == 201  # the lobby too, counting limits alone meanwhile
            cache.process = __import__("subprocess").Popen(
                [binary, "--port", str(cache.port), "--bind", "127.0.0.1", "--save", ""],
                stdout=__import__("subprocess").DEVNULL,
            )
            deadline = time.monotonic() + 30
            while True:
                try:
                    ws, again = reconnect(ports[1], table, 1, 5)
                    break
                except (AssertionError, OSError, ConnectionClosed):
                    assert time.monotonic() < deadline, "the relay did not come back"
                    time.sleep(1)
            with ws:
                assert again.seat == 1 and again.version >= version  # resynced, nothing lost
    finally:
        for process in (owner, relay):
            if process.poll() is None:
                process.terminate()
                process.wait(15)
        cache.stop()


@contextlib.contextmanager
def processes(shared: str, tmp_path: Path, count: int, *options: str) -> Iterator[list[int]]:
    """``count`` server processes on one database (with ``options``), stopped after;
    yields their ports."""
    ports = free_ports(count)
    servers = [
        start_server(shared, p, tmp_path / f"{n}.log", *options) for n, p in enumerate(ports)
    ]
    try:
        yield ports
    finally:
        for process in servers:
            process.terminate()
            process.wait(15)


def test_the_connections_of_one_address_are_counted_across_processes(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """--sockets-per-address 3 on two processes: three spectators from one address,
    spread over both, and a fourth is refused by either; one leaves, one more may come."""
    options = ("--shared", "--redis", redis_server.url, "--sockets-per-address", "3")
    with processes(shared, tmp_path, 2, *options) as ports:
        body = {**TABLE, "watchable": True}
        table = httpx.post(f"http://127.0.0.1:{ports[0]}/api/tables", json=body).json()

        def watch(port: int) -> Any:
            return connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}", open_timeout=10)

        held = [watch(ports[0]), watch(ports[1]), watch(ports[0])]
        for ws in held:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        for port in ports:
            with watch(port) as extra:
                refused = json.loads(extra.recv(timeout=10))
                assert refused["type"] == "error" and "too many connections" in refused["message"]
        held.pop().close()
        deadline = time.monotonic() + 30  # the close reaches the count soon, not at once
        while True:
            with watch(ports[1]) as again:
                if json.loads(again.recv(timeout=10))["type"] == "hello":
                    break
            assert time.monotonic() < deadline, "the closed connection still counts"
            time.sleep(0.2)
        for ws in held:
            ws.close()


def play_to_the_end(
    table: dict[str, Any], port: int, others: list[int], started: Any, killed: Any
) -> int:
    """One person's game across a kill: a few actions at ``port`` (then ``started`` is
    released, so that the kill comes after them however slow the machine), then (once
    the kill is announced) on to the end, reconnecting to one of ``others`` whenever
    the connection drops; each new connection starts at or past the last acknowledged
    version, with the same history. Returns how many times it reconnected."""
    try:
        ws = seat_socket(port, table, 0)
        seat = Seat(SyncSocket(ws))
        acked, moves = seat.version, 0
        for _ in range(3):
            seat.await_turn()
            if seat.state["over"]:
                break
            acked = seat.act()["version"]
    finally:
        started.release()  # a failure here is raised by the game's result
    killed.wait()
    while True:
        try:
            while not seat.state["over"]:
                if seat.state["legal"]:
                    acked = seat.act()["version"]
                else:
                    seat.read_until("update")
            ws.close()
            return moves
        except ConnectionClosed:
            ws.close()
            ws, again = reconnect(others[moves % len(others)], table, 0, TAKEOVER_BOUND + 20)
            assert again.version >= acked, "an acknowledged action was lost"
            assert again.events[: len(seat.events)] == seat.events, "the history changed"
            seat, moves = again, moves + 1


def across_a_stop(
    shared: str, redis_url: str, tmp_path: Path, ids: list[str], stop: Any
) -> list[int]:
    """Three processes on one PostgreSQL and one Redis; the first alone takes the first
    half of ``ids``' tables, then the other two start and take the rest; each person
    connects to the process after its table's (most are relayed) and makes a few
    moves; then ``stop(process, store, owner)`` stops the first process, and every
    person goes on from its last acknowledged version to the end, reconnecting as
    needed. Every finished game is then action for action the one a single process
    stores for the same tables. Returns how often each person reconnected."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    ports = free_ports(3)
    options = ("--shared", "--redis", redis_url)
    kinds = ["human", "efficiency", "efficiency", "efficiency"]
    half = len(ids) // 2
    store = Store(shared)
    servers = []

    def owners() -> dict[str, str | None]:
        return {t: store.lease_owner(t) for t in ids}

    try:
        tables = write_tables(shared, ids[:half], kinds, "one-hand", preset="classic")
        servers.append(start_server(shared, ports[0], tmp_path / "0.log", *options))
        wait_until(lambda: all(owners()[t] for t in ids[:half]), 30, owners)
        first = owners()[ids[0]]
        for n in (1, 2):
            servers.append(start_server(shared, ports[n], tmp_path / f"{n}.log", *options))
        tables += write_tables(shared, ids[half:], kinds, "one-hand", preset="classic")
        wait_until(lambda: all(owners().values()), 30, owners)
        before = owners()
        assert sum(owner == first for owner in before.values()) == half
        assert len(set(before.values())) == 3
        started, stopped = threading.Semaphore(0), threading.Event()
        with ThreadPoolExecutor(len(tables)) as pool:
            games = [
                pool.submit(play_to_the_end, table, ports[n % 3], ports[1:], started, stopped)
                for n, table in enumerate(tables)
            ]
            for _ in tables:  # everyone has made their first moves
                assert started.acquire(timeout=120), "a game did not start"
            stop(servers[0], store, first)
            stopped.set()
            moved = [game.result(timeout=300) for game in games]
        assert first not in owners().values()
        for table_id in ids:
            stored = store.get_table(table_id)
            assert stored is not None and stored.status == "over", table_id
    finally:
        for process in servers:
            if process.poll() is None:
                process.terminate()
                process.wait(10)
        store.close()
    same_as_alone(shared, ids, kinds, tmp_path)
    return moved


def same_as_alone(
    shared: str, ids: list[str], kinds: list[str], tmp_path: Path, passes_in_order: bool = True
) -> None:
    """The tables ``ids`` of ``shared``, played once more on a single process: every
    game is action for action the same (without ``passes_in_order``, the passes on one
    discard in any order: whether a person's pass is stored before or after a bot's
    depends on when the person's connection came back, and both are the same game)."""
    alone = f"sqlite:///{tmp_path / 'alone.db'}"
    reference = write_tables(alone, ids, kinds, "one-hand", preset="classic")
    with TestClient(create_app(alone, clock=FakeClock(time.time()))) as client:
        for table in reference:
            url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
            with client.websocket_connect(url) as ws:
                Seat(ws).play()
    played = {table_id: stored_actions(shared, table_id) for table_id in ids}
    assert sum(map(len, played.values())) > 20 * len(ids)
    for table_id in ids:
        mine, theirs = played[table_id], stored_actions(alone, table_id)
        if not passes_in_order:
            mine, theirs = passes_sorted(mine), passes_sorted(theirs)
        assert mine == theirs, table_id


def passes_sorted(actions: list[tuple[int, str, bool]]) -> list[tuple[int, str, bool]]:
    """``actions`` with each run of passes (those on one discard) in seat order."""
    out: list[tuple[int, str, bool]] = []
    run: list[tuple[int, str, bool]] = []
    for action in [*actions, (-1, "", False)]:
        if '"pass"' in action[1]:
            run.append(action)
            continue
        out += sorted(run)
        run = []
        if action[0] >= 0:
            out.append(action)
    return out


def wait_until(done: Any, seconds: float, state: Any) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, state()
        time.sleep(0.2)


def test_a_third_process_dies_and_every_game_is_the_one_one_process_plays(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """Three processes, 20 live tables; kill -9 the owner of half the tables mid-play:
    the other two take them over within the bound and every game plays on as one
    process plays it (``across_a_stop``)."""
    took: list[float] = []

    def kill(process: Any, store: Store, owner: str) -> None:
        process.kill()
        process.wait(10)
        at = time.monotonic()
        held = lambda: {t for t, o in store.lease_owners(ids).items() if o == owner}  # noqa: E731
        wait_until(lambda: not held(), TAKEOVER_BOUND + 10, held)
        took.append(time.monotonic() - at)

    ids = [f"t{n:02d}" for n in range(20)]
    moved = across_a_stop(shared, redis_server.url, tmp_path, ids, kill)
    assert took[0] < TAKEOVER_BOUND + 5, f"taken over after {took[0]:.1f} s"
    assert sum(moved) >= 10  # at least the people of the dead process's tables moved


def test_a_stopped_process_hands_its_tables_over_at_once(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """Three processes, twelve live tables; SIGTERM the owner of half of them mid-play:
    before it exits it has handed every lease back (none left for the others to wait
    out: the kill test's ~13 s), and every game plays on as one process plays it."""
    from sqlalchemy import select

    from riichi.server.storage import leases

    def terminate(process: Any, store: Store, owner: str) -> None:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) is not None
        with store.engine.connect() as conn:
            held = conn.execute(
                select(leases.c.table_id, leases.c.expires).where(leases.c.owner == owner)
            ).all()
        exited = time.time()
        # every lease it held expired when it stopped, or is another's already
        assert all(row.expires <= exited for row in held), held

    ids = [f"h{n:02d}" for n in range(12)]
    moved = across_a_stop(shared, redis_server.url, tmp_path, ids, terminate)
    assert sum(moved) >= 1
    log = (tmp_path / "0.log").read_text()
    assert "handed over 6 tables" in log, log[-2000:]


def workers_of(supervisor: int) -> set[int]:
    """The worker processes of ``riichi serve --workers`` (not its resource tracker)."""
    path = Path(f"/proc/{supervisor}/task/{supervisor}/children")
    found = set()
    for pid in path.read_text().split():
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(int(pid))
    return found


def test_sighup_replaces_the_workers_one_by_one_and_every_game_plays_on(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """riichi serve --workers 2, eight live tables in play; SIGHUP: each worker is
    replaced in turn, its replacement ready first (a rolling restart); the old
    worker hands its tables over as it stops; every person plays on to the end
    from the last acknowledged version, and every game is the one one process
    plays."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    ids = [f"r{n:02d}" for n in range(8)]
    kinds = ["human", "efficiency", "efficiency", "efficiency"]
    port = free_port()
    tables = write_tables(shared, ids, kinds, "one-hand", preset="classic")
    options = ("--workers", "2", "--redis", redis_server.url)
    server = start_server(shared, port, tmp_path / "w.log", *options)
    store = Store(shared)
    try:
        owners = lambda: store.lease_owners(ids)  # noqa: E731
        wait_until(lambda: len(set(owners().values()) - {None}) == 2, 30, owners)
        before = workers_of(server.pid)
        assert len(before) == 2
        started, restarted = threading.Semaphore(0), threading.Event()
        with ThreadPoolExecutor(len(tables)) as pool:
            games = [
                pool.submit(play_to_the_end, table, port, [port], started, restarted)
                for table in tables
            ]
            for _ in tables:
                assert started.acquire(timeout=120), "a game did not start"
            server.send_signal(signal.SIGHUP)
            wait_until(lambda: not workers_of(server.pid) & before, 90, lambda: before)
            restarted.set()
            moved = [game.result(timeout=300) for game in games]
        assert len(workers_of(server.pid)) == 2
        assert sum(moved) >= 1  # the people of the old workers' tables moved
        for table_id in ids:
            stored = store.get_table(table_id)
            assert stored is not None and stored.status == "over", table_id
        # both old workers handed their tables back as they stopped (none left to expire;
        # the second may hand on some the first handed it)
        log = (tmp_path / "w.log").read_text()
        handed = [int(n) for n in re.findall(r"handed over (\d+) tables", log)]
        assert len(handed) == 2 and min(handed) > 0 and sum(handed) >= len(ids), handed
    finally:
        server.terminate()
        server.wait(30)
        store.close()
    same_as_alone(shared, ids, kinds, tmp_path, passes_in_order=False)


def test_a_crowd_relayed_at_once_is_served(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """150 spectators reach a table through the process that does not own it, all at
    once: every one is welcomed (the relay's publishes wait for a connection of a
    bounded pool rather than fail past its size) and learns how many watch, without
    a message per arrival piling up unread until it is dropped as too slow."""
    from concurrent.futures import ThreadPoolExecutor

    options = ("--shared", "--redis", redis_server.url, "--sockets-per-address", "1000")
    with processes(shared, tmp_path, 2, *options) as ports:
        body = {**TABLE, "watchable": True}
        table = httpx.post(f"http://127.0.0.1:{ports[0]}/api/tables", json=body).json()
        watch = f"ws://127.0.0.1:{ports[1]}/ws/tables/{table['id']}"

        def spectator(_: int) -> Any:
            ws = connect(watch, open_timeout=30)
            hello = json.loads(ws.recv(timeout=30))
            assert hello["type"] == "hello", hello
            return ws

        with ThreadPoolExecutor(50) as pool:
            crowd = list(pool.map(spectator, range(150)))
        for ws in crowd:  # the count reaches all, without flooding anyone
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "spectators" and message["count"] == len(crowd):
                    break
            ws.close()


def test_a_notice_reaches_a_channel_on_another_process(
    shared: str, redis_server: Redis, tmp_path: Path
) -> None:
    """Bean's live channel is on one process; Anna, on the other, invites Bean by name:
    the notice crosses over, and Anna sees Bean online from her process."""
    from riichi.server.auth import COOKIE

    options = ("--shared", "--redis", redis_server.url)
    with processes(shared, tmp_path, 2, *options) as ports:
        clients = []
        for n, (name, port) in enumerate([("Anna", ports[1]), ("Bean", ports[0])]):
            transport = httpx.HTTPTransport(local_address=f"127.0.6.{n + 1}")
            client = httpx.Client(
                base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=30
            )
            made = client.post("/api/register", json={"name": name, "password": "pw12345678"})
            assert made.status_code == 201, made.text
            clients.append(client)
        anna, bean = clients
        cookie = f"{COOKIE}={bean.cookies.get(COOKIE)}"
        url = f"ws://127.0.0.1:{ports[0]}/ws/me"
        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=10) as channel:
            assert json.loads(channel.recv(timeout=10))["type"] == "hello"
            body = {**TABLE, "seats": ["human", "human", "efficiency", "efficiency"]}
            made = anna.post("/api/tables", json={**body, "invite": ["Bean"]})
            assert made.status_code == 201, made.text
            notice = json.loads(channel.recv(timeout=10))
            assert notice["kind"] == "invited" and notice["link"] == f"/table/{made.json()['id']}"
            online = anna.get("/api/online").json()["online"]
            assert [p["name"] for p in online] == ["Bean"]
