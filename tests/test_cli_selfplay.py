"""``riichi selfplay``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from riichi.cli import main
from riichi.game import Match
from riichi.game.actions import Action
from riichi.rules import RuleSet


def test_selfplay_summary_and_records(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["selfplay", "--games", "3", "--seed", "7", "--length", "east", "--out", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    assert "3 games under online" in result.stdout
    assert "average game:" in result.stdout
    assert "exhaustive draw" in result.stdout
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == ["game-7.json", "game-8.json", "game-9.json"]
    record = json.loads(files[0].read_text())
    rules = RuleSet.from_dict(record["rules"])
    actions = [(a.pop("seat"), Action.from_dict(a)) for a in record["actions"]]
    again = Match.replay(rules, record["seed"], actions)
    assert [e.to_dict() for e in again.events] == record["events"]


def test_selfplay_rejects_unknown_rules() -> None:
    result = CliRunner().invoke(main, ["selfplay", "--rules", "nope"])
    assert result.exit_code == 2 and "unknown ruleset" in result.output
