"""Reviews on the site: a person's seat in a finished game, computed once, in worker
processes, one at a time per person; pasted logs bounded, parsed as untrusted, kept
only when asked."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from starlette.testclient import TestClient

from riichi.formats.tenhou6 import write_tenhou6
from riichi.server import Limits, create_app
from riichi.server.review.desk import MAX_LOG, ReviewBusy, ReviewDesk
from riichi.server.review.schema import reviews
from server_helpers import Seat, new_table
from test_review import expert_match
from test_server_accounts import register


def played(client: TestClient, seed: str) -> dict[str, Any]:
    """A finished east game: a person (seat 0) against three computers."""
    kinds = ["human", "efficiency", "efficiency", "efficiency"]
    table = new_table(client, rules="tenhou", length="east", seats=kinds, seed=seed)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
        Seat(ws).play()
    return table


def stored_reviews(db: str) -> int:
    with create_engine(db).connect() as conn:
        return int(conn.execute(select(func.count()).select_from(reviews)).scalar_one())


def test_a_persons_seat_is_reviewed_once_and_shown_on_the_player_page(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with TestClient(create_app(db)) as client:
        ann = register(client, "Ann")
        table = played(client, "review-1")
        game = table["id"]
        first = client.get(f"/api/games/{game}/review/0")
        assert first.status_code == 200, first.text
        data = first.json()
        review = data["review"]
        assert review["seat"] == 0 and review["summary"]["decisions"] > 10
        assert data["players"][0]["bot"] is False and len(data["players"]) == 4
        # a decision names the action it answered, the replay's frames say where
        frames = client.get(f"/api/games/{game}/replay").json()["frames"]
        assert frames[0]["seq"] == -1 and all("seq" in f for f in frames)
        for d in review["decisions"]:
            assert any(f["seq"] == d["step"] - 1 for f in frames)
        # stored: the same review again, not computed again
        assert client.get(f"/api/games/{game}/review/0").json() == data
        assert stored_reviews(db) == 1
        # a computer's seat, no such seat, no such game
        bot = client.get(f"/api/games/{game}/review/1")
        assert bot.status_code == 400 and "computer" in bot.json()["error"]
        assert client.get(f"/api/games/{game}/review/7").status_code == 404
        assert client.get(f"/api/games/{game}/review/x0").status_code == 404
        assert client.get("/api/games/nosuchgame/review/0").status_code == 404
        # the player page: the review's points lost a hand, game by game
        page = client.get(f"/api/players/account:{ann['id']}").json()
        assert [r["game"] for r in page["reviews"]] == [game]
        assert page["reviews"][0]["lost_per_hand"] == review["summary"]["lost_per_hand"]
        # the player page plots the top-choice match game by game
        assert page["reviews"][0]["top_choice"] == review["summary"]["top_choice"]
        assert stored_reviews(db) == 1


def test_master_gives_a_second_opinion_stored_apart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with TestClient(create_app(db)) as client:
        kinds = ["human", "efficiency", "efficiency", "efficiency"]
        table = new_table(client, rules="daily-wall", seats=kinds, seed="second")  # one hand
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={table['tokens'][0]}") as ws:
            Seat(ws).play()
        game = table["id"]
        first = client.get(f"/api/games/{game}/review/0").json()["review"]
        second = client.get(f"/api/games/{game}/review/0?by=master").json()["review"]
        assert first["reviewer"].startswith("expert ") and second["reviewer"].startswith("master ")
        assert len(second["decisions"]) == len(first["decisions"]) > 5
        assert stored_reviews(db) == 2  # each stored under its reviewer's name
        again = client.get(f"/api/games/{game}/review/0?by=master").json()["review"]
        assert again == second and stored_reviews(db) == 2
        nobody = client.get(f"/api/games/{game}/review/0?by=nobody")
        assert nobody.status_code == 404 and "no reviewer" in nobody.json()["error"]


def test_a_game_in_play_is_not_reviewed(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}")) as client:
        table = new_table(client, rules="tenhou", seats=["human", "efficiency"] * 2)
        answer = client.get(f"/api/games/{table['id']}/review/0")
        assert answer.status_code == 404 and "finished" in answer.json()["error"]


def test_many_asking_at_once_compute_one_review_and_a_person_has_one_at_a_time(
    tmp_path: Path,
) -> None:
    desk = ReviewDesk(create_engine(f"sqlite:///{tmp_path / 'd.db'}"))
    from riichi.server.storage import metadata

    metadata.create_all(desk.engine)
    record = expert_match("tenhou", 8, ["a", "b", "c", "d"]).record()
    jobs: list[str] = []
    real = desk._work

    async def counted(who: str, job: Any, *args: Any) -> Any:
        jobs.append(who)
        return await real(who, job, *args)

    desk._work = counted  # type: ignore[method-assign]

    async def scene() -> None:
        asking = [desk.of_game("g1", 2, f"p{i}", lambda: record) for i in range(5)]
        answers = await asyncio.gather(*asking)
        assert all(a == answers[0] for a in answers) and json.loads(answers[0])["seat"] == 2
        # one computation for five, by whichever asker's look at the store came back
        # first (each looks in a thread of its own)
        assert len(jobs) == 1 and jobs[0] in {f"p{i}" for i in range(5)}
        # one person, two games at once: the second is refused, never queued
        both = await asyncio.gather(
            desk.of_game("g2", 0, "ann", lambda: record),
            desk.of_game("g3", 1, "ann", lambda: record),
            return_exceptions=True,
        )
        refused = [x for x in both if isinstance(x, ReviewBusy)]
        assert len(refused) == 1 and refused[0].status == 429
        # past the queue, the site is busy
        desk.queue = 0
        crowd = await asyncio.gather(
            *(desk.of_game(f"q{i}", 0, f"x{i}", lambda: record) for i in range(3)),
            return_exceptions=True,
        )
        assert any(isinstance(x, ReviewBusy) and x.status == 503 for x in crowd)

    try:
        asyncio.run(scene())
    finally:
        desk.close()


def test_a_pasted_log_is_reviewed_and_kept_only_when_asked(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    text = json.dumps(write_tenhou6(expert_match("tenhou", 9, ["ann", "bob", "cy", "dee"])))
    with TestClient(create_app(db)) as client:
        answer = client.post("/api/reviews", json={"log": text, "name": "cy"})
        assert answer.status_code == 200, answer.text
        done = answer.json()
        assert done["id"] is None and done["review"]["seat"] == 2
        assert len(done["replay"]["frames"]) > 100 and stored_reviews(db) == 0
        kept = client.post("/api/reviews", json={"log": text, "seat": 1, "keep": True}).json()
        assert kept["id"] and stored_reviews(db) == 1
        again = client.get(f"/api/reviews/{kept['id']}").json()
        assert again["review"] == kept["review"]
        assert again["replay"]["frames"] == kept["replay"]["frames"]
        assert client.get("/api/reviews/log-nothing/0").status_code == 404
        assert client.get(f"/api/reviews/{kept['id'].split('/')[0]}x/1").status_code == 404
        # bad input: a clear error, nothing stored
        for body, status, said in [
            ({"log": "<mjloggm"}, 400, "not XML"),
            ({"log": '{"log": [[1]]}'}, 400, "tenhou"),
            ({"log": "hello"}, 400, "not a log we read"),
            ({"log": text, "name": "zed"}, 400, "no player 'zed'"),
            ({"log": text, "seat": 9}, 400, "seat 9"),
            ({"log": text, "seat": True}, 400, "seat number"),
            ({"log": 5}, 400, "as text"),
            ({"log": "   "}, 400, "empty"),
            ({"log": "x" * (MAX_LOG + 8192)}, 413, "over"),
        ]:
            refused = client.post("/api/reviews", json=body)
            assert refused.status_code == status, (body, refused.text)
            assert said in refused.json()["error"], refused.text
        assert stored_reviews(db) == 1


@pytest.mark.parametrize("origin", ["http://evil.example"])
def test_an_upload_from_another_sites_page_is_refused(tmp_path: Path, origin: str) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}")) as client:
        answer = client.post("/api/reviews", json={"log": "x"}, headers={"origin": origin})
        assert answer.status_code == 403


def test_an_address_asks_for_reviews_at_a_bounded_rate(tmp_path: Path) -> None:
    limits = Limits(reviews_per_address="3 per minute")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}", limits=limits)) as client:
        for _ in range(3):
            assert client.post("/api/reviews", json={"log": "hello"}).status_code == 400
        refused = client.post("/api/reviews", json={"log": "hello"})
        assert refused.status_code == 429 and "too many review" in refused.json()["error"]
        assert client.get("/api/games/any/review/0").status_code == 429
