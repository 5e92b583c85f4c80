"""The mjai bridge: an outside bot in a separate process plays whole matches."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from riichi.bots import make_bot
from riichi.bots.mjai_bridge import MjaiProcessBot
from riichi.bots.play import play_match
from riichi.game import Match
from riichi.rules import Length, find_ruleset

BOT = Path(__file__).parent / "bots" / "mjai_tsumogiri.py"


# A time limit no answer of a well-behaved bot comes near, even on a loaded machine;
# the tests of bots that are slow on purpose set one their sleeps are well past.
ON_TIME = 5.0


def match_with(
    mode: str, timeout: float = ON_TIME, log: Path | None = None
) -> tuple[Match, MjaiProcessBot]:
    rules = find_ruleset("online").replace(length=Length.EAST)
    command = [sys.executable, str(BOT), mode, *([str(log)] if log else [])]
    outside = MjaiProcessBot(command, timeout=timeout, label=f"mjai-{mode}")
    agents = [outside, make_bot("efficiency", 1), make_bot("efficiency", 2), make_bot("random", 3)]
    match = Match(rules, 17, [a.name for a in agents])
    return play_match(match, agents), outside


def test_an_outside_bot_plays_a_whole_match() -> None:
    match, outside = match_with("ok")
    assert match.over and match.standings is not None
    assert outside.warnings == []
    # it discarded every tile it drew: all its discards are tsumogiri
    rivers = [e for e in match.events if e.type == "discard" and e.data["seat"] == 0]
    assert rivers and all(e.data["tsumogiri"] for e in rivers)


@pytest.mark.parametrize(
    ("mode", "warning"),
    [("slow", "timed out"), ("bad", "not JSON"), ("illegal", "not legal"), ("crash", "stopped")],
)
def test_misbehaving_bots_get_the_safe_default(mode: str, warning: str) -> None:
    match, outside = match_with(mode, timeout=0.5)  # the slow bot sleeps 1.5 s
    assert match.over and match.standings is not None  # the match went on to the end
    assert outside.warnings and any(warning in w for w in outside.warnings)


def test_a_late_answer_is_not_taken_for_the_next_one(tmp_path: Path) -> None:
    """One answer after the time limit: one timeout, then every answer in step again
    (it used to shift every later answer by one: 73 'not legal' in a match)."""
    match, outside = match_with("late", timeout=2.0)  # the first answer comes after 3 s
    assert match.over
    assert [w for w in outside.warnings if "timed out" in w] == [outside.warnings[0]]
    assert not [w for w in outside.warnings if "not legal" in w], outside.warnings
    rivers = [e for e in match.events if e.type == "discard" and e.data["seat"] == 0]
    assert len(rivers) > 20 and all(e.data["tsumogiri"] for e in rivers)


def test_a_bot_that_answers_every_event_plays_in_step(tmp_path: Path) -> None:
    """gimite-style bots answer every event (none where they cannot act)."""
    match, outside = match_with("every")
    assert match.over and outside.warnings == []
    assert outside.answers_every
    rivers = [e for e in match.events if e.type == "discard" and e.data["seat"] == 0]
    assert len(rivers) > 20 and all(e.data["tsumogiri"] for e in rivers)


def test_a_bot_slow_to_answer_its_first_event_is_still_read_in_step() -> None:
    """The protocol is told from what the bot writes, not how fast: a bot that answers
    every event but takes a second over the first is still read in step."""
    match, outside = match_with("slowstart", timeout=3.0)
    assert match.over and outside.warnings == []
    assert outside.answers_every
    rivers = [e for e in match.events if e.type == "discard" and e.data["seat"] == 0]
    assert len(rivers) > 20 and all(e.data["tsumogiri"] for e in rivers)


def test_a_none_written_late_after_a_call_is_dropped_and_answers_stay_in_step() -> None:
    """A bot that writes a none nobody asked for after another player's call (as
    mjai-manue does after a kan), arriving late: it is dropped whenever it comes,
    and every later answer is the one to its own question."""
    match, outside = match_with("kanlate")
    assert match.over
    calls = [e for e in match.events if e.type in ("call", "ankan", "kakan") and e.data["seat"]]
    assert len(calls) >= 3  # the others called: the bot wrote its stray nones
    assert not [w for w in outside.warnings if "not legal" in w or "timed out" in w], (
        outside.warnings
    )
    rivers = [e for e in match.events if e.type == "discard" and e.data["seat"] == 0]
    assert len(rivers) > 20 and all(e.data["tsumogiri"] for e in rivers)


def test_riichi_is_sent_back_once_and_only_when_legal(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    match, outside = match_with("reach", log=log)
    assert match.over
    events = [json.loads(line) for line in log.read_text().splitlines()]
    me = events[0]["id"]
    mine = [e for e in events if e.get("actor") == me and e["type"] in ("reach", "reach_accepted")]
    reaches = [e for e in mine if e["type"] == "reach"]
    accepted = [e for e in mine if e["type"] == "reach_accepted"]
    declared = [e for e in match.events if e.type == "riichi" and e.data["seat"] == 0]
    assert declared, "the bot never got to declare riichi"
    # no phantom riichi: every reach it saw was accepted; none sent twice
    assert len(reaches) == len(accepted) == len(declared)
    for i, e in enumerate(events):
        if e["type"] == "reach" and e.get("actor") == me:
            assert events[i + 1]["type"] == "dahai" and events[i + 1]["actor"] == me
    assert any("declared riichi, which is not legal now" in w for w in outside.warnings)


def test_a_kans_indicator_comes_before_the_kan_players_discard() -> None:
    from riichi.game import Event

    outside = MjaiProcessBot(["true"])
    rules = find_ruleset("online")
    from riichi.formats.mjai import MjaiStream

    outside.stream = MjaiStream(rules, ["a", "b", "c", "d"], 0)
    outside.on_events(
        [
            Event(
                "call", {"call": "kan", "seat": 1, "source": 0, "tile": 8, "tiles": [8, 9, 10, 11]}
            ),
            Event("draw", {"seat": 1, "left": 60, "rinshan": True}),
            Event("discard", {"seat": 1, "tile": 40, "tsumogiri": True, "riichi": False}),
            Event("dora", {"indicator": 100}),
        ]
    )
    assert [m["type"] for m in outside.pending] == ["daiminkan", "tsumo", "dora", "dahai"]


def test_the_arena_takes_an_outside_bot_on_the_command_line() -> None:
    from click.testing import CliRunner

    from riichi.cli import main

    outside = f"mjai:{sys.executable} {BOT} ok"
    options = ["--games", "1", "--length", "east", "--jobs", "1", "--timeout", "3"]
    result = CliRunner().invoke(
        main, ["arena", "--bots", f"efficiency,{outside},random,random", *options]
    )
    assert result.exit_code == 0, result.output
    assert outside in result.output  # its row in the table
    empty = CliRunner().invoke(main, ["arena", "--bots", "efficiency,mjai:,random,random"])
    assert empty.exit_code == 2 and "needs the command" in empty.output


def test_an_outside_bot_quoted_as_the_help_shows_runs_and_a_missing_one_is_one_line() -> None:
    """``--bots 'mjai:"COMMAND ARGS"'`` (the help's example, quoted once more than a
    shell needs) runs COMMAND with ARGS; a program that does not exist is a one-line
    usage error, not a traceback."""
    from click.testing import CliRunner

    from riichi.bots import outside_command
    from riichi.cli import main

    assert outside_command(f'mjai:"{sys.executable} {BOT} ok"') == [sys.executable, str(BOT), "ok"]
    assert outside_command(f"mjai:{sys.executable} '{BOT}' ok") == [sys.executable, str(BOT), "ok"]
    options = ["--games", "1", "--length", "east", "--jobs", "1", "--timeout", "3"]
    quoted = f'mjai:"{sys.executable} {BOT} ok"'
    ran = CliRunner().invoke(
        main, ["arena", "--bots", f"efficiency,{quoted},random,random", *options]
    )
    assert ran.exit_code == 0, ran.output
    for missing in ('mjai:"no-such-bot-program --fast"', "mjai:no-such-bot-program"):
        result = CliRunner().invoke(
            main, ["arena", "--bots", f"efficiency,{missing},random,random"]
        )
        assert result.exit_code == 2, result.output
        assert "no program 'no-such-bot-program'" in result.output
        assert "Traceback" not in result.output
