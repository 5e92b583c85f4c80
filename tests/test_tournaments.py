"""Tournaments (002): seating that keeps opponents apart, table points 4/2/1/0, the
documented tie-breaks, the payout; and a 16-entrant, 4-round tournament of roster
computers run to its end through the server."""

from __future__ import annotations

import time
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from riichi.platform.chips import HOUSE, escrow
from riichi.platform.tournaments import (
    DEFAULT_PAYOUT,
    TableResult,
    TournamentError,
    check_payout,
    meetings,
    payouts,
    plan_rounds,
    seat_round,
    standings,
)
from riichi.rules import find_ruleset
from riichi.server import create_app
from riichi.server.clock import FakeClock
from riichi.server.money.ledger import ChipStore

FOUR = find_ruleset("riichi-basic")
SANMA = find_ruleset("sanma-kansai")


def test_sixteen_entrants_over_four_rounds_never_meet_twice() -> None:
    """Sixteen at fours over four rounds can be seated with no pair meeting twice."""
    people = [f"p{i}" for i in range(16)]
    for seed in ("a", "b", "c"):
        plan = plan_rounds(people, 4, 4, seed)
        results = []
        for round_, tables in enumerate(plan, start=1):
            assert sorted(p for t in tables for p in t if p) == sorted(people)
            results += [TableResult(round_, list(t), [1, 2, 3, 4], [0] * 4) for t in tables]
        assert max(meetings(results).values()) == 1


def test_one_round_keeps_apart_those_who_have_met() -> None:
    people = [f"p{i}" for i in range(8)]
    met = {frozenset(("p0", "p1")): 1, frozenset(("p2", "p3")): 1}
    for table in seat_round(people, met, 4, "x"):
        assert not {"p0", "p1"} <= set(table) and not {"p2", "p3"} <= set(table)


def test_a_count_that_does_not_divide_gets_roster_computers_spread_out() -> None:
    tables = seat_round([f"p{i}" for i in range(17)], {}, 4, "x")
    assert len(tables) == 5
    assert sorted(t.count(None) for t in tables) == [0, 0, 1, 1, 1]
    assert all(t.count(None) <= 1 for t in tables)


def test_three_player_tables_for_sanma() -> None:
    tables = seat_round([f"p{i}" for i in range(9)], {}, SANMA.players, "x")
    assert [len(t) for t in tables] == [3, 3, 3]


def test_seating_is_the_same_for_the_same_seed() -> None:
    people = [f"p{i}" for i in range(12)]
    assert seat_round(people, {}, 4, "s") == seat_round(people, {}, 4, "s")


def test_table_points_are_four_two_one_nothing() -> None:
    """002: first 4, second 2, second to last 1, last 0."""
    ranked = standings(
        ["a", "b", "c", "d"], [TableResult(1, ["a", "b", "c", "d"], [3, 1, 4, 2], [0] * 4)], FOUR
    )
    assert [(s.entrant, s.points) for s in ranked] == [("b", 4), ("d", 2), ("a", 1), ("c", 0)]
    sanma = standings(["a", "b", "c"], [TableResult(1, ["a", "b", "c"], [2, 3, 1], [0] * 3)], SANMA)
    assert [(s.entrant, s.points) for s in sanma] == [("c", 4), ("a", 1), ("b", 0)]


def test_ties_go_to_the_total_score_then_head_to_head_then_the_seat() -> None:
    people = ["a", "b", "c", "d", "e", "f", "g", "h"]
    one = [
        TableResult(1, ["a", "b", "c", "f"], [4, 2, 3, 1], [10000, 30000, 20000, 40000]),
        TableResult(1, ["e", "d", "g", "h"], [1, 2, 3, 4], [40000, 30000, 20000, 10000]),
    ]
    ranked = standings(people, one, FOUR)
    # f and e tie on points and score and never met: registration order puts e first
    assert [s.entrant for s in ranked[:2]] == ["e", "f"]
    two = [
        TableResult(2, ["b", "e", "h", "c"], [1, 2, 3, 4], [40000, 25000, 25000, 10000]),
        TableResult(2, ["f", "d", "a", "g"], [2, 1, 3, 4], [30000, 40000, 20000, 10000]),
    ]
    ranked = standings(people, one + two, FOUR)
    by = {s.entrant: s for s in ranked}
    # b and f: 6 points and 70,000 each; f finished above b when they met, so f ranks
    # first though b registered before it
    assert (by["b"].points, by["b"].score) == (by["f"].points, by["f"].score) == (6, 70000)
    assert ranked.index(by["f"]) < ranked.index(by["b"])
    # d has 2 + 4 = 6 points and 70,000 too: three tied, one win each for d (over f)
    # and f (over b), none for b; d and f then go by registration
    assert (by["d"].points, by["d"].score) == (6, 70000)
    # e has 6 points too, but 65,000: the score ranks it after them
    assert [s.entrant for s in ranked if s.points == 6] == ["d", "f", "b", "e"]
    assert [s.rank for s in ranked] == list(range(1, 9))
    # fewer points never rank above more, whatever the score
    assert all(x.points >= y.points for x, y in pairwise(ranked))


def test_the_payout_follows_the_structure_in_whole_chips() -> None:
    assert payouts(1000, DEFAULT_PAYOUT, ["a", "b", "c", "d"]) == {"a": 500, "b": 300, "c": 200}
    assert sum(payouts(997, DEFAULT_PAYOUT, ["a", "b", "c", "d"]).values()) == 997
    # fewer entrants than paid places: their places share everything
    assert payouts(100, (50, 30, 20), ["a", "b"]) == {"a": 63, "b": 37}


