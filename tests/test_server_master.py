"""The master at a table: it thinks in a worker process, never on the loop that
serves every table, and plays expert's choice at once when the pool is busy."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from riichi.bots import make_bot
from riichi.game import Match
from riichi.server import create_app
from server_helpers import Seat, new_table


@pytest.mark.parametrize("workers", [1, 0], ids=["in-a-worker", "busy-pool"])
def test_a_person_plays_the_master_which_thinks_in_a_worker(tmp_path: Path, workers: int) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'm.db'}", search_workers=workers)
    with TestClient(app) as client:
        table = new_table(
            client,
            rules="daily-wall",  # one hand
            seed="master-1",
            seats=["human", "master", "master", "master"],
        )
        assert [s["name"] for s in table["seats"][1:]] == [f"master {s} (bot)" for s in (2, 3, 4)]
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
            seat = Seat(ws)
            seat.play()
        thinkers = app.state.server.registry.thinkers
        assert thinkers.waiting == 0
        if workers:
            assert thinkers.served > 0 and thinkers.declined == 0
        else:  # no worker to think in: expert's choice, at once
            assert thinkers.served == 0 and thinkers.declined > 0
        record = client.get(f"/api/games/{table['id']}/record").json()
        stored = app.state.server.store.get_table(table["id"])
        assert stored is not None
    # each of the computers' actions is what that bot decides from what it saw
    match = Match.from_record(record)
    replay = match.restarted()
    bots = {s: make_bot("master", f"{stored.bot_seed}/{s}") for s in (1, 2, 3)}
    for who, action in match.actions:
        if who in bots:
            view = replay.observe(who)
            assert action == (bots[who].act(view) if workers else bots[who].quick(view))
        replay.apply(who, action)
