"""Ratings: the model's behaviour, one update per finished rated match in the transaction
that finishes it, none for practice or private tables, the provisional period, and
recomputation from the stored matches giving the same numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from riichi.bots import make_bot
from riichi.bots.play import play_match
from riichi.cli import main
from riichi.game import Match
from riichi.platform.ratings import PROVISIONAL_GAMES, Rating, rate
from riichi.platform.tables import SeatSpec, TableKind, opening
from riichi.rules import Length, find_ruleset
from riichi.server import Store
from riichi.server import storage as storage_module
from riichi.server.ratings import match_end
from riichi.server.ratings.records import RecordStore
from riichi.server.ratings.schema import game_stats, rating_history, ratings
from riichi.server.seating import load_match
from riichi.server.storage import ActionRow, NewTable, StorageError
from riichi.server.table import final_of

RULES = find_ruleset("classic").replace(length=Length.ONE_HAND)


# ----------------------------------------------------------------- the model


def test_first_place_gains_and_last_place_loses() -> None:
    after = rate([Rating()] * 4, [1, 2, 3, 4])
    assert after[0].mu > after[1].mu > 25.0 > after[2].mu > after[3].mu
    assert all(r.games == 1 and r.sigma < Rating().sigma for r in after)
    assert after[0].shown > Rating().shown > after[3].shown


def test_a_new_rating_moves_faster_than_an_established_one() -> None:
    settled = Rating()
    for _ in range(PROVISIONAL_GAMES):
        (settled, *_) = rate([settled, Rating(), Rating(), Rating()], [2, 1, 3, 4])
    assert not settled.provisional and Rating().provisional
    new_gain = rate([Rating(), settled, settled, settled], [1, 2, 3, 4])[0].mu - Rating().mu
    old_gain = rate([settled, Rating(), Rating(), Rating()], [1, 2, 3, 4])[0].mu - settled.mu
    assert new_gain > old_gain > 0


def test_beating_stronger_players_counts_for_more() -> None:
    strong = Rating(mu=35.0, sigma=3.0, games=50)
    weak = Rating(mu=15.0, sigma=3.0, games=50)
    me = Rating(mu=25.0, sigma=3.0, games=50)
    against_strong = rate([me, strong, strong, strong], [1, 2, 3, 4])[0].mu
    against_weak = rate([me, weak, weak, weak], [1, 2, 3, 4])[0].mu
    assert against_strong > against_weak > me.mu


# ----------------------------------------------------------------- storage


class Site:
    """A store with accounts, and finished matches written as the server writes them."""

    def __init__(self, tmp_path: Path) -> None:
        self.url = f"sqlite:///{tmp_path / 'ratings.db'}"
        self.store = Store(self.url)
        self.records = RecordStore(self.store.engine)
        self.tables = 0
        self.names: dict[int, str] = {}

    def account(self, name: str) -> int:
        account = self.store.accounts.create_account(name, name.lower(), "x", 0.0)
        self.names[account.id] = name
        return account.id

    def play(self, accounts: list[int | None], kind: str = "rated", last: bool = True) -> str:
        """A one-hand match at a table of ``kind`` (None: a roster computer); every action
        stored, the last with the match's end unless ``last`` is False."""
        self.tables += 1
        table_id = f"t{self.tables:04d}"
        seats = [
            SeatSpec("human", self.names[a], None, a)
            if a is not None
            else SeatSpec("efficiency", f"efficiency {s + 1} (bot)")
            for s, a in enumerate(accounts)
        ]
        bots = [make_bot("efficiency", f"{table_id}/{s}") for s in range(4)]
        match = play_match(Match(RULES, table_id, [s.name for s in seats]), bots)
        if kind == "rated":  # seated from the queue, as the server seats them
            for account in accounts:
                if account is not None:
                    self.store.accounts.join_queue(account, "standard", 0.0)
        self.store.create_table(
            NewTable(
                id=table_id,
                rules=RULES.to_dict(),
                seed=table_id,
                salt="",
                commitment="",
                bot_seed="",
                seed_public=True,
                seats=[{"kind": s.kind, "name": s.name, "account": s.account} for s in seats],
                created=float(self.tables),
                kind=kind,
                plan=opening(TableKind(kind), table_id, seats, RULES),
            )
        )
        for seq, (seat, action) in enumerate(match.actions):
            final = None
            if seq == len(match.actions) - 1 and last:
                final = final_of(match, seats, float(self.tables))
            self.store.append_action(ActionRow(table_id, seq, seat, action.to_dict(), final))
        return table_id

    def count(self, table: Any) -> int:
        with self.store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(table)).scalar_one())

    def ratings(self) -> dict[str, tuple[float, float, int, int]]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(ratings)).all()
        return {r.player: (r.mu, r.sigma, r.games, r.shown) for r in rows}


@pytest.fixture
def site(tmp_path: Path) -> Site:
    return Site(tmp_path)


