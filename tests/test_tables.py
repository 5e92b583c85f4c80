"""riichi.platform.tables: what each kind of table allows, and the plans of what is
written when a table opens and when its game ends; a kind added by one entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from riichi.platform import Pool
from riichi.platform.chips import HOUSE, escrow
from riichi.platform.tables import (
    ALL_CLOCKS,
    HUMAN,
    KINDS,
    Final,
    KindRules,
    Row,
    SeatFinal,
    SeatSpec,
    TableError,
    TableKind,
    check_lobby_table,
    finishing,
    fixed_rules,
    lobby_kind,
    opening,
)
from riichi.rules import Length, Settlement, find_ruleset
from riichi.server import create_app
from riichi.server.clock import FakeClock
from riichi.server.ratings.schema import STAT_COLUMNS, game_stats
from server_helpers import Seat

CLASSIC = find_ruleset("classic")
WTA = CLASSIC.replace(settlement=Settlement.WINNER_TAKES_ALL, length=Length.ONE_HAND)
BOTS = ["expert", "expert", "expert"]


def test_a_rated_table_is_classic_east_on_a_clock_and_comes_from_the_queue() -> None:
    rules = fixed_rules(TableKind.RATED)
    assert (rules.name, rules.length) == ("classic", Length.EAST)
    assert KINDS["rated"].clocks == {Pool.STANDARD, Pool.RELAXED}
    with pytest.raises(TableError, match="come from the queue"):
        lobby_kind("rated")
    with pytest.raises(TableError, match="practice or private"):
        lobby_kind("nosuch")
    with pytest.raises(TableError, match="not daily"):
        lobby_kind("daily")
    assert lobby_kind("practice") == "practice"


def test_the_lobby_refuses_what_a_kind_does_not_allow() -> None:
    def check(kind: str, seats: list[str], pool: Pool, bet: int = 0, **kw: bool) -> None:
        check_lobby_table(
            kind, kw.get("signed_in", True), seats, pool, WTA, bet, kw.get("seeded", False)
        )

    check("practice", [HUMAN, *BOTS], Pool.UNTIMED)
    with pytest.raises(TableError, match="you against bots"):
        check("practice", [HUMAN, HUMAN, "expert", "expert"], Pool.UNTIMED)
    with pytest.raises(TableError, match="untimed, not standard"):
        check("practice", [HUMAN, *BOTS], Pool.STANDARD)
    with pytest.raises(TableError, match="carries no bet"):
        check("practice", [HUMAN, *BOTS], Pool.UNTIMED, bet=100)
    with pytest.raises(TableError, match="signed-in"):
        check("private", [HUMAN, *BOTS], Pool.STANDARD, bet=100, signed_in=False)
    with pytest.raises(TableError, match="leave out the seed"):
        check("private", [HUMAN, *BOTS], Pool.STANDARD, bet=100, seeded=True)
    check("private", [HUMAN, *BOTS], Pool.STANDARD, bet=100)


def test_an_opening_seats_the_accounts_reserves_and_leaves_the_queue() -> None:
    seats = [SeatSpec(HUMAN, "Ann", None, 7), *(SeatSpec("expert", f"e{s}") for s in range(3))]
    plan = opening("private", "t1", seats, WTA, bet=100)
    assert [r.values for r in plan.rows] == [{"table_id": "t1", "seat": 0, "account_id": 7}]
    assert {(t.source, t.amount) for t in plan.transfers} == {("account:7", 150), (HOUSE, 150)}
    assert all(t.target == escrow("t1") for t in plan.transfers) and len(plan.transfers) == 4
    assert plan.stakes == ((7, 150),) and plan.dequeue == ()
    rated = opening(TableKind.RATED, "t2", seats, CLASSIC, rows=[Row("extra", {"n": 1})])
    assert rated.transfers == () and rated.dequeue == (7,)
    assert rated.rows[-1].values == {"table_id": "t2", "n": 1}


def final(places: list[int]) -> Final:
    """How a four-seat match ended, as the server stores it."""
    figures = dict.fromkeys(STAT_COLUMNS, 0)
    scores = [25000 + 1000 * (4 - p) for p in places]
    return Final(
        5.0,
        [{"seat": s, "place": places[s], "score": scores[s], "points": 0.0} for s in range(4)],
        [
            SeatFinal(
                f"p{s}", f"n{s}", {**figures, "place": places[s], "score": scores[s], "points": 0.0}
            )
            for s in range(4)
        ],
        hands=[{"label": "E1-0", "deltas": [0, 0, 0, 0]}],
    )


def test_a_finish_writes_figures_ratings_a_settlement_and_a_desks_rows() -> None:
    seats = [SeatSpec(HUMAN, "Ann", None, 7), *(SeatSpec("expert", f"e{s}") for s in range(3))]
    ended = final([1, 2, 3, 4])
    private = finishing("private", "t1", seats, WTA, 100, ended, STAT_COLUMNS)
    assert [row["rated"] for row in private.stats] == [False] * 4
    assert private.rating == () and private.updates == ()
    assert sum(t.amount for t in private.transfers) == 4 * 150  # the escrow, paid out
    rated = finishing(TableKind.RATED, "t2", seats, CLASSIC, 0, ended, STAT_COLUMNS)
    assert [p for _, _, p in rated.rating] == [1, 2, 3, 4] and rated.transfers == ()
    daily = finishing(TableKind.DAILY, "t3", seats, CLASSIC, 0, ended, STAT_COLUMNS)
    (update,) = daily.updates
    assert (update.table, update.where) == ("daily_attempts", {"table_id": "t3"})
    assert json.loads(update.values["hands"]) == ended.hands


def test_a_new_kind_of_table_is_one_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An "exhibition" table: opened from the lobby by members, always open to
    spectators, unrated. One entry in KINDS, and the lobby, the lists, the spectators
    and the end of the game follow it; storage has no branch to add."""
    rules = KindRules(lobby=True, guests=False, clocks=ALL_CLOCKS, always_watched=True)
    monkeypatch.setitem(KINDS, "exhibition", rules)
    body = {"kind": "exhibition", "rules": "classic", "length": "one-hand", "seed": "x"}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'k.db'}", clock=FakeClock())) as client:
        guest = client.post("/api/tables", json=body)
        assert guest.status_code == 400 and "sign in" in guest.json()["error"]
        client.post("/api/register", json={"name": "host", "password": "correct horse"})
        table = client.post("/api/tables", json=body).json()
        assert table["kind"] == "exhibition"
        watch = client.get("/api/watch").json()["items"]
        assert [t["id"] for t in watch] == [table["id"]]  # open to spectators by its kind
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            seat = Seat(ws)
            assert seat.seat == 0
            seat.play()
        hub = client.app.state.server  # type: ignore[attr-defined]
        with hub.store.engine.connect() as conn:
            rows = conn.execute(
                select(game_stats.c.rated).where(game_stats.c.table_id == table["id"])
            ).all()
        assert [r.rated for r in rows] == [False] * 4