def test_a_payout_must_add_up_and_never_pay_a_lower_rank_more() -> None:
    check_payout([100])
    for bad in ([], [50, 40], [30, 70], [-10, 110]):
        with pytest.raises(TournamentError):
            check_payout(bad)


# ----------------------------------------------------------------- through the server


def wait_for(check: Any, seconds: float = 240.0, clock: FakeClock | None = None) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        if clock is not None:
            clock.advance(1.0)  # the runner looks once a (fake) second
        time.sleep(0.05)
    raise AssertionError("the server did not get there")


def register(client: TestClient, name: str) -> None:
    client.cookies.clear()
    response = client.post("/api/register", json={"name": name, "password": "correct horse"})
    assert response.status_code == 201, response.text


def test_sixteen_roster_computers_play_four_rounds_to_the_payout(tmp_path: Path) -> None:
    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", clock=clock)
    with TestClient(app) as client:
        register(client, "organiser")
        # an operator: adds the house's chips and enters computers without a person
        app.state.server.store.accounts.set_role("organiser", "operator")
        body = {
            "name": "Winter cup",
            "rules": "riichi-basic",
            "length": "one-hand",
            "rounds": 4,
            "bet": 100,
            "fee": 10,
            "added": 400,
            "payout": [50, 30, 20],
            "closes_in": 60,
        }
        created = client.post("/api/tournaments", json=body)
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        assert client.get("/api/chips").json()["balance"] == 10_000
        entered = client.post(f"/api/tournaments/{tid}/computers", json={"count": 16})
        assert entered.status_code == 200, entered.text
        refused = client.post(f"/api/tournaments/{tid}/computers", json={"count": 0})
        assert refused.status_code == 400
        view = client.get(f"/api/tournaments/{tid}").json()
        assert len(view["entrants"]) == 16 and view["pot"] == 16 * 100 + 400
        assert client.post(f"/api/tournaments/{tid}/start", json={}).status_code == 200

        def over() -> dict[str, Any] | None:
            found: dict[str, Any] = client.get(f"/api/tournaments/{tid}").json()
            return found if found["status"] == "over" else None

        final = wait_for(over, clock=clock)
        tables = final["tables"]
        assert [r["round"] for r in tables] == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4
        assert all(r["over"] for r in tables)
        pairs: Counter[frozenset[str]] = Counter()
        expected_points: Counter[str] = Counter()
        expected_score: Counter[str] = Counter()
        for row in tables:
            seated = row["players"]
            by_seat = sorted(row["standings"], key=lambda x: x["seat"])
            for seat, who in enumerate(seated):
                expected_points[who] += (4, 2, 1, 0)[by_seat[seat]["place"] - 1]
                expected_score[who] += by_seat[seat]["score"]
                for other in seated[seat + 1 :]:
                    pairs[frozenset((who, other))] += 1
        assert max(pairs.values()) == 1  # nobody met anybody twice
        ranked = final["standings"]
        assert [s["rank"] for s in ranked] == list(range(1, 17))
        for s in ranked:
            assert s["points"] == expected_points[s["entrant"]]
            assert s["score"] == expected_score[s["entrant"]]
        keys = [(-s["points"], -s["score"]) for s in ranked]
        assert keys == sorted(keys)
        pot = 16 * 100 + 400
        assert [s["paid"] for s in ranked[:3]] == [pot // 2, pot * 3 // 10, pot // 5]
        assert all(s["paid"] == 0 for s in ranked[3:])
        hub = app.state.server
        assert hub.desk(ChipStore).balance(escrow(tid)) == 0
        # the house backed the computers: it paid 1,600 in, added 400, and got the pot back
        assert hub.desk(ChipStore).balance(HOUSE) == 0
        assert hub.desk(ChipStore).audit() == []


def test_a_registration_pays_the_buy_in_and_a_cancelled_tournament_refunds_it(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", clock=clock)
    with TestClient(app) as client:
        register(client, "organiser")
        body = {"name": "Too small", "rules": "online", "bet": 500, "fee": 50, "closes_in": 30}
        tid = client.post("/api/tournaments", json=body).json()["id"]
        register(client, "entrant")
        assert client.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
        again = client.post(f"/api/tournaments/{tid}/register", json={})
        assert again.status_code == 400 and "registered already" in again.json()["error"]
        chips = client.get("/api/chips").json()
        assert chips["balance"] == 10_000 - 550
        assert {e["amount"] for e in chips["statement"]["items"]} >= {-500, -50}
        assert client.post(f"/api/tournaments/{tid}/start", json={}).status_code == 400  # not yours
        hub = app.state.server
        wait_for(
            lambda: client.get(f"/api/tournaments/{tid}").json()["status"] == "cancelled",
            clock=clock,
        )
        assert client.get("/api/chips").json()["balance"] == 10_000
        assert hub.desk(ChipStore).audit() == []
        late = client.post(f"/api/tournaments/{tid}/register", json={})
        assert late.status_code == 400 and "closed" in late.json()["error"]


def test_a_buy_in_larger_than_the_chips_is_refused_and_moves_nothing(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", clock=FakeClock())
    with TestClient(app) as client:
        register(client, "organiser")
        tid = client.post(
            "/api/tournaments", json={"name": "High roller", "bet": 20_000, "closes_in": 30}
        ).json()["id"]
        refused = client.post(f"/api/tournaments/{tid}/register", json={})
        assert refused.status_code == 400 and "you hold 10,000 chips" in refused.json()["error"]
        assert client.get("/api/chips").json()["balance"] == 10_000
        assert client.get(f"/api/tournaments/{tid}").json()["entrants"] == []
        for bad in ({"name": ""}, {"name": "x", "rounds": 0}, {"name": "x", "payout": [90]}):
            assert client.post("/api/tournaments", json=bad).status_code == 400
