"""Attack a running riichi server with what any visitor has, and report figures.

    riichi serve --port 8000 --bot-delay 0 --tables-per-minute 1000 &   # the server under test
    python tools/attack.py --url http://127.0.0.1:8000 [--pid PID] [--quick]

Each probe prints what it tried and what the server did; ``--pid`` adds the
server's resident memory (from /proc) before and after the memory attacks.
Meanwhile a probe request (``GET /api/presets``) measures how long an honest
visitor waits; it comes from 127.0.0.2, another address than the attacker's
127.0.0.1, as an honest visitor would. Run it against a server on this
machine only. The server's table-creation limit is raised above so the
attacks can set up their tables; the rate probe (6) shows it at work.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import statistics
import struct
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.sync.client import connect


class Target:
    def __init__(self, url: str, pid: int | None) -> None:
        self.url = url.rstrip("/")
        parts = urlsplit(self.url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.pid = pid
        self.http = httpx.Client(base_url=self.url, timeout=30)

    def ws(self, path: str) -> str:
        return self.url.replace("http", "ws", 1) + path

    def rss_mb(self) -> float | None:
        if self.pid is None:
            return None
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return None

    def table(self, **body: Any) -> dict[str, Any]:
        # the attacks watch their own tables: open them to spectators
        response = self.http.post("/api/tables", json={"watchable": True, **body})
        response.raise_for_status()
        table: dict[str, Any] = response.json()
        return table


class Probe:
    """An honest visitor asking for the presets every 50 ms in the background."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.waits: list[float] = []
        self.failures = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *args: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=self.target.url, timeout=30, transport=transport) as client:
            while not self._stop.is_set():
                start = time.perf_counter()
                try:
                    client.get("/api/presets").raise_for_status()
                    self.waits.append(time.perf_counter() - start)
                except httpx.HTTPError:
                    self.failures += 1
                self._stop.wait(0.05)

    def summary(self) -> str:
        if not self.waits:
            return f"probe: no answers, {self.failures} failures"
        waits = sorted(self.waits)
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
        return (
            f"probe p50 {statistics.median(waits) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
            f"max {waits[-1] * 1000:.1f} ms, {self.failures} failed"
        )


def mb(value: float | None) -> str:
    return "?" if value is None else f"{value:.1f} MB"


def report(name: str, *lines: str) -> None:
    print(f"\n== {name}")
    for line in lines:
        print(f"   {line}")


def raw(target: Target, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect((target.host, target.port))
    return sock


def upgrade(sock: socket.socket, path: str) -> None:
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        head += chunk


def frame(text: str) -> bytes:
    data = text.encode()
    mask = os.urandom(4)
    head = (
        bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(data))
        if len(data) > 125
        else bytes([0x81, 0x80 | len(data)])
    )
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def is_closed(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            if not sock.recv(65536):
                return True
    except (TimeoutError, BlockingIOError):
        return False
    except OSError:
        return True
    return False


# ------------------------------------------------------------------ the attacks


def secrets_in_messages(t: Target) -> None:
    table = t.table(
        rules="online", length="east", seats=["human", "efficiency", "efficiency", "efficiency"]
    )
    texts = []
    with connect(t.ws(f"/ws/tables/{table['id']}"), max_size=None) as ws:
        texts.append(ws.recv(timeout=10))
    texts += [t.http.get(f"/api/tables/{table['id']}").text, t.http.get("/api/tables").text]
    hello = json.loads(texts[0])
    leaked = [k for k in ("seed", "salt", "bot_seed") if hello.get("table", {}).get(k)]
    report(
        "1. secrets a spectator receives",
        f"seed shown while in play: {'YES' if leaked else 'no'}",
        f"commitment {table['commitment'][:16]}...",
        f"start_match event keys: {sorted(hello['events'][0])}",
    )


def bot_tables(t: Target, count: int) -> None:
    ids = [
        t.table(rules="online", length="south", seats=["efficiency"] * 4)["id"]
        for _ in range(count)
    ]
    with Probe(t) as probe:
        time.sleep(10)
    versions = [t.http.get(f"/api/tables/{i}").json().get("version", "done") for i in ids]
    report(
        f"2. {count} four-bot south tables playing",
        probe.summary(),
        f"table versions after 10 s: {versions[:6]}...",
    )


def sync_flood(t: Target, syncs: int) -> None:
    table = t.table(rules="online", seed="flood")
    sock = raw(t, rcvbuf=4096)
    upgrade(sock, f"/ws/tables/{table['id']}")
    before = t.rss_mb()
    with Probe(t) as probe:
        start = time.perf_counter()
        sock.sendall(b"".join(frame('{"type": "sync"}') for _ in range(syncs)))
        sent = time.perf_counter() - start
        time.sleep(15)  # never reading meanwhile
        dropped = is_closed(sock, 5)
    report(
        f"3. {syncs} syncs from one spectator in one burst ({sent * 1000:.0f} ms to send)",
        probe.summary(),
        f"flooder dropped within 15 s: {dropped}; server memory {mb(before)} -> {mb(t.rss_mb())}",
    )


def slow_reader(t: Target, readers: int) -> None:
    table = t.table(rules="online", length="south", seats=["efficiency"] * 4)
    socks = []
    for _ in range(readers):
        sock = raw(t, rcvbuf=2048)
        upgrade(sock, f"/ws/tables/{table['id']}")
        socks.append(sock)
    before = t.rss_mb()
    with Probe(t) as probe:
        time.sleep(20)
    closed = sum(is_closed(s, 0.5) for s in socks)
    report(
        f"4. {readers} spectators that never read, on a bot table",
        probe.summary(),
        f"dropped by the server after 20 s: {closed}/{readers}; "
        f"memory {mb(before)} -> {mb(t.rss_mb())}",
    )


def idle_connections(t: Target, count: int) -> None:
    socks = []
    refused = 0
    for i in range(count):
        try:
            sock = raw(t)
            if i % 2:
                sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\n")  # never finished
            socks.append(sock)
        except OSError:
            refused += 1
    with Probe(t) as probe:
        time.sleep(12)
    still = sum(not is_closed(s, 0.2) for s in socks)
    report(
        f"5. {count} silent or half-sent connections from one address",
        probe.summary(),
        f"still open after 12 s: {still}; refused at connect: {refused}",
    )
    for s in socks:
        s.close()


def sizes_and_rates(t: Target) -> None:
    def status(body: bytes, headers: dict[str, str] | None = None) -> tuple[int, int]:
        h = {"content-type": "application/json", **(headers or {})}
        response = t.http.post("/api/tables", content=body, headers=h)
        return response.status_code, len(response.content)

    rows = [
        ("5 MB seed", status(json.dumps({"seed": "x" * 5_000_000}).encode())),
        ("3 MB ruleset name", status(json.dumps({"switches": {"name": "y" * 3_000_000}}).encode())),
        ("50 MB body", status(b'{"seed": "' + b"z" * 50_000_000 + b'"}')),
        ("1 MB unknown preset name", status(json.dumps({"rules": "q" * 1_000_000}).encode())),
        ("deep JSON", status(b"[" * 100_000 + b"]" * 100_000)),
        ("invalid UTF-8", status(b'{"seed": "\xff"}')),
        ("NaN seed", status(b'{"seed": NaN}')),
        ("text/plain (cross-site form)", status(b"{}", {"content-type": "text/plain"})),
        ("Origin: evil.example", status(b"{}", {"origin": "http://evil.example"})),
    ]
    created = [t.http.post("/api/tables", json={}).status_code for _ in range(1500)]
    lobby = t.http.get("/api/tables")
    report(
        "6. sizes, shapes and rates",
        *(f"{name:32s} -> {code} ({size} bytes answered)" for name, (code, size) in rows),
        f"1500 tables at once: {created.count(201)} created, {created.count(429)} refused (429), "
        f"{created.count(503)} server full (503)",
        f"lobby page: {len(lobby.content)} bytes, {len(lobby.json()['items'])} of "
        f"{lobby.json()['total']} tables",
    )


def stale_actions(t: Target) -> None:
    table = t.table(rules="online", seed="stale", seats=["human"] * 4)
    url = t.ws(f"/ws/tables/{table['id']}?token={table['tokens'][0]}")
    with connect(url, max_size=None) as ws:
        hello = json.loads(ws.recv(timeout=10))
        state = hello["state"]
        action = {"type": "action", "version": hello["version"], "action": state["legal"][0]}
        answers = []
        for _ in range(2):
            ws.send(json.dumps(action))
            while True:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] in ("ack", "error"):
                    answers.append(message.get("message", "ack"))
                    break
    report("7. the same action sent twice", *answers)