def test_a_rated_match_updates_each_rating_once_and_a_private_one_never(site: Site) -> None:
    ann, bob = site.account("Ann"), site.account("Bob")
    rated = site.play([ann, None, bob, None])
    after = site.ratings()
    assert sorted(after) == sorted(
        [f"account:{ann}", f"account:{bob}", "computer:efficiency:2", "computer:efficiency:4"]
    )
    assert all(games == 1 for _, _, games, _ in after.values())
    assert site.count(rating_history) == 4 and site.count(game_stats) == 4
    stored = site.store.get_table(rated)
    assert stored is not None and stored.status == "over"
    places = {s["seat"]: s["place"] for s in stored.standings or []}
    history = site.records.history(f"account:{ann}")
    assert [h["place"] for h in history] == [places[0]]
    # private and practice tables: figures stored, ratings untouched
    site.play([ann, bob, None, None], kind="private")
    site.play([ann, None, None, None], kind="practice")
    assert site.ratings() == after and site.count(rating_history) == 4
    totals = site.records.totals(f"account:{ann}")
    assert totals["all"].games == 3 and totals["rated"].games == 1
    games, total = site.records.games(f"account:{ann}", 10, 0)
    assert total == 3 and [g["rated"] for g in games] == [False, False, True]


def test_the_figures_are_the_arenas(site: Site) -> None:
    from riichi.game.stats import Totals, seat_stats

    ann = site.account("Ann")
    expected = Totals()
    for _ in range(3):
        table = site.play([ann, None, None, None], kind="private")
        stored = site.store.get_table(table)
        assert stored is not None
        match, _ = load_match(stored, site.store)
        expected.add(seat_stats(match)[0])
    assert site.records.totals(f"account:{ann}")["all"].summary() == expected.summary()
    summary = expected.summary()
    assert summary["games"] == 3 and summary["hands"] == 3
    assert sum(summary["places"].values()) == 3


