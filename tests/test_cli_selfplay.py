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


def test_selfplay_records_replay_and_verify_and_a_changed_one_does_not(tmp_path: Path) -> None:
    """``riichi replay`` reads our own records as it reads the other formats, and
    ``riichi verify`` replays one without a commitment, saying there was none;
    a record whose events were changed fails both."""
    options = ["--games", "2", "--seed", "3", "--length", "east", "--out", str(tmp_path)]
    assert CliRunner().invoke(main, ["selfplay", *options]).exit_code == 0
    replayed = CliRunner().invoke(main, ["replay", str(tmp_path)])
    assert replayed.exit_code == 0, replayed.output
    assert "2 games" in replayed.output and "0 mismatches, 0 logs skipped" in replayed.output
    first = tmp_path / "game-3.json"
    verified = CliRunner().invoke(main, ["verify", str(first)])
    assert verified.exit_code == 0, verified.output
    assert "none to check" in verified.output and "give its events" in verified.output
    record = json.loads(first.read_text())
    discard = next(i for i, e in enumerate(record["events"]) if e["type"] == "discard")
    record["events"][discard]["tile"] ^= 1  # another copy of the tile
    changed = tmp_path / "changed" / "game.json"
    changed.parent.mkdir()
    changed.write_text(json.dumps(record))
    bad = CliRunner().invoke(main, ["replay", str(changed)])
    assert bad.exit_code == 1 and f"MISMATCH {changed}: hand 0: event {discard}" in bad.output
    refused = CliRunner().invoke(main, ["verify", str(changed)])
    assert refused.exit_code == 1 and f"FAILED: event {discard} differs" in refused.output
