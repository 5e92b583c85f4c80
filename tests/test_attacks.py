"""The security review's findings, each performed as the attack it was and refused:
chips from nothing, the Daily Wall scouted, one address slowing or locking out the
site, one person's accounts at one rated table, and the low ones (numbers, names,
the live version). Each test failed before its fix."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient

from riichi.platform.accounts import check_name, name_key, reserved
from riichi.platform.chips import (
    BANK,
    HOUSE,
    MONEY,
    ChipError,
    Played,
    Transfer,
    check_stake,
    escrow,
    out_of_line,
)
from riichi.platform.daily import DAY, RATED_GAMES, day_start
from riichi.platform.integrity import suspicious_pairs
from riichi.platform.matchmaking import Waiting, seat_tables
from riichi.platform.ratings import Rating, rate
from riichi.rules import InvalidRulesetError, Length, RuleSet, Settlement, find_ruleset
from riichi.server import Limits, Store, create_app
from riichi.server.clock import FakeClock
from riichi.server.ledger import ChipStore
from riichi.server.storage import OPERATOR, STAT_COLUMNS, NewTable, game_stats, post
from riichi.server.storage import tables as tables_
from server_helpers import Seat
from test_chips import final

PASSWORD = "correct horse"
WTA = {"rules": "riichi-basic", "length": "one-hand", "switches": {"settlement": "winner-takes-all"}}
ROSTER = ["human", "expert", "expert", "expert"]


def url(tmp_path: Path, name: str = "site.db") -> str:
    return f"sqlite:///{tmp_path / name}"


def from_address(client: TestClient, address: str) -> None:
    """The address the next requests come from (the test client's peer)."""
    client._transport.client = (address, 50000)  # type: ignore[attr-defined]


def register(client: TestClient, name: str, address: str = "testclient") -> int:
    client.cookies.clear()
    from_address(client, address)
    made = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    account: int = made.json()["account"]["id"]
    return account


def hub(client: TestClient) -> Any:
    return client.app.state.server  # type: ignore[attr-defined]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    clock = FakeClock()
    with TestClient(create_app(url(tmp_path), clock=clock)) as client:
        yield client, clock


# ----------------------------------------------------------------- chips from nothing


def test_a_money_table_on_a_chosen_seed_is_refused(site: tuple[TestClient, FakeClock]) -> None:
    """Attack 1: choose the seed, simulate the one-hand game offline, bet on the seat
    that wins. The house backs no table whose walls somebody chose."""
    client, _ = site
    register(client, "seeker")
    body = {**WTA, "seats": ROSTER, "clock": "standard", "bet": 5000, "seed": "S"}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 400 and "leave out the seed" in refused.json()["error"]
    assert client.get("/api/chips").json()["balance"] == 10_000
    assert hub(client).live == 0


def test_a_money_table_against_weaker_bots_is_refused(site: tuple[TestClient, FakeClock]) -> None:
    """Attack 2: bet against `random` bots and win twenty of twenty. The house backs the
    roster computer at its full strength, on a clock, and nothing else."""
    client, _ = site
    register(client, "farmer")
    for seats in (["human", "random", "random", "random"], ["human", "expert", "defensive", "expert"]):
        refused = client.post("/api/tables", json={**WTA, "seats": seats, "clock": "standard", "bet": 100})
        assert refused.status_code == 400 and "only the roster computer" in refused.json()["error"]
    untimed = client.post("/api/tables", json={**WTA, "seats": ROSTER, "bet": 100})
    assert untimed.status_code == 400 and "on a clock" in untimed.json()["error"]
    two = client.post(
        "/api/tables", json={**WTA, "seats": ["human", "human", "expert", "expert"], "clock": "standard", "bet": 100}
    )
    assert two.status_code == 400 and "one signed-in player" in two.json()["error"]
    assert client.get("/api/chips").json()["balance"] == 10_000
    made = client.post("/api/tables", json={**WTA, "seats": ROSTER, "clock": "standard", "bet": 100})
    assert made.status_code == 201, made.text
    assert hub(client).chips.balance(escrow(made.json()["id"])) == 4 * 150


def test_only_an_operator_adds_the_houses_chips(site: tuple[TestClient, FakeClock]) -> None:
    """Attack 3: a tournament with a million added, paid 25/25/25/25, the organiser and
    three computers: 250,000 chips whatever happens. Only an operator adds money."""
    client, _ = site
    account = register(client, "organiser")
    body = {"name": "Free money", "added": 1_000_000, "payout": [25, 25, 25, 25], "closes_in": 60}
    refused = client.post("/api/tournaments", json=body)
    assert refused.status_code == 400 and "only an operator" in refused.json()["error"]
    assert client.get("/api/tournaments").json()["total"] == 0
    assert hub(client).chips.balances().get(HOUSE, 0) == 0
    hub(client).store.accounts.set_role(name_key("organiser"), OPERATOR)
    assert hub(client).store.accounts.is_operator(account)
    made = client.post("/api/tournaments", json={**body, "added": 1000})
    assert made.status_code == 201, made.text
    assert hub(client).chips.balance(escrow(made.json()["id"])) == 1000


def test_an_account_stakes_a_bounded_amount_against_the_house(tmp_path: Path) -> None:
    """Per account: two money tables in play at once, 30,000 chips put up a day."""
    check_stake(0, 1, 7500)
    with pytest.raises(ChipError, match="2 money tables already"):
        check_stake(0, 2, 100)
    with pytest.raises(ChipError, match="daily limit"):
        check_stake(MONEY.daily_stake - 100, 0, 101)
    clock = FakeClock()
    with TestClient(create_app(url(tmp_path), clock=clock)) as client:
        account = register(client, "whale")
        with hub(client).store.engine.begin() as conn:  # a rich account: only the limits stop it
            post(conn, "gift", [Transfer(BANK, f"account:{account}", 100_000)], clock.now())
        body = {**WTA, "seats": ROSTER, "clock": "standard", "bet": 5000}  # reserves 7,500
        made = [client.post("/api/tables", json=body) for _ in range(3)]
        assert [m.status_code for m in made] == [201, 201, 400]
        assert "2 money tables already" in made[2].json()["error"]
        chips = hub(client).chips
        for table in made[:2]:
            chips.void_table(table.json()["id"], clock.now())
        # voided tables give the chips back but still count against the day's stake
        statuses = []
        for _ in range(3):
            answer = client.post("/api/tables", json=body)
            statuses.append(answer.status_code)
            if answer.status_code == 201:
                chips.void_table(answer.json()["id"], clock.now())
        assert statuses == [201, 201, 400]  # 4 x 7,500 = 30,000, the day's limit
        clock.advance(DAY)
        assert client.post("/api/tables", json=body).status_code == 201  # a new day
        assert chips.audit() == []


@pytest.mark.books_out_of_line
def test_the_audit_flags_a_house_past_its_floor_and_winnings_out_of_line(tmp_path: Path) -> None:
    """The books can balance while the house bleeds: the audit says so, and names the
    account whose winnings no fair player reaches."""
    fair = [Played(150, 450 if n % 4 == 0 else -150, 4) for n in range(20)]
    assert out_of_line(fair) is None or out_of_line(fair) < MONEY.suspicious_z
    farmed = [Played(150, 450, 4)] * 20  # twenty wins of twenty
    assert (z := out_of_line(farmed)) is not None and z > MONEY.suspicious_z
    store = Store(url(tmp_path))
    try:
        chips = ChipStore(store.engine)
        farmer = store.accounts.create_account("farmer", "farmer", "x", 0.0).id
        seats = [{"kind": "human", "name": "f", "token_hash": None, "account": farmer}]
        seats += [{"kind": "expert", "name": "e (bot)", "token_hash": None}] * 3
        rules = find_ruleset("riichi-basic").replace(
            settlement=Settlement.WINNER_TAKES_ALL, length=Length.ONE_HAND
        )
        for n in range(20):  # twenty tables, twenty wins
            new = NewTable(
                id=f"t{n}",
                rules=rules.to_dict(),
                seed="s",
                salt="x",
                commitment="y",
                bot_seed="b",
                seed_public=False,
                seats=seats,
                created=float(n),
                pool="standard",
                bet=100,
                reserves=((f"account:{farmer}", 150), (HOUSE, 150), (HOUSE, 150), (HOUSE, 150)),
            )
            store.create_table(new)
            store.finish(new.id, final(new.id, [1, 2, 3, 4], None))
        problems = chips.audit()
        assert any(f"account:{farmer} has won 6000 chips over 20 money tables" in p for p in problems)
        with store.engine.begin() as conn:
            post(conn, "loss", [Transfer(HOUSE, BANK, 3_000_000)], 0.0)
        assert any("past its floor" in p for p in chips.audit())
    finally:
        store.close()


# ----------------------------------------------------------------- the Daily Wall


def give_rated_history(client: TestClient, account: int, games: int, before: float) -> None:
    """``games`` finished rated games on the account's record, before ``before``."""
    figures = dict.fromkeys(STAT_COLUMNS, 0)
    with hub(client).store.engine.begin() as conn:
        for n in range(games):
            table = f"r{account}x{n}"
            conn.execute(
                insert(tables_).values(
                    id=table, rules="{}", seed="s", seats="[]", status="over", created=0.0,
                    kind="rated", pool="standard", watchable=True, bet=0, seed_public=False,
                )
            )
            conn.execute(
                insert(game_stats).values(
                    table_id=table, seat=0, player=f"account:{account}", rated=True,
                    finished=before - 1000, place=2, score=25000, points=0.0, **figures,
                )
            )


def test_nothing_of_a_daily_attempt_leaves_the_server_before_the_day_ends(tmp_path: Path) -> None:
    """Attack 4: account A plays, reads its record for the day's seed, solves the day
    offline; a fresh account B plays the best line and ranks first. Until the day is
    over nobody, A included, gets A's record, download, replay, standings or hands
    beyond their own, and B, made on the day, is not ranked."""
    from test_daily import play_daily

    noon = day_start("2027-01-15") + DAY / 2
    clock = FakeClock(noon - DAY)  # the accounts that rank exist before the day
    with TestClient(create_app(url(tmp_path), clock=clock)) as client:
        a = register(client, "scout", "10.0.0.1")
        give_rated_history(client, a, RATED_GAMES, noon - DAY / 2)
        c = register(client, "honest", "10.0.0.3")
        give_rated_history(client, c, RATED_GAMES, noon - DAY / 2)
        sibling = register(client, "sibling", "10.0.0.3")
        give_rated_history(client, sibling, RATED_GAMES, noon - DAY / 2)
        clock.advance(DAY)
        client.cookies.clear()
        from_address(client, "10.0.0.1")
        client.post("/api/signin", json={"name": "scout", "password": PASSWORD})
        first, _ = play_daily(client)
        for fmt in ("record", "tenhou6", "replay"):  # not even to its own player
            assert client.get(f"/api/games/{first['table']}/{fmt}").status_code == 404
        info = client.get(f"/api/tables/{first['table']}").json()
        assert info["seed"] is None and info["standings"] is None
        games = client.get("/api/games").json()["items"]
        (listed,) = [g for g in games if g["id"] == first["table"]]
        assert listed["standings"] is None and listed["seed"] is None
        mine = client.get("/api/daily").json()
        assert mine["seed"] is None and all(row["game"] is None for row in mine["board"])
        played = {h["label"] for h in mine["compare"]}
        assert played and all(h["deltas"] is None for h in mine["compare"])

        register(client, "latecomer", "10.0.0.2")  # made on the day, from elsewhere
        play_daily(client)
        for fmt in ("record", "tenhou6", "replay"):
            assert client.get(f"/api/games/{first['table']}/{fmt}").status_code == 404
        client.cookies.clear()
        from_address(client, "10.0.0.3")
        client.post("/api/signin", json={"name": "honest", "password": PASSWORD})
        play_daily(client)
        clock.advance(60)
        client.cookies.clear()
        client.post("/api/signin", json={"name": "sibling", "password": PASSWORD})
        play_daily(client)
        day = client.get("/api/daily").json()
        ranked = {row["name"] for row in day["board"]}
        assert ranked == {"scout", "honest"}
        why = {row["name"]: row["why"] for row in day["unranked"]}
        assert why == {
            "latecomer": "the account was made on the day",
            "sibling": "not the day's first attempt from its address",
        }
        clock.advance(DAY)  # the day is over: everything is shown
        assert client.get(f"/api/games/{first['table']}/record").status_code == 200
        over = client.get("/api/daily", params={"day": first["day"]}).json()
        assert over["seed"] is not None and all(row["game"] for row in over["board"])
