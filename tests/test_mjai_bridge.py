"""The mjai bridge: an outside bot in a separate process plays whole matches."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from riichi.bots import make_bot
from riichi.bots.mjai_bridge import MjaiProcessBot
from riichi.bots.play import play_match
from riichi.game import Match
from riichi.rules import Length, find_ruleset

BOT = Path(__file__).parent / "bots" / "mjai_tsumogiri.py"


def match_with(mode: str, timeout: float = 0.5) -> tuple[Match, MjaiProcessBot]:
    rules = find_ruleset("online").replace(length=Length.EAST)
    outside = MjaiProcessBot(
        [sys.executable, str(BOT), mode], timeout=timeout, label=f"mjai-{mode}"
    )
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
    match, outside = match_with(mode)
    assert match.over and match.standings is not None  # the match went on to the end
    assert outside.warnings and any(warning in w for w in outside.warnings)
