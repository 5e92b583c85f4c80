"""Money tables are fair by construction: the seats are drawn from the table's secret
seed (the person is not always the first dealer, the creator does not choose), equal
end scores share their places' money, and the switches a money table may change are a
short list. Each test is an attack that paid before its fix."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from riichi.platform.chips import START_CHIPS
from riichi.platform.tables import drawn_seats
from riichi.server import create_app
from riichi.server.clock import FakeClock
from riichi.server.money.ledger import ChipStore
from server_helpers import Person, confirming
from test_attacks import ROSTER, WTA, hub, register, url
from test_money_people import ONE_HAND_WTA, running_site

# the body the attack sent: winner takes all, and every switch that makes a tie likelier
TIE_MAKER = {
    "kind": "private",
    "rules": "classic",
    "length": "one-hand",
    "clock": "standard",
    "bet": 1000,
    "seats": ROSTER,
    "switches": {
        "settlement": "winner-takes-all",
        "noten_payment": 0,
        "riichi_stick": 0,
        "feeding_penalty": 0,
    },
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(url(tmp_path), clock=FakeClock())) as made:
        yield made


def test_a_house_table_refuses_switches_that_make_ties(
    client: TestClient,
) -> None:
    register(client, "tiemaker")
    refused = client.post("/api/tables", json=TIE_MAKER)
    assert refused.status_code == 400
    said = refused.json()["error"]
    assert "keeps classic's feeding_penalty, noten_payment, riichi_stick" in said
    assert "may change only settlement, red_fives, kuitan" in said
    assert client.get("/api/chips").json()["balance"] == START_CHIPS
    assert hub(client).live == 0
    # the settlement alone may change
    allowed = {**TIE_MAKER, "switches": {"settlement": "winner-takes-all", "red_fives": 3}}
    assert client.post("/api/tables", json=allowed).status_code == 201


def test_the_persons_seat_at_a_house_table_is_drawn_from_its_seed(
    client: TestClient,
) -> None:
    """The person sat first at every house table, and ties went to the first seat."""
    register(client, "firstseat")
    made = client.post("/api/tables", json={**WTA, "seats": ROSTER, "clock": "standard", "bet": 10})
    assert made.status_code == 201, made.text
    table = made.json()
    stored = hub(client).store.get_table(table["id"])
    seat = drawn_seats(stored.seed, ["person", "cpu", "cpu", "cpu"]).index("person")
    # the person's link is the token of the seat it drew, and it sits there by account
    assert [t is not None for t in table["tokens"]] == [s == seat for s in range(4)]
    kinds = [s["kind"] for s in table["seats"]]
    assert kinds[seat] == "human" and kinds.count("expert") == 3


def test_offers_show_their_switches_and_a_seat_confirms_them(tmp_path: Path) -> None:
    """Between people, the creator set the switches and the others could not see them."""
    with running_site(tmp_path) as site:
        ann, bea, cy, dee = (
            Person(site.port, i + 1, n) for i, n in enumerate(["Anna", "Bean", "Cyd", "Deea"])
        )
        body = {**ONE_HAND_WTA, "clock": "standard", "bet": 100}
        body["switches"] = {**body["switches"], "red_fives": 3}
        offer = ann.post("/api/money", json=body).json()
        listed = bea.get("/api/money").json()["offers"][0]
        assert listed["switches"] == {"settlement": "winner-takes-all", "red_fives": 3}
        path = f"/api/money/{offer['id']}/sit"
        for unconfirmed in ({}, {"switches": {"settlement": "winner-takes-all"}}):
            refused = bea.post(path, json=unconfirmed)
            assert refused.status_code == 400 and "red_fives to 3" in refused.json()["error"]
        assert bea.get("/api/chips").json()["balance"] == START_CHIPS  # nothing held
        tie_maker = {**body, "switches": {**body["switches"], "noten_payment": 0}}
        refused = ann.post("/api/money", json=tie_maker)
        assert refused.status_code == 400 and "noten_payment" in refused.json()["error"]
        for who in (bea, cy, dee):
            assert who.post(path, json=confirming(listed)).status_code == 200
        # full: the table's seats were drawn from its seed, not taken in the lobby's order
        stored = site.app.state.server.store.get_table(offer["id"])
        names = ["Anna", "Bean", "Cyd", "Deea"]
        seated = [s["name"] for s in ann.get(f"/api/tables/{offer['id']}").json()["seats"]]
        assert seated == drawn_seats(stored.seed, names)


def test_a_seat_left_before_the_start_is_a_stake_given_back(tmp_path: Path) -> None:
    """The statement called it "money table settled" with a link to a replay that
    never was."""
    with running_site(tmp_path) as site:
        ann, bea = (Person(site.port, i + 1, n) for i, n in enumerate(["Anna", "Bean"]))
        offer = ann.post("/api/money", json={**ONE_HAND_WTA, "clock": "standard", "bet": 100})
        made = offer.json()
        assert bea.post(f"/api/money/{made['id']}/sit", json=confirming(made)).status_code == 200
        assert bea.post(f"/api/money/{made['id']}/leave").json()["left"] is True
        back, held = bea.get("/api/chips").json()["statement"]["items"][:2]
        assert back["what"] == "stake back: you left a money table before it started"
        assert back["link"] == "/money" and back["amount"] == -held["amount"] > 0
        assert held["what"] == "stake held for a money table"
        assert site.app.state.server.desk(ChipStore).audit() == []
