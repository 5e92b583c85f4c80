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

The probes of the third review (``R1`` to ``R15``, one per finding) each print
REFUSED or NOT REFUSED: chips from nothing, the Daily Wall scouted, one
address slowing or locking out the site, collusion, and the low ones. They
come from many loopback addresses (127.0.x.y), as many visitors would.
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
        self.owners: list[Visitor] = []  # the account opening the attacks' tables now
        self.opened: list[Visitor] = []

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
        """A table the attacks set up (open to spectators, so they can watch it), from
        signed-in accounts on their own addresses: one account opens ten at most."""
        for _ in range(100):
            if not self.owners:
                self.owners.append(Visitor(self, f"127.0.20.{len(self.opened) + 1}"))
                self.opened.append(self.owners[-1])
            response = self.owners[-1].post("/api/tables", {"watchable": True, **body})
            if response.status_code == 429 and "tables in play" in response.text:
                self.owners.clear()  # that account is full: the next one
                continue
            response.raise_for_status()
            table: dict[str, Any] = response.json()
            return table
        raise RuntimeError("no account could open a table")


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


# ------------------------------------------------------------------ the third review


class Visitor:
    """A client from its own loopback address, signed in as a fresh account if asked."""

    made = 0

    def __init__(self, t: Target, address: str, account: bool = True) -> None:
        self.t = t
        transport = httpx.HTTPTransport(local_address=address)
        self.http = httpx.Client(base_url=t.url, timeout=60, transport=transport)
        self.name = ""
        if account:
            Visitor.made += 1
            self.name = f"atk{os.getpid() % 1000}x{Visitor.made}"
            answer = self.http.post(
                "/api/register", json={"name": self.name, "password": "attacker pw"}
            )
            answer.raise_for_status()

    def post(self, path: str, body: Any) -> httpx.Response:
        return self.http.post(path, json=body)

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


def verdict(refused: bool) -> str:
    return "REFUSED" if refused else "NOT REFUSED"


def play_out(t: Target, visitor: Visitor, table_id: str) -> None:
    """Play a table to its end by the simplest rule: win, else pass, else the drawn tile."""
    with connect(
        t.ws(f"/ws/tables/{table_id}"), additional_headers={"Cookie": visitor.cookie()}
    ) as ws:
        state = json.loads(ws.recv(timeout=30))
        version, view = state["version"], state["state"]
        while not view["over"]:
            if view["legal"]:
                legal = view["legal"]
                pick = next((a for a in legal if a["type"] in ("tsumo", "ron", "pass")), None)
                if pick is None:
                    drawn = {"type": "discard", "tile": view["drawn"]}
                    pick = drawn if drawn in legal else legal[0]
                ws.send(json.dumps({"type": "action", "version": version, "action": pick}))
            message = json.loads(ws.recv(timeout=60))
            if message["type"] in ("update", "state", "hello"):
                version, view = message["version"], message["state"]


MONEY = {
    "rules": "riichi-basic",
    "length": "one-hand",
    "switches": {"settlement": "winner-takes-all"},
}


def review_money(t: Target) -> None:
    v = Visitor(t, "127.0.10.1")
    roster = ["human", "expert", "expert", "expert"]
    seeded = v.post(
        "/api/tables", {**MONEY, "seats": roster, "clock": "standard", "bet": 5000, "seed": "S"}
    )
    weak = v.post(
        "/api/tables",
        {
            **MONEY,
            "seats": ["human", "random", "random", "random"],
            "clock": "standard",
            "bet": 5000,
        },
    )
    cup = v.post(
        "/api/tournaments",
        {"name": "free", "added": 1_000_000, "payout": [25, 25, 25, 25], "closes_in": 60},
    )
    report(
        "R1-R3. chips from nothing",
        f"R1 money table on a chosen seed: {verdict(seeded.status_code >= 400)} "
        f"({seeded.status_code} {seeded.json().get('error', '')[:70]})",
        f"R2 money table against random bots: {verdict(weak.status_code >= 400)} "
        f"({weak.status_code} {weak.json().get('error', '')[:70]})",
        f"R3 tournament with a million added by anyone: {verdict(cup.status_code >= 400)} "
        f"({cup.status_code} {cup.json().get('error', '')[:70]})",
    )


