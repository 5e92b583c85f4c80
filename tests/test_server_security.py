"""The server as an attacker meets it: hidden information stays hidden, every input is
bounded, stale or forged messages are refused, and one client cannot slow the others.

These run in-process (Starlette's test client); the attacks that need real sockets
(slow readers, floods, silent connections) are in ``test_server_sockets.py``.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from leaks import Truth
from riichi.cli import main
from riichi.game import Match, verify_record
from riichi.platform.spectating import Delay
from riichi.rules import find_ruleset
from riichi.server import Limits, Store, create_app
from riichi.server.clock import FakeClock
from riichi.server.storage import ActionRow, NewTable
from riichi.server.web import RedactTokens
from server_helpers import Seat, choose, free_port, new_table, start_server


class Recorder(Seat):
    """A client that keeps every text it receives, to search them for secrets."""

    def __init__(self, ws: Any) -> None:
        self.texts: list[str] = []
        self.messages: list[dict[str, Any]] = []
        super().__init__(ws)

    def receive(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        self.messages.append(message)
        return message

    def catch_up(self, version: int) -> None:
        while self.version < version:
            self.read_until("update")


def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'riichi.db'}"


def play_table(client: TestClient, table: dict[str, Any], watchers: int = 1) -> list[Recorder]:
    """Every seat by its link plus spectators, all connected for the whole match; each
    seat plays its first choice whenever asked. Returns the seats, then the spectators
    (who trail the game and catch up at its end)."""
    base = f"/ws/tables/{table['id']}"
    urls = [f"{base}?token={t}" for t in table["tokens"] if t] + [base] * watchers
    sockets = [client.websocket_connect(url) for url in urls]
    viewers = [Recorder(ws.__enter__()) for ws in sockets]
    try:
        people = [v for v in viewers if v.seat is not None]
        while not people[0].state["over"]:
            movers = [p for p in people if p.state["legal"]]
            assert movers, "nobody may act and the match is not over"
            ack = movers[0].act()
            for viewer in people:
                viewer.catch_up(ack["version"])
        for viewer in viewers[len(people) :]:
            viewer.catch_up(people[0].version)
    finally:
        for ws in reversed(sockets):
            ws.__exit__(None, None, None)
    return viewers


def test_nothing_sent_lets_a_seat_or_spectator_rebuild_an_unseen_tile(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        table = new_table(
            client, rules="online", length="east", seats=["human"] * 4, watchable=True
        )
        assert table["seed"] is None and len(table["commitment"]) == 64
        lobby = client.get("/api/tables").text
        viewers = play_table(client, table)
        record = client.get(f"/api/games/{table['id']}/record").json()
        answers = [lobby, client.get(f"/api/tables/{table['id']}").text]
    problems, checked_ended = leaks_in(record, viewers)
    assert problems == []
    assert checked_ended >= 4  # each seat saw at least one hand's end as it stood
    assert all(record["seed"][:12] not in text for text in answers[:1])
    # the end reveals the seed and salt, which hash to the commitment published at the start
    assert record["commitment"] == table["commitment"]
    assert verify_record(record).ok


def leaks_in(record: dict[str, Any], viewers: list[Recorder]) -> tuple[list[str], int]:
    """What the viewers were sent that they may not know, checked against the finished
    game's record; and how many hand ends they saw as they stood."""
    seed, salt = record["seed"], record["salt"]
    truth = Truth(record)
    problems: list[str] = []
    checked_ended = 0
    for viewer in viewers:
        received = "".join(viewer.texts)
        # the seed and the salt appear nowhere before the end: not even in part
        assert seed[:12] not in received and salt[:12] not in received
        for message in viewer.messages:
            if message["type"] in ("hello", "state"):
                events, first = message["events"], 0
            elif message["type"] == "update":
                events, first = message["events"], message["from"]
            else:
                continue
            if message["state"] is not None:  # a spectator before the first hand ends
                problems += truth.check_state(message["state"], viewer.seat, message["version"])
            if message.get("ended") is not None:  # the hand that just ended, at its end
                cut = next(  # the next deal, or the match's end
                    (
                        i
                        for i in range(first, message["version"])
                        if truth.events[i]["type"] == "start_hand"
                    ),
                    message["version"],
                )
                problems += truth.check_state(message["ended"], viewer.seat, cut)
                checked_ended += 1
            indices = [i for i in range(first, message["version"]) if _visible(truth, i, viewer)]
            assert len(indices) == len(events), "a viewer got more or fewer events than its own"
            for index, event in zip(indices, events, strict=True):
                problems += truth.check_event(event, index, viewer.seat)
    return problems, checked_ended


