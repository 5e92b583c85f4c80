"""The Daily Wall (000): the same walls for every account on a day, one attempt each,
the seed secret until the day is over and checkable after, a board by raw score, the
hands compared, and nobody's game of the day shown to one who has not played it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from starlette.testclient import TestClient

from riichi.cli import main
from riichi.game import Match
from riichi.game.wall import Wall
from riichi.platform.daily import (
    DAY,
    Attempt,
    board,
    compare,
    daily_seed,
    day_of,
    day_over,
    day_start,
    seed_commitment,
)
from riichi.rules import find_ruleset
from riichi.server import create_app
from riichi.server.auth import COOKIE
from riichi.server.clock import FakeClock
from riichi.server.daily.desk import SECRET_KEY
from server_helpers import Seat

NOON = day_start("2027-01-15") + DAY / 2


def test_the_seed_follows_the_day_and_the_secret() -> None:
    assert daily_seed("s", "2027-01-15") == daily_seed("s", "2027-01-15")
    assert daily_seed("s", "2027-01-15") != daily_seed("s", "2027-01-16")
    assert daily_seed("s", "2027-01-15") != daily_seed("t", "2027-01-15")
    assert day_of(NOON) == "2027-01-15"
    assert not day_over("2027-01-15", NOON)
    assert day_over("2027-01-15", day_start("2027-01-16"))


def test_the_board_orders_raw_scores_then_who_finished_first() -> None:
    def attempt(name: str, score: int, finished: float) -> Attempt:
        return Attempt(f"account:{name}", name, name, score, finished, [])

    ranked = board([attempt("a", 30000, 5), attempt("b", 41000, 9), attempt("c", 30000, 2)])
    assert [a.name for a in ranked] == ["b", "c", "a"]


def test_the_hands_compared() -> None:
    mine = Attempt("account:1", "me", "t1", 33000, 1, [{"label": "E1-0", "delta": 8000}])
    others = [
        mine,
        Attempt("account:2", "x", "t2", 20000, 2, [{"label": "E1-0", "delta": -5000}]),
        Attempt("account:3", "y", "t3", 37000, 3, [{"label": "E1-0", "delta": 12000}]),
    ]
    (hand,) = compare(others, mine)
    assert hand == {
        "label": "E1-0",
        "played": 3,
        "best": 12000,
        "worst": -5000,
        "average": 5000,
        "yours": 8000,
        "better_than_yours": 1,
        "deltas": [12000, 8000, -5000],
    }


# ----------------------------------------------------------------- through the server


def register(client: TestClient, name: str) -> str:
    client.cookies.clear()
    response = client.post("/api/register", json={"name": name, "password": "correct horse"})
    assert response.status_code == 201, response.text
    cookie = client.cookies.get(COOKIE)
    assert cookie is not None
    return cookie


def as_account(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)


def play_daily(client: TestClient) -> tuple[dict[str, Any], Seat]:
    """Start (or rejoin) today's attempt and play it to the end: win when possible,
    never call, otherwise discard the drawn tile. Returns the start answer and the
    seat's view at the end."""
    started = client.post("/api/daily", json={})
    assert started.status_code == 201, started.text
    info = started.json()
    with client.websocket_connect(f"/ws/tables/{info['table']}") as ws:
        seat = Seat(ws)
        assert seat.seat == 0
        seat.play()
    return info, seat


