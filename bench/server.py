"""One server process under load: committed actions per second, and action latency at
human pace with a crowd of spectators. Not a test.

    python bench/server.py throughput [--tables 200] [--seconds 30] [--bots efficiency]
    python bench/server.py latency [--tables 200] [--spectators 100] [--seconds 60] [--reviews]
    python bench/server.py rated [--sweep 50,100,200,400] [--seconds 45]
    python bench/server.py cluster [--tables 300] [--seconds 20] [--bots efficiency]
    python bench/server.py cluster-latency [--tables 400] [--spectators 100] [--seconds 60]

``throughput``: each table is one scripted person, acting the moment it may,
and three bots; the figure is the actions the server stored per second (read
from the database). ``latency``: each person acts every 1 to 3 seconds; the
figure is the time from sending an action to its acknowledgement (which comes
only after the action is committed), p50 and p99, while ``--spectators``
watch one of the tables; with ``--reviews``, a client keeps a review of a pasted
Tenhou log running the whole time (one after another: one at a time per address).
The server runs as ``riichi serve`` in its own
process with bots answering at once (``--bot-delay 0``); this process plays
the people. ``rated``: rated tables on the standard clock, three roster
computers (at the server's pace of 0.5 s a move) and one scripted person
(0.5 to 1.5 s a move, ready at once after each result) per table; for each
number of tables in ``--sweep`` the ack latency, and the largest number whose
p99 stays under 100 ms. ``cluster``: the same tables on PostgreSQL, played
through one ``riichi serve --shared`` process and then through two (with
Redis; each person connects to either process, so about half the connections
are relayed to their table's owner): committed actions per second for each,
and the ratio (goal 1.6); then one of the two is killed with ``kill -9`` and
the time until the other owns all of its tables is measured. ``cluster-latency``:
``--tables`` (400) at human pace over two such processes, with ``--spectators``
(100) on one table: ack latency p50 and p99 for every action, and apart for
the connections to the table's owner and those relayed. PostgreSQL and
``redis-server`` are started in a temporary directory, as the tests start them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_helpers import Postgres, Redis, choose, postgres_bindir, write_tables

SERVER_LOG = None if os.environ.get("RIICHI_BENCH_LOG") else subprocess.DEVNULL
SERVE = os.environ.get("RIICHI_BENCH_SERVE", "-m riichi.cli").split()
# committed actions/s: 3,000 with bots that answer at once (tsumogiri), and with bots that
# think, twice the 650-750 one process committed before the compiled core
THROUGHPUT_GOALS = {"tsumogiri": 3000.0}
THINKING_GOAL = 1500.0
GOALS = {"p99": 0.100}


class Server:
    def __init__(self, db: Path | str, bot_delay: float = 0.0, *options: str) -> None:
        with socket_port() as port:
            self.port = port
        self.db = db
        url = db if isinstance(db, str) else f"sqlite:///{db}"
        command = [sys.executable, *SERVE, "serve", "--port", str(port)]
        command += ["--db", url, "--bot-delay", str(bot_delay), "--no-access-log"]
        command += ["--sockets-per-address", "10000", *options]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=SERVER_LOG)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{self.url}/api/presets", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.2)
        raise SystemExit("the server did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stored_actions(self) -> int:
        if isinstance(self.db, str):
            from sqlalchemy import create_engine, text

            engine = create_engine(self.db)
            with engine.connect() as conn:
                count = int(conn.execute(text("select count(*) from actions")).scalar_one())
            engine.dispose()
            return count
        with sqlite3.connect(self.db) as conn:
            return int(conn.execute("select count(*) from actions").fetchone()[0])

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


class socket_port:
    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        port: int = self.sock.getsockname()[1]
        return port

    def __exit__(self, *args: object) -> None:
        self.sock.close()


def new_tables(
    db: Path | str, count: int, bots: str, length: str, rated: bool = False
) -> list[dict[str, Any]]:
    """Tables written straight into the database; the server restores them when it
    starts, as after a restart."""
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    ids = [f"bench{i:05d}" for i in range(count)]
    return write_tables(url, ids, ["human"] + [bots] * 3, length, rated)


async def person(
    url: str,
    table: dict[str, Any],
    until: float,
    pace: tuple[float, float] | None,
    waits: list[float],
    rng: random.Random,
    drops: list[str] | None = None,
    acked: list[int] | None = None,
) -> None:
    """Play one seat until time is up; record each action's wait for its ack (after the
    first five seconds, while the server restores its tables and everyone connects),
    and count every ack in ``acked[0]`` (the warm-up's too, as /metrics counts them).
    A dropped connection is reconnected, as a client does, and noted in ``drops``."""
    warm = time.monotonic() + 5.0
    ws_url = url.replace("http", "ws") + f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
    while True:
        try:
            await seat(ws_url, until, pace, waits, rng, warm, acked)
            return
        except websockets.ConnectionClosed as closed:
            if drops is None:
                raise
            drops.append(f"{closed.rcvd.reason if closed.rcvd else 'no close frame'}")


async def seat(
    ws_url: str,
    until: float,
    pace: tuple[float, float] | None,
    waits: list[float],
    rng: random.Random,
    warm: float,
    acked: list[int] | None = None,
) -> None:
    async with websockets.connect(ws_url, max_size=None) as ws:
        version, state = -1, None
        pending: float | None = None
        paused = None
        async for text in ws:
            message = json.loads(text)
            kind = message["type"]
            if kind in ("hello", "state", "update"):
                version, state = message["version"], message["state"]
            elif kind == "ack" and pending is not None:
                if acked is not None:
                    acked[0] += 1
                if time.monotonic() > warm:  # past the start-up, when every table loads
                    waits.append(time.perf_counter() - pending)
                pending = None
            elif kind == "error":
                pending = None
                if "result is showing" not in message["message"]:
                    await ws.send(json.dumps({"type": "sync"}))
                continue
            clock = message.get("clock")
            if clock and clock.get("pause_until") not in (None, paused):
                paused = clock["pause_until"]
                await ws.send(json.dumps({"type": "ready"}))  # seen the result: go on
            if time.monotonic() > until or (state is not None and state["over"]):
                return
            if state is None:
                continue
            if pending is None and state["legal"]:
                if pace is not None:
                    await asyncio.sleep(rng.uniform(*pace))
                pending = time.perf_counter()
                action = {"type": "action", "version": version, "action": choose(state)}
                await ws.send(json.dumps(action))


async def spectator(url: str, table: dict[str, Any], until: float, seen: list[int]) -> None:
    ws_url = url.replace("http", "ws") + f"/ws/tables/{table['id']}"
    async with websockets.connect(ws_url, max_size=None) as ws:
        while time.monotonic() < until:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                seen[0] += 1
            except TimeoutError:
                return


async def run(args: argparse.Namespace) -> list[float]:
    workdir = Path(tempfile.mkdtemp(prefix="riichi-bench-"))
    rated = args.mode == "rated"
    length = "east" if rated else "south"
    tables = new_tables(workdir / "bench.db", args.tables, args.bots, length, rated)
    started = time.monotonic()
    reviews = ("--reviews-per-minute", "100000") if args.reviews else ()
    with socket_port() as metrics_port:
        scrape = f"http://127.0.0.1:{metrics_port}/metrics"
    metrics = ("--metrics", f"127.0.0.1:{metrics_port}")
    server = Server(workdir / "bench.db", 0.5 if rated else 0.0, *reviews, *metrics)
    print(f"server up in {time.monotonic() - started:.1f} s with {args.tables} live tables")
    try:
        rng = random.Random(args.seed)
        waits: list[float] = []
        seen = [0]
        start_actions = server.stored_actions()
        before = scraped(scrape)
        start = time.monotonic()
        until = start + args.seconds
        pace = {"throughput": None, "latency": (1.0, 3.0), "rated": (0.5, 1.5)}[args.mode]
        acks = [0]
        jobs = [
            person(server.url, t, until, pace, waits, random.Random(rng.random()), acked=acks)
            for t in tables
        ]
        jobs += [spectator(server.url, tables[0], until, seen) for _ in range(args.spectators)]
        reviewed: list[float] = []
        if args.reviews:
            jobs.append(reviewing(server.url, until, reviewed))
        jobs.append(scraping(scrape, start + args.seconds / 2, during := []))
        await asyncio.gather(*jobs, return_exceptions=False)
        elapsed = time.monotonic() - start
        stored = server.stored_actions() - start_actions
        after = scraped(scrape)
    finally:
        server.stop()
    rate = stored / elapsed
    print(f"{args.mode}: {args.tables} tables (1 person + 3 {args.bots} bots each), "
          f"{args.spectators} spectators, {elapsed:.1f} s")  # fmt: skip
    print(f"  committed actions      {stored}  ({rate:,.0f}/s)")
    print(f"  person actions         {len(waits)}")
    if waits:
        waits.sort()
        p50 = statistics.median(waits)
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
        print(f"  ack latency            p50 {p50 * 1000:.1f} ms  p99 {p99 * 1000:.1f} ms  "
              f"max {waits[-1] * 1000:.1f} ms")  # fmt: skip
    committed = after["riichi_actions_committed_total"] - before["riichi_actions_committed_total"]
    acked = after["riichi_ack_seconds_count"] - before["riichi_ack_seconds_count"]
    print(f"  /metrics mid-run       {during[0]:.0f} live tables, {during[1]:.0f} sockets")
    print(f"  /metrics: committed    {committed:.0f} (the database: {stored}); acks {acked:.0f}"
          f" (the bench: {acks[0]}, {len(waits)} of them past the warm-up)")  # fmt: skip
    if args.spectators:
        print(f"  spectator messages     {seen[0]}")
    if args.reviews:
        each = statistics.mean(reviewed) if reviewed else 0.0
        print(f"  reviews done           {len(reviewed)}  ({each:.2f} s each, asked to answered)")
    if args.mode == "throughput":
        goal = THROUGHPUT_GOALS.get(args.bots, THINKING_GOAL)
        verdict = "met" if rate >= goal else "NOT met"
        print(f"  goal with {args.bots} bots >= {goal:,.0f} committed actions/s: {verdict}")
    elif waits:
        verdict = "met" if p99 < GOALS["p99"] else "NOT met"
        print(f"  goal p99 < {GOALS['p99'] * 1000:.0f} ms: {verdict}")
    return waits


def scraped(url: str) -> dict[str, float]:
    """A metrics page's samples, labels summed away."""
    out: dict[str, float] = {}
    for line in httpx.get(url, timeout=10).text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.split("{")[0].split(" ")[0], float(line.rsplit(" ", 1)[1])
            out[name] = out.get(name, 0.0) + value
    return out


async def scraping(url: str, at: float, into: list[float]) -> None:
    """Scrape once mid-run, as Prometheus would: live tables and sockets."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    page = await asyncio.to_thread(scraped, url)
    into += [page.get("riichi_live_tables", 0.0), page.get("riichi_sockets", 0.0)]


REVIEWED_LOG = (
    Path(__file__).resolve().parents[2] / "shared/corpus/dnovikoff_tenhou/test_data/bug1.xml"
)


async def reviewing(url: str, until: float, done: list[float]) -> None:
    """Keep a review running until ``until``: a Phoenix game's log, each seat in turn."""
    text = REVIEWED_LOG.read_text()
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        seat = 0
        while time.monotonic() < until:
            began = time.monotonic()
            answer = await client.post("/api/reviews", json={"log": text, "seat": seat % 4})
            if answer.status_code != 200:
                raise SystemExit(f"review refused: {answer.text[:200]}")
            done.append(time.monotonic() - began)
            seat += 1


async def play(urls: list[str], tables: list[dict[str, Any]], seconds: float) -> None:
    """One scripted person per table, acting at once, through the processes in turn."""
    until = time.monotonic() + seconds
    rng = random.Random(0)
    waits: list[float] = []
    await asyncio.gather(
        *(
            person(urls[i % len(urls)], t, until, None, waits, random.Random(rng.random()))
            for i, t in enumerate(tables)
        )
    )


def start_together(count: int, db: str, options: tuple[str, ...]) -> list[Server]:
    """``count`` processes started at once, so that they share the free tables."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(lambda _: Server(db, 0.0, *options), range(count)))


def owned(db: str) -> dict[str, int]:
    """How many live tables each process holds a lease of."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    query = (
        "select l.owner, count(*) from leases l join tables t on t.id = l.table_id "
        "where t.status = 'live' and l.expires > :now group by l.owner"
    )
    with engine.connect() as conn:
        rows = conn.execute(text(query), {"now": time.time()}).all()
    engine.dispose()
    return {str(owner): int(n) for owner, n in rows}


