"""``riichi backup`` and ``riichi restore``: a SQLite site copied while it serves, and
restored into a new database with the check that it is whole (every game rebuilt from
its actions to what is stored, and the chip ledger's audit)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from riichi.cli.serve import db_option, open_store
from riichi.server.backup import BackupError, backup, restore, whole
from riichi.server.money.ledger import ChipStore


@click.command("backup")
@click.argument("dest", type=click.Path(dir_okay=False, path_type=Path))
@db_option
def backup_command(dest: Path, db_url: str) -> None:
    """Copy the site's SQLite database into the new file DEST, safely while it serves
    (SQLite's online backup). PostgreSQL: pg_dump -Fc (README: backups)."""
    try:
        pages = backup(db_url, dest)
    except BackupError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    click.echo(f"backed up {pages} pages to {dest}")


@click.command("restore")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path), required=False)
@db_option
def restore_command(source: Path | None, db_url: str) -> None:
    """Restore the backup SOURCE as the new database --db (never over one), then check
    that it is whole; without SOURCE, only check --db (after pg_restore, say). Exits 1
    when the check finds a problem."""
    try:
        if source is not None:
            pages = restore(source, db_url)
            click.echo(f"restored {pages} pages from {source}")
        found = whole(db_url)
    except BackupError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    store = open_store(db_url)
    try:
        ledger = ChipStore(store.engine).audit()
    finally:
        store.close()
    problems = found.problems + [f"ledger: {p}" for p in ledger]
    click.echo(
        f"{found.finished} finished games rebuilt to their standings, {found.live} in play"
        f" ({found.unfinished} to be finished on start); the ledger"
        f" {'has problems' if ledger else 'is clean'}"
    )
    for problem in problems:
        click.echo(f"problem: {problem}")
    sys.exit(1 if problems else 0)
