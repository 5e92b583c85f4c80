"""The layer contract of DESIGN.md, checked with import-linter."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_layers_only_import_downwards() -> None:
    exe = Path(sys.executable).parent / "lint-imports"
    command = str(exe) if exe.exists() else shutil.which("lint-imports")
    assert command, "import-linter is a test dependency: pip install -e '.[test]'"
    done = subprocess.run([command], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 kept, 0 broken" in done.stdout


def test_core_has_no_io_imports() -> None:
    # the core is pure: no I/O, no clock, no global randomness, no asyncio
    # riichi.platform is held to the same: the time and the facts come in as arguments
    core = ["errors.py", "tiles.py", "rules.py", "hand", "scoring", "game", "platform"]
    banned = (
        "import asyncio",
        "import socket",
        "import random",
        "import time\n",
        "import subprocess",
        " open(",
    )
    for name in core:
        path = ROOT / "src" / "riichi" / name
        files = [path] if path.is_file() else sorted(path.glob("*.py"))
        for file in files:
            text = file.read_text()
            for word in banned:
                assert word not in text, f"{file.name} uses {word.strip()!r}"


def test_the_core_loaded_is_the_one_asked_for() -> None:
    """RIICHI_PURE=1 loads every core module from source; otherwise the compiled
    extensions are used wherever the build made them."""
    import os

    import riichi
    from riichi import tiles
    from riichi.game import match

    core = ROOT / "src" / "riichi"
    built = any(core.glob("tiles.*.so")) and any((core / "game").glob("match.*.so"))
    if os.environ.get("RIICHI_PURE"):
        assert riichi.core() == "pure"
        assert tiles.__file__.endswith(".py") and match.__file__.endswith(".py")
    else:
        assert riichi.core() == ("compiled" if built else "pure")
        assert match.__file__.endswith(".so") == built


SERVER = ROOT / "src" / "riichi" / "server"
FEATURES = sorted(p.name for p in SERVER.iterdir() if (p / "routes.py").exists())
# Where the core reaches a feature, and why: only to assemble them. What a feature
# writes with a table's opening or a match's end it registers with storage (``parts``).
CORE_REACHES = {("app.py", f): "assembles the features" for f in FEATURES}


# Where a feature joins another's tables in its queries (importing that feature's schema
# alone), and why; the list may only shrink.
FEATURE_READS = {
    ("daily/desk.py", "ratings"): "the day's board reads each attempt's figures",
    ("review/desk.py", "ratings"): "a player's reviewed games with their figures",
    ("money/ledger.py", "tournaments"): "the audit tells an escrow's tournament ended",
}


def _tables_by_feature() -> dict[str, str]:
    """Each feature's tables of the schema (its ``schema.py``), by name."""
    import ast

    out = {}
    for feature in FEATURES:
        schema = SERVER / feature / "schema.py"
        if schema.exists():
            for node in ast.parse(schema.read_text()).body:
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                    out[node.targets[0].id] = feature
    return out


def test_a_feature_reads_another_s_tables_only_where_listed() -> None:
    """A feature may join another's tables in a query (one database, one metadata),
    importing that feature's ``schema`` and nothing else of it, only where listed."""
    import ast

    owner = _tables_by_feature()
    assert {"ratings", "game_stats", "offers", "tournaments", "reviews"} <= owner.keys()
    reads = set()
    for feature in FEATURES:
        for file in sorted((SERVER / feature).glob("*.py")):
            for node in ast.walk(ast.parse(file.read_text())):
                if isinstance(node, ast.ImportFrom):
                    parts = (node.module or "").split(".")
                    if parts[:2] == ["riichi", "server"] and parts[2:3] != [feature]:
                        for alias in node.names:
                            other = owner.get(alias.name)
                            if other not in (None, feature):
                                assert parts[2:] == [other, "schema"], (file, node.module)
                                reads.add((f"{feature}/{file.name}", other))
    assert reads == FEATURE_READS.keys(), sorted(reads ^ FEATURE_READS.keys())


def _server_imports(file: Path) -> set[str]:
    """The server packages (a feature, or "" for the core) ``file`` imports."""
    import ast

    out = set()
    where = file.relative_to(SERVER)
    for node in ast.walk(ast.parse(file.read_text())):
        names = (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else []
        )
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["riichi", "server"] and len(parts) > 2:
                if parts[2] in FEATURES and (f"{where}", parts[2]) in FEATURE_READS:
                    continue  # a listed read of that feature's tables (its schema)
                out.add(parts[2] if parts[2] in FEATURES else "")
    return out


def test_server_features_meet_only_through_the_core() -> None:
    """A feature package imports the core and itself, never another feature; the core
    reaches a feature only where ``CORE_REACHES`` says why."""
    assert len(FEATURES) >= 10, FEATURES
    reaches = set()
    for file in sorted(SERVER.rglob("*.py")):
        where = file.relative_to(SERVER)
        if where.parts[0] == "migrations":
            continue
        own = where.parts[0] if where.parts[0] in FEATURES else None
        for feature in _server_imports(file) - {"", own}:
            assert own is None, f"feature {own} imports feature {feature} ({where})"
            reaches.add((str(where), feature))
    assert reaches <= CORE_REACHES.keys(), sorted(reaches - CORE_REACHES.keys())
    assert CORE_REACHES.keys() <= reaches, sorted(CORE_REACHES.keys() - reaches)


def test_a_new_feature_is_its_routes_and_one_line(tmp_path: Path) -> None:
    """A toy feature (a page of how many games each signed-in person finished) joins
    the site by one ``Feature``: its routes and a desk it hands the hub; the core's
    helpers find the hub and the session, and nothing else changes."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from riichi.server import create_app
    from riichi.server.app import FEATURES
    from riichi.server.feature import BALANCES, Feature, Missing
    from riichi.server.web import web_of

    class Visits:
        """The toy's desk: how many times its page was read in this process."""

        def __init__(self) -> None:
            self.count = 0

    async def finished(request: Request) -> Response:
        web = web_of(request)
        account = await web.account_of(request)
        visits = web.server.desk(Visits)
        visits.count += 1
        tables = len(web.server.registry.tables)
        return JSONResponse(
            {"signed_in": account is not None, "live": tables, "visits": visits.count}
        )

    toy = Feature("toy", [Route("/api/toy", finished)], lambda hub: hub.provide(Visits()))
    url = f"sqlite:///{tmp_path / 'toy.db'}"
    with TestClient(create_app(url, features=(*FEATURES, toy))) as client:
        assert client.get("/api/toy").json() == {"signed_in": False, "live": 0, "visits": 1}
        client.post("/api/register", json={"name": "toyuser", "password": "hunter2hunter2"})
        assert client.get("/api/toy").json()["signed_in"] is True
        assert client.get("/api/presets").status_code == 200  # the rest as it was
    with TestClient(create_app(url)) as client:
        assert client.get("/api/toy").status_code == 404
        hub = client.app.state.server  # type: ignore[attr-defined]
        with pytest.raises(Missing, match="Visits"):
            hub.desk(Visits)
        with pytest.raises(ValueError, match="two features provide"):
            hub.provide(object(), BALANCES)  # money provides it already