@contextmanager
def cluster_services() -> Iterator[tuple[Any, str]]:
    """PostgreSQL and ``redis-server`` in a temporary directory, as the tests start them:
    yields the PostgreSQL helper (for new databases) and the Redis URL."""
    import shutil

    bindir, binary = postgres_bindir(), shutil.which("redis-server")
    if bindir is None or binary is None:
        raise SystemExit("cluster needs PostgreSQL and redis-server (tools/system_deps.sh)")
    pg, cache = Postgres(bindir), Redis(binary)
    try:
        yield pg, cache.url
    finally:
        cache.stop()
        pg.stop()


@contextmanager
def cluster_of(processes: int, db: str, redis: str, tables: int) -> Iterator[list[Server]]:
    """``processes`` servers on ``db`` and ``redis``, once they hold every live table."""
    servers = start_together(processes, db, ("--shared", "--redis", redis))
    try:
        deadline = time.monotonic() + 120  # free tables are taken 8 at a time
        while sum(owned(db).values()) < tables:
            if time.monotonic() > deadline:
                raise SystemExit("the processes did not take every table")
            time.sleep(0.5)
        print(f"{processes} process(es): holding {owned(db)}")
        yield servers
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.stop()


def cpu_seconds(servers: list[Server]) -> dict[str, float]:
    """CPU time used so far by the servers, PostgreSQL, Redis and this load generator
    (from /proc): where the machine's cores went."""
    tick = os.sysconf("SC_CLK_TCK")
    ours = {s.process.pid for s in servers}
    used = {"servers": 0.0, "postgres": 0.0, "redis": 0.0, "load": 0.0}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        seconds = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
        pid = int(entry.name)
        if pid in ours:
            used["servers"] += seconds
        elif pid == os.getpid():
            used["load"] += seconds
        elif name == "postgres":
            used["postgres"] += seconds
        elif name.startswith("redis-server"):
            used["redis"] += seconds
    return used