def replays(t: Target, count: int) -> None:
    table = t.table(rules="online", length="south", seats=["efficiency"] * 4)
    deadline = time.monotonic() + 300
    while not t.http.get(f"/api/tables/{table['id']}").json()["over"]:
        if time.monotonic() > deadline:
            report("8. replays", "the bot table did not finish in 5 minutes")
            return
        time.sleep(1)
    results: list[float] = []

    def fetch() -> None:
        start = time.perf_counter()
        httpx.get(f"{t.url}/api/games/{table['id']}/replay", timeout=120).raise_for_status()
        results.append(time.perf_counter() - start)

    with Probe(t) as probe:
        threads = [threading.Thread(target=fetch) for _ in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    report(
        f"8. {count} replays of a south game requested at once",
        probe.summary(),
        f"replay answered in {min(results):.2f} to {max(results):.2f} s",
    )


def cross_site(t: Target) -> None:
    table = t.table(rules="online")
    url = t.ws(f"/ws/tables/{table['id']}?token={table['tokens'][0]}")
    with connect(url, additional_headers={"Origin": "http://evil.example"}) as ws:
        message = json.loads(ws.recv(timeout=10))
    headers = t.http.get("/").headers
    report(
        "9. cross-site",
        f"websocket from another site's page: {message.get('message')}",
        f"content-security-policy: {headers.get('content-security-policy', 'none')[:60]}...",
        f"x-frame-options: {headers.get('x-frame-options')}; referrer-policy: "
        f"{headers.get('referrer-policy')}",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--pid", type=int, default=None, help="the server's process id")
    parser.add_argument("--quick", action="store_true", help="smaller numbers, no replays")
    args = parser.parse_args()
    t = Target(args.url, args.pid)
    quick = args.quick
    attacks: list[Callable[[], None]] = [
        lambda: secrets_in_messages(t),
        lambda: bot_tables(t, 10 if quick else 30),
        lambda: sync_flood(t, 2000 if quick else 10_000),
        lambda: slow_reader(t, 5 if quick else 20),
        lambda: idle_connections(t, 200 if quick else 1000),
        lambda: stale_actions(t),
        lambda: cross_site(t),
    ]
    if not quick:
        attacks.append(lambda: replays(t, 20))
    attacks.append(lambda: sizes_and_rates(t))  # last: it uses up the creation allowance
    print(f"attacking {t.url}" + (f" (pid {t.pid}, {mb(t.rss_mb())})" if t.pid else ""))
    for attack in attacks:
        try:
            attack()
        except Exception as exc:  # report and go on: one failed probe is a finding too
            print(f"   probe failed: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
