"""A site under faults for a long while: tables in play throughout, processes killed,
PostgreSQL and Redis restarted; then every game is checked. Not a test.

    python bench/soak.py [--minutes 30] [--tables 200] [--processes 3] [--kill-every 180]

``--processes`` ``riichi serve --shared`` processes on a fresh PostgreSQL database and
one Redis (both started here, as the tests start them) keep ``--tables`` games of one
person and three bots in play for ``--minutes``: each person thinks ``--think``
seconds a decision, connects to a random process (most are relayed to the owner),
reconnects to another whenever its connection closes, and starts a new table when its
game ends. Every ``--kill-every`` seconds (give or take a third) a random process is
killed with SIGKILL and started again; PostgreSQL is restarted once (a third of the
way) and Redis once (two thirds). Then the people finish their games and every table
is checked: it is over; its record from the site verifies (the seed's walls give
every event and the standings); every action the person saw acknowledged is stored,
once; no connection came back behind a version it had acknowledged; the chip ledger's
audit is clean. Printed: tables, actions, faults, the longest wait of any person for
an acknowledgement (from deciding to the ack, across reconnections) and the memory of
each process over time.
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from riichi.game import verify_record
from riichi.server import Store
from riichi.server.money.ledger import ChipStore
from server_helpers import (
    Postgres,
    Redis,
    Seat,
    SyncSocket,
    choose,
    free_port,
    postgres_bindir,
    start_server,
    stored_actions,
    write_tables,
)

KINDS = ["human", "efficiency", "efficiency", "efficiency"]


@dataclass
class Tally:
    """What the people saw, counted across their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: Counter[str] = field(default_factory=Counter)  # table -> the person's acks
    behind: list[str] = field(default_factory=list)  # connections behind an ack
    reconnects: int = 0
    longest: float = 0.0  # seconds from deciding to the ack
    longest_at: str = ""
    tables: list[str] = field(default_factory=list)