def review_daily(t: Target) -> None:
    scout = Visitor(t, "127.0.11.1")
    started = scout.post("/api/daily", {}).json()
    play_out(t, scout, started["table"])
    table = started["table"]
    leaks = {
        fmt: scout.http.get(f"/api/games/{table}/{fmt}").status_code
        for fmt in ("record", "tenhou6", "replay")
    }
    info = scout.http.get(f"/api/tables/{table}").json()
    listed = [g for g in scout.http.get("/api/games").json()["items"] if g["id"] == table]
    second = Visitor(t, "127.0.11.2")
    second.post("/api/daily", {})
    day = second.http.get("/api/daily").json()
    ranked = [row["name"] for row in day["board"]]
    shown = (
        any(code == 200 for code in leaks.values())
        or info.get("standings")
        or (listed and listed[0].get("standings"))
    )
    report(
        "R4. the Daily Wall scouted by a second account",
        f"the finished attempt's record, download, replay to its own player: {leaks} -> "
        f"{verdict(not shown)}",
        f"its standings in the public lists before the day ends: "
        f"{verdict(not info.get('standings'))}",
        f"an account made today ranked on the board: "
        f"{verdict(second.name not in ranked and scout.name not in ranked)}",
    )


def review_sign_in_flood(t: Target, addresses: int) -> None:
    member = Visitor(t, "127.0.12.250")
    waits: list[float] = []
    codes: list[int] = []

    def flood(n: int) -> None:
        transport = httpx.HTTPTransport(local_address=f"127.0.12.{n + 1}")
        with httpx.Client(base_url=t.url, timeout=120, transport=transport) as c:
            for _ in range(10):
                codes.append(
                    c.post(
                        "/api/signin", json={"name": member.name, "password": "wrong pass"}
                    ).status_code
                )

    before = t.rss_mb()
    threads = [threading.Thread(target=flood, args=(n,)) for n in range(addresses)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        start = time.perf_counter()
        member.http.get("/api/me").raise_for_status()
        waits.append(time.perf_counter() - start)
        time.sleep(0.1)
    for thread in threads:
        thread.join()
    waits.sort()
    worst = waits[-1] if waits else 0.0
    report(
        f"R5. {addresses} addresses x 10 wrong passwords at once",
        f"a signed-in page meanwhile: p50 {statistics.median(waits or [0]) * 1000:.0f} ms, "
        f"max {worst * 1000:.0f} ms over {len(waits)} requests -> {verdict(worst < 2.0)}",
        f"answers: {codes.count(401)} wrong password, {codes.count(503)} busy, "
        f"{codes.count(429)} rate-limited; memory {mb(before)} -> {mb(t.rss_mb())}",
    )


def review_lockout(t: Target, addresses: int) -> None:
    practice = {"kind": "practice", "rules": "classic", "length": "one-hand"}
    codes: list[int] = []
    with Probe(t) as probe:
        for n in range(addresses):
            guest = Visitor(t, f"127.0.13.{n + 1}", account=False)
            codes += [guest.post("/api/tables", practice).status_code for _ in range(30)]
    member = Visitor(t, "127.0.13.250")
    mine = member.post("/api/tables", practice)
    report(
        f"R6. {addresses} addresses x 30 practice tables nobody plays",
        probe.summary(),
        f"created {codes.count(201)}, refused {len(codes) - codes.count(201)} "
        f"(guests' budget); a signed-in person with no table: {mine.status_code} -> "
        f"{verdict(codes.count(201) < len(codes))}, locked out: "
        f"{'YES' if mine.status_code != 201 else 'no'}",
    )


def review_tournaments(t: Target, entrants: int) -> None:
    organiser = Visitor(t, "127.0.14.250")
    body = {"name": "race", "rules": "classic", "length": "one-hand", "rounds": 2, "closes_in": 600}
    cup = organiser.post("/api/tournaments", {**body, "bet": 10}).json()
    big = organiser.post("/api/tournaments", {**body, "rounds": 20})
    second = organiser.post("/api/tournaments", body)  # while the first is open
    bounded = big.status_code >= 400 and second.status_code >= 400
    people = [Visitor(t, f"127.0.14.{n + 1}") for n in range(entrants)]
    codes: list[int] = []

    def enter(v: Visitor) -> None:
        codes.append(v.post(f"/api/tournaments/{cup['id']}/register", {}).status_code)

    early = entrants // 2  # enough to play: the rest race the start
    for v in people[:early]:
        enter(v)
    threads = [threading.Thread(target=enter, args=(v,)) for v in people[early:]]
    for thread in threads:
        thread.start()
    start = organiser.post(f"/api/tournaments/{cup['id']}/start", {})
    for thread in threads:
        thread.join()
    view = organiser.http.get(f"/api/tournaments/{cup['id']}").json()
    entered = {e["player"] for e in view["entrants"]}
    seated = [p for row in view["tables"] if row["round"] == 1 for p in row["players"] if p]
    charged = sum(1 for v in people if v.http.get("/api/chips").json()["balance"] != 10_000)
    refused = len(codes) - codes.count(200)
    kept = charged == len(entered) == len(set(seated)) == len(seated)
    report(
        f"R7-R8. {entrants - early} registrations racing /start, and tournaments without end",
        f"start {start.status_code}; registered {codes.count(200)}, refused {refused}",
        f"charged {charged}, entered {len(entered)}, seated in round 1 {len(seated)} "
        f"(twice: {len(seated) - len(set(seated))}) -> {verdict(kept)}",
        f"R8 20 rounds: {big.status_code}; a second tournament of one organiser: "
        f"{second.status_code} -> {verdict(bounded)}",
    )


def review_forwarded(t: Target) -> None:
    codes = [
        t.http.post(
            "/api/register",
            json={"name": "x", "password": "attacker pw"},
            headers={"X-Forwarded-For": f"198.51.100.{n}"},
        ).status_code
        for n in range(12)
    ]
    report(
        "R9. twelve sign-ups claiming twelve addresses by X-Forwarded-For",
        f"answers {codes} -> {verdict(429 in codes)}",
    )


def review_collusion(t: Target) -> None:
    mine = [Visitor(t, "127.0.15.1") for _ in range(4)]
    for v in mine:
        v.post("/api/queue", {"pool": "standard"})
    time.sleep(35)  # past the wait after which computers fill the seats
    tables = {tuple(x["id"] for x in v.http.get("/api/me").json()["tables"]) for v in mine}
    together = len(tables) < len(mine)
    report(
        "R10. four accounts of one address in the rated queue",
        f"tables they were seated at: {len(tables)} -> {verdict(not together)}",
    )


def review_low(t: Target) -> None:
    sock = raw(t)
    sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\nX-Big: ")
    sent = 0
    try:
        while sent < 16 * 1024 * 1024:
            sock.sendall(b"a" * 65536)
            sent += 65536
    except OSError:
        pass
    sock.settimeout(5)
    try:
        head = sock.recv(64)
    except OSError:
        head = b""
    sock.close()
    visitor = Visitor(t, "127.0.16.1")
    points = visitor.post("/api/tables", {"kind": "practice", "switches": {"start_points": 10**19}})
    digits = visitor.http.post(
        "/api/tables",
        content=b'{"bet": ' + b"9" * 5000 + b"}",
        headers={"content-type": "application/json"},
    )
    player = visitor.http.get("/api/players/account:" + "9" * 30)
    table = visitor.post("/api/tables", {"rules": "classic", "watchable": True}).json()
    info = visitor.http.get(f"/api/tables/{table['id']}").json()
    names = ["b0t", "bоt", "ｂｏｔ", "expert", "аdmin"]
    accepted = [
        n
        for n in names
        if Visitor(t, "127.0.16.2", account=False)
        .post("/api/register", {"name": n, "password": "attacker pw"})
        .status_code
        == 201
    ]
    report(
        "R11-R15. the low findings",
        f"R11 a 16 MB header: {sent // 1024} KB sent, answered {head[:12]!r} -> "
        f"{verdict(sent < 16 * 1024 * 1024 or head.startswith(b'HTTP/1.1 431'))}",
        f"R12 start_points 10^19: {points.status_code} -> {verdict(points.status_code == 400)}",
        f"R13 a 5,000-digit integer: {digits.status_code}; a 30-digit account: "
        f"{player.status_code} -> "
        f"{verdict(digits.status_code == 400 and player.status_code == 404)}",
        f"R14 the live version in a table's public facts: "
        f"{'shown' if 'version' in info else 'hidden'} -> {verdict('version' not in info)}",
        f"R15 names that pass for computers or staff accepted: {accepted} -> "
        f"{verdict(not accepted)}",
    )


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
    versions = [t.http.get(f"/api/tables/{i}").json().get("actions", "done") for i in ids]
    report(
        f"2. {count} four-bot south tables playing",
        probe.summary(),
        f"actions shown after 10 s: {versions[:6]}...",
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
        lambda: review_money(t),
        lambda: review_daily(t),
        lambda: review_sign_in_flood(t, 5 if quick else 20),
        lambda: review_lockout(t, 5 if quick else 30),
        lambda: review_tournaments(t, 8 if quick else 16),
        lambda: review_forwarded(t),
        lambda: review_low(t),
    ]
    if not quick:
        attacks.append(lambda: review_collusion(t))
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
