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
from click.testing import CliRunner
from sqlalchemy import insert
from starlette.testclient import TestClient

from riichi.cli import main
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
from riichi.server.money.ledger import ChipStore
from riichi.server.ratings.records import RecordStore
from riichi.server.ratings.schema import STAT_COLUMNS, game_stats
from riichi.server.storage import OPERATOR, post
from riichi.server.storage import tables as tables_
from riichi.server.tournaments.desk import TournamentDesk
from server_helpers import Seat
from test_chips import final, money_table

PASSWORD = "correct horse"
WTA = {
    "rules": "riichi-basic",
    "length": "one-hand",
    "switches": {"settlement": "winner-takes-all"},
}
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
    for seats in (
        ["human", "random", "random", "random"],
        ["human", "expert", "defensive", "expert"],
    ):
        refused = client.post(
            "/api/tables", json={**WTA, "seats": seats, "clock": "standard", "bet": 100}
        )
        assert refused.status_code == 400 and "only the roster computer" in refused.json()["error"]
    untimed = client.post("/api/tables", json={**WTA, "seats": ROSTER, "bet": 100})
    assert untimed.status_code == 400 and "on a clock" in untimed.json()["error"]
    two = client.post(
        "/api/tables",
        json={
            **WTA,
            "seats": ["human", "human", "expert", "expert"],
            "clock": "standard",
            "bet": 100,
        },
    )
    assert two.status_code == 400 and "one signed-in player" in two.json()["error"]
    assert client.get("/api/chips").json()["balance"] == 10_000
    made = client.post(
        "/api/tables", json={**WTA, "seats": ROSTER, "clock": "standard", "bet": 100}
    )
    assert made.status_code == 201, made.text
    assert hub(client).desk(ChipStore).balance(escrow(made.json()["id"])) == 4 * 150


def test_the_operator_role_is_granted_by_the_staffs_command(tmp_path: Path) -> None:
    store = Store(url(tmp_path))
    try:
        account = store.accounts.create_account("Staffer", name_key("Staffer"), "x", 0.0).id
    finally:
        store.close()
    runner = CliRunner()
    granted = runner.invoke(main, ["operator", "staffer", "--db", url(tmp_path)])
    assert granted.exit_code == 0 and "Staffer is an operator" in granted.output
    unknown = runner.invoke(main, ["operator", "nobody", "--db", url(tmp_path)])
    assert unknown.exit_code == 2 and "no account is named" in unknown.output
    store = Store(url(tmp_path))
    try:
        assert store.accounts.is_operator(account)
        runner.invoke(main, ["operator", "Staffer", "--revoke", "--db", url(tmp_path)])
        assert not store.accounts.is_operator(account)
    finally:
        store.close()
    clean = runner.invoke(main, ["audit", "--db", url(tmp_path)])
    assert clean.exit_code == 0 and "the books are clean" in clean.output