def cluster(args: argparse.Namespace) -> None:
    rates: list[float] = []
    with cluster_services() as (pg, redis):
        for processes in (1, 2):
            db = pg.new_database()
            tables = new_tables(db, args.tables, args.bots, "south")
            with cluster_of(processes, db, redis, args.tables) as servers:
                start_actions = servers[0].stored_actions()
                start, cpu = time.monotonic(), cpu_seconds(servers)
                asyncio.run(play([s.url for s in servers], tables, args.seconds))
                elapsed = time.monotonic() - start
                rate = (servers[0].stored_actions() - start_actions) / elapsed
                rates.append(rate)
                print(f"  committed actions      {rate:,.0f}/s over {elapsed:.1f} s")
                spent = {k: v - cpu[k] for k, v in cpu_seconds(servers).items()}
                shares = ", ".join(f"{k} {v / elapsed:.2f}" for k, v in spent.items())
                print(f"  cores busy             {shares} (of {os.cpu_count()})")
                per_core = rate * elapsed / max(spent["servers"], 1e-9)
                print(f"  per server core        {per_core:,.0f} actions/s")
                if processes == 2:
                    held = owned(db)
                    killed = time.monotonic()
                    servers[0].process.kill()
                    servers[0].process.wait(30)
                    while len(owned(db)) > 1 or sum(owned(db).values()) < sum(held.values()):
                        if time.monotonic() - killed > 120:
                            raise SystemExit("the tables were not taken over")
                        time.sleep(0.1)
                    print(
                        f"  kill -9 of one process: its tables taken over in "
                        f"{time.monotonic() - killed:.1f} s ({held})"
                    )
    ratio = rates[1] / rates[0]
    verdict = "met" if ratio >= 1.6 else "NOT met"
    print(f"2 processes against 1: {ratio:.2f}x (goal 1.6x: {verdict})")


