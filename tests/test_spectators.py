"""Spectators: a delayed view (a hand behind, or N actions), never the hand in play, never
a concealed tile, the wall or ura before the hand ends, no clock; only tables open to
them; their count shown to the players."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from leaks import Truth
from riichi.platform.spectating import HAND, Delay, DelayError, parse_delay, shown_actions
from riichi.server import Store, create_app
from riichi.server.clock import FakeClock
from riichi.server.hub import Server
from riichi.server.play.lobby import Lobby
from riichi.server.protocol import Viewer
from riichi.server.table import LiveTable
from server_helpers import Seat, new_table

# ----------------------------------------------------------------- the rule

ENDS = [30, 50, 95]  # three hands ended, after 30, 50 and 95 actions; the fourth in play


def test_nothing_is_shown_while_the_first_hand_is_in_play() -> None:
    assert [shown_actions(HAND, [], n, False) for n in (0, 1, 29)] == [0, 0, 0]


def test_the_previous_hand_plays_one_action_per_action_of_the_hand_in_play() -> None:
    # hand 1 in play (after 30): hand 0 replays from its start
    assert [shown_actions(HAND, ENDS[:1], n, False) for n in (30, 31, 45)] == [0, 1, 15]
    # hand 1 runs long: hand 0 waits at its end, never past it
    assert shown_actions(HAND, ENDS[:1], 70, False) == 30
    # hand 2 in play: hand 1 (30 to 50) replays; hand 3 in play: hand 2 (50 to 95)
    assert [shown_actions(HAND, ENDS[:2], n, False) for n in (50, 55, 80)] == [30, 35, 50]
    assert [shown_actions(HAND, ENDS, n, False) for n in (95, 100)] == [50, 55]


def test_the_delay_never_grows_past_a_hand_and_never_goes_back() -> None:
    # hand 1 was short (10 actions) while hand 0 was still being shown at action 10 of 30:
    # at hand 2's start the view jumps to hand 1's start, skipping nothing of hand 1
    assert shown_actions(HAND, [30], 39, False) == 9
    assert shown_actions(HAND, [30, 40], 40, False) == 30
    shown = [shown_actions(HAND, [e for e in ENDS if e <= n], n, False) for n in range(120)]
    assert shown == sorted(shown)


def test_n_actions_behind_and_everything_once_over() -> None:
    five = Delay("actions", 5)
    assert [shown_actions(five, ENDS, n, False) for n in (3, 5, 99)] == [0, 0, 94]
    assert shown_actions(HAND, ENDS, 120, True) == 120
    assert shown_actions(five, ENDS, 120, True) == 120
    assert parse_delay("hand") == HAND and parse_delay("12") == Delay("actions", 12)
    for bad in ("0", "-1", "x", "1001", ""):
        with pytest.raises(DelayError):
            parse_delay(bad)


# ----------------------------------------------------------------- a whole match


class Recording(Viewer):
    """A spectator that notes, with each message, where the match in play stood."""

    def __init__(self, table: LiveTable) -> None:
        super().__init__(None, table.limits)
        self.table = table
        self.seen: list[tuple[dict[str, Any], int, bool]] = []

    def put(self, text: str) -> None:
        match = self.table.match
        in_play = max(i for i, e in enumerate(match.events) if e.type == "start_hand")
        self.seen.append((json.loads(text), in_play, match.over))


async def watch_whole_match(url: str, delay: Delay) -> tuple[Recording, dict[str, Any]]:
    store = Store(url)
    server = Server(store, FakeClock(), delay=delay)
    await server.start()
    body = {
        "rules": "online",
        "length": "east",
        "seed": "watched",
        "seats": ["efficiency", "defensive", "efficiency", "defensive"],
        "watchable": True,
    }
    table, _ = await Lobby(server).create(body, "test")
    spectator = Recording(table)
    table.join(spectator)
    # the match ends in memory before its last action is stored: wait for the store,
    # not for a fixed time (a busy machine takes longer)
    while not table.match.over or store.get_table(table.id).status != "over":
        await asyncio.sleep(0.01)
    game = await server.finished(table.id)
    record = game.record()
    await server.close()
    return spectator, record


@pytest.mark.parametrize("delay", [HAND, Delay("actions", 3)], ids=str)
def test_a_spectator_for_a_whole_match_sees_nothing_hidden(tmp_path: Path, delay: Delay) -> None:
    spectator, record = asyncio.run(watch_whole_match(f"sqlite:///{tmp_path / 'w.db'}", delay))
    truth = Truth(record)
    problems: list[str] = []
    version = None
    for message, in_play, over in spectator.seen:
        if message["type"] not in ("hello", "update", "state"):
            continue
        assert message["clock"] is None  # the clock tells who is deciding now
        first = 0 if message["type"] == "hello" else message["from"]
        if version is not None:
            assert first == version, "a gap in the spectator's versions"
        version = message["version"]
        if delay == HAND and not over:
            # never an event of the hand in play
            assert version <= in_play, (version, in_play)
        if message["state"] is not None:
            problems += truth.check_state(message["state"], None, version)
        visible = [i for i in range(first, version) if truth.events[i].get("to") is None]
        assert len(visible) == len(message["events"])
        for index, event in zip(visible, message["events"], strict=True):
            problems += truth.check_event(event, index, None)
    assert problems == []
    assert version == len(truth.events)  # caught up once the match was over
    during = [m for m, _, over in spectator.seen if m["type"] == "update" and not over]
    assert len(during) > 20, "the spectator watched the match as it went, not only its end"
    ends = [m for m in during if m["version"] in truth.cuts and m["state"] is not None]
    assert ends, "a finished hand was shown as it stood at its end"


# ----------------------------------------------------------------- through the server


def test_only_open_tables_are_listed_and_watched_and_the_players_see_the_count(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}")) as client:
        seats = ["human", "random", "random", "random"]
        closed = new_table(client, rules="online", seats=seats)
        opened = new_table(client, rules="online", seats=seats, watchable=True)
        listed = client.get("/api/watch").json()
        assert [t["id"] for t in listed["items"]] == [opened["id"]] and listed["total"] == 1
        with client.websocket_connect(f"/ws/tables/{closed['id']}") as ws:
            refusal = json.loads(ws.receive_text())
            assert refusal["final"] and "not open to spectators" in refusal["message"]
        base = f"/ws/tables/{opened['id']}"
        with client.websocket_connect(f"{base}?token={opened['tokens'][0]}") as player_ws:
            player = Seat(player_ws)
            with client.websocket_connect(base) as watcher_ws:
                watcher = Seat(watcher_ws)
                assert watcher.state is None  # the first hand is in play
                count = player.read_until("spectators")
                assert count["count"] == 1
                assert client.get("/api/watch").json()["items"][0]["spectators"] == 1
                watcher.send({"type": "ready"})
                error = watcher.read_until("error")
                assert "spectators cannot act" in error["message"]
            assert player.read_until("spectators")["count"] == 0
        bad = client.post("/api/tables", json={"watchable": "yes"})
        assert bad.status_code == 400 and "watchable" in bad.json()["error"]
