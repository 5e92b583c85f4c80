"""The deploy recipe (``deploy/``) in use: Debian's nginx, configured by
``deploy/nginx/riichi.conf`` as shipped (only its ports, certificate and upstream
processes changed for the test), in front of two ``riichi serve`` processes on one
PostgreSQL and one Redis; a game played to its end over TLS and websockets."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from riichi.game import verify_record
from riichi.server.auth import COOKIE
from riichi.server.protocol import CLOSE_REFUSED
from server_helpers import Postgres, Redis, Seat, SyncSocket, free_ports, start_server
from test_leases import TABLE, play_turns

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        pytest.skip("nginx is not installed (tools/system_deps.sh installs it)")
    return found


def site_config(ports: list[int], plain: int, tls: int, cert: Path, key: Path) -> str:
    """The shipped site configuration with the test's ports, certificate and processes."""
    text = (DEPLOY / "nginx" / "riichi.conf").read_text()
    text = "\n".join(line for line in text.splitlines() if "[::]" not in line)  # no IPv6 here
    upstream = "".join(f"    server 127.0.0.1:{p};\n" for p in ports)
    text, found = re.subn(r"(upstream riichi \{\n)(    server .*;\n)+", rf"\g<1>{upstream}", text)
    assert found == 1, "the upstream block moved"
    replaced = {
        "listen 80;": f"listen 127.0.0.1:{plain};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{tls} ssl http2;",
        "/etc/letsencrypt/live/riichi.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/riichi.example.org/privkey.pem": str(key),
        "riichi.example.org": "localhost",
    }
    for old, new in replaced.items():
        assert old in text, f"{old!r} is no longer in the shipped configuration"
        text = text.replace(old, new)
    return text


