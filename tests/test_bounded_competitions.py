"""League and tournament planning is bounded and kept off the request path: plans are
made in the planner's worker process (one waiting per account, a few in all, each on
a time limit), an account makes a few seasons with a few computers, a season of
computers alone is an operator's, and live tables with no person have a small cap.
Each test is an attack that loaded the site before its fix."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from riichi.server import Limits, create_app
from riichi.server.clock import FakeClock
from riichi.server.leagues.desk import MAX_SEASON_COMPUTERS, MAX_SEASONS
from riichi.server.planner import Planner
from riichi.server.protocol import Busy
from test_leagues import SEASON, as_operator
from test_server_accounts import register


def site(tmp_path: Path, limits: Limits | None = None) -> TestClient:
    return TestClient(
        create_app(f"sqlite:///{tmp_path / 'b.db'}", clock=FakeClock(), limits=limits)
    )


def test_an_account_makes_a_few_seasons_with_a_few_computers(tmp_path: Path) -> None:
    with site(tmp_path) as client:
        register(client, "Hoarder")
        made = [
            client.post("/api/leagues", json={**SEASON, "mode": "individual"}) for _ in range(4)
        ]
        assert [m.status_code for m in made] == [201] * MAX_SEASONS + [400]
        assert f"the limit is {MAX_SEASONS}" in made[-1].json()["error"]
        league = made[0].json()["id"]
        for _ in range(MAX_SEASON_COMPUTERS // 4):
            added = client.post(f"/api/leagues/{league}/computers", json={"count": 4})
            assert added.status_code == 200
        over = client.post(f"/api/leagues/{league}/computers", json={"count": 1})
        assert over.status_code == 400 and "at most 12 roster computers" in over.json()["error"]
        # computers alone: refused to an account, an operator's to start
        refused = client.post(f"/api/leagues/{league}/start", json={})
        assert refused.status_code == 400 and "operator" in refused.json()["error"]
        assert client.get(f"/api/leagues/{league}").json()["status"] == "open"
        as_operator(client, "Hoarder")
        assert client.post("/api/leagues", json={**SEASON, "mode": "individual"}).status_code == 201


def test_live_tables_without_a_person_wait_under_a_site_cap(tmp_path: Path) -> None:
    """A season of one person and eleven computers seats three tables a round: the
    person's, and two of computers alone, of which the cap lets one play at a time."""
    with site(tmp_path, Limits(computer_tables=1)) as client:
        register(client, "Lonely")
        league = client.post("/api/leagues", json={**SEASON, "mode": "individual"}).json()["id"]
        assert client.post(f"/api/leagues/{league}/join", json={}).status_code == 200
        client.post(f"/api/leagues/{league}/computers", json={"count": 8})
        client.post(f"/api/leagues/{league}/computers", json={"count": 3})
        started = client.post(f"/api/leagues/{league}/start", json={})
        assert started.status_code == 200, started.text
        server = client.app.state.server  # type: ignore[attr-defined]
        assert server.registry.computer_tables() <= 1
        tables = started.json()["tables"]
        # the person's table, and one of computers alone; the other waits for it to end
        assert len(tables) == 2
        assert any(p.startswith("account:") for t in tables for p in t["players"] if p)


def test_a_plan_waits_in_the_worker_one_per_owner_and_in_time() -> None:
    async def scenario() -> None:
        planner = Planner(queue=2, seconds=20.0)
        try:
            first = asyncio.create_task(planner.plan("account:1", time.sleep, 1.0))
            await asyncio.sleep(0.05)
            with pytest.raises(Busy, match="a plan of yours is being made") as again:
                await planner.plan("account:1", sum, [1, 2])
            assert again.value.status == 429
            # the loop is free while the worker plans: another owner's plan is queued
            assert await planner.plan("account:2", sum, [1, 2]) == 3
            await first
            slow = Planner(queue=2, seconds=0.5)
            try:
                with pytest.raises(Busy, match="planning took over") as late:
                    await slow.plan("account:3", time.sleep, 30.0)
                assert late.value.status == 503
                assert await slow.plan("account:3", sum, [2, 2]) == 4  # a fresh worker
            finally:
                slow.close()
        finally:
            planner.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    "name",
    [
        "Winter\u202eeugael",  # a right-to-left override
        "Winter\x00league",
        "Winter\u200bleague",  # a zero-width space
        "Z" + "\u0301" * 12 + "algo",  # a stack of combining marks
    ],
    ids=["bidi", "nul", "zero-width", "combining-stack"],
)
def test_names_of_seasons_teams_and_tournaments_print_plainly(tmp_path: Path, name: str) -> None:
    with site(tmp_path) as client:
        register(client, "Namer")
        season = client.post("/api/leagues", json={**SEASON, "name": name})
        assert season.status_code == 400 and "a season's name" in season.json()["error"]
        cup = client.post("/api/tournaments", json={"name": name, "rules": "classic"})
        assert cup.status_code == 400 and "a tournament's name" in cup.json()["error"]
        league = client.post("/api/leagues", json=SEASON).json()["id"]
        team = client.post(f"/api/leagues/{league}/join", json={"team": name})
        assert team.status_code == 400 and "a team's name" in team.json()["error"]
        assert client.get(f"/api/leagues/{league}").json()["members"] == []
        # one accent on a letter, or two, is a name
        fine = client.post("/api/leagues", json={**SEASON, "name": "Zé\u0301 league"})
        assert fine.status_code == 201


def test_a_team_that_looks_like_another_is_the_same_team_and_teams_are_capped(
    tmp_path: Path,
) -> None:
    """A stranger joined as "Alpha" with a zero-width space, or a Cyrillic А: a second
    team that reads as the first."""
    with site(tmp_path) as client:
        register(client, "Captain")
        as_operator(client, "Captain")  # computers beyond an account's twelve
        league = client.post("/api/leagues", json=SEASON).json()["id"]
        assert client.post(f"/api/leagues/{league}/join", json={"team": "Alpha"}).status_code == 200
        joined = client.post(f"/api/leagues/{league}/computers", json={"count": 3, "team": "Аlpha"})
        assert {m["team"] for m in joined.json()["members"]} == {"Alpha"}
        over = client.post(f"/api/leagues/{league}/computers", json={"count": 5, "team": "ALPHA"})
        assert over.status_code == 400 and "has 8 members" in over.json()["error"]
        client.post(f"/api/leagues/{league}/computers", json={"count": 4, "team": "ALPHA"})
        full = client.post(f"/api/leagues/{league}/computers", json={"count": 1, "team": "alpha"})
        assert full.status_code == 400 and "has 8 members" in full.json()["error"]
        assert len(client.get(f"/api/leagues/{league}").json()["members"]) == 8