def _visible(truth: Truth, index: int, viewer: Seat) -> bool:
    to = truth.events[index].get("to")
    return to is None or to == viewer.seat


def test_riichi_verify_checks_a_record_against_its_commitment(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        table = new_table(client, rules="riichi-basic", length="one-hand", seats=["human"] * 4)
        play_table(client, table, watchers=0)
        record = client.get(f"/api/games/{table['id']}/record").json()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["verify", str(good)])
    assert result.exit_code == 0 and "verified" in result.output, result.output
    # another seed (a wall changed after the commitment) is caught
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({**record, "seed": record["seed"] + "x"}))
    result = CliRunner().invoke(main, ["verify", str(forged)])
    assert result.exit_code == 1 and "not to the commitment" in result.output
    # a changed result is caught too
    events = [dict(e) for e in record["events"]]
    end = next(e for e in events if e["type"] == "end_hand")
    end["scores"] = [s + 1000 for s in end["scores"]]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**record, "events": events}))
    result = CliRunner().invoke(main, ["verify", str(edited)])
    assert result.exit_code == 1 and "differs" in result.output
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({k: v for k, v in record.items() if k != "salt"}))
    result = CliRunner().invoke(main, ["verify", str(bare)])
    assert result.exit_code == 2 and "no commitment" in result.output


