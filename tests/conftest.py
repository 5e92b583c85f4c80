"""Shared test options: ``--runslow`` adds the long sweeps marked ``slow``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_helpers import Postgres, Redis, postgres_bindir


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="run the long sweeps too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The long sweeps are not part of the default suite: they are left out
    # (deselected), not skipped, and `make fuzz` runs them.
    if config.getoption("--runslow"):
        return
    slow = [item for item in items if "slow" in item.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    bindir = postgres_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (tools/system_deps.sh installs it)")
    server = Postgres(bindir)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (tools/system_deps.sh installs it)")
    server = Redis(binary)
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every server test runs on the SQLite default and on a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'riichi.db'}"
    server: Postgres = request.getfixturevalue("postgres")
    return server.new_database()


@pytest.fixture(autouse=True)
def _books_balance(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[None]:
    """After every test, every database a Store opened has books that balance: no chip
    created or destroyed, nobody below zero, no escrow left after its game (except in
    a test marked ``books_out_of_line``, which makes the audit complain on purpose)."""
    from sqlalchemy import create_engine

    from riichi.server import storage
    from riichi.server.money.ledger import ChipStore

    opened: list[str] = []
    original = storage.Store.__init__

    def recording(self: storage.Store, url: str = storage.DEFAULT_URL) -> None:
        original(self, url)
        opened.append(url)

    monkeypatch.setattr(storage.Store, "__init__", recording)
    yield
    if request.node.get_closest_marker("books_out_of_line"):
        return
    for url in dict.fromkeys(opened):
        engine = create_engine(url)
        try:
            assert ChipStore(engine).audit() == [], url
        finally:
            engine.dispose()
