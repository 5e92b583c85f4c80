"""What an operator scrapes (`riichi.server.metrics`): the actions committed, the
acknowledgements' times, the refusals, and the live tables, read from the process."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from prometheus_client import generate_latest
from starlette.testclient import TestClient

from riichi.server import create_app
from server_helpers import Seat, free_port, stored_actions, write_tables


def _value(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} not in the metrics")


def test_the_metrics_count_what_the_tables_commit_and_refuse(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.db'}"
    (table,) = write_tables(url, ["t"], ["human", "expert", "expert", "expert"], "east")
    port = free_port()
    app = create_app(url, metrics=f"127.0.0.1:{port}")
    with TestClient(app) as client:
        metrics = app.state.web.server.registry.metrics
        with client.websocket_connect(f"/ws/tables/t?token={table['tokens'][0]}") as ws:
            seat = Seat(ws)
            assert seat.play(limit=3) == 3
            seat.send({"type": "action", "version": -1, "action": {"type": "pass"}})
            assert seat.read_until("error")["type"] == "error"
            assert client.get("/api/tables/nope").status_code == 404
            seat.await_turn()  # the table waits on this seat: nothing is being committed
            text = generate_latest(metrics.registry).decode()
            assert _value(text, 'riichi_live_tables{kind="private"}') == 1
            assert _value(text, "riichi_sockets") == 1
            served = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
            committed = len(stored_actions(url, "t"))
    assert _value(served, "riichi_actions_committed_total") == committed
    assert _value(served, "riichi_ack_seconds_count") == 3
    assert _value(served, 'riichi_refused_total{kind="table"}') == 1
    assert _value(served, 'riichi_refused_total{kind="404"}') == 1


def test_the_dashboard_shows_only_metrics_the_site_serves(tmp_path: Path) -> None:
    import json
    import re

    root = Path(__file__).resolve().parents[1]
    dashboard = json.loads((root / "deploy" / "grafana" / "riichi.json").read_text())
    queries = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    family = re.compile(r"_(total|bucket|count|sum)$")
    named = {family.sub("", m) for q in queries for m in re.findall(r"riichi_\w+", q)}
    app = create_app(f"sqlite:///{tmp_path / 'site.db'}")
    with TestClient(app):
        served = generate_latest(app.state.web.server.registry.metrics.registry).decode()
    typed = [line.split()[2] for line in served.splitlines() if line.startswith("# TYPE")]
    families = {family.sub("", name) for name in typed}
    assert len(named) >= 7 and named <= families, sorted(named - families)