class Nginx:
    """nginx in the foreground in a directory of its own, with the site's config."""

    def __init__(self, root: Path, site: str) -> None:
        for sub in ("logs", "temp"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        (root / "site.conf").write_text(site)
        user = "user root;\n" if os.geteuid() == 0 else ""
        (root / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {root}/nginx.pid;\n"
            f"error_log {root}/logs/error.log warn;\nevents {{ worker_connections 256; }}\n"
            f'http {{\n  log_format timed \'$time_iso8601 "$request" $status '
            "$request_time s, upstream $upstream_addr $upstream_response_time s';\n"
            f"  access_log {root}/logs/access.log timed;\n"
            + "".join(
                f"  {kind}_temp_path {root}/temp/{kind};\n"
                for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
            )
            + f"  include {root}/site.conf;\n}}\n"
        )
        binary = nginx_binary()
        check = subprocess.run(
            [binary, "-t", "-p", str(root), "-c", str(root / "nginx.conf")],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stderr
        self.root = root
        self.process = subprocess.Popen(
            [binary, "-p", str(root), "-c", str(root / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def self_signed(root: Path) -> tuple[Path, Path]:
    cert, key = root / "cert.pem", root / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@dataclass
class Site:
    tls: int  # nginx's HTTPS port
    plain: int  # its plain HTTP port
    cert: Path  # the certificate nginx presents
    logs: list[Path]  # each process's log, access log included
    proxy_logs: Path  # nginx's: each request's time and the process that answered it

    @contextlib.contextmanager
    def told(self) -> Iterator[None]:
        """A failure inside comes with what nginx and the processes logged: a stall on
        a busy machine then says which request waited, where."""
        try:
            yield
        except (AssertionError, TimeoutError, OSError, httpx.HTTPError, ConnectionClosed) as failed:
            logs = [*self.logs, self.proxy_logs / "access.log", self.proxy_logs / "error.log"]
            tails = "\n".join(
                f"== {log.name}\n{log.read_text()[-4000:] if log.exists() else '(none)'}"
                for log in logs
            )
            raise AssertionError(f"{failed!r}\nthe logs:\n{tails}") from failed


@pytest.fixture
def site(postgres: Postgres, redis_server: Redis, tmp_path: Path) -> Iterator[Site]:
    """Two processes behind nginx."""
    nginx_binary()
    database = postgres.new_database()
    *ports, plain, tls = free_ports(4)  # the processes', nginx's plain and TLS
    options = ("--shared", "--redis", redis_server.url, "--proxy", "127.0.0.1")
    servers = [
        start_server(database, p, tmp_path / f"{n}.log", *options) for n, p in enumerate(ports)
    ]
    cert, key = self_signed(tmp_path)
    proxy = Nginx(tmp_path / "nginx", site_config(ports, plain, tls, cert, key))
    trusted = ssl.create_default_context(cafile=str(cert))
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"https://localhost:{tls}/api/presets", verify=trusted, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "nginx did not come up"
                time.sleep(0.1)
        logs = [tmp_path / f"{n}.log" for n in range(len(ports))]
        yield Site(tls, plain, cert, logs, proxy.root / "logs")
    finally:
        proxy.stop()
        for process in servers:
            process.terminate()
            process.wait(15)


def test_a_game_is_played_through_nginx_over_tls(site: Site) -> None:
    """Through the shipped nginx configuration: plain HTTP is sent to HTTPS; a sign-up's
    cookie is marked secure (the site believes the proxy's X-Forwarded-Proto); a
    browser's websocket from the site's own page is served and one from another site's
    page refused; two people play a game to its end over wss, each socket reaching
    whichever process nginx chose (the other relayed to the table's owner), and the
    record fetched through the proxy is the whole game."""
    with site.told():
        tls, plain, cert = site.tls, site.plain, site.cert
        context = ssl.create_default_context(cafile=str(cert))
        base = f"https://localhost:{tls}"
        moved = httpx.get(
            f"http://localhost:{plain}/leaderboard", follow_redirects=False, timeout=30
        )
        assert moved.status_code == 301
        assert moved.headers["location"] == "https://localhost/leaderboard"
        with httpx.Client(base_url=base, verify=context, timeout=30) as client:
            made = client.post(
                "/api/register", json={"name": "proxied", "password": "correct horse"}
            )
            assert made.status_code == 201, made.text
            cookies = made.headers.get_list("set-cookie")
            assert any(c.startswith(f"{COOKIE}=") for c in cookies), cookies
            assert all("; secure" in c.lower() for c in cookies), cookies
            assert "max-age=31536000" in made.headers.get("strict-transport-security", "")
            table = client.post("/api/tables", json=TABLE)
            assert table.status_code == 201, table.text
            made_table = table.json()
        sockets = f"wss://localhost:{tls}/ws/tables/{made_table['id']}"
        evil = "https://evil.example"
        with connect(
            f"{sockets}?token={made_table['tokens'][0]}", ssl=context, origin=evil, open_timeout=30
        ) as ws:
            refused = json.loads(ws.recv(timeout=30))
            assert refused["type"] == "error" and "another site" in refused["message"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_REFUSED
        page = f"https://localhost:{tls}"
        with (
            connect(
                f"{sockets}?token={made_table['tokens'][0]}",
                ssl=context,
                origin=page,
                open_timeout=30,
            ) as east_ws,
            connect(
                f"{sockets}?token={made_table['tokens'][1]}", ssl=context, open_timeout=30
            ) as south_ws,
        ):
            east, south = Seat(SyncSocket(east_ws)), Seat(SyncSocket(south_ws))
            assert (east.seat, south.seat) == (0, 1)
            play_turns([east, south], 10_000)  # to its end
            assert east.state["over"]
        record = httpx.get(
            f"{base}/api/games/{made_table['id']}/record", verify=context, timeout=30
        )
        assert record.status_code == 200, record.text
        report = verify_record(record.json())
        assert report.ok, report.problems  # replays to a finished match on its own walls
        # ... and to the end the seats saw (a one-hand game may be over in a dozen actions)
        recorded = [s["score"] for s in record.json()["standings"]]
        assert recorded == [s["score"] for s in east.state["standings"]], recorded
        spoofed = httpx.get(
            f"{base}/api/presets",
            headers={"X-Forwarded-For": "203.0.113.9"},
            verify=context,
            timeout=30,
        )
        assert spoofed.status_code == 200
        logs = [log.read_text() for log in site.logs]
        for log in logs:  # nginx spread the requests over both processes
            assert any(f"{kind} /" in log for kind in ("POST", "WebSocket", "GET /api/games")), log
        # each process counted the visitor by the address nginx saw, never one it was told
        assert "203.0.113.9" not in "".join(logs)
        assert sum(log.count("WebSocket /ws/tables/") for log in logs) == 3


def test_the_units_start_riichi_with_options_it_has() -> None:
    """The systemd units name only options `riichi serve` has, and the backup timer
    runs the shipped script."""
    from riichi.cli.serve import serve_command

    unit = (DEPLOY / "systemd" / "riichi@.service").read_text()
    start = unit.split("ExecStart=", 1)[1].split("\n", 1)[0]
    lines = unit.split("ExecStart=", 1)[1].splitlines()
    while start.endswith("\\"):
        lines.pop(0)
        start = start[:-1] + lines[0]
    used = set(re.findall(r"(--[a-z-]+)", start))
    known = {o for p in serve_command.params for o in p.opts + p.secondary_opts}
    assert used and used <= known, used - known
    assert {"--shared", "--redis", "--proxy", "--metrics"} <= used
    backup = (DEPLOY / "systemd" / "riichi-backup.service").read_text()
    assert "/deploy/backup.sh " in backup and os.access(DEPLOY / "backup.sh", os.X_OK)
    timer = (DEPLOY / "systemd" / "riichi-backup.timer").read_text()
    assert "OnCalendar=" in timer and "Persistent=true" in timer