def test_only_an_operator_adds_the_houses_chips(site: tuple[TestClient, FakeClock]) -> None:
    """Attack 3: a tournament with a million added, paid 25/25/25/25, the organiser and
    three computers: 250,000 chips whatever happens. Only an operator adds money."""
    client, _ = site
    account = register(client, "organiser")
    body = {"name": "Free money", "added": 1_000_000, "payout": [25, 25, 25, 25], "closes_in": 60}
    refused = client.post("/api/tournaments", json=body)
    assert refused.status_code == 400 and "only an operator" in refused.json()["error"]
    assert client.get("/api/tournaments").json()["total"] == 0
    assert hub(client).desk(ChipStore).balances().get(HOUSE, 0) == 0
    hub(client).store.accounts.set_role(name_key("organiser"), OPERATOR)
    assert hub(client).store.accounts.is_operator(account)
    made = client.post("/api/tournaments", json={**body, "added": 1000})
    assert made.status_code == 201, made.text
    assert hub(client).desk(ChipStore).balance(escrow(made.json()["id"])) == 1000


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
        chips = hub(client).desk(ChipStore)
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
        rules = find_ruleset("riichi-basic").replace(
            settlement=Settlement.WINNER_TAKES_ALL, length=Length.ONE_HAND
        )
        for n in range(20):  # twenty tables over twenty days, twenty wins
            new = money_table(f"t{n}", farmer, rules, 100, created=n * DAY)
            store.create_table(new)
            store.finish(new.id, final(new.id, [1, 2, 3, 4], None))
        problems = chips.audit()
        assert any(
            f"account:{farmer} has won 6000 chips over 20 money tables" in p for p in problems
        )
        printed = CliRunner().invoke(main, ["audit", "--db", url(tmp_path)])
        assert printed.exit_code == 1 and "problem: account:1 has won 6000" in printed.output
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
                    id=table,
                    rules="{}",
                    seed="s",
                    seats="[]",
                    status="over",
                    created=0.0,
                    kind="rated",
                    pool="standard",
                    watchable=True,
                    bet=0,
                    seed_public=False,
                )
            )
            conn.execute(
                insert(game_stats).values(
                    table_id=table,
                    seat=0,
                    player=f"account:{account}",
                    rated=True,
                    finished=before - 1000,
                    place=2,
                    score=25000,
                    points=0.0,
                    **figures,
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
        assert first["table"] not in {g["id"] for g in games}  # not even listed yet
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
            "sibling": "not the day's first attempt from its address or browser",
        }
        clock.advance(DAY)  # the day is over: everything is shown
        assert client.get(f"/api/games/{first['table']}/record").status_code == 200
        over = client.get("/api/daily", params={"day": first["day"]}).json()
        assert over["seed"] is not None and all(row["game"] for row in over["board"])


# ----------------------------------------------------------------- one address, everyone slowed


def test_a_sign_in_flood_waits_on_its_own_pool_and_pages_do_not(
    site: tuple[TestClient, FakeClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack 5: twenty addresses send wrong passwords as fast as their limits allow.
    The hashes queue on their own bounded pool (the surplus refused at once) and a
    signed-in page is answered meanwhile: storage never waits behind a hash."""
    client, _ = site
    auth = hub(client).auth
    register(client, "victim", "10.9.9.9")
    gate = threading.Event()
    real = auth._verify

    def slow_verify(hashed: str, password: str) -> bool:
        gate.wait(30)  # every hash takes as long as the test says
        return bool(real(hashed, password))

    monkeypatch.setattr(auth, "_verify", slow_verify)
    answers: list[int] = []

    def attacker(n: int) -> None:
        other = TestClient(client.app, client=(f"10.1.0.{n}", 1))
        other.portal = client.portal  # the same running app, from another address
        answer = other.post("/api/signin", json={"name": "victim", "password": "wrong pass"})
        answers.append(answer.status_code)

    threads = [threading.Thread(target=attacker, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while auth.hashing.pending < auth.hashing.queue and time.monotonic() < deadline:
        time.sleep(0.01)
    assert auth.hashing.pending == auth.hashing.queue  # the pool is full and waiting
    page = client.get("/api/me")  # the signed-in visitor is answered all the same
    assert page.status_code == 200 and page.json()["account"]["name"] == "victim"
    gate.set()
    for thread in threads:
        thread.join(30)
    assert sorted(set(answers)) == [401, 503]
    assert answers.count(401) == auth.hashing.queue


def test_a_browser_that_signed_in_before_is_not_locked_out_by_the_site_wide_rate(
    site: tuple[TestClient, FakeClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site-wide sign-in rate is a lock-out a flood of many addresses can trigger:
    a browser that has signed in to the account before (its device cookie) is let
    through all the same; a browser that has not waits for the minute to pass."""
    client, _ = site
    auth = hub(client).auth
    register(client, "regular", "10.8.0.1")  # this browser now knows the account
    real = auth._verify
    monkeypatch.setattr(auth, "_verify", lambda hashed, password: False)  # a cheap flood
    refused = 0
    for n in range(130):  # 130 addresses, one wrong password each
        other = TestClient(client.app, client=(f"10.7.{n // 200}.{n % 200 + 1}", 1))
        other.portal = client.portal
        answer = other.post("/api/signin", json={"name": "regular", "password": "wrong pass"})
        refused += answer.status_code == 503
    assert refused >= 10  # past 120 a minute, everybody's sign-in is refused...
    monkeypatch.setattr(auth, "_verify", real)
    stranger = TestClient(client.app, client=("10.8.0.2", 1))
    stranger.portal = client.portal
    answer = stranger.post("/api/signin", json={"name": "regular", "password": PASSWORD})
    assert answer.status_code == 503
    from_address(client, "10.8.0.1")
    again = client.post("/api/signin", json={"name": "regular", "password": PASSWORD})
    assert again.status_code == 200  # ...but this browser's, which has signed in before


def test_idle_tables_close_and_the_cap_never_locks_out_a_signed_in_person(tmp_path: Path) -> None:
    """Attack 6: addresses open practice tables and never move until the server is
    full, for everyone, even after a restart. Guests share a small budget; an untimed
    table nobody touches closes (on the sweep, and at start-up without a replay); a
    signed-in person with no table in play always gets one."""
    clock = FakeClock()
    limits = Limits(live_tables=5, guest_tables=3, guest_tables_per_address=2, idle_seconds=600)
    practice = {"kind": "practice", "rules": "classic", "length": "one-hand"}
    with TestClient(create_app(url(tmp_path), clock=clock, limits=limits)) as client:
        opened = []
        for address, status in (("10.2.0.1", 201), ("10.2.0.1", 201), ("10.2.0.1", 429)):
            from_address(client, address)
            made = client.post("/api/tables", json=practice)
            assert made.status_code == status, made.text
            if status == 201:
                opened.append(made.json()["id"])
        assert "guests from your address" in made.json()["error"]
        from_address(client, "10.2.0.2")
        opened.append(client.post("/api/tables", json=practice).json()["id"])
        from_address(client, "10.2.0.3")
        budget = client.post("/api/tables", json=practice)
        assert budget.status_code == 503 and "sign in" in budget.json()["error"]
        register(client, "member", "10.2.0.3")
        mine = client.post("/api/tables", json=practice)
        assert mine.status_code == 201  # the guests' budget is not the members'
        assert hub(client).live == 4
        client.post("/api/tables", json=practice)  # now live is at the cap: 5
        other = TestClient(client.app, client=("10.2.0.4", 1))
        other.portal = client.portal
        made = other.post("/api/register", json={"name": "second", "password": PASSWORD})
        assert made.status_code == 201
        assert other.post("/api/tables", json=practice).status_code == 201  # full, yet no table
        assert other.post("/api/tables", json=practice).status_code == 503  # now it has one
        # a person who plays keeps the table; the idle ones close
        with client.websocket_connect(f"/ws/tables/{mine.json()['id']}") as ws:
            seat = Seat(ws)
            clock.advance(500)
            seat.act()
            clock.advance(200)
            # the sweeper runs as the clock passes; once more by hand, to be sure it did
            client.portal.call(hub(client).sweep_idle)  # type: ignore[union-attr]
        assert hub(client).live == 1  # of six, only the table being played is left
        for table_id in opened:
            assert hub(client).store.get_table(table_id).status == "closed"
        from_address(client, "10.2.0.1")
        client.cookies.clear()
        assert client.post("/api/tables", json=practice).status_code == 201
    # a restart long after: the table left alone closes without being replayed
    clock.advance(3600)
    with TestClient(create_app(url(tmp_path), clock=clock, limits=limits)) as client:
        live = hub(client).store.list_tables("live")
        deadline = time.monotonic() + 10
        while live and time.monotonic() < deadline:
            time.sleep(0.02)
            live = hub(client).store.list_tables("live")
        assert live == [] and hub(client).live == 0


# ----------------------------------------------------------------- tournaments


def test_registrations_racing_the_start_are_seated_or_refused_never_lost(db: str) -> None:
    """Attack 7: registrations fired with /start were charged and never seated, one
    player seated twice, the plan rebuilt differently after a restart. Every
    registration now either lands before the close (and is in the plan) or is refused
    and moves nothing; the plan is stored once, on SQLite and on PostgreSQL."""
    from concurrent.futures import ThreadPoolExecutor

    from riichi.server.storage import Account

    clock = FakeClock()
    with TestClient(create_app(db, clock=clock)) as client:
        organiser = register(client, "organiser")
        body = {"name": "Race", "rules": "classic", "length": "one-hand", "rounds": 2, "bet": 10}
        tid = client.post("/api/tournaments", json={**body, "closes_in": 600}).json()["id"]
        desk = hub(client).desk(TournamentDesk)
        people = [
            Account(
                hub(client).store.accounts.create_account(f"p{n}", f"p{n}", "x", 0.0).id, f"p{n}"
            )
            for n in range(16)
        ]
        refused: list[str] = []

        def enter(account: Account) -> None:
            try:
                client.portal.call(desk.register, account, tid)  # type: ignore[union-attr]
            except Exception as exc:  # the refusal a late registration gets
                refused.append(str(exc))

        with ThreadPoolExecutor(8) as pool:
            futures = [pool.submit(enter, a) for a in people[:12]]
            futures.append(pool.submit(client.post, f"/api/tournaments/{tid}/start", json={}))
            futures += [pool.submit(enter, a) for a in people[12:]]
            for future in futures:
                future.result()
        assert all("registration is closed" in r for r in refused), refused
        t = desk.store.get(tid)
        entered = {p for p, _ in desk.store.entrants(tid)}
        assert len(entered) == 16 - len(refused)
        planned = [[p for table in round_ for p in table if p is not None] for round_ in t.plan]
        for seated in planned:
            assert sorted(seated) == sorted(entered)  # everyone once a round, nobody twice
        chips = hub(client).desk(ChipStore)
        paid = {
            f"account:{a.id}" for a in people if chips.balance(f"account:{a.id}") == 10_000 - 10
        }
        assert paid == entered
        assert chips.audit() == []
        plan = t.plan
    with TestClient(create_app(db, clock=clock)) as client:  # a restart: the same plan
        assert hub(client).desk(TournamentDesk).store.get(tid).plan == plan
        assert organiser


def test_tournaments_are_bounded_in_number_size_and_computers(tmp_path: Path) -> None:
    """Attack 8: tournaments of 256 computers over 20 rounds, six at once, put 384
    bot tables live and slowed everyone. Now an account organises one at a time, a
    tournament takes at most 128 entrants over 12 rounds, an organiser who is not an
    operator enters at most three computers per person, and seating waits for room
    under the live-table cap."""
    clock = FakeClock()
    limits = Limits(live_tables=2)
    with TestClient(create_app(url(tmp_path), clock=clock, limits=limits)) as client:
        register(client, "organiser")
        body = {"name": "Cup", "rules": "classic", "length": "one-hand", "closes_in": 600}
        too_long = client.post("/api/tournaments", json={**body, "rounds": 20})
        assert (
            too_long.status_code == 400 and "rounds is a whole number from 1 to 12" in too_long.text
        )
        tid = client.post("/api/tournaments", json=body).json()["id"]
        second = client.post("/api/tournaments", json=body)
        assert second.status_code == 400 and "the limit is 1" in second.json()["error"]
        computers = client.post(f"/api/tournaments/{tid}/computers", json={"count": 4})
        assert (
            computers.status_code == 400 and "0 people are registered" in computers.json()["error"]
        )
        client.post(f"/api/tournaments/{tid}/register", json={})
        assert (
            client.post(f"/api/tournaments/{tid}/computers", json={"count": 3}).status_code == 200
        )
        assert (
            client.post(f"/api/tournaments/{tid}/computers", json={"count": 1}).status_code == 400
        )
        register(client, "trusted")
        hub(client).store.accounts.set_role(name_key("trusted"), OPERATOR)
        big = client.post("/api/tournaments", json={**body, "rounds": 12}).json()["id"]
        over = client.post(f"/api/tournaments/{big}/computers", json={"count": 129})
        assert over.status_code == 400
        assert (
            client.post(f"/api/tournaments/{big}/computers", json={"count": 16}).status_code == 200
        )
        assert client.post(f"/api/tournaments/{big}/start", json={}).status_code == 200
        view = client.get(f"/api/tournaments/{big}").json()
        # four tables to seat, two at a time: a one-hand table of computers may end
        # while this looks, and only then is another seated in its place
        ended = sum(1 for row in view["tables"] if row["standings"] is not None)
        assert 2 <= len(view["tables"]) <= 2 + ended and hub(client).live <= 2  # the cap holds


# ----------------------------------------------------------------- addresses and accounts


@pytest.mark.parametrize("proxy", [False, True])
def test_a_forwarded_address_is_believed_only_from_a_named_proxy(
    tmp_path: Path, proxy: bool
) -> None:
    """Attack 9: X-Forwarded-For from 127.0.0.1 set the address every limit counts by.
    Without --proxy the connection's own address counts; with --proxy 127.0.0.1 the
    proxy's forwarded one does."""
    import httpx

    from server_helpers import free_port, start_server

    port = free_port()
    options = ("--proxy", "127.0.0.1") if proxy else ()
    process = start_server(url(tmp_path), port, None, *options)
    try:
        statuses = []
        for n in range(12):
            answer = httpx.post(
                f"http://127.0.0.1:{port}/api/register",
                json={"name": "x", "password": PASSWORD},
                headers={"X-Forwarded-For": f"203.0.113.{n}"},
            )
            statuses.append(answer.status_code)
        if proxy:
            assert statuses == [400] * 12  # twelve addresses, one try each
        else:
            assert statuses == [400] * 10 + [429] * 2  # one address, whatever it claims
    finally:
        process.terminate()
        process.wait(10)


def test_a_request_head_is_bounded(tmp_path: Path) -> None:
    """Attack 11: a 16 MB header was read whole (and answered 200). The head is counted
    as it arrives and refused past 32 KB."""
    import socket

    from server_helpers import Running

    server = Running(create_app(url(tmp_path)))
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(b"GET /api/presets HTTP/1.1\r\nHost: x\r\nX-Big: ")
            sent = 0
            try:
                while sent < 16 * 1024 * 1024:
                    sock.sendall(b"a" * 65536)
                    sent += 65536
            except OSError:  # the server closed the connection under us
                pass
            sock.settimeout(10)
            try:
                answer = sock.recv(4096)
            except OSError:
                answer = b""
        assert sent < 16 * 1024 * 1024 or answer.startswith(b"HTTP/1.1 431")
        assert not answer or answer.startswith(b"HTTP/1.1 431")
        ok = __import__("httpx").get(f"{server.url}/api/presets", headers={"X-Fine": "a" * 8000})
        assert ok.status_code == 200
    finally:
        server.stop()


def test_one_persons_accounts_never_share_a_rated_table() -> None:
    """Attack 10: four accounts of one person seated together twice, the chosen winner
    at 1,680 after one game. The queue keeps one address's accounts apart, a
    provisional rating climbs 20 a game at most, and the pair is reported."""
    waiting = [Waiting(n, "standard", float(n), "same" if n < 4 else f"a{n}") for n in range(8)]
    seated = seat_tables(waiting, 100.0, fill_after=1000.0)
    assert len(seated) == 1  # one of "same" with three others; its siblings wait
    for table in seated:
        addresses = [w.address for w in table if w is not None]
        assert addresses.count("same") <= 1
    lone = seat_tables(
        [Waiting(1, "standard", 0.0, "x"), Waiting(2, "standard", 0.0, "x")], 100.0, fill_after=30.0
    )
    assert [[w.account if w else None for w in t] for t in lone] == [[1, None, None, None]]
    winner = rate([Rating()] * 4, [1, 2, 3, 4])[0]
    assert winner.shown == 1520  # not 1,680
    games = [{"account:1": 1, "account:2": 4}] * 6
    (pair,) = suspicious_pairs(games, {"account:1": {"h"}, "account:2": {"h"}})
    assert (pair.first, pair.second, pair.games, pair.above) == ("account:1", "account:2", 6, 6)
    assert "same address" in pair.reason and "6 of 6" in pair.reason
    assert (
        suspicious_pairs([{"account:1": 1, "account:2": 2}, {"account:1": 2, "account:2": 1}], {})
        == []
    )


# ----------------------------------------------------------------- the low findings


def test_numbers_are_bounded_and_huge_ones_refused_clearly(
    site: tuple[TestClient, FakeClock],
) -> None:
    """Attacks 12 and 13: start_points of 10^19 made a table that never finished; a
    5,000-digit integer or a 30-digit account id answered 500."""
    client, _ = site
    with pytest.raises(InvalidRulesetError, match="start_points must be 0 to 1000000"):
        RuleSet.from_dict({"start_points": 10**19})
    for switches in (
        {"start_points": 10**19},
        {"uma": [10**12, 0, 0, -(10**12)]},
        {"feeding_penalty": 500},
    ):
        answer = client.post("/api/tables", json={"kind": "practice", "switches": switches})
        assert answer.status_code == 400, switches
    huge = b'{"kind": "practice", "bet": ' + b"9" * 5000 + b"}"
    answer = client.post("/api/tables", content=huge, headers={"content-type": "application/json"})
    assert answer.status_code == 400 and "too many digits" in answer.json()["error"]
    assert client.get("/api/players/account:" + "9" * 30).status_code == 404
    assert hub(client).live == 0


def test_the_public_never_sees_the_live_version(site: tuple[TestClient, FakeClock]) -> None:
    """Attack 14: the live version in a table's public facts told how far the hand in
    play had gone. The public and spectators get only how far spectators may see."""
    client, _ = site
    # a chosen wall whose one hand runs long: on a random one a computer may end it at
    # its first draw (nine terminals) while the watcher connects, and an ended game is
    # shown whole
    body = {"rules": "classic", "length": "one-hand", "watchable": True, "seed": "long hand"}
    table = client.post("/api/tables", json=body).json()
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
        seat = Seat(ws)
        for _ in range(3):
            if seat.state["legal"]:
                seat.act()
        info = client.get(f"/api/tables/{table['id']}").json()
        assert "version" not in info and info["actions"] == 0  # the first hand is in play
        listed = client.get("/api/tables").json()["items"][0]
        assert "version" not in listed
        with client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
            hello = Seat(watcher).hello
            assert "version" not in hello["table"] and hello["version"] <= 1
            assert not hello["table"]["over"]
        assert seat.version > 1


def test_names_that_look_like_computers_or_staff_are_refused(
    site: tuple[TestClient, FakeClock],
) -> None:
    """Attack 15: b0t, bоt (Cyrillic о), ｂｏｔ, expert, аdmin (Cyrillic а) passed as
    account names, and "expert 2 (bоt)" as a friend's seat name."""
    client, _ = site
    for name in ("b0t", "bоt", "ｂｏｔ", "expert", "аdmin", "Expert2", "house", "r0b0t"):
        answer = client.post("/api/register", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 400 and "kept for" in answer.json()["error"], name
        assert reserved(name) is not None
    assert check_name("alice") == "alice" and reserved("lighthouse") is None
    register(client, "alice")
    client.cookies.clear()
    twin = client.post("/api/register", json={"name": "аlice", "password": PASSWORD})  # Cyrillic а
    assert twin.status_code == 409
    assert name_key("ALICE") == name_key("аlice") == name_key("alice")
    seat = client.post(
        "/api/tables",
        json={"seats": ["human", "human", "expert", "expert"], "names": [None, "expert 2 (bоt)"]},
    )
    assert seat.status_code == 400 and "kept for computers" in seat.json()["error"]


def test_names_that_collide_as_skeletons_keep_signing_in_after_the_upgrade(tmp_path: Path) -> None:
    """Two accounts made before skeletons, alice and аlice (Cyrillic а): the first gets
    the skeleton key, the second keeps its own, and each signs in as itself."""
    from argon2 import PasswordHasher

    from server_helpers import older_database

    hashed = PasswordHasher().hash(PASSWORD)
    made = "insert into accounts (name, name_key, password_hash, created) values (?, ?, ?, ?)"
    db = older_database(
        tmp_path / "old.db",
        "0005",
        (made, ("alice", "alice", hashed, 1.0)),
        (made, ("аlice", "аlice", hashed, 2.0)),
        (made, ("M00n", "m00n", hashed, 3.0)),
    )
    with TestClient(create_app(db, clock=FakeClock())) as client:
        for name, account in (("alice", 1), ("аlice", 2), ("ALICE", 1), ("M00n", 3), ("m00n", 3)):
            client.cookies.clear()
            answer = client.post("/api/signin", json={"name": name, "password": PASSWORD})
            assert answer.status_code == 200 and answer.json()["account"]["id"] == account, name
        assert hub(client).store.accounts.account_login(name_key("M00n")) is not None
        taken = client.post("/api/register", json={"name": "rnoon", "password": PASSWORD})
        assert taken.status_code == 409  # rn reads as m: M00n's name


def test_one_browsers_accounts_never_share_a_rated_table(tmp_path: Path) -> None:
    """Attack 10 through the server: four accounts made in one browser, joining the
    queue from four addresses, are never seated together: computers fill their
    tables instead. The staff's report pairs them."""
    from riichi.server.auth import COOKIE

    clock = FakeClock()
    with TestClient(create_app(url(tmp_path), clock=clock, fill_after=30)) as client:
        sessions = []
        for n in range(4):
            client.cookies.delete(COOKIE)  # the device cookie stays: one browser
            from_address(client, f"10.4.0.{n}")
            made = client.post("/api/register", json={"name": f"sock{n}", "password": PASSWORD})
            assert made.status_code == 201
            sessions.append(client.cookies.get(COOKIE))
        for n, session in enumerate(sessions):
            client.cookies.set(COOKIE, session)
            from_address(client, f"10.4.0.{n}")
            assert client.post("/api/queue", json={"pool": "standard"}).status_code == 200
        clock.advance(1)
        time.sleep(0.3)
        assert hub(client).live == 0  # four waiting, yet no table of them
        deadline = time.monotonic() + 20
        while hub(client).live < 4 and time.monotonic() < deadline:
            clock.advance(31)
            time.sleep(0.1)
        tables = list(hub(client).tables.values())
        assert len(tables) == 4
        for table in tables:
            assert sum(s.account is not None for s in table.seats) == 1
        pairs = hub(client).desk(RecordStore).suspicious_pairs()
        assert pairs == []  # they never met: nothing to report yet