def table_owners(db: str) -> dict[str, str]:
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    with engine.connect() as conn:
        rows = conn.execute(text("select table_id, owner from leases")).all()
    engine.dispose()
    return {str(table): str(owner) for table, owner in rows}


def quantiles(waits: list[float]) -> str:
    waits = sorted(waits)
    if not waits:
        return "none"
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
    return (f"p50 {statistics.median(waits) * 1000:.1f} ms  p99 {p99 * 1000:.1f} ms  "
            f"({len(waits)} actions)")  # fmt: skip


def cluster_latency(args: argparse.Namespace) -> None:
    """Human pace over two processes; each person's wait is filed as direct or relayed
    by whether the process it talks to owns its table."""
    with cluster_services() as (pg, redis):
        db = pg.new_database()
        tables = new_tables(db, args.tables, args.bots, "south")
        with cluster_of(2, db, redis, args.tables) as servers:
            process = [httpx.get(f"{s.url}/api/health").json()["process"] for s in servers]
            owners = table_owners(db)
            waits: dict[bool, list[float]] = {True: [], False: []}
            seen = [0]
            drops: list[str] = []
            rng = random.Random(args.seed)
            until = time.monotonic() + args.seconds

            async def crowd() -> None:
                jobs = []
                for i, table in enumerate(tables):
                    at = i % 2
                    relayed = owners[table["id"]] != process[at]
                    gen = random.Random(rng.random())
                    pace = (1.0, 3.0)
                    jobs.append(
                        person(servers[at].url, table, until, pace, waits[relayed], gen, drops)
                    )
                for j in range(args.spectators):
                    jobs.append(spectator(servers[j % 2].url, tables[0], until, seen))
                await asyncio.gather(*jobs)

            cpu = cpu_seconds(servers)
            asyncio.run(crowd())
            spent = {k: v - cpu[k] for k, v in cpu_seconds(servers).items()}
    every = waits[True] + waits[False]
    print(f"cluster latency: {args.tables} tables over 2 processes at human pace, "
          f"{args.spectators} spectators ({seen[0]} messages), {args.seconds:.0f} s")  # fmt: skip
    print(f"  every action           {quantiles(every)}")
    print(f"  direct connections     {quantiles(waits[False])}")
    print(f"  relayed connections    {quantiles(waits[True])}")
    shares = ", ".join(f"{k} {v / args.seconds:.2f}" for k, v in spent.items())
    print(f"  cores busy             {shares} (of {os.cpu_count()})")
    reasons = ", ".join(f"{n} {why}" for why, n in Counter(drops).most_common())
    print(f"  connections dropped    {len(drops)}{': ' if drops else ''}{reasons}")
    if every:
        p99 = sorted(every)[min(len(every) - 1, int(len(every) * 0.99))]
        verdict = "met" if p99 < GOALS["p99"] else "NOT met"
        print(f"  goal p99 < {GOALS['p99'] * 1000:.0f} ms: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "mode", choices=["throughput", "latency", "rated", "cluster", "cluster-latency"]
    )
    parser.add_argument("--sweep", default="50,100,200,400", help="rated: numbers of tables")
    parser.add_argument("--tables", type=int, default=None)
    parser.add_argument("--spectators", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--bots", default="efficiency")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reviews", action="store_true", help="latency: with a review running")
    args = parser.parse_args()
    if args.tables is None:  # enough that every process is busy, and none ends its games
        args.tables = {"cluster": 300, "cluster-latency": 400}.get(args.mode, 200)
    if args.spectators is None:
        args.spectators = 100 if args.mode in ("latency", "cluster-latency") else 0
    if args.mode == "rated":
        args.spectators = 0
        args.bots = "defensive"
    if args.seconds is None:
        seconds = {"latency": 60.0, "cluster-latency": 60.0, "rated": 45.0, "cluster": 20.0}
        args.seconds = seconds.get(args.mode, 30.0)
    if args.mode == "cluster":
        cluster(args)
        return
    if args.mode == "cluster-latency":
        cluster_latency(args)
        return
    if args.mode != "rated":
        asyncio.run(run(args))
        return
    best = 0
    for count in (int(x) for x in args.sweep.split(",")):
        args.tables = count
        waits = sorted(asyncio.run(run(args)))
        if waits and waits[min(len(waits) - 1, int(len(waits) * 0.99))] < GOALS["p99"]:
            best = max(best, count)
    print(f"largest number of rated tables with p99 under 100 ms: {best or 'none'}")


if __name__ == "__main__":
    main()
