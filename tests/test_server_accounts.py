"""Accounts and sessions: register, sign in and out, change the password; every refusal
is clear and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from riichi.server import Store, create_app
from riichi.server.auth import COOKIE
from riichi.server.clock import FakeClock
from server_helpers import Seat


def app_on(tmp_path: Path, clock: FakeClock | None = None) -> Any:
    return create_app(f"sqlite:///{tmp_path / 'accounts.db'}", clock=clock or FakeClock())


def register(client: TestClient, name: str, password: str = "correct horse") -> dict[str, Any]:
    response = client.post("/api/register", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    account: dict[str, Any] = response.json()["account"]
    return account


def me(client: TestClient) -> dict[str, Any] | None:
    account: dict[str, Any] | None = client.get("/api/me").json()["account"]
    return account


def test_register_sign_in_sign_out(db: str) -> None:
    """On SQLite and on PostgreSQL, as every storage path."""
    with TestClient(create_app(db, clock=FakeClock())) as client:
        response = client.post("/api/register", json={"name": "Ann_1", "password": "correct horse"})
        assert response.status_code == 201
        cookie = response.headers["set-cookie"]
        assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
        assert "correct horse" not in response.text
        assert me(client) == {"id": 1, "name": "Ann_1"}
        old = client.cookies.get(COOKIE)
        assert client.post("/api/signout", json={}).json() == {"account": None}
        assert me(client) is None
        # the old cookie is dead on the server, not only dropped by the browser
        client.cookies.set(COOKIE, old)
        assert me(client) is None
        client.cookies.clear()
        response = client.post("/api/signin", json={"name": "ann_1", "password": "correct horse"})
        assert response.status_code == 200 and me(client) == {"id": 1, "name": "Ann_1"}


def test_names_are_unique_whatever_their_case_and_checked(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        register(client, "Bea")
        client.cookies.clear()
        taken = client.post("/api/register", json={"name": "BEA", "password": "another one"})
        assert taken.status_code == 409 and "taken" in taken.json()["error"]
        for name, expected in (
            ("x", "3 to 20"),
            ("a b", "letters, digits"),
            ("robot", "kept for computers"),
            (["Bea"], "text"),
        ):
            response = client.post("/api/register", json={"name": name, "password": "long enough"})
            assert response.status_code == 400 and expected in response.json()["error"], name
        short = client.post("/api/register", json={"name": "Cy_", "password": "short"})
        assert short.status_code == 400 and "8 to 128" in short.json()["error"]
        assert me(client) is None


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        register(client, "Dee")
        client.cookies.clear()
        wrong = client.post("/api/signin", json={"name": "Dee", "password": "not the one"})
        unknown = client.post("/api/signin", json={"name": "Nobody", "password": "not the one"})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json() == {"error": "wrong name or password"}
        assert me(client) is None


def test_expired_and_forged_cookies_sign_nobody_in(tmp_path: Path) -> None:
    clock = FakeClock()
    with TestClient(app_on(tmp_path, clock)) as client:
        register(client, "Eve")
        cookie = client.cookies.get(COOKIE)
        assert cookie is not None
        forged = cookie[:-4] + ("AAAA" if not cookie.endswith("AAAA") else "BBBB")
        client.cookies.set(COOKIE, forged)
        assert me(client) is None
        client.cookies.set(COOKIE, "x" * 5000)
        assert me(client) is None
        client.cookies.set(COOKIE, cookie)
        assert me(client) is not None
        clock.advance(31 * 24 * 3600)  # sessions last 30 days
        assert me(client) is None


def test_a_new_password_ends_the_other_sessions(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        register(client, "Fay")
        first = client.cookies.get(COOKIE)
        client.cookies.clear()
        client.post("/api/signin", json={"name": "Fay", "password": "correct horse"})
        wrong = client.post("/api/password", json={"old": "nope nope", "new": "brand new one"})
        assert wrong.status_code == 401
        done = client.post("/api/password", json={"old": "correct horse", "new": "brand new one"})
        assert done.status_code == 200
        assert me(client) is not None  # this session goes on
        client.cookies.set(COOKIE, first)
        assert me(client) is None  # the other one ended
        client.cookies.clear()
        old = client.post("/api/signin", json={"name": "Fay", "password": "correct horse"})
        assert old.status_code == 401
        new = client.post("/api/signin", json={"name": "Fay", "password": "brand new one"})
        assert new.status_code == 200
        signed_out = TestClient(client.app)
        with signed_out:
            refused = signed_out.post("/api/password", json={"old": "a", "new": "bbbbbbbbb"})
            assert refused.status_code == 401


def test_sign_in_floods_are_slowed(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        statuses = [
            client.post("/api/signin", json={"name": "Gus", "password": "whatever!"}).status_code
            for _ in range(12)
        ]
        assert statuses[:10] == [401] * 10 and statuses[10:] == [429, 429]


def test_a_seat_is_reached_by_its_account_and_refused_to_another(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        register(client, "Hal")
        table = client.post(
            "/api/tables", json={"kind": "private", "seats": ["human", "human", "random", "random"]}
        ).json()
        assert table["seats"][0]["name"] == "Hal" and table["seats"][0]["account"] == 1
        # Hal reaches seat 0 by the session alone, no token
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            assert Seat(ws).seat == 0
        ann = client.cookies.get(COOKIE)
        client.cookies.clear()
        register(client, "Ivy")
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url) as ws:
            refusal = json.loads(ws.receive_text())
            assert refusal["final"] and "belongs to another player" in refusal["message"]
        # Ivy takes the friend's seat by its link, signed in: it is hers from then on,
        # reached by her account alone
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][1]}") as ws:
            assert Seat(ws).seat == 1
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            assert Seat(ws).seat == 1
        assert ann is not None
        assert [t["id"] for t in client.get("/api/me").json()["tables"]] == [table["id"]]
        client.cookies.clear()  # a guest, though, is no spectator here: closed to them
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            refusal = json.loads(ws.receive_text())
            assert refusal["final"] and "not open to spectators" in refusal["message"]
        client.cookies.set(COOKIE, ann)
        assert [t["id"] for t in client.get("/api/me").json()["tables"]] == [table["id"]]


def test_practice_tables_are_one_person_against_bots_and_untimed(tmp_path: Path) -> None:
    with TestClient(app_on(tmp_path)) as client:
        ok = client.post(
            "/api/tables", json={"kind": "practice", "rules": "online", "length": "east"}
        )
        assert ok.status_code == 201 and ok.json()["kind"] == "practice"
        for body, expected in (
            ({"kind": "practice", "seats": ["human", "human", "random", "random"]}, "practice"),
            ({"kind": "practice", "clock": "standard"}, "practice"),
            ({"kind": "rated"}, "from the queue"),
            ({"kind": "tournament"}, "practice or private"),
            ({"kind": "private", "clock": "blitz"}, "untimed, standard or relaxed"),
        ):
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400 and expected in response.json()["error"], body
        timed = client.post("/api/tables", json={"kind": "private", "clock": "relaxed"}).json()
        assert timed["pool"] == "relaxed"


def test_an_older_database_upgrades_in_place(tmp_path: Path) -> None:
    """A database made before accounts existed (revision 0002) upgrades on start."""
    from server_helpers import older_database

    url = older_database(
        tmp_path / "old.db",
        "0002",
        (
            "insert into tables (id, rules, seed, seats, status, created, salt, commitment,"
            " bot_seed, seed_public) values ('old1', ?, 's', ?, 'live', 1.0, 'x', 'y', 'b', 0)",
            (
                json.dumps({"name": "online"}),
                json.dumps([{"kind": "random", "name": "r (bot)"}] * 4),
            ),
        ),
    )
    store = Store(url)  # upgrades to the newest revision
    stored = store.get_table("old1")
    assert stored is not None and stored.kind == "private" and stored.pool == "untimed"
    assert store.accounts.queue() == []


@pytest.fixture(autouse=True)
def _quiet_alembic(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("WARNING", logger="alembic")


def test_a_signed_in_friend_who_opens_a_seat_link_sits_as_their_account(tmp_path: Path) -> None:
    """A guest opens a private table for two people; a signed-in friend opens the
    second seat's link and sits as their account (the table keeps it after a restart,
    and their page will count the game); the same account opening another seat's
    link sits there as a guest: one person, one seat."""
    url = f"sqlite:///{tmp_path / 'f.db'}"
    with TestClient(create_app(url)) as client:
        body = {"rules": "online", "length": "east", "seats": ["human"] * 3 + ["efficiency"]}
        table = client.post("/api/tables", json=body).json()
        friend = register(client, "Friend")
        base = f"/ws/tables/{table['id']}?token="
        with client.websocket_connect(base + table["tokens"][1]) as ws:
            assert Seat(ws).seat == 1
        with client.websocket_connect(base + table["tokens"][2]) as ws:
            assert Seat(ws).seat == 2
        seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
        assert [s["account"] for s in seats] == [None, friend["id"], None, None]
        assert seats[1]["name"] == "Friend" and seats[2]["name"] != "Friend"
    store = Store(url)
    try:
        stored = store.get_table(table["id"])
        assert stored is not None
        assert [s.get("account") for s in stored.seats] == [None, friend["id"], None, None]
    finally:
        store.close()
