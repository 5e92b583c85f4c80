"""``riichi serve``: the web server (tables over websockets, game records)."""

from __future__ import annotations

import copy
import json
import math
import os
import socket
import sys
import time
from typing import Any

import click

from riichi.cli.options import OptionError
from riichi.platform.spectating import Delay, DelayError, parse_delay
from riichi.server.limits import Limits
from riichi.server.storage import DEFAULT_URL, Store

WS_MAX_BYTES = 64 * 1024  # a websocket frame; the app refuses messages over 4 KB itself
MAX_CONNECTIONS = 20_000  # uvicorn answers 503 beyond this many connections and tasks


db_option = click.option(
    "--db",
    "db_url",
    default=DEFAULT_URL,
    show_default=True,
    help="SQLAlchemy URL: a SQLite file, or postgresql+psycopg://user:pass@host/db",
)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@db_option
@click.option(
    "--bot-delay",
    default=0.5,
    show_default=True,
    type=click.FloatRange(0, 10),
    callback=lambda ctx, param, value: _finite(value, "--bot-delay"),
    help="Seconds a bot waits before each move, so people can follow the play.",
)
@click.option(
    "--sockets-per-address",
    default=Limits().sockets_per_address,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Connections one address may hold open (raise it behind a proxy or for load tests).",
)
@click.option(
    "--tables-per-minute",
    default=30,
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="New tables one address may create per minute.",
)
@click.option(
    "--spectator-delay",
    default="hand",
    show_default=True,
    callback=lambda ctx, param, value: _delay(value),
    help="How far behind spectators watch: 'hand' (the previous hand, never the one in "
    "play) or a number of actions.",
)
@click.option(
    "--proxy",
    "proxies",
    multiple=True,
    help="Address of a reverse proxy whose X-Forwarded-For to believe (repeat for more; "
    "'*' for any). Without it the connection's own address counts, whatever the headers say.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this port (more than one needs PostgreSQL and --redis).",
)
@click.option(
    "--shared",
    is_flag=True,
    help="Other riichi serve processes use the same PostgreSQL database: each table is "
    "held by one process's lease and taken over when that process dies.",
)
@click.option(
    "--redis",
    "redis_url",
    envvar="RIICHI_REDIS",
    default=None,
    help="Redis URL (redis://host:6379) the --shared processes relay connections and share "
    "rate limits through; also from RIICHI_REDIS.",
)
@click.option(
    "--reviews-per-minute",
    default=30,
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Review requests one address may make a minute (asked or pasted).",
)
@click.option(
    "--review-workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Processes that compute game reviews, beside those that serve (each server "
    "process has its own).",
)
@click.option(
    "--search-workers",
    default=1,
    show_default=True,
    type=click.IntRange(0, 64),
    help="Processes in which searching computers (master) think, beside those that serve "
    "(each server process has its own; 0: they play expert's choice).",
)
@click.option(
    "--metrics",
    "metrics_address",
    default=None,
    metavar="HOST:PORT",
    help="Serve Prometheus metrics on this address (off the public port); with --workers N,"
    " each worker on the first free port of 2N from PORT.",
)
@click.option("--access-log/--no-access-log", default=True, help="Log every request.")
@click.option("--log-json", is_flag=True, help="Logs as JSON lines (with table and account ids).")
def serve_command(
    host: str,
    port: int,
    db_url: str,
    bot_delay: float,
    sockets_per_address: int,
    tables_per_minute: int,
    spectator_delay: Delay,
    proxies: tuple[str, ...],
    workers: int,
    shared: bool,
    redis_url: str | None,
    reviews_per_minute: int,
    review_workers: int,
    search_workers: int,
    metrics_address: str | None,
    access_log: bool,
    log_json: bool,
) -> None:
    """Serve the platform; live tables survive a restart on the same --db."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from riichi.server.guard import GuardedHttp, GuardedWebSocket, proxy_settings
    from riichi.server.logs import json_logging

    if workers > 1 and (db_url.startswith("sqlite") or not redis_url):
        raise OptionError(
            "--workers",
            "several processes need PostgreSQL (--db postgresql+psycopg://...) "
            "and Redis (--redis redis://...)",
        )
    if metrics_address is not None and not metrics_address.rpartition(":")[2].isdigit():
        raise OptionError("--metrics", f"HOST:PORT, got {metrics_address!r}")
    shared = shared or workers > 1
    if redis_url and not shared:
        raise OptionError("--redis", "relays between --shared processes: add --shared")
    if shared and db_url.startswith("sqlite"):
        raise OptionError("--shared", "processes share a PostgreSQL database, not a SQLite file")
    open_store(db_url).close()  # a bad URL or an unreachable database: one line, no traceback
    try:
        listener = socket.create_server((host, port), reuse_port=False)
    except OSError as exc:
        click.echo(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    log_config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    log_config["loggers"]["riichi"] = {"handlers": ["default"], "level": "INFO"}
    if log_json:
        log_config = json_logging(log_config)
    settings = {
        "db_url": db_url,
        "bot_delay": bot_delay,
        # as the option reads: "hand", or how many actions behind
        "spectator_delay": spectator_delay.mode
        if spectator_delay.mode == "hand"
        else str(spectator_delay.actions),
        "shared": shared,
        "redis_url": redis_url,
        "sockets_per_address": sockets_per_address,
        "tables_per_minute": tables_per_minute,
        "review_workers": review_workers,
        "search_workers": search_workers,
        "reviews_per_minute": reviews_per_minute,
        "metrics": metrics_address,
        # a replacement worker (SIGHUP) starts before the one it replaces stops
        "metrics_span": 2 * workers if workers > 1 else 1,
    }
    many = workers > 1
    if many:  # each worker process builds the app from these (see app_from_env)
        os.environ[SETTINGS_ENV] = json.dumps(settings)
    config = uvicorn.Config(
        "riichi.cli.serve:app_from_env" if many else app_from_settings(settings),
        factory=many,
        workers=workers,
        # connections still in their handshake count against the same allowance (a
        # worker process keeps its own count, at the default allowance)
        http=GuardedHttp
        if many
        else type("Http", (GuardedHttp,), {"per_address": max(64, sockets_per_address)}),
        ws=GuardedWebSocket,
        ws_max_size=WS_MAX_BYTES,
        ws_max_queue=16,
        ws_per_message_deflate=False,
        limit_concurrency=MAX_CONNECTIONS,
        timeout_keep_alive=5,
        log_config=log_config,
        log_level="info",
        access_log=access_log,
        **proxy_settings(proxies),
    )
    shown = f"database {_shown(db_url)}" + (f", {workers} processes" if many else "")
    banner = f"riichi serving on http://{host}:{port}/ ({shown})"
    if log_json:
        banner = json.dumps(
            {"time": round(time.time(), 3), "level": "info", "logger": "riichi", "message": banner}
        )
    click.echo(banner)
    if many:
        Multiprocess(config, sockets=[listener]).run()
    else:
        uvicorn.Server(config).run(sockets=[listener])


SETTINGS_ENV = "RIICHI_SERVE_SETTINGS"


def app_from_settings(settings: dict[str, Any]) -> Any:
    """The web app ``riichi serve`` runs, from its settings."""
    from riichi.server import create_app

    return create_app(
        settings["db_url"],
        bot_delay=settings["bot_delay"],
        spectator_delay=parse_delay(settings["spectator_delay"]),
        shared=settings["shared"],
        redis_url=settings["redis_url"],
        review_workers=settings.get("review_workers", 1),
        search_workers=settings.get("search_workers", 1),
        metrics=settings.get("metrics"),
        metrics_span=settings.get("metrics_span", 1),
        limits=Limits(
            sockets_per_address=settings["sockets_per_address"],
            tables_per_address=f"{settings['tables_per_minute']} per minute",
            reviews_per_address=f"{settings.get('reviews_per_minute', 30)} per minute",
        ),
    )


def app_from_env() -> Any:
    """A worker process's app (``--workers``): the settings its parent left."""
    return app_from_settings(json.loads(os.environ[SETTINGS_ENV]))


def _delay(text: str) -> Delay:
    try:
        return parse_delay(text)
    except DelayError as exc:
        raise OptionError("--spectator-delay", str(exc)) from None


def _finite(value: float, option: str) -> float:
    if not math.isfinite(value):  # FloatRange lets NaN through
        raise OptionError(option, f"{value} is not a number of seconds")
    return value


def open_store(db_url: str) -> Store:
    """The database at ``db_url``, or a one-line error and exit 2."""
    from riichi.server import Store

    try:
        return Store(db_url)
    except Exception as exc:
        click.echo(f"error: database {_shown(db_url)}: {_first_line(exc)}", err=True)
        sys.exit(2)


def _shown(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
