"""Starting a real server process for tests that need one (a kill, a browser)."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from riichi.server.auth import COOKIE
from riichi.server.guard import GuardedHttp, GuardedWebSocket, proxy_settings


def metric_value(text: str, name: str, missing: float | None = None) -> float:
    """The value of the sample ``name`` (with its labels, or the first of its labels)
    on a Prometheus page; ``missing`` when absent, if given."""
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    if missing is None:
        raise AssertionError(f"{name} not in the metrics")
    return missing


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports free now: each socket is held until all are bound, so
    the system cannot hand one port out twice (two ports asked for one by one can be
    the same, and nginx then reads a plain and a TLS listener as one)."""
    with contextlib.ExitStack() as held:
        sockets = [held.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


def free_port() -> int:
    return free_ports(1)[0]


def start_server(
    db: str, port: int, log: Path | None = None, *options: str, wait: float = 30
) -> subprocess.Popen[bytes]:
    """``riichi serve`` in its own process (with ``options``); its log goes to ``log``
    (access log included); AssertionError unless it answers within ``wait`` seconds."""
    command = [sys.executable, "-m", "riichi.cli", "serve", "--port", str(port), "--db", db]
    command += ["--bot-delay", "0", *options]
    if log is None:
        command.append("--no-access-log")
    out = subprocess.DEVNULL if log is None else log.open("wb")
    process = subprocess.Popen(command, stdout=out, stderr=out)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not come up")


class Postgres:
    """A throwaway PostgreSQL server in a temporary directory, started by the tests."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="riichi-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.databases = 0
        # PostgreSQL refuses to run as root; the Debian package's user runs it then.
        self.prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.prefix:
            shutil.chown(self.root, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "riichi", "--no-sync")
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off",
            "-w",
            "start",
        )

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self.prefix, str(self.bindir / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=120,  # a tool that hangs fails its test, not the suite's limit
        )

    def new_database(self) -> str:
        """A fresh empty database; its SQLAlchemy URL."""
        self.databases += 1
        name = f"riichi_{self.databases}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "riichi", name)
        return f"postgresql+psycopg://riichi@127.0.0.1:{self.port}/{name}"

    def restart(self) -> None:
        """Stopped (every connection cut) and started again with the same settings."""
        log = str(self.root / "log")
        self._run("pg_ctl", "-D", str(self.data), "-l", log, "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


class Redis:
    """A throwaway redis-server on a free port, started by the tests."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = free_port()
        self._start()

    def _start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                break
            assert time.monotonic() < deadline, "redis-server did not come up"
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)

    def restart(self) -> None:
        """Stopped and started again on the same port, empty."""
        self.stop()
        self._start()


def postgres_bindir() -> Path | None:
    """Where PostgreSQL's initdb and pg_ctl live, if PostgreSQL is installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


PREFERENCE = ("tsumo", "ron", "pass")


def choose(state: dict[str, Any]) -> dict[str, Any]:
    """A simple person: win when possible, never call, otherwise discard the drawn tile."""
    legal = state["legal"]
    for kind in PREFERENCE:
        for action in legal:
            if action["type"] == kind:
                return dict(action)
    drawn = {"type": "discard", "tile": state["drawn"]}
    return drawn if drawn in legal else dict(legal[0])


class Seat:
    """A client of the public protocol over any websocket with send_text/receive_text."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        hello = self.hello = self.receive()
        assert hello["type"] == "hello"
        self.seat = hello["seat"]
        self.version = hello["version"]
        self.state = hello["state"]
        self.events: list[dict[str, Any]] = list(hello["events"])

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        return message

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def read_until(self, *kinds: str) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] == "update":
                assert message["from"] == self.version, "a gap in versions"
                self.version = message["version"]
                self.state = message["state"]
                self.events.extend(message["events"])
            if message["type"] in kinds:
                return message

    def action(self, action: dict[str, Any]) -> dict[str, Any]:
        """An action message answering the state at this seat's version."""
        return {"type": "action", "version": self.version, "action": action}

    def act(self) -> dict[str, Any]:
        self.send(self.action(choose(self.state)))
        answer = self.read_until("ack", "error")
        assert answer["type"] == "ack", answer
        return answer

    def await_turn(self) -> None:
        """Read updates until this seat must decide (the table then waits on it) or it ends."""
        while not self.state["legal"] and not self.state["over"]:
            self.read_until("update")

    def play(self, limit: int = 100_000) -> int:
        """Act whenever asked until the match is over; returns how many actions were sent."""
        sent = 0
        while not self.state["over"] and sent < limit:
            if self.state["legal"]:
                self.act()
                sent += 1
            else:
                self.read_until("update")
        return sent


def new_table(client: Any, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    return table


@contextlib.contextmanager
def two_people_and_a_watcher(client: Any, table: dict[str, Any]) -> Iterator[tuple[Seat, ...]]:
    """Seats 0 and 1 by their links, and a spectator without one."""
    base = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(f"{base}?token={table['tokens'][0]}") as w0,
        client.websocket_connect(f"{base}?token={table['tokens'][1]}") as w1,
        client.websocket_connect(base) as w2,
    ):
        yield Seat(w0), Seat(w1), Seat(w2)


class SyncSocket:
    def __init__(self, ws: Any) -> None:
        self.ws = ws

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def receive_text(self) -> str:
        text: str = self.ws.recv(timeout=30)
        return text