def test_a_failed_rating_write_stores_nothing_and_the_retry_rates_once(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash between the last action and the rating write cannot happen: they are one
    transaction. If the rating write fails, the last action is not stored either."""
    ann = site.account("Ann")
    table = site.play([ann, None, None, None], last=False)  # all but the end stored
    stored = site.store.get_table(table)
    assert stored is not None
    match, seats = load_match(stored, site.store)
    seq = len(match.actions) - 1
    last_seat, last_action = match.actions[-1]
    # take the last action back out: the table stands one action before its end
    with site.store.engine.begin() as conn:
        conn.execute(
            storage_module.actions.delete().where(
                (storage_module.actions.c.table_id == table) & (storage_module.actions.c.seq == seq)
            )
        )
        conn.execute(
            storage_module.tables.update()
            .where(storage_module.tables.c.id == table)
            .values(status="live", finished=None, standings=None)
        )
    row = ActionRow(table, seq, last_seat, last_action.to_dict(), final_of(match, seats, 99.0))

    def broken(*args: Any) -> None:
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(match_end, "rate_match", broken)
    with pytest.raises(RuntimeError):
        site.store.append_action(row)
    assert len(site.store.load_actions(table)) == seq  # the last action was not kept
    assert site.ratings() == {} and site.count(game_stats) == 0
    again = site.store.get_table(table)
    assert again is not None and again.status == "live"
    monkeypatch.undo()
    site.store.append_action(row)  # the retry after the restart
    assert {games for _, _, games, _ in site.ratings().values()} == {1}
    with pytest.raises(StorageError):  # and a duplicate is refused, changing nothing
        site.store.append_action(row)
    assert {games for _, _, games, _ in site.ratings().values()} == {1}
    assert site.count(rating_history) == 4


def test_a_log_stored_without_its_end_is_finished_and_rated_once_on_restart(
    site: Site,
) -> None:
    import asyncio

    from riichi.server.clock import FakeClock
    from riichi.server.hub import Server

    ann = site.account("Ann")
    table = site.play([ann, None, None, None], last=False)

    async def restart() -> None:
        server = Server(site.store, FakeClock(60.0))  # soon after: not left idle
        await server.start()
        await server.table(table)
        await server.close()

    asyncio.run(restart())
    site.store = Store(site.url)
    stored = site.store.get_table(table)
    assert stored is not None and stored.status == "over"
    assert {games for _, _, games, _ in site.ratings().values()} == {1}
    site.records = RecordStore(site.store.engine)
    asyncio.run(restart())  # a second restart finds it over: nothing applied again
    site.store = Store(site.url)
    assert {games for _, _, games, _ in site.ratings().values()} == {1}


def test_recomputing_gives_the_same_numbers(site: Site) -> None:
    people = [site.account(name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    seatings: list[list[int | None]] = [
        [people[0], people[1], people[2], people[3]],
        [people[4], people[0], None, people[2]],
        [people[1], None, people[3], people[4]],
        [people[2], people[4], people[0], None],
        [people[3], people[2], people[1], people[0]],
    ]
    for seating in seatings:
        site.play(seating)
    site.play([people[0], people[1], None, None], kind="private")
    before = site.ratings()
    board = site.records.leaderboard(50, 0)
    assert site.records.recompute() == len(seatings)
    assert site.ratings() == before
    assert site.records.leaderboard(50, 0) == board
    result = CliRunner().invoke(main, ["ratings", "--db", site.url, "--recompute"])
    assert result.exit_code == 0, result.output
    assert f"from {len(seatings)} rated matches" in result.output
    assert site.ratings() == before


def test_the_leaderboard_lists_established_players_first_and_pages(site: Site) -> None:
    people = [site.account(name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    for _ in range(PROVISIONAL_GAMES):
        site.play([people[0], people[1], people[2], None])
    site.play([people[3], people[4], None, None])  # two newcomers win big or not
    board, total = site.records.leaderboard(100, 0)
    assert total == len(site.ratings())
    provisional = [row.provisional for row in board]
    assert provisional == sorted(provisional)  # every established row before any other
    established = [row for row in board if not row.provisional]
    assert {row.player for row in established} >= {f"account:{p}" for p in people[:3]}
    assert [r.rating for r in established] == sorted((r.rating for r in established), reverse=True)
    assert all(row.average_place is not None for row in board)
    first, _ = site.records.leaderboard(2, 0)
    second, _ = site.records.leaderboard(2, 2)
    assert [r.rank for r in first + second] == [1, 2, 3, 4]
    assert [r.player for r in first + second] == [r.player for r in board[:4]]
    result = CliRunner().invoke(main, ["ratings", "--db", site.url, "--top", "3"])
    assert result.exit_code == 0 and "more" in result.output


# ----------------------------------------------------------------- through the server


def play_rated(client: Any, clock: Any, table: dict[str, Any]) -> dict[str, Any]:
    """The signed-in player plays its rated seat to the end (tsumogiri, ready after each
    result); returns its last state."""
    import json

    from server_helpers import choose

    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        hello = json.loads(ws.receive_text())
        state, version = hello["state"], hello["version"]
        answered, paused = -1, False
        while not state["over"]:
            if state["legal"] and answered != version:
                action = choose(state)
                ws.send_text(json.dumps({"type": "action", "version": version, "action": action}))
                answered = version
            message = json.loads(ws.receive_text())
            if message["type"] == "update":
                state, version = message["state"], message["version"]
            elif message["type"] == "error":
                raise AssertionError(message)
            clock = message.get("clock")
            if clock is not None:  # ready once per result pause
                if clock["pause_until"] is not None and not paused:
                    ws.send_text(json.dumps({"type": "ready"}))
                paused = clock["pause_until"] is not None
    final: dict[str, Any] = state
    return final


def test_a_rated_game_through_the_server_moves_the_leaderboard_and_the_player_page(
    tmp_path: Path,
) -> None:
    from starlette.testclient import TestClient

    from riichi.server import create_app
    from riichi.server.clock import FakeClock
    from test_server_clocks import register, until

    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / 'site.db'}", clock=clock, fill_after=0)
    with TestClient(app) as client:
        register(client, "Zed")
        assert client.post("/api/queue", json={"pool": "relaxed"}).status_code == 200
        clock.advance(1)
        (table,) = until(lambda: client.get("/api/me").json()["tables"])
        watch = client.get("/api/watch").json()
        assert [t["id"] for t in watch["items"]] == [table["id"]]
        assert client.get("/api/leaderboard").json()["items"] == []
        final = play_rated(client, clock, table)
        mine = next(s for s in final["standings"] if s["seat"] == table["my_seat"])
        board = until(lambda: client.get("/api/leaderboard").json())
        assert board["total"] == 4 and len(board["items"]) == 4
        zed = next(row for row in board["items"] if row["name"] == "Zed")
        assert zed["provisional"] and zed["games"] == 1 and zed["average_place"] == mine["place"]
        assert sum(row["computer"] for row in board["items"]) == 3
        page = client.get(f"/api/players/{zed['player']}").json()
        assert page["name"] == "Zed" and page["rating"]["rating"] == zed["rating"]
        assert [h["place"] for h in page["history"]] == [mine["place"]]
        assert page["stats"]["rated"]["games"] == 1 and page["stats"]["all"]["games"] == 1
        assert page["stats"]["rated"]["places"] == {str(mine["place"]): 1}
        assert page["games"]["items"][0]["table"] == table["id"]
        # a practice game counts in all games, never in the rating
        practice = client.post(
            "/api/tables",
            json={"kind": "practice", "rules": "classic", "length": "one-hand", "seed": "p"},
        ).json()
        play_rated(client, clock, practice)
        page = until(
            lambda: (
                (p := client.get(f"/api/players/{zed['player']}").json())["stats"]["all"]["games"]
                == 2
                and p
            )
        )
        assert page["stats"]["rated"]["games"] == 1 and page["rating"]["games"] == 1
        assert client.get("/api/leaderboard").json() == board
        computer = client.get(f"/api/players/{board['items'][0]['player']}").json()
        assert computer["rating"]["games"] == 1
        assert client.get("/api/players/account:999").status_code == 404
        assert client.get("/api/players/nobody").status_code == 404
        assert client.get("/api/leaderboard?limit=0").status_code == 400
