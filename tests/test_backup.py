"""Backups of a serving site and restores into a new database (`riichi.server.backup`,
``riichi backup`` and ``riichi restore``): the copy is taken while tables are in play,
the restored site serves those tables on to their end, and the check finds a game
whose stored end is not its game's."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from riichi.cli import main
from riichi.server import create_app
from riichi.server.backup import BackupError, backup, restore, whole
from server_helpers import Postgres, Seat, stored_actions, write_tables

RECIPE = Path(__file__).resolve().parent.parent / "deploy" / "backup.sh"


def test_a_site_backed_up_in_play_is_restored_and_plays_on(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.db'}"
    people, finished = write_tables(url, ["inplay", "done"], ["human"] + ["expert"] * 3, "east")
    with TestClient(create_app(url)) as client:
        with client.websocket_connect(f"/ws/tables/done?token={finished['tokens'][0]}") as ws:
            Seat(ws).play()
        with client.websocket_connect(f"/ws/tables/inplay?token={people['tokens'][0]}") as ws:
            seat = Seat(ws)
            assert seat.play(limit=5) == 5
            pages = backup(url, tmp_path / "copy.db")  # while the site serves
        assert pages > 0
    copied = f"sqlite:///{tmp_path / 'copy.db'}"
    assert [s for s, _, _ in stored_actions(copied, "inplay")].count(0) == 5  # every ack
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    assert restore(tmp_path / "copy.db", restored) == pages
    found = whole(restored)
    assert (found.finished, found.live, found.problems) == (1, 1, [])
    with TestClient(create_app(restored)) as client:
        with client.websocket_connect(f"/ws/tables/inplay?token={people['tokens'][0]}") as ws:
            seat = Seat(ws)
            seat.play()
            assert seat.state["over"]
        assert client.get("/api/tables/done").json()["over"] is True
    assert whole(restored).finished == 2


def test_a_postgresql_site_backed_up_in_play_by_the_recipe_is_restored_and_plays_on(
    postgres: Postgres, tmp_path: Path
) -> None:
    """``deploy/backup.sh`` (what the backup timer runs) dumps a serving PostgreSQL
    site; pg_restore into a new database; ``riichi restore --db`` finds it whole; the
    restored site plays the table in play on to its end."""
    url = postgres.new_database()
    people, finished = write_tables(url, ["inplay", "done"], ["human"] + ["expert"] * 3, "east")
    tools = str(postgres.bindir) + os.pathsep + os.environ["PATH"]
    where = {"PGHOST": "127.0.0.1", "PGPORT": str(postgres.port), "PGUSER": "riichi"}
    env = {**os.environ, **where, "PATH": tools, "PGDATABASE": url.rsplit("/", 1)[1]}
    with TestClient(create_app(url)) as client:
        with client.websocket_connect(f"/ws/tables/done?token={finished['tokens'][0]}") as ws:
            Seat(ws).play()
        with client.websocket_connect(f"/ws/tables/inplay?token={people['tokens'][0]}") as ws:
            assert Seat(ws).play(limit=5) == 5
            dumped = subprocess.run(
                [str(RECIPE), str(tmp_path / "backups")], env=env, capture_output=True, text=True
            )  # while the site serves
    assert dumped.returncode == 0, dumped.stderr
    (dump,) = (tmp_path / "backups").glob("riichi-*.dump")
    assert dumped.stdout.strip() == f"backed up to {dump}"
    restored = postgres.new_database()
    into = {**env, "PGDATABASE": restored.rsplit("/", 1)[1]}
    pg_restore = shutil.which("pg_restore", path=tools) or "pg_restore"
    loaded = subprocess.run(
        [pg_restore, "--no-owner", "-d", into["PGDATABASE"], str(dump)],
        env=into,
        capture_output=True,
        text=True,
    )
    assert loaded.returncode == 0, loaded.stderr
    checked = CliRunner().invoke(main, ["restore", "--db", restored])
    assert checked.exit_code == 0, checked.output
    assert "1 finished games rebuilt" in checked.output and "1 in play" in checked.output
    assert [s for s, _, _ in stored_actions(restored, "inplay")].count(0) == 5
    token = people["tokens"][0]
    with (
        TestClient(create_app(restored)) as client,
        client.websocket_connect(f"/ws/tables/inplay?token={token}") as ws,
    ):
        seat = Seat(ws)
        seat.play()
        assert seat.state["over"]
    assert whole(restored).finished == 2


def test_a_restore_never_writes_over_a_database_and_only_sqlite_is_copied(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'site.db'}"
    write_tables(url, ["t"], ["expert"] * 4, "east")
    backup(url, tmp_path / "copy.db")
    with pytest.raises(BackupError, match="never writes over"):
        restore(tmp_path / "copy.db", url)
    with pytest.raises(BackupError, match="never writes over"):
        backup(url, tmp_path / "copy.db")
    with pytest.raises(BackupError, match="pg_dump"):
        backup("postgresql+psycopg://u:p@host/db", tmp_path / "pg.db")
    with pytest.raises(BackupError, match="no such database"):
        restore(tmp_path / "missing.db", f"sqlite:///{tmp_path / 'new.db'}")
    assert not (tmp_path / "new.db").exists()


def test_the_check_finds_a_game_whose_stored_end_is_not_its_own(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.db'}"
    write_tables(url, ["a"], ["expert"] * 4, "east")
    with TestClient(create_app(url)) as client:
        deadline = time.monotonic() + 300  # the computers play it out (slowly on a busy machine)
        while not client.get("/api/tables/a").json()["over"]:
            assert time.monotonic() < deadline, "the computers did not finish the game"
            time.sleep(0.05)
    assert whole(url).problems == []
    conn = sqlite3.connect(tmp_path / "site.db")
    (standings,) = conn.execute("SELECT standings FROM tables WHERE id = 'a'").fetchone()
    changed = json.loads(standings)
    changed[0]["points"] += 1000
    conn.execute("UPDATE tables SET standings = ? WHERE id = 'a'", (json.dumps(changed),))
    conn.commit()
    conn.close()
    assert whole(url).problems == ["table a: its standings are not its game's"]
    done = CliRunner().invoke(main, ["restore", "--db", url])
    assert done.exit_code == 1 and "its standings are not its game's" in done.output
    copy = CliRunner().invoke(main, ["backup", str(tmp_path / "b.db"), "--db", url])
    assert copy.exit_code == 0 and "backed up" in copy.output
    again = CliRunner().invoke(main, ["backup", str(tmp_path / "b.db"), "--db", url])
    assert again.exit_code == 2 and "never writes over" in again.output
