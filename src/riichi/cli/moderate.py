"""``riichi moderate``: the operators' acts from the command line, on the site's
database (the same acts, checks and log as the moderation page; the log names the
command line as the operator). A table closed here is let go by the process that
plays it at its next lease renewal (a few seconds)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import click

from riichi.cli.serve import db_option, open_store
from riichi.server.moderation.store import ModerationError, ModerationStore
from riichi.server.money.ledger import ChipStore
from riichi.server.ratings.records import RecordStore
from riichi.server.storage import Store

REASON = click.option("--reason", required=True, help="Why: the moderation log keeps it.")


def _act(db_url: str, work: Callable[[ModerationStore, float], int]) -> None:
    store: Store = open_store(db_url)
    try:
        moderation = ModerationStore(
            store.engine, RecordStore(store.engine), ChipStore(store.engine)
        )
        entry = work(moderation, time.time())
    except (ModerationError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    finally:
        store.close()
    click.echo(f"done: moderation log entry {entry}")


@click.group("moderate")
def moderate_command() -> None:
    """Suspend, restore or rename an account, refund or charge chips, void a rated
    game, close a table, close a report; or list the log and the open reports."""


@moderate_command.command("suspend")
@click.argument("name")
@REASON
@db_option
def suspend(name: str, reason: str, db_url: str) -> None:
    """Suspend the account NAME: it cannot sign in, queue or sit; its seats' clocks play."""
    _act(db_url, lambda m, now: m.suspend(None, name, reason, now))


@moderate_command.command("restore")
@click.argument("name")
@REASON
@db_option
def restore(name: str, reason: str, db_url: str) -> None:
    """Restore the suspended account NAME."""
    _act(db_url, lambda m, now: m.restore(None, name, reason, now))


@moderate_command.command("rename")
@click.argument("name")
@click.argument("new")
@REASON
@db_option
def rename(name: str, new: str, reason: str, db_url: str) -> None:
    """Rename the account NAME to NEW, in its past games too."""
    _act(db_url, lambda m, now: m.rename(None, name, new, reason, now))


@moderate_command.command("chips")
@click.argument("name")
@click.argument("amount", type=int)
@REASON
@db_option
def chips(name: str, amount: int, reason: str, db_url: str) -> None:
    """Refund (AMOUNT above 0) or charge (below 0) the account NAME's chips."""
    _act(db_url, lambda m, now: m.chips(None, name, amount, reason, now))


@moderate_command.command("void")
@click.argument("table")
@REASON
@db_option
def void(table: str, reason: str, db_url: str) -> None:
    """Take the finished rated game TABLE out of the ratings (all rebuilt)."""
    _act(db_url, lambda m, now: m.void_game(None, table, reason, now))


@moderate_command.command("close")
@click.argument("table")
@REASON
@db_option
def close(table: str, reason: str, db_url: str) -> None:
    """End the live table TABLE as void and give back what it holds."""
    _act(db_url, lambda m, now: m.close_table(None, table, reason, now))


@moderate_command.command("report")
@click.argument("report", type=int)
@REASON
@db_option
def close_report(report: int, reason: str, db_url: str) -> None:
    """Close the open report REPORT with what was decided."""
    _act(db_url, lambda m, now: m.close_report(None, report, reason, now))


@moderate_command.command("log")
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True)
@db_option
def log(limit: int, db_url: str) -> None:
    """The moderation log, newest first, then the open reports."""
    store = open_store(db_url)
    try:
        moderation = ModerationStore(store.engine, None, None)
        entries, total = moderation.log(limit)
        reports = moderation.reports()
    finally:
        store.close()
    stamp = "%Y-%m-%d %H:%M"
    for e in entries:
        when = time.strftime(stamp, time.gmtime(e.at))
        click.echo(f"{e.id:5d} {when} {e.operator}: {e.act} {e.target}: {e.reason} {e.detail}")
    click.echo(f"{len(entries)} of {total} entries; {len(reports)} open reports")
    for r in reports:
        click.echo(f"report {r['id']}: {r['by']} reports {r['against']} ({r['game']}): {r['text']}")
