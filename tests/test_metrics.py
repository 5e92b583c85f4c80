"""What an operator scrapes (`riichi.server.metrics`): the actions committed, the
acknowledgements' times, the refusals, and the live tables, read from the process."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from prometheus_client import generate_latest
from starlette.testclient import TestClient

from riichi.server import create_app
from server_helpers import Seat, free_port, metric_value, stored_actions, write_tables


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
            assert metric_value(text, 'riichi_live_tables{kind="private"}') == 1
            assert metric_value(text, "riichi_sockets") == 1
            served = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
            committed = len(stored_actions(url, "t"))
    assert metric_value(served, "riichi_actions_committed_total") == committed
    assert metric_value(served, "riichi_ack_seconds_count") == 3
    assert metric_value(served, 'riichi_refused_total{kind="table"}') == 1
    assert metric_value(served, 'riichi_refused_total{kind="404"}') == 1


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


def test_the_money_gauges_read_the_ledger(tmp_path: Path) -> None:
    """A money table in play: the chips in play are its escrow, the house's exposure is
    the ledger's, read at the scrape."""
    from riichi.platform.chips import escrow
    from riichi.server.money.ledger import ChipStore

    app = create_app(f"sqlite:///{tmp_path / 'site.db'}")
    with TestClient(app) as client:
        client.post("/api/register", json={"name": "Ann", "password": "correct horse"})
        body = {
            "rules": "riichi-basic",
            "seats": ["human", "expert", "expert", "expert"],
            "length": "one-hand",
            "clock": "standard",
            "bet": 500,
            "switches": {"settlement": "winner-takes-all"},
        }
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        hub = app.state.web.server
        chips = hub.desk(ChipStore)
        text = generate_latest(hub.registry.metrics.registry).decode()
        held = chips.balance(escrow(made.json()["id"]))
        assert held > 0
        assert metric_value(text, "riichi_chips_in_play") == held
        assert metric_value(text, "riichi_house_exposure") == chips.exposure() > 0
        assert metric_value(text, "riichi_reviews_waiting") == 0
        assert metric_value(text, "riichi_lease_takeovers_total") == 0


def test_structured_logs_are_json_lines_with_the_table(tmp_path: Path) -> None:
    """``riichi serve --log-json``: every line of the log is a JSON object; a table's
    connection is logged with its table's id and never its seat's token."""
    import json

    from websockets.sync.client import connect

    from server_helpers import start_server

    url = f"sqlite:///{tmp_path / 'site.db'}"
    (table,) = write_tables(url, ["t0042"], ["human", "expert", "expert", "expert"], "east")
    port, log = free_port(), tmp_path / "serve.log"
    process = start_server(url, port, log, "--log-json")
    try:
        link = f"ws://127.0.0.1:{port}/ws/tables/t0042?token={table['tokens'][0]}"
        with connect(link, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    finally:
        process.terminate()
        process.wait(10)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "message"} <= set(x) for x in lines)
    assert any(x.get("table") == "t0042" for x in lines), lines
    assert table["tokens"][0] not in log.read_text()
