"""Attacks that need real sockets, on a real uvicorn server in a thread: silent and
trickling connections, readers that never read, floods, oversized requests.

The bounds asserted are generous (these are not benchmarks): they hold a
hundred times over on an idle machine and fail when a client can stall others.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from riichi.server import Limits, create_app
from riichi.server.guard import GuardedHttp
from server_helpers import Running, Seat, SyncSocket, free_port, start_server


class QuickGuard(GuardedHttp):
    header_seconds = 0.5
    per_address = 4


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    limits = Limits(outbox_messages=16, outbox_bytes=256 * 1024, sockets_per_address=6)
    server = Running(create_app(f"sqlite:///{tmp_path / 'r.db'}", limits=limits))
    yield server
    server.stop()


def raw_socket(port: int, receive_buffer: int | None = None) -> socket.socket:
    sock = socket.socket()
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """True when the server closes the connection within ``seconds`` (whatever it sent)."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


def websocket_handshake(sock: socket.socket, path: str) -> None:
    """Upgrade a raw socket to a websocket; what follows is up to the caller."""
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, "the server closed the handshake"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head


def text_frame(text: str) -> bytes:
    """A masked client text frame."""
    payload = text.encode()
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([0x81])
    if size < 126:
        head += bytes([0x80 | size])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", size)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def new_table(base: str, **body: Any) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables", json=body)
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    return table


def timed_play(url: str, actions: int) -> tuple[Seat, list[float]]:
    """A person playing ``actions`` decisions; the seconds each waited for its ack."""
    waits = []
    with connect(url, max_size=None) as ws:
        seat = Seat(SyncSocket(ws))
        while len(waits) < actions and not seat.state["over"]:
            if seat.state["legal"]:
                start = time.perf_counter()
                seat.act()
                waits.append(time.perf_counter() - start)
            else:
                seat.read_until("update")
    return seat, waits


def test_silent_and_trickling_connections_are_dropped(tmp_path: Path) -> None:
    server = Running(create_app(f"sqlite:///{tmp_path / 'g.db'}"), http=QuickGuard)
    try:
        silent = [raw_socket(server.port) for _ in range(4)]
        time.sleep(0.1)
        over_cap = raw_socket(server.port)
        assert closed_within(over_cap, 1.0), "a fifth connection from one address was kept"
        assert all(closed_within(s, 3.0) for s in silent), "a silent connection was kept"
        trickle = raw_socket(server.port)
        trickle.sendall(b"GET /api/presets HTTP/1.1\r\n")
        for _ in range(5):
            time.sleep(0.2)
            try:
                trickle.sendall(b"X")
            except OSError:
                break
        assert closed_within(trickle, 2.0), "a trickled request kept its connection"
        assert httpx.get(f"{server.url}/api/presets").status_code == 200
    finally:
        server.stop()


def test_a_named_proxy_may_hold_more_connections_but_not_silent_ones(tmp_path: Path) -> None:
    """Every visitor behind a reverse proxy arrives from the proxy's address: the cap on
    one address's connections would refuse the site's sixth concurrent visitor. The
    proxy the operator names is not capped; its silent connections still time out."""
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}")
    server = Running(app, http=QuickGuard, proxies=("127.0.0.1",))
    try:
        held = [raw_socket(server.port) for _ in range(QuickGuard.per_address + 4)]
        for sock in held[:-1]:
            sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n\r\n")
        for sock in held[:-1]:  # every one answered, none refused
            sock.settimeout(5)
            assert sock.recv(12).startswith(b"HTTP/1.1 200")
        assert closed_within(held[-1], 3.0), "a silent connection from the proxy was kept"
    finally:
        server.stop()


def test_a_reader_that_never_reads_is_dropped_and_slows_nobody(running: Running) -> None:
    table = new_table(running.url, rules="online", length="east", seed="slow", watchable=True)
    watcher = raw_socket(running.port, receive_buffer=2048)
    websocket_handshake(watcher, f"/ws/tables/{table['id']}")
    url = f"ws://127.0.0.1:{running.port}/ws/tables/{table['id']}?token={table['tokens'][0]}"
    live = running.app.state.server.tables[table["id"]]
    _, waits = timed_play(url, 400)
    assert max(waits) < 1.0, f"an action waited {max(waits):.2f} s"
    assert all(v.seat is not None for v in live.viewers), "the silent spectator is still there"
    assert closed_within(watcher, 5.0)


def test_a_sync_flood_is_read_slowly_and_dropped(running: Running) -> None:
    table = new_table(running.url, rules="online", length="east", seed="flood", watchable=True)
    flooder = raw_socket(running.port, receive_buffer=2048)
    websocket_handshake(flooder, f"/ws/tables/{table['id']}")
    flooder.sendall(b"".join(text_frame('{"type": "sync"}') for _ in range(3000)))
    url = f"ws://127.0.0.1:{running.port}/ws/tables/{table['id']}?token={table['tokens'][0]}"
    _, waits = timed_play(url, 60)
    assert max(waits) < 1.0, f"an action waited {max(waits):.2f} s"
    assert closed_within(flooder, 5.0), "the flooder was never dropped"


def test_oversized_requests_and_too_many_sockets_are_refused(running: Running) -> None:
    table = new_table(running.url, rules="online", watchable=True)
    base = f"ws://127.0.0.1:{running.port}/ws/tables/{table['id']}"
    # an 8 KB URL gets an answer at once, not a hung handshake
    long = raw_socket(running.port)
    long.settimeout(3)
    long.sendall(
        f"GET /ws/tables/{table['id']}?token={'x' * 8192} HTTP/1.1\r\nHost: a\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
        "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert long.recv(100)
    long.close()
    # a 100 KB message is over the frame limit: the connection closes
    with connect(base) as ws:
        ws.recv(timeout=5)
        ws.send(json.dumps({"type": "sync", "pad": "x" * 100_000}))
        with pytest.raises(Exception):  # noqa: B017  closed by the server, code 1009
            for _ in range(10):
                ws.recv(timeout=5)
    # six sockets from one address at most; the seventh is refused with a reason
    with contextlib.ExitStack() as stack:
        for _ in range(6):
            stack.enter_context(connect(base))
        with connect(base) as extra:
            refusal = json.loads(extra.recv(timeout=5))
            assert refusal["final"] and "too many connections" in refusal["message"]


def test_seat_tokens_never_reach_the_server_log(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    process = start_server(f"sqlite:///{tmp_path / 'log.db'}", port, log=log)
    try:
        base = f"http://127.0.0.1:{port}"
        table = new_table(base, rules="online", seed="log")
        token = table["tokens"][0]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={token}") as ws:
            ws.recv(timeout=10)
        httpx.get(f"{base}/table/{table['id']}?token={token}")
    finally:
        process.terminate()
        process.wait(timeout=10)
    text = log.read_text()
    assert "/ws/tables/" in text and "token=***" in text  # the lines are there, redacted
    assert token not in text
