"""The coach at practice tables: the roster computer's view of the seat's decision,
asked by the seat, said from the seat's own observation exactly as a review says it;
refused at every table where another's game or anything of value is at stake."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from riichi.bots.review import advise
from riichi.bots.reviewers import ExpertReviewer
from riichi.platform.tables import KINDS
from riichi.server import create_app
from riichi.server.clock import FakeClock
from server_helpers import Seat, write_tables
from test_first_minutes import PLAY_NOW


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'site.db'}", clock=FakeClock())) as client:
        yield client


def ask(seat: Seat) -> dict[str, Any]:
    seat.send({"type": "coach"})
    while True:
        message = seat.receive()
        if message["type"] in ("coach", "error"):
            return message


def test_the_coach_says_what_a_review_says_of_the_same_observation(web: TestClient) -> None:
    table = web.post("/api/tables", json=PLAY_NOW).json()
    with web.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
        seat = Seat(ws)
        advised = 0
        while advised < 3:  # three decisions, each advised, then played as advised
            seat.await_turn()
            assert not seat.state["over"]
            if len(seat.state["legal"]) < 2:  # after a riichi, say: one thing to do
                refused = ask(seat)
                assert refused["type"] == "error" and "nothing to decide" in refused["message"]
                seat.act()
                continue
            advice = ask(seat)
            assert advice["type"] == "coach" and advice["version"] == seat.version, advice
            live = web.app.state.server.registry.tables[table["id"]]  # type: ignore[attr-defined]
            observation = live.match.observe(0)
            reviewed = advise(observation, ExpertReviewer(), live.match.rules.red_fives)
            assert advice["options"] == json.loads(json.dumps([o.to_dict() for o in reviewed]))
            assert len(advice["options"]) >= 2  # a win or a kan may go unvalued, not all
            assert any(option["value"] is not None for option in advice["options"])
            assert ask(seat) == advice  # asked again: the same answer, not reckoned again
            seat.send(seat.action(advice["options"][0]["action"]))
            assert seat.read_until("ack", "error")["type"] == "ack"
            advised += 1


@pytest.mark.parametrize("kind", sorted(k for k, rules in KINDS.items() if not rules.coach))
def test_the_coach_is_refused_where_a_game_is_at_stake(tmp_path: Path, kind: str) -> None:
    """Private (friends, maybe a bet), rated, Daily Wall, tournament, money and league
    tables: the coach is refused, and the table plays on."""
    assert kind != "practice"
    url = f"sqlite:///{tmp_path / 'kinds.db'}"
    (table,) = write_tables(url, ["t"], ["human", "expert", "expert", "expert"], kind=kind)
    link = f"/ws/tables/t?token={table['tokens'][0]}"
    with TestClient(create_app(url)) as web, web.websocket_connect(link) as ws:
        seat = Seat(ws)
        seat.await_turn()
        refused = ask(seat)
        assert refused["type"] == "error" and "practice tables only" in refused["message"]
        seat.act()  # and play goes on


def test_only_practice_allows_the_coach() -> None:
    assert [k for k, rules in KINDS.items() if rules.coach] == ["practice"]