def test_a_chosen_seed_is_shown_to_everyone_and_bots_follow_it(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        table = new_table(client, rules="online", seed="practice-7")
        assert table["seed"] == "practice-7" and table["seed_chosen"] is True
        assert client.get(f"/api/tables/{table['id']}").json()["seed"] == "practice-7"
        secret = new_table(client, rules="online")
        assert secret["seed"] is None and secret["seed_chosen"] is False
        listed = {t["id"]: t for t in client.get("/api/tables").json()["items"]}
        assert listed[table["id"]]["seed"] == "practice-7" and listed[secret["id"]]["seed"] is None


def test_stale_and_repeated_actions_are_refused(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        table = new_table(client, rules="online", seed="stale", seats=["human"] * 4)
        base = f"/ws/tables/{table['id']}"
        with (
            client.websocket_connect(f"{base}?token={table['tokens'][0]}") as w0,
            client.websocket_connect(f"{base}?token={table['tokens'][1]}") as w1,
        ):
            dealer, south = Seat(w0), Seat(w1)
            message = dealer.action(choose(dealer.state))
            dealer.send(message)
            assert dealer.read_until("ack", "error")["type"] == "ack"
            dealer.send(message)  # the same message again: a retry after a lost ack
            error = dealer.read_until("ack", "error")
            assert error["type"] == "error" and "stale action" in error["message"]
            # a pass kept from an earlier offer never answers a new one
            south.read_until("update")
            old = south.version - 1
            south.send({"type": "action", "version": old, "action": {"type": "pass"}})
            error = south.read_until("ack", "error")
            assert error["type"] == "error" and "stale" in error["message"]
        assert len(Store(db_url(tmp_path)).load_actions(table["id"])) == 1


def test_names_cannot_pass_for_computers_and_are_bounded(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        for name, expected in [
            ("efficiency 1 (bot)", "kept for computers"),
            ("Bot", "kept for computers"),
            ("x" * 25, "at most 24"),
            ("evil\u202e", "printable"),
        ]:
            response = client.post("/api/tables", json={"names": [name]})
            assert response.status_code == 400 and expected in response.json()["error"], name
        assert new_table(client, names=["  Ann   Lee "])["seats"][0]["name"] == "Ann Lee"


BAD_BODIES = [
    ({"seed": {"a": 1}}, "a seed is 1 to 64"),
    ({"seed": "x" * 65}, "a seed is 1 to 64"),
    ({"seed": "tab\there"}, "a seed is 1 to 64"),
    ({"rules": "x" * 10_000}, "unknown ruleset"),
    ({"rules": ["online"]}, "rules is a preset name"),
    ({"length": {"a": 1}}, "length"),
    ({"switches": {"name": "y" * 100}}, "name must be 1 to 64"),
    ({"switches": {"kuitan": "maybe"}}, "kuitan"),
    ({"seats": ["human"] * 1000}, "needs 4 seats"),
    ({"names": ["a"] * 10}, "names is a list"),
    ({"colour": "red"}, "unknown fields"),
]


def test_bad_requests_are_refused_briefly_and_create_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        for body, expected in BAD_BODIES:
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400, (body, response.text)
            error = response.json()["error"]
            assert expected in error and len(error) < 600, (body, error[:200])
        raw = [
            (b"[" * 5000 + b"]" * 5000, "nests deeper"),
            (b'{"seed": NaN}', "not a JSON number"),
            (b'{"seed": "\xff\xfe"}', "UTF-8"),
            (b"[" * 20 + b"]" * 20, "nests deeper"),
        ]
        for body, expected in raw:
            response = client.post(
                "/api/tables", content=body, headers={"content-type": "application/json"}
            )
            assert response.status_code == 400 and expected in response.json()["error"], body[:20]
        big = client.post(
            "/api/tables",
            content=b'{"seed": "' + b"x" * 50_000 + b'"}',
            headers={"content-type": "application/json"},
        )
        assert big.status_code == 413
        plain = client.post("/api/tables", content=b"{}", headers={"content-type": "text/plain"})
        assert plain.status_code == 415  # a cross-site form cannot send JSON
        other_site = client.post("/api/tables", json={}, headers={"origin": "http://evil.example"})
        assert other_site.status_code == 403
        assert client.get("/api/tables").json()["total"] == 0
        assert client.get("/api/tables?limit=1000").status_code == 400
        assert client.get("/api/games?offset=-1").status_code == 400
        assert client.get("/api/games?limit=x").status_code == 400


def test_creating_tables_is_rate_limited_and_capped(tmp_path: Path) -> None:
    # the guests' budgets out of the way: the rate and the cap are what is tested here
    limits = Limits(
        tables_per_address="5 per minute",
        live_tables=8,
        guest_tables=100,
        guest_tables_per_address=100,
    )
    with TestClient(create_app(db_url(tmp_path), limits=limits)) as client:
        statuses = [client.post("/api/tables", json={}).status_code for _ in range(7)]
        assert statuses == [201] * 5 + [429] * 2
    with TestClient(create_app(db_url(tmp_path), limits=limits)) as client:
        statuses = [client.post("/api/tables", json={}).status_code for _ in range(5)]
        assert statuses == [201, 201, 201, 503, 503]  # 8 live tables at most
        page = client.get("/api/tables?limit=3&offset=0").json()
        assert page["total"] == 8 and len(page["items"]) == 3
        rest = client.get("/api/tables?limit=10&offset=3").json()["items"]
        assert len(rest) == 5
        assert not {t["id"] for t in rest} & {t["id"] for t in page["items"]}


def test_the_websocket_refuses_other_sites_binary_frames_and_forged_links(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        table = new_table(client, rules="online", seats=["human", "human", "random", "random"])
        url = f"/ws/tables/{table['id']}?token={table['tokens'][0]}"
        with client.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws:
            refusal = json.loads(ws.receive_text())
            assert refusal["final"] and "another site" in refusal["message"]
        same = {"origin": "http://testserver", "host": "testserver"}
        with client.websocket_connect(url, headers=same) as ws:
            assert Seat(ws).seat == 0
        with client.websocket_connect(f"/ws/tables/{table['id']}?token=forged") as ws:
            refusal = json.loads(ws.receive_text())
            assert refusal["final"] and "not valid" in refusal["message"]
        with client.websocket_connect("/ws/tables/nosuchtable") as ws:
            assert json.loads(ws.receive_text())["final"]
        with client.websocket_connect(url) as ws:
            seat = Seat(ws)
            ws.send_bytes(b'{"type": "sync"}')
            with pytest.raises(Exception) as closed:
                seat.read_until("state")
            assert getattr(closed.value, "code", None) == 1003
        assert Store(db_url(tmp_path)).load_actions(table["id"]) == []


def test_pages_carry_a_strict_content_policy(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        for path in ("/", "/api/presets", "/static/js/main.js"):
            headers = client.get(path).headers
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert "script-src 'self'" in headers["content-security-policy"]
            assert headers["x-frame-options"] == "DENY"
            assert headers["referrer-policy"] == "no-referrer"


def test_seat_tokens_are_stored_hashed_and_kept_out_of_logs(tmp_path: Path) -> None:
    with TestClient(create_app(db_url(tmp_path))) as client:
        table = new_table(client, rules="online")
    token = table["tokens"][0]
    stored = Store(db_url(tmp_path)).get_table(table["id"])
    assert stored is not None
    assert token not in json.dumps(stored.seats) and stored.seats[0]["token_hash"]
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", f"/ws/tables/x?token={token}&a=1", "1.1", 101), None,
    )  # fmt: skip
    RedactTokens().filter(record)
    assert token not in record.getMessage() and "token=***&a=1" in record.getMessage()


def test_call_events_are_typed_call(tmp_path: Path) -> None:
    rules = find_ruleset("online")
    match = Match(rules, "calls")
    while not match.over and not any(e.type == "call" for e in match.events):
        seat, actions = next(iter(match.legal_actions().items()))
        calls = [a for a in actions if a.type.value in ("pon", "chi")]
        match.apply(seat, calls[0] if calls else actions[-1])
    call = next(e for e in match.events if e.type == "call")
    assert call.to_dict()["type"] == "call" and call.to_dict()["call"] in ("pon", "chi")


def one_hand_actions(seed: str) -> tuple[Match, list[tuple[int, dict[str, Any]]]]:
    rules = find_ruleset("riichi-basic").replace(length=find_ruleset("riichi-basic").lengths[0])
    match = Match(rules, seed)
    while not match.over:
        seat, actions = next(iter(match.legal_actions().items()))
        match.apply(seat, actions[-1])
    return match, [(s, a.to_dict()) for s, a in match.actions]


def test_the_last_action_and_the_end_are_one_transaction(tmp_path: Path, monkeypatch: Any) -> None:
    import riichi.server.storage.writes as writes

    match, actions = one_hand_actions("end")
    store = Store(db_url(tmp_path))
    new = NewTable("t1", match.rules.to_dict(), "end", "s", "c", "b", False, [], 0.0)
    store.create_table(new)
    *early, (seat, last) = actions
    for seq, (s, a) in enumerate(early):
        store.append_action(ActionRow("t1", seq, s, a))

    def crash(*args: Any) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(writes, "_finish", crash)
    with pytest.raises(OSError):
        store.append_action(ActionRow("t1", len(early), seat, last, 1.0, [{"seat": 0}]))
    assert len(store.load_actions("t1")) == len(early)  # neither the action nor the end
    stored = store.get_table("t1")
    assert stored is not None and stored.status == "live"


def test_a_log_that_ended_without_its_end_is_finished_on_start(tmp_path: Path) -> None:
    """What an older version could leave after a crash: the last action, status live."""
    match, actions = one_hand_actions("repair")
    store = Store(db_url(tmp_path))
    seats = [
        {"kind": "random", "name": f"random {s + 1} (bot)", "token_hash": None} for s in range(4)
    ]
    store.create_table(
        NewTable("t2", match.rules.to_dict(), "repair", "s", "c", "b", False, seats, 0.0)
    )
    for seq, (s, a) in enumerate(actions):
        store.append_action(ActionRow("t2", seq, s, a))
    store.close()
    # restarted soon after (a table left alone for an hour would be closed instead)
    with TestClient(create_app(db_url(tmp_path), clock=FakeClock(60.0))) as client:
        info = client.get("/api/tables/t2").json()
        assert info["over"] and info["standings"] is not None
        games = client.get("/api/games").json()["items"]
        assert [g["id"] for g in games] == ["t2"]


def test_finished_tables_leave_memory_and_are_served_from_storage(tmp_path: Path) -> None:
    app = create_app(db_url(tmp_path))
    with TestClient(app) as client:
        table = new_table(client, rules="riichi-basic", length="one-hand", seats=["human"] * 4)
        play_table(client, table, watchers=0)
        hub = app.state.server
        for _ in range(100):  # the table task unloads it once its last viewer has left
            if table["id"] not in hub.tables:
                break
            time.sleep(0.01)
        assert table["id"] not in hub.tables
        info = client.get(f"/api/tables/{table['id']}").json()
        assert info["over"] and info["seed"] is not None and "version" not in info
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            hello = Seat(ws)
            assert hello.state["over"] and hello.state["standings"]
        first = client.get(f"/api/games/{table['id']}/replay")
        again = client.get(f"/api/games/{table['id']}/replay")
        assert first.status_code == 200 and first.content == again.content
        assert client.get(f"/api/games/{table['id']}/nosuch").status_code == 404
        assert client.get("/api/games/nosuch/record").status_code == 404


def test_bot_tables_share_the_loop(tmp_path: Path) -> None:
    """Bot tables play one decision at a time, so the loop keeps answering (a generous
    bound, not a benchmark: before, each table played its whole match in one step).
    The requests go on until a table has moved (on a busy machine thirty may all come
    before the first bot decision), each answered within the bound."""
    limits = Limits(guest_tables_per_address=8)
    with TestClient(create_app(db_url(tmp_path), limits=limits)) as client:
        tables = [
            new_table(client, rules="online", length="south", seats=["efficiency"] * 4)
            for _ in range(8)
        ]
        live = client.app.state.server.tables  # type: ignore[attr-defined]

        def version(table_id: str) -> int | None:
            found = live.get(table_id)
            return None if found is None else int(found.version)

        versions = [version(t["id"]) or 0 for t in tables]
        waits: list[float] = []

        def moved() -> bool:
            later = [version(t["id"]) for t in tables]
            return any(v is None or v > w for v, w in zip(later, versions, strict=True))

        while len(waits) < 30 or (not moved() and len(waits) < 3000):
            start = time.perf_counter()
            assert client.get("/api/presets").status_code == 200
            waits.append(time.perf_counter() - start)
        assert moved(), f"no bot table moved in {len(waits)} requests"
    assert max(waits) < 0.5, f"the loop stalled {max(waits):.2f} s"


def test_each_view_is_built_once_per_seat_however_many_watch(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import riichi.server.audience as audience_module
    import riichi.server.spectators as spectators_module

    built: list[int | None] = []
    original = audience_module.seat_state

    def counting(
        match: Any, seat: int | None, players: Any, kyoku: Any = None, bet: int = 0
    ) -> dict[str, Any]:
        built.append(seat)
        return original(match, seat, players, kyoku, bet)

    monkeypatch.setattr(audience_module, "seat_state", counting)
    monkeypatch.setattr(spectators_module, "seat_state", counting)
    # spectators one action behind, so the dealer's action moves their view too
    app = create_app(db_url(tmp_path), spectator_delay=Delay("actions", 1))
    with TestClient(app) as client:
        table = new_table(client, rules="online", seed="crowd", seats=["human"] * 4, watchable=True)
        base = f"/ws/tables/{table['id']}"
        watchers = [client.websocket_connect(base) for _ in range(24)]
        for ws in watchers:
            Seat(ws.__enter__())
        seats = [client.websocket_connect(f"{base}?token={t}") for t in table["tokens"]]
        people = [Seat(ws.__enter__()) for ws in seats]
        built.clear()
        for _ in range(2):
            ack = next(p for p in people if p.state["legal"]).act()
            for person in people:
                while person.version < ack["version"]:
                    person.read_until("update")
        for ws in [*seats, *watchers]:
            ws.__exit__(None, None, None)
    # per action one state per seat; the spectators' view moved once (two actions, one
    # behind): one state for all 24 of them, not 24
    assert sorted(built, key=str) == [0, 0, 1, 1, 2, 2, 3, 3, None]


def test_the_tenpai_help_names_no_field_like_a_tile_field() -> None:
    """The seat's waits hold kinds and counts, not tile ids: a key named like a tile
    field (it once was `discards`) would make them read as tiles, so none may be."""
    from leaks import TILE_KEYS
    from riichi.bots import make_bot
    from riichi.game import Match, observe
    from riichi.rules import find_ruleset
    from riichi.server.views import seat_state

    bots = [make_bot("efficiency", s) for s in range(4)]
    players = [{"name": str(s)} for s in range(4)]
    seen: set[str] = set()
    for seed in range(6):
        match = Match(find_ruleset("online"), seed)
        while not match.over:
            seat = next(iter(match.legal_actions()))
            found = seat_state(match, seat, players)["tenpai"]
            if found is not None:
                seen |= set(found)
                assert not set(found) & TILE_KEYS
            match.apply(seat, bots[seat].act(observe(match, seat)))
    assert seen == {"keeps", "waits", "furiten", "furiten_after"}


def test_the_table_tells_a_seat_when_a_discard_makes_it_furiten_and_when_it_is() -> None:
    """123m 456p 789s 11s 34p waits on 2p and 5p. Drawing 9m, letting it go keeps the
    wait clean; drawing 5p, every way to stay tenpai puts a wait in the river (the 5p
    itself, or the 3p or 4p that the new wait needs): after it, the seat is furiten."""
    from game_helpers import arranged_wall
    from riichi.game import Action, ActionType, Match
    from riichi.rules import find_ruleset
    from riichi.server.views import seat_state
    from riichi.tiles import parse_kind, parse_tiles

    players = [{"name": str(s)} for s in range(4)]
    for drawn, furiten in (("9m", False), ("5p", True)):
        wall = arranged_wall(["123m456p789s11s34p", "", "", ""], [drawn])
        match = Match(find_ruleset("online"), 0, ["a", "b", "c", "d"], walls=[wall])
        aid = seat_state(match, 0, players)["tenpai"]
        assert str(parse_kind(drawn)) in aid["keeps"]
        after = set(aid["furiten_after"])
        assert (parse_kind(drawn) in after) is furiten
        assert after == (set(map(int, aid["keeps"])) if furiten else set())
        tile = next(t for t in match.kyoku.seats[0].hand if t >> 2 == parse_kind(drawn))
        match.apply(0, Action(ActionType.DISCARD, tile=tile))
        aid = seat_state(match, 0, players)["tenpai"]
        assert aid["furiten"] is furiten
        assert sorted(k for k, _ in aid["waits"]) == sorted(t >> 2 for t in parse_tiles("2p5p"))


def test_a_body_refused_unread_closes_its_connection(tmp_path: Path) -> None:
    """After a 413 on a kept-alive connection, the rest of the body was read as the next
    request's head (a 431, and any bytes the body held taken for a request)."""
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path / 'big.db'}", port)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            head = (
                "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/json\r\nConnection: keep-alive\r\n"
                "Content-Length: 2000000\r\n\r\n"
            )
            smuggled = b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            conn.sendall(head.encode() + smuggled + b"x" * 60_000)
            answer = b""
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break  # closed by the server: nothing after the refusal is read
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 413")
        assert b"connection: close" in answer.lower()
        assert answer.count(b"HTTP/1.1") == 1  # no second answer, to the bytes of the body
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_live_channel_closes_a_flood(tmp_path: Path) -> None:
    """/ws/me read 1.17 million messages in 8 s: it has nothing to read, and keeps the
    documented pace (here a burst of 3 and almost nothing after)."""
    limits = Limits(message_burst=3, messages_per_second=0.001)
    with TestClient(create_app(db_url(tmp_path), limits=limits)) as client:
        made = client.post("/api/register", json={"name": "Flooder", "password": "correct horse"})
        assert made.status_code == 201
        with client.websocket_connect("/ws/me") as ws:
            assert ws.receive_json()["type"] == "hello"
            for _ in range(3):
                ws.send_text("x" * 100)
            ws.send_text("one too many")
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["final"] is True
            assert "messages a second" in refused["message"]
            closed = ws.receive()
            assert closed["type"] == "websocket.close" and closed["code"] == 4429
