"""Starting a real server process for tests that need one (a kill, a browser)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "riichi.cli", "serve", "--port", str(port), "--db", db]
    command += ["--bot-delay", "0", "--no-access-log"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
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
        )

    def new_database(self) -> str:
        """A fresh empty database; its SQLAlchemy URL."""
        self.databases += 1
        name = f"riichi_{self.databases}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "riichi", name)
        return f"postgresql+psycopg://riichi@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def postgres_bindir() -> Path | None:
    """Where PostgreSQL's initdb and pg_ctl live, if PostgreSQL is installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None
