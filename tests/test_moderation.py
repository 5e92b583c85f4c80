"""Moderation: each operator's act does what it says, in one transaction with its row of
the append-only log; only operators act, and only from the site's own pages; a
suspended account cannot sign in, queue or take its seat; a voided game's ratings are
a rebuild without it; chips refunded or charged keep the books whole; players report
one another from a finished game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from riichi.cli import main
from riichi.platform import name_key
from riichi.platform.chips import START_CHIPS, account_ledger
from riichi.platform.ratings import Rating, rate
from riichi.server import create_app
from riichi.server.clock import FakeClock
from riichi.server.moderation.schema import moderation_log
from riichi.server.moderation.store import ModerationError, ModerationStore
from riichi.server.money.ledger import ChipStore
from riichi.server.protocol import CLOSE_NO_TABLE, CLOSE_REFUSED
from riichi.server.ratings.records import RecordStore
from riichi.server.ratings.schema import game_stats, rating_history, ratings
from riichi.server.storage import OPERATOR, tables
from test_ratings import Site

PASSWORD = "correct horse"
PRACTICE = {"rules": "riichi-basic", "seats": ["human", "expert", "expert", "expert"]}


@pytest.fixture
def site(tmp_path: Path) -> Site:
    return Site(tmp_path)


def moderation(site: Site) -> ModerationStore:
    engine = site.store.engine
    return ModerationStore(engine, RecordStore(engine), ChipStore(engine))


def logged(site: Site) -> int:
    return site.count(moderation_log)


# ----------------------------------------------------------------- the store


def test_a_voided_game_leaves_the_ratings_the_other_games_give(site: Site) -> None:
    """Three rated games among four people; the second voided: every rating is what the
    model gives for the first and third alone, in order, and the second is in no
    rating's history."""
    people = [site.account(n) for n in ("Ann", "Bob", "Cid", "Dee")]
    games = [site.play(people), site.play(people[::-1]), site.play(people[1:] + people[:1])]
    entry = moderation(site).void_game(None, games[1], "arranged: the same four, all day", 9.0)
    expected = {f"account:{a}": Rating() for a in people}
    with site.store.engine.connect() as conn:
        for game in (games[0], games[2]):
            rows = conn.execute(
                select(game_stats.c.player, game_stats.c.place)
                .where(game_stats.c.table_id == game)
                .order_by(game_stats.c.seat)
            ).all()
            after = rate([expected[r.player] for r in rows], [r.place for r in rows])
            expected.update({r.player: new for r, new in zip(rows, after, strict=True)})
        voided = conn.execute(
            select(func.count()).where(rating_history.c.table_id == games[1])
        ).scalar_one()
        stored = {r.player: r for r in conn.execute(select(ratings)).all()}
    assert voided == 0
    for player, rating in expected.items():
        assert stored[player].games == rating.games == 2
        assert stored[player].mu == pytest.approx(rating.mu)
        assert stored[player].sigma == pytest.approx(rating.sigma)
    assert moderation(site).log(10)[0][0].id == entry
    with pytest.raises(ModerationError, match="not a rated game, or voided already"):
        moderation(site).void_game(None, games[1], "again", 10.0)
    practice = site.play(people, kind="practice")
    with pytest.raises(ModerationError, match="not a rated game"):
        moderation(site).void_game(None, practice, "counts for nothing", 10.0)
    assert logged(site) == 1


def test_chips_refunded_or_charged_keep_the_books_whole(site: Site) -> None:
    ann = site.account("Ann")
    chips = ChipStore(site.store.engine)
    held = chips.balance(account_ledger(ann))
    moderation(site).chips(None, "Ann", 2500, "refund: a table lost to a server fault", 1.0)
    assert chips.balance(account_ledger(ann)) == held + 2500
    moderation(site).chips(None, "ann", -500, "charge: a refund given twice", 2.0)
    assert chips.balance(account_ledger(ann)) == held + 2000
    with pytest.raises(ModerationError, match="cannot charge"):
        moderation(site).chips(None, "Ann", -(held + 2001), "more than it holds", 3.0)
    for bad in (0, 1.5, True, "100", 10_000_000):
        with pytest.raises(ModerationError):
            moderation(site).chips(None, "Ann", bad, "bad amount", 3.0)
    with pytest.raises(ModerationError, match="give a reason"):
        moderation(site).chips(None, "Ann", 100, "  ", 3.0)
    assert chips.balance(account_ledger(ann)) == held + 2000
    assert chips.audit() == []
    assert sum(chips.balances().values()) == 0
    assert [e.act for e in moderation(site).log(10)[0]] == ["chips", "chips"]


