"""League seasons (003): planned rounds, PT as M-League counts it, standings by player
and team, written with each table's end and recomputable; a season survives a restart."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from riichi.cli import main
from riichi.platform.accounts import name_key
from riichi.platform.leagues import Game, LeagueError, check_start, plan_season, standings
from riichi.rules import find_ruleset
from riichi.server import create_app
from riichi.server.clock import FakeClock
from test_server_accounts import register


def as_operator(client: TestClient, name: str) -> None:
    """A season of computers alone is an operator's to start: the staff's role."""
    client.app.state.server.store.accounts.set_role(name_key(name), "operator")  # type: ignore[attr-defined]


TEAMS = {f"p{i}": ("red" if i < 4 else "blue") for i in range(8)}
SEASON = {
    "name": "Winter league",
    "rules": "league",
    "switches": {"length": "one-hand", "lengths": ["one-hand", "east", "south"]},
    "mode": "team",
    "rounds": 3,
}


def test_a_team_season_seats_every_member_each_round_and_mixes_the_teams() -> None:
    plan = plan_season(TEAMS, 3, 4, "winter")
    assert len(plan) == 3
    for tables in plan:
        seated = [p for t in tables for p in t]
        assert sorted(seated) == sorted(TEAMS)  # everyone once a round
        for table in tables:  # two of each team: never three of one
            assert Counter(TEAMS[p] for p in table if p) == {"red": 2, "blue": 2}
    assert plan == plan_season(TEAMS, 3, 4, "winter")  # the same plan after a restart
    check_start(TEAMS, "team", 4)


def test_standings_add_up_pt_and_rank_ties_by_average_place() -> None:
    members = [("a", "Ann", "red"), ("b", "Bob", "red"), ("c", "Cy", "blue"), ("d", "Di", "blue")]
    games = [
        Game("a", "t1", 1, 1, 45000, 45.0, 1.0),
        Game("b", "t1", 1, 2, 30000, 10.0, 1.0),
        Game("c", "t1", 1, 3, 15000, -25.0, 1.0),
        Game("d", "t1", 1, 4, 10000, -30.0, 1.0),
        Game("d", "t2", 2, 1, 55000, 55.0, 2.0),
        Game("a", "t2", 2, 4, 5000, -55.0, 2.0),
    ]
    players, teams = standings(members, games)
    assert [(p.key, p.pt, p.games) for p in players] == [
        ("d", 25.0, 2), ("b", 10.0, 1), ("a", -10.0, 2), ("c", -25.0, 1)
    ]  # fmt: skip
    assert players[2].best == 45.0 and players[2].average_place == 2.5
    assert players[2].series == [45.0, -10.0]
    assert [(t.key, t.pt) for t in teams] == [("blue", 0.0), ("red", 0.0)] or [
        (t.key, t.pt) for t in teams
    ] == [("red", 0.0), ("blue", 0.0)]
    # equal PT: the better average place first
    tied = standings(
        members[:2], [Game("a", "t", 1, 2, 0, 5.0, 1), Game("b", "t", 1, 1, 0, 5.0, 1)]
    )
    assert [p.key for p in tied[0]] == ["b", "a"]


def pt_by_hand(score: int, place: int, others: list[tuple[int, int]]) -> float:
    """003's PT by hand: (score - 30,000) / 1,000 + uma (30/10/-10/-30), in tenths;
    first place takes what makes the table sum to zero (its oka of 20, and the
    riichi sticks left on the table)."""
    uma = {1: 30, 2: 10, 3: -10, 4: -30}
    if place != 1:
        return round((score - 30000) / 1000 + uma[place], 1)
    return round(-sum((s - 30000) / 1000 + uma[p] for s, p in others), 1)


def finished_season(client: TestClient, league: str, rounds: int) -> dict[str, Any]:
    deadline = time.monotonic() + 240
    while True:
        view: dict[str, Any] = client.get(f"/api/leagues/{league}").json()
        if view["status"] == "over":
            return view
        assert time.monotonic() < deadline, f"the season did not end: round {view['round']}"
        time.sleep(0.2)


def test_a_team_season_of_eight_over_three_rounds_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'league.db'}"
    with TestClient(create_app(db, clock=FakeClock())) as client:
        register(client, "Organiser")
        as_operator(client, "Organiser")
        made = client.post("/api/leagues", json=SEASON)
        assert made.status_code == 201, made.text
        league = made.json()["id"]
        for team in ("red", "blue"):
            added = client.post(f"/api/leagues/{league}/computers", json={"count": 4, "team": team})
            assert added.status_code == 200, added.text
        refused = client.post(f"/api/leagues/{league}/join", json={})
        assert refused.status_code == 400 and "team" in refused.json()["error"]
        started = client.post(f"/api/leagues/{league}/start", json={})
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "running" and started.json()["round"] == 1
        assert len(started.json()["tables"]) == 2
    # the site stops mid-round, and comes back
    with TestClient(create_app(db, clock=FakeClock())) as client:
        view = finished_season(client, league, 3)
        assert len(view["tables"]) == 6 and all(t["over"] for t in view["tables"])
        assert sorted(Counter(t["round"] for t in view["tables"]).items()) == [
            (1, 2),
            (2, 2),
            (3, 2),
        ]
        # PT by hand from every table's stored scores and places
        expected: Counter[str] = Counter()
        for t in view["tables"]:
            standing = client.get(f"/api/games/{t['table']}/record").json()["standings"]
            by_seat = {x["seat"]: (x["score"], x["place"]) for x in standing}
            for seat, key in enumerate(t["players"]):
                score, place = by_seat[seat]
                others = [v for s, v in by_seat.items() if s != seat]
                expected[key] += pt_by_hand(score, place, others)
        got = {line["key"]: line["pt"] for line in view["standings"]}
        assert got.keys() == expected.keys()
        assert all(abs(got[k] - expected[k]) < 0.05 for k in got), (got, expected)
        assert all(line["games"] == 3 for line in view["standings"])
        team_pt = {t["key"]: t["pt"] for t in view["teams"]}
        for team in ("red", "blue"):
            members = [m["key"] for m in view["members"] if m["team"] == team]
            assert team_pt[team] == round(sum(got[m] for m in members), 1)
        assert abs(sum(team_pt.values())) < 0.5  # the table's PT sums to zero
        # recomputed from the stored games: the same standings
        before = view["standings"]
    result = CliRunner().invoke(main, ["league", "--recompute", "--db", db])
    assert result.exit_code == 0, result.output
    assert "Winter league" in result.output and "24 games" in result.output
    with TestClient(create_app(db, clock=FakeClock())) as client:
        assert client.get(f"/api/leagues/{league}").json()["standings"] == before


def test_seasons_refuse_what_they_cannot_hold(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'l.db'}", clock=FakeClock())) as client:
        assert client.post("/api/leagues", json=SEASON).status_code == 401
        register(client, "Organiser")
        for body, said in [
            ({**SEASON, "rounds": 0}, "1 to 40 rounds"),
            ({**SEASON, "mode": "duo"}, "individual or team"),
            ({**SEASON, "name": ""}, "name"),
            ({**SEASON, "joining": "invitation", "invite": ["Nobody"]}, "no account"),
            ({**SEASON, "prize": 5}, "unknown fields"),
        ]:
            refused = client.post("/api/leagues", json=body)
            assert refused.status_code == 400 and said in refused.json()["error"], refused.text
        league = client.post("/api/leagues", json={**SEASON, "mode": "individual"}).json()["id"]
        client.post(f"/api/leagues/{league}/computers", json={"count": 3})
        short = client.post(f"/api/leagues/{league}/start", json={})
        assert short.status_code == 400 and "whole tables" in short.json()["error"]
        joined = client.post(f"/api/leagues/{league}/join", json={})
        assert joined.status_code == 200 and len(joined.json()["members"]) == 4
        again = client.post(f"/api/leagues/{league}/join", json={})
        assert again.status_code == 400 and "member already" in again.json()["error"]
        assert client.get("/api/leagues/nosuch").status_code == 404
        assert [x["id"] for x in client.get("/api/leagues").json()["items"]] == [league]
        assert find_ruleset("league").uma == (30000, 10000, -10000, -30000)
        assert list(combinations(range(2), 2)) == [(0, 1)]


def test_open_play_seats_whoever_waits_and_each_pair_meets_at_most_n_times(
    tmp_path: Path,
) -> None:
    from riichi.platform.leagues import open_tables
    from server_helpers import Seat

    # the tables as the rule makes them: people first, oldest first; computers complete
    assert open_tables(["a", "b"], ["x", "y", "z"], {}, 4, 1) == [["a", "b", "x", "y"]]
    met = {frozenset(("a", "x")): 1}
    assert open_tables(["a"], ["x", "y", "z"], met, 4, 1) == []  # a met x: no room
    assert open_tables([], ["x", "y", "z", "w"], {}, 4, 1) == []  # computers never alone
    open_play = {
        "name": "Open league",
        "switches": {"length": "one-hand", "lengths": ["one-hand", "east", "south"]},
        "play": "open",
        "meetings": 1,
    }
    with TestClient(create_app(f"sqlite:///{tmp_path / 'o.db'}", clock=FakeClock())) as client:
        register(client, "Organiser")
        league = client.post("/api/leagues", json=open_play).json()["id"]
        assert client.post(f"/api/leagues/{league}/join", json={}).status_code == 200
        client.post(f"/api/leagues/{league}/computers", json={"count": 3})
        early = client.post(f"/api/leagues/{league}/wait", json={})
        assert early.status_code == 400 and "running season" in early.json()["error"]
        started = client.post(f"/api/leagues/{league}/start", json={}).json()
        assert started["status"] == "running" and started["tables"] == []  # nobody waits
        seated = client.post(f"/api/leagues/{league}/wait", json={}).json()
        assert len(seated["tables"]) == 1 and seated["waiting"] == []
        table = seated["tables"][0]["table"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            Seat(ws).play()
        deadline = time.monotonic() + 30
        while not client.get(f"/api/leagues/{league}").json()["tables"][0]["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        again = client.post(f"/api/leagues/{league}/wait", json={}).json()
        assert len(again["tables"]) == 1 and again["waiting"] == ["Organiser"]  # met them all
        twice = client.post(f"/api/leagues/{league}/wait", json={})
        assert twice.status_code == 400 and "already" in twice.json()["error"]
        view = client.post(f"/api/leagues/{league}/end", json={}).json()
        assert view["status"] == "over" and view["waiting"] == []
        assert all(line["games"] == 1 for line in view["standings"])
        assert abs(sum(line["pt"] for line in view["standings"])) < 0.5


def test_fields_of_the_wrong_shape_are_refused_never_a_server_error(tmp_path: Path) -> None:
    """A list or an object where a word or a number goes, in every new form: a clear
    400, never a crash (an unhashable value once reached a set lookup)."""
    app = create_app(f"sqlite:///{tmp_path / 'w.db'}", clock=FakeClock())
    with TestClient(app, raise_server_exceptions=False) as client:
        register(client, "Shaper")
        odd: list[Any] = [[], {}, [[]], None, True, 1.5, "x" * 300]
        forms = {
            "/api/tables": {"seats": ["human", "efficiency", "efficiency", "efficiency"]},
            "/api/money": {"rules": "riichi-basic", "bet": 5},
            "/api/leagues": {"name": "Shapes"},
            "/api/tournaments": {"name": "Shapes", "closes_in": 60},
        }
        for path, base in forms.items():
            for field in ("clock", "rules", "length", "invite", "bet", "mode", "play", "rounds"):
                for value in odd:
                    answer = client.post(path, json={**base, field: value})
                    assert answer.status_code < 500, (path, field, value, answer.text)


def test_with_four_teams_or_more_each_team_sends_one_member_to_a_table() -> None:
    """No team twice at a table where the count allows: four teams of four, five teams
    of four, four teams of three (every member plays each round)."""
    for teams, size in [(4, 4), (5, 4), (4, 3)]:
        members = {f"t{t}m{m}": f"T{t}" for t in range(teams) for m in range(size)}
        for tables in plan_season(members, 4, 4, f"cup-{teams}-{size}"):
            for table in tables:
                assert len({members[p] for p in table if p}) == 4, table


def test_teams_that_take_turns_send_one_member_each_a_round_in_turn() -> None:
    """M-League's format: each round every team sends one member, the next in its
    order each round; a table holds one member of each of its teams."""
    members = {f"t{t}m{m}": f"T{t}" for t in range(4) for m in range(3)}
    plan = plan_season(members, 6, 4, "relay", "turns")
    for r, tables in enumerate(plan):
        assert len(tables) == 1 and sorted(p or "" for p in tables[0]) == sorted(
            f"t{t}m{r % 3}" for t in range(4)
        )
    assert Counter(p for tables in plan for t in tables for p in t) == dict.fromkeys(members, 2)
    check_start(members, "turns", 4)
    eight = {f"t{t}m{m}": f"T{t}" for t in range(8) for m in range(2)}
    for tables in plan_season(eight, 3, 4, "relay", "turns"):
        assert len(tables) == 2 and all(len({eight[p] for p in t if p}) == 4 for t in tables)
    for teams in (3, 6):
        few = {f"t{t}m0": f"T{t}" for t in range(teams)}
        with pytest.raises(LeagueError, match=f"{teams} teams do not"):
            check_start(few, "turns", 4)


def test_a_season_of_teams_taking_turns_plays_through_the_server(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", clock=FakeClock())) as client:
        register(client, "Organiser")
        as_operator(client, "Organiser")
        open_play = client.post("/api/leagues", json={**SEASON, "mode": "turns", "play": "open"})
        assert open_play.status_code == 400 and "scheduled" in open_play.json()["error"]
        made = client.post("/api/leagues", json={**SEASON, "mode": "turns", "rounds": 2})
        assert made.status_code == 201, made.text
        league = made.json()["id"]
        for team in ("east", "south", "west", "north"):
            added = client.post(f"/api/leagues/{league}/computers", json={"count": 2, "team": team})
            assert added.status_code == 200, added.text
        started = client.post(f"/api/leagues/{league}/start", json={})
        assert started.status_code == 200 and len(started.json()["tables"]) == 1, started.text
        view = finished_season(client, league, 2)
        rounds = sorted((t["round"], tuple(t["players"])) for t in view["tables"])
        keys = [m["key"] for m in view["members"]]  # in the order they joined
        assert [set(players) for _, players in rounds] == [set(keys[0::2]), set(keys[1::2])]
        assert all(line["games"] == 1 for line in view["standings"])
        assert len(view["teams"]) == 4