def test_two_accounts_get_the_same_walls_and_one_attempt_each(tmp_path: Path) -> None:
    clock = FakeClock(NOON)
    app = create_app(f"sqlite:///{tmp_path / 'daily.db'}", clock=clock)
    with TestClient(app) as client:
        # the site's secret fixed, so the day's walls (and how long its hand lasts) are too
        app.state.server.store.accounts.setting(SECRET_KEY, lambda: "the test's secret")
        alice = register(client, "alice")
        first, alice_seat = play_daily(client)
        register(client, "bob")
        # before bob has played: alice's game is closed to him, and so is the seed
        before = client.get("/api/daily").json()
        assert before["seed"] is None and before["compare"] is None
        # alice's account was made today: her attempt is listed, not ranked
        assert before["board"] == []
        assert [(row["game"], row["why"]) for row in before["unranked"]] == [
            (None, "the account was made on the day")
        ]
        assert client.get(f"/api/games/{first['table']}/record").status_code == 404
        assert client.get(f"/api/games/{first['table']}/replay").status_code == 404
        # nor is it listed among the finished games before it may be opened
        assert client.get("/api/games").json()["total"] == 0
        assert client.get(f"/api/tables/{first['table']}").json()["seed"] is None
        with client.websocket_connect(f"/ws/tables/{first['table']}") as ws:
            refused = json.loads(ws.receive_text())
            assert refused["type"] == "error" and "not open to spectators" in refused["message"]
        second, bob_seat = play_daily(client)
        assert second["table"] != first["table"] and second["day"] == first["day"]

        # the same walls: the same deal to the person, the same indicator, and playing
        # the same way against the same computers' play, the same game throughout
        def deal(seat: Seat) -> list[Any]:
            return [e for e in seat.events if e["type"] in ("deal", "start_hand")][:2]

        assert deal(alice_seat) == deal(bob_seat)
        assert alice_seat.events[1:] == bob_seat.events[1:]  # all but the names
        own_discards = [e for e in alice_seat.events if e["type"] == "discard" and e["seat"] == 0]
        assert len(own_discards) >= 5, alice_seat.events  # a hand played, not a deal alone
        hub = app.state.server
        a = hub.store.get_table(first["table"])
        b = hub.store.get_table(second["table"])
        assert a.seed == b.seed and a.commitment != b.commitment  # each table its own salt

        # one attempt a day
        again = client.post("/api/daily", json={})
        assert again.status_code == 400 and "come back tomorrow" in again.json()["error"]

        # bob has played: he may compare the hands he played, and opens no game
        after = client.get("/api/daily").json()
        assert after["seed"] is None  # still secret: the day is not over
        assert len(after["unranked"]) == 2 and not any(row["game"] for row in after["unranked"])
        assert after["compare"][0]["played"] == 2 and after["compare"][0]["deltas"] is None
        assert client.get(f"/api/games/{first['table']}/replay").status_code == 404
        assert after["mine"]["table"] == second["table"]
        as_account(client, alice)
        assert client.get("/api/daily").json()["mine"]["table"] == first["table"]

        # the day ends: the seed is shown, matches what was committed, deals these walls
        clock.advance(DAY)
        yesterday = client.get("/api/daily", params={"day": first["day"]}).json()
        seed = yesterday["seed"]
        assert all(row["game"] for row in yesterday["unranked"])
        assert yesterday["compare"][0]["deltas"] is not None
        assert seed is not None and seed_commitment(seed) == before["commitment"]
        assert first["day"] in client.get("/api/daily").json()["earlier"]
        assert sorted(Wall.seeded(seed, 0).hands[0]) == deal(alice_seat)[1]["hand"]
        replay = Match(find_ruleset("daily-wall"), seed, ["a", "b", "c", "d"])
        own_deal = next(e for e in replay.events if e.type == "deal" and e.to == 0)
        assert own_deal.data["hand"] == deal(alice_seat)[1]["hand"]
        record = client.get(f"/api/games/{first['table']}/record")
        assert record.status_code == 200 and record.json()["seed"] == seed
        listed = {g["id"] for g in client.get("/api/games").json()["items"]}
        assert {first["table"], second["table"]} <= listed
        path = tmp_path / "record.json"
        path.write_bytes(record.content)
        verified = CliRunner().invoke(main, ["verify", str(path)])
        assert verified.exit_code == 0, verified.output
        walls = CliRunner().invoke(main, ["walls", seed, "--commitment", before["commitment"]])
        assert walls.exit_code == 0 and "verified" in walls.output


def test_an_attempt_in_play_is_rejoined_not_restarted(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'daily.db'}", clock=FakeClock(NOON))
    with TestClient(app) as client:
        register(client, "carol")
        one = client.post("/api/daily", json={}).json()
        two = client.post("/api/daily", json={}).json()
        assert one == two
        client.cookies.clear()
        assert client.post("/api/daily", json={}).status_code == 401  # an account plays
        assert client.get("/api/daily", params={"day": "2027-13-01"}).status_code == 400
        assert client.get("/api/daily", params={"day": "2099-01-01"}).status_code == 400


def test_a_restart_mid_attempt_leaves_the_computers_playing_as_for_everyone(
    tmp_path: Path,
) -> None:
    """The computers' choices depend on the day's seed and the situation, not on how
    long a process has lived: an attempt interrupted by a restart meets the same play as
    an uninterrupted one, move for move."""
    url = f"sqlite:///{tmp_path / 'daily.db'}"
    clock = FakeClock(NOON)
    with TestClient(create_app(url, clock=clock)) as client:
        register(client, "steady")
        _, steady = play_daily(client)
        interrupted = register(client, "restarted")
        started = client.post("/api/daily", json={}).json()
        with client.websocket_connect(f"/ws/tables/{started['table']}") as ws:
            Seat(ws).play(limit=3)
    with TestClient(create_app(url, clock=clock)) as client:
        as_account(client, interrupted)
        with client.websocket_connect(f"/ws/tables/{started['table']}") as ws:
            again = Seat(ws)
            again.play()
    assert again.events[1:] == steady.events[1:]


def test_the_player_page_keeps_todays_attempt_until_the_day_is_over(tmp_path: Path) -> None:
    """The page showed today's attempt (its table, place, score and deal-in rate) while
    others could still play the same walls."""
    clock = FakeClock(NOON)
    app = create_app(f"sqlite:///{tmp_path / 'daily.db'}", clock=clock)
    with TestClient(app) as client:
        app.state.server.store.accounts.setting(SECRET_KEY, lambda: "the test's secret")
        register(client, "alice")
        alice = client.get("/api/me").json()["account"]["id"]
        first, _ = play_daily(client)
        page = client.get(f"/api/players/account:{alice}").json()
        assert page["games"]["total"] == 0 and page["games"]["items"] == []
        assert page["stats"]["all"]["games"] == 0
        assert first["table"] not in json.dumps(page)
        clock.advance(DAY)
        page = client.get(f"/api/players/account:{alice}").json()
        assert [g["table"] for g in page["games"]["items"]] == [first["table"]]
        assert page["stats"]["all"]["games"] == 1