def test_a_rename_reaches_the_leaderboard_and_past_games(site: Site) -> None:
    people = [site.account(n) for n in ("Ann", "Bob", "Cid", "Dee")]
    game = site.play(people)
    moderation(site).rename(None, "Bob", "Robert", "an offensive name", 1.0)
    board, _ = site.records.leaderboard(10, 0)
    assert "Robert" in {s.name for s in board} and "Bob" not in {s.name for s in board}
    with site.store.engine.connect() as conn:
        seats = conn.execute(select(tables.c.seats).where(tables.c.id == game)).scalar_one()
    assert '"Robert"' in seats and '"Bob"' not in seats
    assert site.store.accounts.account_login(name_key("Robert")) is not None
    with pytest.raises(ModerationError, match="taken"):
        moderation(site).rename(None, "Robert", "ann", "taken", 2.0)
    with pytest.raises(ValueError):
        moderation(site).rename(None, "Robert", "x", "too short", 2.0)
    with pytest.raises(ModerationError, match="no account"):
        moderation(site).rename(None, "Nobody", "Someone", "nobody", 2.0)
    assert logged(site) == 1


def test_the_command_line_acts_and_lists_the_log(site: Site) -> None:
    site.account("Ann")
    runner = CliRunner()
    done = runner.invoke(
        main, ["moderate", "suspend", "Ann", "--reason", "abuse", "--db", site.url]
    )
    assert done.exit_code == 0, done.output
    again = runner.invoke(main, ["moderate", "suspend", "Ann", "--reason", "x", "--db", site.url])
    assert again.exit_code == 2 and "suspended already" in again.output
    runner.invoke(main, ["moderate", "restore", "Ann", "--reason", "appeal", "--db", site.url])
    listed = runner.invoke(main, ["moderate", "log", "--db", site.url])
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert "command line: restore" in lines[0] and "appeal" in lines[0]
    assert "command line: suspend" in lines[1] and "abuse" in lines[1]


# ----------------------------------------------------------------- the site


def register(client: TestClient, name: str) -> int:
    client.cookies.clear()
    made = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    account: int = made.json()["account"]["id"]
    return account


def sign_in(client: TestClient, name: str) -> Any:
    client.cookies.clear()
    return client.post("/api/signin", json={"name": name, "password": PASSWORD})


def hub(client: TestClient) -> Any:
    return client.app.state.server  # type: ignore[attr-defined]


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'site.db'}", clock=FakeClock())) as client:
        yield client


def operator(client: TestClient, name: str = "Warden") -> int:
    account = register(client, name)
    hub(client).store.accounts.set_role(name_key(name), OPERATOR)
    return account


def test_only_a_signed_in_operator_acts_and_only_from_the_site(web: TestClient) -> None:
    """Not signed in: 401; a player: 403; a post from another site's page, or a form
    post (what a cross-site form sends): refused before anything is read, nothing done."""
    register(web, "Ann")
    act = {"act": "suspend", "name": "Ann", "reason": "test"}
    web.cookies.clear()
    assert web.get("/api/moderation").status_code == 401
    register(web, "Eve")
    assert web.get("/api/moderation").status_code == 403
    assert web.post("/api/moderation", json=act).status_code == 403
    operator(web)
    forged = web.post("/api/moderation", json=act, headers={"origin": "https://evil.example"})
    assert forged.status_code == 403
    form = web.post("/api/moderation", data=act)
    assert form.status_code == 415
    assert web.get("/api/moderation").json()["total"] == 0
    assert sign_in(web, "Ann").status_code == 200
    done = (operator(web, "Keeper"), web.post("/api/moderation", json=act))[1]
    assert done.status_code == 200 and web.get("/api/moderation").json()["total"] == 1
    wrong = web.post("/api/moderation", json={"act": "delete-everything", "reason": "x"})
    assert wrong.status_code == 400


