"""Backups of a site's SQLite database, taken while it serves, and the check that a
restored database is whole.

A backup is SQLite's online backup API (``sqlite3.Connection.backup``): a consistent
copy of the database as of one moment, taken page by page while the server goes on
writing (a write during the copy restarts it, so what lands is never half a
transaction). A restore copies a backup into a database that does not exist yet: a
restore never writes over a site. PostgreSQL has its own tools (``pg_dump -Fc`` and
``pg_restore``, README: backups); the check runs on either.

The check (``whole``) reads every stored game and rebuilds it from its rules, seed and
actions: a finished one must end with the standings stored, a live one must not be
over past its last action (one whose end was not stored is finished on start, as after
a crash, and is only counted). What the ledger owes is the money feature's to check
(``riichi audit``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from riichi.errors import RiichiError
from riichi.platform.tables import standings_of
from riichi.server.seating import load_match
from riichi.server.storage import Store

PAGES = 256  # pages copied a step: the server's writers wait at most that long


class BackupError(RiichiError):
    """A backup or restore that cannot be made as asked; nothing was written."""


def sqlite_file(url: str) -> Path:
    """The file of a SQLite URL (``sqlite:///path``); any other database is refused."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == prefix or ":memory:" in url:
        raise BackupError(
            f"{url.split('://')[0]}: only a SQLite file is backed up here;"
            " PostgreSQL: pg_dump -Fc (README: backups)"
        )
    return Path(url[len(prefix) :])


def _copy(source: Path, target: Path) -> int:
    """Copy the database ``source`` into the new file ``target``; its pages."""
    if target.exists():
        raise BackupError(f"{target} exists: a backup or restore never writes over a file")
    if not source.is_file():
        raise BackupError(f"{source}: no such database")
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst, pages=PAGES)
            (pages,) = dst.execute("PRAGMA page_count").fetchone()
        finally:
            dst.close()
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        raise BackupError(f"{source}: {exc}") from None
    finally:
        src.close()
    return int(pages)


def backup(url: str, dest: Path) -> int:
    """Back up the site at ``url`` into the new file ``dest``, while it serves; pages."""
    return _copy(sqlite_file(url), dest)


def restore(source: Path, url: str) -> int:
    """Restore the backup ``source`` as the new database at ``url``; pages."""
    return _copy(source, sqlite_file(url))


@dataclass
class Whole:
    finished: int = 0  # finished games rebuilt to the standings stored
    live: int = 0  # games in play rebuilt to their last action
    unfinished: int = 0  # live games whose last action ended them (finished on start)
    problems: list[str] = field(default_factory=list)


def whole(url: str) -> Whole:
    """Every stored game rebuilt from its actions and held to what is stored."""
    out = Whole()
    store = Store(url)
    try:
        if store.engine.dialect.name == "sqlite":
            with store.engine.connect() as conn:
                found = conn.exec_driver_sql("PRAGMA integrity_check").scalar_one()
            if found != "ok":
                out.problems.append(f"integrity check: {found}")
        for stored in store.list_tables():
            try:
                match, _ = load_match(stored, store)
            except ValueError as exc:
                out.problems.append(f"table {stored.id}: its actions do not replay: {exc}")
                continue
            if stored.status == "live":
                out.live += 1
                out.unfinished += match.over
            elif stored.status == "over":
                if standings_of(match) != stored.standings:
                    out.problems.append(f"table {stored.id}: its standings are not its game's")
                out.finished += 1
    finally:
        store.close()
    return out


__all__ = ["PAGES", "BackupError", "Whole", "backup", "restore", "sqlite_file", "whole"]