class Running:
    """A uvicorn server in a thread of this process."""

    def __init__(self, app: Any, http: type = GuardedHttp, proxies: tuple[str, ...] = ()) -> None:
        self.app = app
        self.port = free_port()
        config = uvicorn.Config(
            app,
            port=self.port,
            http=http,
            ws=GuardedWebSocket,
            log_level="warning",
            ws_max_size=64 * 1024,
            # as riichi serve: no forwarded address is believed, unless from ``proxies``
            **proxy_settings(proxies),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


def older_database(path: Path, revision: str, *statements: tuple[str, tuple[Any, ...]]) -> str:
    """A SQLite database at schema ``revision`` with some rows written the old way; its
    URL. Opening a Store on it upgrades it."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from riichi.server.storage import MIGRATIONS

    url = f"sqlite:///{path}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
        for sql, params in statements:
            conn.exec_driver_sql(sql, params)
    engine.dispose()
    return url


def write_tables(
    url: str | Any,
    ids: list[str],
    kinds: list[str],
    length: str = "south",
    rated: bool = False,
    preset: str | None = None,
    kind: str | None = None,
) -> list[dict[str, Any]]:
    """Live tables written straight into a database (past the per-address creation
    limit), as a server finds them when it starts or looks for free tables; their
    seeds follow from their ids, so the same ids deal the same games anywhere.
    Returns each table's id and seat tokens. ``url`` may be an open ``Store``."""
    from riichi.game import commitment
    from riichi.rules import Length, find_ruleset
    from riichi.server import Store
    from riichi.server.seating import seat_specs
    from riichi.server.storage import NewTable

    preset = preset or ("classic" if rated else "online")
    rules = find_ruleset(preset).replace(length=Length(length))
    store = Store(url) if isinstance(url, str) else url
    tables = []
    try:
        for table_id in ids:
            seats, tokens = seat_specs(kinds)
            seed, salt = f"seed-{table_id}", f"salt-{table_id}"
            store.create_table(
                NewTable(
                    id=table_id,
                    rules=rules.to_dict(),
                    seed=seed,
                    salt=salt,
                    commitment=commitment(seed, salt),
                    bot_seed=f"bots-{table_id}",
                    seed_public=False,
                    seats=[
                        {"kind": s.kind, "name": s.name, "token_hash": s.token_hash} for s in seats
                    ],
                    created=time.time(),
                    kind=kind or ("rated" if rated else "private"),
                    pool="standard" if rated else "untimed",
                    watchable=True,
                )
            )
            tables.append({"id": table_id, "tokens": tokens})
    finally:
        if isinstance(url, str):
            store.close()
    return tables


def stored_actions(url: str, table_id: str) -> list[tuple[int, str, bool]]:
    """A table's stored actions as (seat, action JSON, was a timeout), read directly."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(
            text("select seat, action, timeout from actions where table_id = :t order by seq"),
            {"t": table_id},
        ).all()
    engine.dispose()
    return [(r.seat, r.action, bool(r.timeout)) for r in rows]


class Person:
    """A browser of its own, from an address of its own, signed in as its account."""

    def __init__(self, port: int, n: int, name: str, block: int = 4) -> None:
        self.port, self.address = port, f"127.0.{block}.{n}"
        transport = httpx.HTTPTransport(local_address=self.address)
        base = f"http://127.0.0.1:{port}"
        self.http = httpx.Client(base_url=base, transport=transport, timeout=30)
        made = self.http.post("/api/register", json={"name": name, "password": "correct horse"})
        assert made.status_code == 201, made.text

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def post(self, path: str, json: Any = None) -> httpx.Response:
        return self.http.post(path, json={} if json is None else json)

    def socket(self, path: str) -> Any:
        sock = socket.create_connection(("127.0.0.1", self.port), source_address=(self.address, 0))
        cookie = f"{COOKIE}={self.http.cookies.get(COOKIE)}"
        return connect(
            f"ws://127.0.0.1:{self.port}{path}",
            sock=sock,
            additional_headers={"Cookie": cookie},
        )


def confirming(offer: dict[str, Any]) -> dict[str, Any]:
    """A money seat's body: the switches the lobby showed, confirmed."""
    return {"switches": offer["switches"]}


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return message


def play_out(
    everyone: list[Person],
    table: str,
    limit: int = 100_000,
    last: Callable[[dict[str, Any]], bool] | None = None,
) -> bool:
    """Four people play the table, each from its own session, to its end or until
    ``limit`` actions were acknowledged; whether the table is over. With ``last``, the
    action answering the first state it accepts is sent and not waited for (the
    caller may kill the server under it)."""
    sent = 0
    sockets = [p.socket(f"/ws/tables/{table}") for p in everyone]
    try:
        seats = []
        for ws in sockets:
            hello = receive(ws)
            assert hello["type"] == "hello" and hello["seat"] is not None, hello
            seats.append([ws, hello["state"], hello["version"]])
        over = False
        while not over and sent < limit:
            for entry in seats:
                ws = entry[0]
                ws.send(json.dumps({"type": "ready"}))  # past a hand's result, at once
                ws.send(json.dumps({"type": "sync"}))
                while True:
                    message = receive(ws)
                    if message["type"] == "state":
                        entry[1], entry[2] = message["state"], message["version"]
                        break
                state = entry[1]
                if state["over"]:
                    over = True
                    break
                if state["legal"]:
                    action = {"type": "action", "version": entry[2], "action": choose(state)}
                    ws.send(json.dumps(action))
                    if last is not None and last(state):
                        return False
                    while receive(ws)["type"] not in ("ack", "error"):
                        pass
                    sent += 1
    finally:
        for ws in sockets:
            ws.close()
    return over