def test_a_suspended_account_cannot_sign_in_queue_or_take_its_seat(web: TestClient) -> None:
    register(web, "Ann")
    table = web.post("/api/tables", json=PRACTICE).json()
    old_cookie = dict(web.cookies)
    operator(web)
    done = web.post("/api/moderation", json={"act": "suspend", "name": "Ann", "reason": "abuse"})
    assert done.status_code == 200, done.text
    refused = sign_in(web, "Ann")
    assert refused.status_code == 403 and "suspended" in refused.json()["error"]
    web.cookies.clear()
    web.cookies.update(old_cookie)  # the session it had: ended
    assert web.get("/api/me").json()["account"] is None
    assert web.post("/api/queue", json={"pool": "standard"}).status_code == 401
    assert web.post("/api/tables", json=PRACTICE).status_code in (201, 409)  # as a guest only
    link = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
    web.cookies.clear()
    with web.websocket_connect(link) as ws:
        refused = json.loads(ws.receive_text())
        assert refused["type"] == "error" and "suspended" in refused["message"], refused
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == CLOSE_REFUSED
    operator(web, "Keeper")
    web.post("/api/moderation", json={"act": "restore", "name": "Ann", "reason": "appeal"})
    assert sign_in(web, "Ann").status_code == 200
    with web.websocket_connect(link) as ws:
        assert '"hello"' in ws.receive_text()


def test_a_closed_table_tells_its_players_and_gives_back_its_chips(web: TestClient) -> None:
    register(web, "Ann")
    body = {
        **PRACTICE,
        "length": "one-hand",
        "clock": "standard",
        "bet": 500,
        "switches": {"settlement": "winner-takes-all"},
    }
    table = web.post("/api/tables", json=body)
    assert table.status_code == 201, table.text
    made = table.json()
    chips = hub(web).desk(ChipStore)
    before = chips.balance(account_ledger(1))
    with web.websocket_connect(f"/ws/tables/{made['id']}") as ws:  # Ann's seat, by account
        assert json.loads(ws.receive_text())["seat"] is not None
        operator(web)  # the same client, signed in anew: the socket stays Ann's
        act = {"act": "close", "table": made["id"], "reason": "stuck after a fault"}
        assert web.post("/api/moderation", json=act).status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):  # what was sent before the close, then the close
                ws.receive_text()
        assert closed.value.code == CLOSE_NO_TABLE
        again = web.post("/api/moderation", json=act)
        assert again.status_code == 409 and "not live" in again.json()["error"]
    assert before < START_CHIPS  # its reserve was held for the table
    assert chips.balance(account_ledger(1)) == START_CHIPS  # and is given back whole
    assert chips.audit() == []


def test_players_report_one_another_from_a_finished_game(tmp_path: Path) -> None:
    site = Site(tmp_path)
    ann, bob, cid, dee = (site.account(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    eve = site.account("Eve")
    game = site.play([ann, bob, cid, dee])
    unfinished = site.play([ann, bob, cid, dee], last=False)
    store = moderation(site)
    made = store.report(ann, game, bob, "slow-played every turn", 1.0)
    with pytest.raises(ModerationError, match="reported this player"):
        store.report(ann, game, bob, "again", 2.0)
    with pytest.raises(ModerationError, match="both have played"):
        store.report(eve, game, bob, "I watched", 2.0)
    with pytest.raises(ModerationError, match="another player"):
        store.report(ann, game, ann, "myself", 2.0)
    with pytest.raises(ModerationError, match="once the game is over"):
        store.report(ann, unfinished, bob, "now", 2.0)
    with pytest.raises(ModerationError, match="at most 500"):
        store.report(cid, game, bob, "x" * 501, 2.0)
    assert [(r["id"], r["by"], r["against"]) for r in store.reports()] == [(made, "Ann", "Bob")]
    store.close_report(None, made, "warned", 3.0)
    assert store.reports() == []
    with pytest.raises(ModerationError, match="no open report"):
        store.close_report(None, made, "twice", 4.0)
    assert [e.act for e in store.log(5)[0]] == ["report"]
