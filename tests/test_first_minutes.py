"""A new player's first minutes: a practice table left ends at once and frees the
guest's place; a seat at any other table is only let go (its clock plays it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from riichi.server import create_app
from riichi.server.clock import FakeClock
from riichi.server.protocol import CLOSE_NO_TABLE

PLAY_NOW = {  # what the home page's Play now asks for
    "kind": "practice",
    "rules": "online",
    "length": "east",
    "seats": ["human", "expert", "expert", "expert"],
    "clock": "untimed",
}


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'site.db'}", clock=FakeClock())) as client:
        yield client


def test_a_guest_who_leaves_a_practice_table_may_start_another(web: TestClient) -> None:
    made = [web.post("/api/tables", json=PLAY_NOW) for _ in range(3)]
    assert [m.status_code for m in made] == [201, 201, 201]
    refused = web.post("/api/tables", json=PLAY_NOW)
    assert refused.status_code == 429 and "finish one" in refused.json()["error"]
    first = made[0].json()
    wrong = web.post(f"/api/tables/{first['id']}/leave", json={"token": "not-a-seat"})
    assert wrong.status_code == 400 and "not valid" in wrong.json()["error"]
    nobody = web.post(f"/api/tables/{first['id']}/leave", json={})
    assert nobody.status_code == 403
    link = f"/ws/tables/{first['id']}?token={first['tokens'][0]}"
    with web.websocket_connect(link) as ws:
        assert '"hello"' in ws.receive_text()
        left = web.post(f"/api/tables/{first['id']}/leave", json={"token": first["tokens"][0]})
        assert left.status_code == 200 and left.json()["ended"] is True
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                ws.receive_text()
        assert closed.value.code == CLOSE_NO_TABLE
    assert web.get(f"/api/tables/{first['id']}").json()["over"] is False
    assert web.post("/api/tables", json=PLAY_NOW).status_code == 201
    gone = web.post(f"/api/tables/{first['id']}/leave", json={"token": first["tokens"][0]})
    assert gone.status_code == 404


def test_leaving_a_private_table_lets_the_seat_go_and_the_game_on(web: TestClient) -> None:
    body = {**PLAY_NOW, "kind": "private", "seats": ["human", "human", "expert", "expert"]}
    table = web.post("/api/tables", json=body).json()
    left = web.post(f"/api/tables/{table['id']}/leave", json={"token": table["tokens"][0]})
    assert left.status_code == 200 and left.json()["ended"] is False
    link = f"/ws/tables/{table['id']}?token={table['tokens'][1]}"
    with web.websocket_connect(link) as ws:
        assert '"hello"' in ws.receive_text()  # the table plays on for the friend


def test_a_path_nobody_serves_is_a_page_that_says_so(web: TestClient) -> None:
    page = web.get("/nonexistent")
    assert page.status_code == 404 and 'id="gone"' in page.text
    assert web.get("/api/nonexistent").json() == {"error": "not found"}
    assert web.get("/api/nonexistent").status_code == 404
