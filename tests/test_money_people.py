"""Money tables between people (002): the money lobby, seats taken with their reserve
and left with it back, the table started when full, settled per seat; the ledger sums
to zero and its audit is clean after every step; the live channel says it started."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from riichi.platform.chips import HOUSE, START_CHIPS, escrow, reserve, settle
from riichi.platform.tables import feeder_of
from riichi.server import Limits, create_app
from riichi.server.clock import FakeClock
from riichi.server.money.ledger import ChipStore
from riichi.server.seating import load_match, rules_of
from server_helpers import Person, Running, choose, confirming, play_out, receive

ONE_HAND_WTA = {
    "rules": "riichi-basic",
    "switches": {
        "settlement": "winner-takes-all",
        "length": "one-hand",
        "lengths": ["one-hand", "east", "south"],
    },
}
HOUSE_ONE_HAND = {
    "rules": "riichi-basic",
    "length": "one-hand",
    "switches": {"settlement": "house"},
}


@contextlib.contextmanager
def running_site(tmp_path: Path, **options: Any) -> Iterator[Running]:
    """The site in this process on a fresh database, on a fake clock."""
    site = Running(create_app(f"sqlite:///{tmp_path / 'm.db'}", clock=FakeClock(), **options))
    try:
        yield site
    finally:
        site.stop()


# a private table with a friend invited by name to the second seat
INVITED = {
    "kind": "private",
    "rules": "tenhou",
    "seats": ["human", "human", "efficiency", "efficiency"],
    "invite": ["Bean"],
}


def people(site: Running, names: list[str], first: int = 1) -> list[Person]:
    return [Person(site.port, first + i, name) for i, name in enumerate(names)]


def chips(person: Person) -> int:
    return int(person.get("/api/chips").json()["balance"])


def books(site: Running) -> ChipStore:
    return ChipStore(site.app.state.server.store.engine)


def clean(site: Running) -> None:
    """The books sum to zero, and the audit finds nothing."""
    store = books(site)
    assert sum(store.balances().values()) == 0
    assert store.audit() == []


@pytest.mark.parametrize("rules", [ONE_HAND_WTA, HOUSE_ONE_HAND], ids=["wta-one-hand", "house"])
def test_four_people_sit_play_and_are_settled(tmp_path: Path, rules: dict[str, Any]) -> None:
    with running_site(tmp_path) as site:
        ann, bea, cy, dee = people(site, ["Anna", "Bean", "Cyd", "Deea"])
        held = reserve(rules_of(rules), 100)
        made = ann.post("/api/money", json={**rules, "clock": "standard", "bet": 100})
        assert made.status_code == 201, made.text
        offer = made.json()
        assert offer["reserve"] == held and [s["name"] for s in offer["seats"]] == ["Anna"]
        assert chips(ann) == START_CHIPS - held
        clean(site)
        # the lobby shows it to anyone, with its seats taken
        listed = bea.get("/api/money").json()["offers"]
        assert [o["id"] for o in listed] == [offer["id"]] and listed[0]["bet"] == 100
        # a seat taken twice, or by a second account of one browser, is refused
        again = ann.post(f"/api/money/{offer['id']}/sit", json=confirming(offer))
        assert again.status_code == 400 and "already" in again.json()["error"]
        # leave before the start: the reserve comes back
        assert bea.post(f"/api/money/{offer['id']}/sit", json=confirming(offer)).status_code == 200
        assert chips(bea) == START_CHIPS - held
        assert bea.post(f"/api/money/{offer['id']}/leave").json()["left"] is True
        assert chips(bea) == START_CHIPS
        clean(site)
        with ann.socket("/ws/me") as channel:
            assert receive(channel)["type"] == "hello"
            for who in (bea, cy):
                answer = who.post(f"/api/money/{offer['id']}/sit", json=confirming(offer))
                assert answer.status_code == 200 and "table" not in answer.json()
                clean(site)
            last = dee.post(f"/api/money/{offer['id']}/sit", json=confirming(offer)).json()
            assert last["table"] == offer["id"]  # full: the table starts
            notice = receive(channel)
            assert notice["type"] == "notice" and notice["link"] == f"/table/{offer['id']}"
        table = offer["id"]
        assert bea.get("/api/money").json()["offers"] == []
        assert books(site).balance(escrow(table)) == 4 * held
        late = bea.post(f"/api/money/{table}/leave")
        assert late.status_code == 404  # started: leaving no longer returns the reserve
        clean(site)
        play_out([ann, bea, cy, dee], table)
        assert books(site).balance(escrow(table)) == 0
        after = [chips(p) for p in (ann, bea, cy, dee)]
        assert sum(after) + books(site).balance(HOUSE) == 4 * START_CHIPS
        # each seat is paid what the settlement says of its place and score (equal
        # scores sharing their places' money), in whatever seat it drew
        store = site.app.state.server.store
        match, _ = load_match(store.get_table(table), store)
        assert match.standings is not None
        by_seat = sorted(match.standings, key=lambda x: x.seat)
        won = settle(
            match.rules,
            100,
            [x.place for x in by_seat],
            [x.score for x in by_seat],
            feeder_of(match),
        )
        seats = ann.get(f"/api/tables/{table}").json()["seats"]
        paid = [books(site).balance(f"account:{s['account']}") for s in seats]
        assert paid == [START_CHIPS + w for w in won]
        clean(site)


def test_offers_refuse_what_the_money_model_does_not_allow(tmp_path: Path) -> None:
    with running_site(tmp_path) as site:
        ann, bea = people(site, ["Anna", "Bean"])
        base = {**ONE_HAND_WTA, "clock": "standard", "bet": 100}
        for body, said in [
            ({**base, "clock": "untimed"}, "on a clock"),
            ({**base, "bet": 0}, "from 1 to"),
            ({**base, "bet": True}, "whole number"),
            ({**base, "bet": 10**9}, "from 1 to"),
            ({"rules": "online", "clock": "standard", "bet": 100}, "needs one of"),
            ({**base, "invite": ["Nobody"]}, "no account is called"),
            ({**base, "seats": 3}, "unknown fields"),
        ]:
            refused = ann.post("/api/money", json=body)
            assert refused.status_code == 400 and said in refused.json()["error"], (
                body,
                refused.text,
            )
        guest = httpx.post(f"{site.url}/api/money", json=base)
        assert guest.status_code == 401
        # by invitation: only those invited see it and may sit
        private = ann.post("/api/money", json={**base, "invite": ["Bean"]}).json()
        assert private["by_invitation"]
        cy = people(site, ["Cyd"], first=3)[0]
        assert cy.get("/api/money").json()["offers"] == []
        refused = cy.post(f"/api/money/{private['id']}/sit", json=confirming(private))
        assert refused.status_code == 400 and "invitation" in refused.json()["error"]
        assert (
            bea.post(f"/api/money/{private['id']}/sit", json=confirming(private)).status_code == 200
        )
        # two money tables at once at most; more chips than one holds, refused
        ann.post("/api/money", json=base)
        third = ann.post("/api/money", json=base)
        assert third.status_code == 400 and "limit is 2" in third.json()["error"]
        clean(site)


def test_two_accounts_from_one_address_never_sit_at_one_money_table(tmp_path: Path) -> None:
    with running_site(tmp_path) as site:
        ann = Person(site.port, 7, "Anna")
        twin = Person(site.port, 7, "Annie")
        body = {**ONE_HAND_WTA, "clock": "standard", "bet": 100}
        offer = ann.post("/api/money", json=body).json()
        refused = twin.post(f"/api/money/{offer['id']}/sit", json=confirming(offer))
        assert refused.status_code == 400 and "your address" in refused.json()["error"]
        assert chips(twin) == START_CHIPS
        clean(site)


def test_a_full_offer_left_by_a_crash_starts_when_the_site_comes_back(tmp_path: Path) -> None:
    """The process died between the last seat (stored with its reserve) and the start:
    the next process opens the table, once, with every reserve in its escrow."""
    from riichi.platform.offers import Sitter
    from riichi.server.money.desk import OfferStore

    db = f"sqlite:///{tmp_path / 'm.db'}"
    site = Running(create_app(db, clock=FakeClock()))
    try:
        ann, bea, cy, dee = people(site, ["Anna", "Bean", "Cyd", "Deea"])
        body = {**HOUSE_ONE_HAND, "clock": "standard", "bet": 80}
        offer = ann.post("/api/money", json=body).json()
        for who in (bea, cy):
            assert (
                who.post(f"/api/money/{offer['id']}/sit", json=confirming(offer)).status_code == 200
            )
        me = dee.get("/api/me").json()["account"]
        engine = site.app.state.server.store.engine
        OfferStore(engine).sit(offer["id"], Sitter(me["id"]), "Deea", 0.0)  # then the crash
        clean(site)
    finally:
        site.stop()
    again = Running(create_app(db, clock=FakeClock()))
    try:
        info = httpx.get(f"{again.url}/api/tables/{offer['id']}")
        assert info.status_code == 200 and info.json()["kind"] == "money"
        assert httpx.get(f"{again.url}/api/money").json()["offers"] == []
        held = reserve(rules_of(HOUSE_ONE_HAND), 80)
        assert books(again).balance(escrow(offer["id"])) == 4 * held
        clean(again)
    finally:
        again.stop()


def test_the_live_channel_is_for_signed_in_people_and_drops_the_oldest(tmp_path: Path) -> None:
    from riichi.server.notices import QUEUE, Notices

    notices = Notices()
    channel = notices.open(7)
    for n in range(QUEUE + 5):
        notices.send(7, {"n": n})
    notices.send(8, {"n": "not yours"})
    seen = [channel.queue.get_nowait()["n"] for _ in range(channel.queue.qsize())]
    assert seen == list(range(5, QUEUE + 5))  # the oldest went, the sender never waited
    notices.close(channel)
    assert notices.online_here() == set()
    with running_site(tmp_path) as site:
        with connect(f"ws://127.0.0.1:{site.port}/ws/me") as ws:
            refused = receive(ws)
            assert refused["type"] == "error" and "sign in" in refused["message"]
            with pytest.raises(ConnectionClosed):
                receive(ws)
        ann, bea = people(site, ["Anna", "Bean"])
        body = {**ONE_HAND_WTA, "clock": "standard", "bet": 10, "invite": ["Bean"]}
        with bea.socket("/ws/me") as channel_ws:
            assert receive(channel_ws)["type"] == "hello"
            assert ann.get("/api/online").json()["online"] == []  # not yet acquainted
            ann.post("/api/money", json=body)
            invited = receive(channel_ws)
            assert invited["kind"] == "invited" and "Anna" in invited["text"]
            assert ann.get("/api/online").json()["online"] == [{"account": 2, "name": "Bean"}]
        assert httpx.get(f"{site.url}/api/online").status_code == 401


def test_a_friend_invited_by_name_is_told_and_finds_the_seat(tmp_path: Path) -> None:
    with running_site(tmp_path) as site:
        ann, bea = people(site, ["Anna", "Bean"])
        body = INVITED
        with bea.socket("/ws/me") as channel:
            assert receive(channel)["type"] == "hello"
            made = ann.post("/api/tables", json=body)
            assert made.status_code == 201, made.text
            table = made.json()["id"]
            notice = receive(channel)
            assert notice["kind"] == "invited" and notice["link"] == f"/table/{table}"
        mine = bea.get("/api/me").json()["tables"]
        assert [(t["id"], t["my_seat"]) for t in mine] == [(table, 1)]
        with bea.socket(f"/ws/tables/{table}") as ws:  # no link: the session's seat
            assert receive(ws)["seat"] == 1
        for invite, said in [
            (["Nobody"], "no account is called"),
            (["Bean", "Bean"], "at most one"),
            (["Anna"], "not yourself"),
            ("Bean", "list of account names"),
        ]:
            refused = ann.post("/api/tables", json={**body, "invite": invite})
            assert refused.status_code == 400 and said in refused.json()["error"], refused.text
        guest = httpx.post(f"{site.url}/api/tables", json=body)
        assert guest.status_code == 400 and "sign in" in guest.json()["error"]


def test_a_person_away_from_a_table_is_told_their_clock_runs(tmp_path: Path) -> None:
    with running_site(tmp_path) as site:
        ann, bea = people(site, ["Anna", "Bean"])
        body = {**INVITED, "clock": "standard"}
        with bea.socket("/ws/me") as channel:
            assert receive(channel)["type"] == "hello"
            table = ann.post("/api/tables", json=body).json()["id"]
            assert receive(channel)["kind"] == "invited"
            with ann.socket(f"/ws/tables/{table}") as ws:
                hello = receive(ws)
                state = hello["state"]
                action = {"type": "action", "version": hello["version"], "action": choose(state)}
                ws.send(json.dumps(action))
                while receive(ws)["type"] != "ack":
                    pass
            told = receive(channel)  # Bean's turn, and Bean has not come yet
            assert told["kind"] == "clock" and told["link"] == f"/table/{table}"
            # never at the table: not told that it left one
            assert told["text"] == "your table has started and your clock is running: join it"


def test_a_person_who_leaves_while_the_clock_runs_is_told_at_once(tmp_path: Path) -> None:
    """Leaving was told only when the clock played (25 s later, or never if that move
    ended the hand)."""
    with running_site(tmp_path) as site:
        (ann,) = people(site, ["Anna"])
        seats = ["human", "efficiency", "efficiency", "efficiency"]
        body = {"kind": "private", "rules": "tenhou", "seats": seats, "clock": "standard"}
        table = ann.post("/api/tables", json=body).json()["id"]
        with ann.socket("/ws/me") as channel:
            assert receive(channel)["type"] == "hello"
            with ann.socket(f"/ws/tables/{table}") as ws:
                hello = receive(ws)
                assert hello["seat"] == 0 and hello["state"]["legal"]  # the dealer's turn
            told = receive(channel)  # at once: no action came between
            assert told["kind"] == "clock" and told["link"] == f"/table/{table}"
            assert told["text"] == "your clock is running at a table you left"


def test_money_requests_come_at_a_bounded_rate(tmp_path: Path) -> None:
    limits = Limits(tables_per_address="4 per minute")
    with running_site(tmp_path, limits=limits) as site:
        ann, bea = people(site, ["Anna", "Bean"])
        offer = ann.post("/api/money", json={**ONE_HAND_WTA, "clock": "standard", "bet": 10}).json()
        for _ in range(2):  # sit, leave, sit, leave: each moves chips
            assert (
                bea.post(f"/api/money/{offer['id']}/sit", json=confirming(offer)).status_code == 200
            )
            assert bea.post(f"/api/money/{offer['id']}/leave").status_code == 200
        refused = bea.post(f"/api/money/{offer['id']}/sit", json=confirming(offer))
        assert refused.status_code == 429 and "too many" in refused.json()["error"]
        assert chips(bea) == START_CHIPS
        clean(site)


def test_a_tournament_entrant_is_told_their_table_started(tmp_path: Path) -> None:
    with running_site(tmp_path) as site:
        ann, bea = people(site, ["Anna", "Bean"])
        body = {"name": "Cup", "rules": "riichi-basic", "length": "one-hand", "rounds": 1}
        tid = ann.post("/api/tournaments", json={**body, "bet": 10, "closes_in": 60}).json()["id"]
        assert bea.post(f"/api/tournaments/{tid}/register").status_code == 200
        assert ann.post(f"/api/tournaments/{tid}/computers", json={"count": 3}).status_code == 200
        with bea.socket("/ws/me") as channel:
            assert receive(channel)["type"] == "hello"
            assert ann.post(f"/api/tournaments/{tid}/start").status_code == 200
            told = receive(channel)
            assert told["kind"] == "table" and "Cup: your round 1 table" in told["text"]
            assert told["link"].startswith("/table/")