class Site:
    """The processes, their database and Redis, and the faults done to them."""

    def __init__(self, processes: int, folder: Path) -> None:
        bindir, redis_binary = postgres_bindir(), shutil.which("redis-server")
        if bindir is None or redis_binary is None:
            sys.exit("needs PostgreSQL and redis-server (tools/system_deps.sh installs them)")
        self.postgres, self.redis = Postgres(bindir), Redis(redis_binary)
        self.url = self.postgres.new_database()
        self.folder = folder
        self.ports = [free_port() for _ in range(processes)]
        self.options = ("--shared", "--redis", self.redis.url, "--sockets-per-address", "5000")
        self.servers = [self.start(n) for n in range(processes)]
        self.made = 0
        self.store = Store(self.url)  # the tables are written here, as a site's are
        self.lock = threading.Lock()
        self.faults: list[str] = []
        self.memory: list[tuple[float, list[int]]] = []
        self.ends = float("inf")  # when the people stop starting games

    def start(self, n: int) -> Any:
        log = self.folder / f"{n}-{time.monotonic():.0f}.log"
        # a restart restores its share of the tables while the others keep both cores
        # busy: it may take longer than a quiet start
        return start_server(self.url, self.ports[n], log, *self.options, wait=RESTART_WAIT)

    def new_table(self) -> dict[str, Any]:
        with self.lock:
            self.made += 1
            table_id = f"s{self.made:05d}"
            (table,) = write_tables(self.store, [table_id], KINDS, "east", preset="classic")
        return table

    def kill(self, rng: random.Random, began: float) -> None:
        n = rng.randrange(len(self.servers))
        self.servers[n].send_signal(signal.SIGKILL)
        self.servers[n].wait(30)
        time.sleep(2)
        for _ in range(3):
            try:
                self.servers[n] = self.start(n)
                break
            except AssertionError:  # its port taken meanwhile, or too slow: again
                time.sleep(2)
        else:
            self.faults.append(f"{time.monotonic() - began:6.0f} s: process {n} killed, NOT back")
            return
        self.faults.append(f"{time.monotonic() - began:6.0f} s: process {n} killed, restarted")

    def restart_postgres(self, began: float) -> None:
        self.postgres.restart()
        self.faults.append(f"{time.monotonic() - began:6.0f} s: PostgreSQL restarted")

    def restart_redis(self, began: float) -> None:
        # its port may be taken meanwhile as the source port of an outgoing
        # connection (it is an ephemeral one): tried again, and said if it failed
        for _ in range(3):
            try:
                self.redis.restart()
            except AssertionError:
                continue
            self.faults.append(f"{time.monotonic() - began:6.0f} s: Redis restarted")
            return
        self.faults.append(f"{time.monotonic() - began:6.0f} s: Redis did NOT come back")

    def sample_memory(self, began: float) -> None:
        sizes = []
        for process in self.servers:
            try:
                status = Path(f"/proc/{process.pid}/status").read_text()
                rss = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
                sizes.append(int(rss.split()[1]) // 1024)
            except (OSError, StopIteration):
                sizes.append(0)
        self.memory.append((time.monotonic() - began, sizes))

    def stop(self) -> None:
        self.store.close()
        for process in self.servers:
            if process.poll() is None:
                process.terminate()
                process.wait(30)
        self.redis.stop()
        self.postgres.stop()


RESTART_WAIT = 90.0  # seconds a restarted process has to answer
GIVE_UP = 600.0  # seconds past the end a person goes on trying: then the table is stuck


def play(site: Site, table: dict[str, Any], tally: Tally, think: float, rng: random.Random) -> None:
    """One person's game to its end, across any fault (or until ``GIVE_UP`` seconds past
    the soak's end: the check then finds it not over)."""
    seat: Seat | None = None
    ws: Any = None
    acked = -1  # the version of the person's last acknowledgement
    deciding: float | None = None
    while True:
        try:
            if seat is None:
                port = rng.choice(site.ports)
                ws = connect(
                    f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={table['tokens'][0]}",
                    open_timeout=10,
                )
                seat = Seat(SyncSocket(ws))
                if seat.version < acked:
                    with tally.lock:
                        tally.behind.append(f"{table['id']}: {seat.version} < {acked}")
            while not seat.state["over"]:
                if seat.state["legal"]:
                    if deciding is None:
                        time.sleep(think * rng.uniform(0.5, 1.5))
                        deciding = time.monotonic()
                    seat.send(seat.action(choose(seat.state)))
                    answer = seat.read_until("ack", "error")
                    if answer["type"] == "ack":
                        waited = time.monotonic() - deciding
                        acked, deciding = answer["version"], None
                        with tally.lock:
                            tally.acked[table["id"]] += 1
                            if waited > tally.longest:
                                tally.longest, tally.longest_at = waited, table["id"]
                    else:  # the table moved on meanwhile: look again
                        seat.send({"type": "sync"})
                        synced = seat.read_until("state")
                        seat.state, seat.version = synced["state"], synced["version"]
                else:
                    seat.read_until("update")
            ws.close()
            return
        except (ConnectionClosed, AssertionError, OSError, TimeoutError):
            if ws is not None:
                ws.close()
            if time.monotonic() > site.ends + GIVE_UP:
                return
            seat = None
            with tally.lock:
                tally.reconnects += 1
            time.sleep(0.2 + rng.random() * 0.3)


def person(site: Site, tally: Tally, until: float, think: float, seed: int) -> None:
    """Games one after another until ``until``: a new table each time."""
    rng = random.Random(seed)
    while time.monotonic() < until:
        table = site.new_table()
        with tally.lock:
            tally.tables.append(table["id"])
        play(site, table, tally, think, rng)


def check(site: Site, tally: Tally) -> list[str]:
    """Every table over, its record verified, every ack stored once; the problems."""
    problems = list(tally.behind)
    store = Store(site.url)
    try:
        for table_id in tally.tables:
            stored = store.get_table(table_id)
            if stored is None or stored.status != "over":
                problems.append(f"{table_id}: not over ({stored and stored.status})")
                continue
            mine = [a for s, a, timeout in stored_actions(site.url, table_id) if s == 0]
            if len(mine) < tally.acked[table_id]:
                problems.append(f"{table_id}: {tally.acked[table_id]} acked, {len(mine)} stored")
            port = site.ports[len(problems) % len(site.ports)]
            record = httpx.get(f"http://127.0.0.1:{port}/api/games/{table_id}/record", timeout=30)
            if record.status_code != 200:
                problems.append(f"{table_id}: record answered {record.status_code}")
                continue
            report = verify_record(record.json())
            if not report.ok:
                problems.append(f"{table_id}: {report.problems[:2]}")
        problems += [f"ledger: {p}" for p in ChipStore(store.engine).audit()]
    finally:
        store.close()
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--kill-every", type=float, default=180, help="seconds, on average")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="riichi-soak-"))
    site = Site(args.processes, folder)
    tally = Tally()
    began = time.monotonic()
    until = site.ends = began + args.minutes * 60
    try:
        with ThreadPoolExecutor(args.tables) as pool:
            people = [
                pool.submit(person, site, tally, until, args.think, args.seed * 10_000 + n)
                for n in range(args.tables)
            ]
            next_kill = began + args.kill_every * rng.uniform(2 / 3, 4 / 3)
            postgres_at, redis_at = began + (until - began) / 3, began + 2 * (until - began) / 3
            next_sample = began
            while time.monotonic() < until:
                now = time.monotonic()
                if now >= next_sample:
                    site.sample_memory(began)
                    next_sample = now + 60
                if now >= next_kill:
                    site.kill(rng, began)
                    next_kill = now + args.kill_every * rng.uniform(2 / 3, 4 / 3)
                if postgres_at and now >= postgres_at:
                    site.restart_postgres(began)
                    postgres_at = 0.0
                if redis_at and now >= redis_at:
                    site.restart_redis(began)
                    redis_at = 0.0
                time.sleep(0.5)
            for game in people:  # each finishes the game it is playing
                game.result(timeout=1800)
        site.sample_memory(began)
        problems = check(site, tally)
        actions = sum(tally.acked.values())
        print(
            f"{args.minutes:g} minutes, {args.processes} processes, {args.tables} people at"
            f" once: {len(tally.tables)} games, {actions} of the people's actions acknowledged"
            f" ({actions / (time.monotonic() - began):.1f} a second), {tally.reconnects}"
            " reconnections"
        )
        print("faults:")
        for fault in site.faults:
            print(f"  {fault}")
        print(
            f"longest wait from deciding to the acknowledgement: {tally.longest:.2f} s"
            f" (table {tally.longest_at}, a decision's thinking excluded)"
        )
        print("memory (MB, resident) of each process slot; a restarted process starts again:")
        for at, sizes in site.memory:
            print(f"  {at / 60:5.1f} min  " + "  ".join(f"{size:5d}" for size in sizes))
        print(f"problems: {len(problems)}")
        for problem in problems[:20]:
            print(f"  {problem}")
    finally:
        site.stop()


if __name__ == "__main__":
    main()
