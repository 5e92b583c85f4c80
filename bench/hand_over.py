"""A process stopped (SIGTERM) while its tables are in play: the pause each table sees.
Not a test.

    python bench/hand_over.py [--tables 30] [--processes 3] [--rolling]

``--processes`` ``riichi serve --shared`` processes on a fresh PostgreSQL database and
one Redis (both started here, as the tests start them), ``--tables`` live tables of
one person and three bots each, the person connected to the process after its
table's owner. Once every person has acted a few times, the first process gets
SIGTERM (with ``--rolling``, each process in turn, each restarted before the next
stops: what ``riichi serve --workers N`` does on SIGHUP). Each person acts whenever
asked and reconnects to a live process when its connection closes. Printed, for the
tables of each stopped process: the pause, from the person's last acknowledgement
before the stop to its first after it (what the person waited beyond the bots' moves),
at the median, the 90th percentile and the worst; and that every game finished with
nothing acknowledged lost.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from riichi.server import Store
from server_helpers import (
    Postgres,
    Redis,
    Seat,
    SyncSocket,
    free_port,
    postgres_bindir,
    start_server,
    write_tables,
)


def socket_to(port: int, table: dict[str, Any]) -> Any:
    url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={table['tokens'][0]}"
    return connect(url, open_timeout=10)


def person(
    table: dict[str, Any], ports: list[int], n: int, ready: threading.Semaphore
) -> list[float]:
    """Play the table to its end, reconnecting around stops; the time of each ack."""
    acks: list[float] = []
    port = n
    seat: Seat | None = None
    ws: Any = None
    while True:
        try:
            if seat is None:
                ws = socket_to(ports[port % len(ports)], table)
                seat = Seat(SyncSocket(ws))
            while not seat.state["over"]:
                if seat.state["legal"]:
                    seat.act()
                    acks.append(time.monotonic())
                    if len(acks) == 3:
                        ready.release()
                else:
                    seat.read_until("update")
            ws.close()
            if len(acks) < 3:
                ready.release()
            return acks
        except (ConnectionClosed, AssertionError, OSError):
            if ws is not None:
                ws.close()
            seat, port = None, port + 1
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--rolling", action="store_true")
    args = parser.parse_args()
    bindir, redis_binary = postgres_bindir(), shutil.which("redis-server")
    if bindir is None or redis_binary is None:
        sys.exit("needs PostgreSQL and redis-server (tools/system_deps.sh installs them)")
    postgres, redis = Postgres(bindir), Redis(redis_binary)
    folder = Path(tempfile.mkdtemp())
    url = postgres.new_database()
    ports = [free_port() for _ in range(args.processes)]
    options = ("--shared", "--redis", redis.url)
    ids = [f"b{n:03d}" for n in range(args.tables)]
    kinds = ["human", "efficiency", "efficiency", "efficiency"]
    tables = write_tables(url, ids, kinds, "east", preset="classic")
    servers = [
        start_server(url, port, folder / f"{n}.log", *options) for n, port in enumerate(ports)
    ]
    store = Store(url)
    stops: list[tuple[int, float]] = []
    try:
        deadline = time.monotonic() + 60
        while not all(store.lease_owner(t) for t in ids):
            assert time.monotonic() < deadline, "the tables were not all taken"
            time.sleep(0.2)
        ready = threading.Semaphore(0)
        with ThreadPoolExecutor(len(tables)) as pool:
            games = [
                pool.submit(person, table, ports, n + 1, ready) for n, table in enumerate(tables)
            ]
            for _ in tables:
                assert ready.acquire(timeout=300), "a game did not start"
            for n in range(args.processes if args.rolling else 1):
                stops.append((n, time.monotonic()))
                servers[n].send_signal(signal.SIGTERM)
                servers[n].wait(60)
                if args.rolling:
                    servers[n] = start_server(url, ports[n], folder / f"{n}b.log", *options)
                    time.sleep(2)
            acks = [game.result(timeout=1200) for game in games]
        for n, at in stops:
            pauses = []
            for times in acks:
                before = [t for t in times if t <= at]
                after = [t for t in times if t > at]
                if before and after:
                    pauses.append(after[0] - before[-1])
            pauses.sort()
            if pauses:
                print(
                    f"process {n} stopped: {len(pauses)} tables played across it; pause from"
                    f" the last ack before to the first after: median"
                    f" {statistics.median(pauses):.3f} s, p90"
                    f" {pauses[int(0.9 * (len(pauses) - 1))]:.3f} s, worst {pauses[-1]:.3f} s"
                )
        over = sum(1 for t in ids if (s := store.get_table(t)) is not None and s.status == "over")
        print(f"{over} of {len(ids)} games over; {sum(map(len, acks))} actions acknowledged")
    finally:
        store.close()
        for process in servers:
            if process.poll() is None:
                process.terminate()
                process.wait(10)
        redis.stop()
        postgres.stop()


if __name__ == "__main__":
    main()
