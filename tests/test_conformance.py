"""Real games are the referee: every Tenhou log in shared/corpus replays exactly.

Every logged decision must be legal in our engine at that moment, and every
hand's result (winners, yaku and han, fu, points, each seat's change, draw
kind) and the final scores and points must equal the log's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from riichi.cli import main
from riichi.cli.replay import log_files
from riichi.formats import UnsupportedLogError, read_mjlog, replay_path
from riichi.formats.replay import read_log, rules_for

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

# Logs whose rules no preset claims; rules_for refuses them with this reason.
UNSUPPORTED = {
    "dnovikoff_tenhou/test_data/newattr2023.xml": "lobby rules (GO=257",
    "dnovikoff_tenhou/test_data/ratio.xml": "lobby rules (GO=2113",
    "dnovikoff_tenhou/test_data/sanma.xml": "lobby rules (GO=2113",
    "dnovikoff_tenhou/test_data/sanma2.xml": "three-player Tenhou",
    "pantheon/models/testdata/chips_tonpusen.xml": "lobby rules (GO=1601",
    "mjx/tenhou_xml/2019020120gm-0009-10011-215330df.mjlog": "starts at 30000 points",
}
# Test fixtures that were edited by hand in their source repository.
EDITED = {
    "pantheon/helpers/onlineLog/testdata/doubleron_and_honba.xml": (
        "the final result (owari) stands in South 2 although nobody is below zero"
    ),
    "pantheon/helpers/onlineLog/testdata/format6/doubleron_and_honba.json": (
        "the same game as the XML above, with the same early final result"
    ),
    "pantheon/models/testdata/hanchan_with_noname.xml": "cut to one hand, which opens on its win",
}
# Fixtures of a call-ordering test suite whose results were cut down: the
# reader finds the order of play (they are in this corpus to test that), but
# the result does not add up.
TRIMMED_RESULT = {
    "mjai_reviewer_convlog/testdata/confusing_nakis_1.json": (
        "the winner's change leaves out the riichi stick declared earlier in the hand"
    ),
    "mjai_reviewer_convlog/testdata/confusing_nakis_2.json": (
        "the win detail names seat 1 while the changes pay seat 2"
    ),
}
JSON_UNSUPPORTED = {
    "pantheon/models/testdata/format6/all_tempai_bug.json": "starts at 30000 points",
    "pantheon/models/testdata/format6/nagashi_mangan_riichi_bets_bug.json": (
        "starts at 30000 points"
    ),
}

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the corpus is not at {CORPUS}: conformance not run"
)


def corpus_logs() -> list[Path]:
    return (
        [p for p in log_files((CORPUS,)) if p.suffix in (".xml", ".mjlog")]
        if CORPUS.is_dir()
        else []
    )


def corpus_json() -> list[Path]:
    return sorted(CORPUS.rglob("*.json")) if CORPUS.is_dir() else []


@needs_corpus
def test_every_tenhou_hand_in_the_corpus_replays_exactly() -> None:
    hands = matched = games = 0
    problems = []
    for path in corpus_logs():
        name = path.relative_to(CORPUS).as_posix()
        if name in UNSUPPORTED:
            with pytest.raises(UnsupportedLogError, match=re.escape(UNSUPPORTED[name])):
                rules_for(read_mjlog(path))
            continue
        report = replay_path(path)
        if name in EDITED:
            assert report.mismatches, f"{name} now replays: take it off the EDITED list"
            continue
        games += 1
        hands += report.hands
        matched += report.matched
        problems += [str(m) for m in report.mismatches]
        if report.final_ok is not None:
            assert report.final_ok, name
    assert problems == []
    assert games >= 140 and hands >= 1500 and matched == hands


@needs_corpus
def test_every_tenhou6_json_hand_in_the_corpus_replays_exactly() -> None:
    """The tenhou.net/6 JSON logs: Tenhou games (many the same as the XML) and Mahjong Soul."""
    hands = matched = soul = 0
    problems = []
    for path in corpus_json():
        name = path.relative_to(CORPUS).as_posix()
        if name in JSON_UNSUPPORTED:
            with pytest.raises(UnsupportedLogError, match=re.escape(JSON_UNSUPPORTED[name])):
                replay_path(path)
            continue
        report = replay_path(path)
        if name in EDITED or name in TRIMMED_RESULT:
            assert report.mismatches, f"{name} now replays: take it off its list"
            continue
        hands += report.hands
        matched += report.matched
        if read_log(path).platform == "mahjongsoul":
            soul += report.matched
        problems += [str(m) for m in report.mismatches]
    assert problems == []
    assert hands == matched >= 640
    assert soul >= 37  # the Mahjong Soul hands, under the mahjongsoul preset


@needs_corpus
def test_replay_cli_reports_and_fails_on_mismatches(tmp_path: Path) -> None:
    good = CORPUS / "dnovikoff_tenhou/test_data/pao.xml"
    result = CliRunner().invoke(main, ["replay", str(good)])
    assert result.exit_code == 0
    assert "1 games," in result.stdout and "0 mismatches" in result.stdout
    bad = tmp_path / "changed.xml"
    text = good.read_text()
    # give the first winner 100 more points than the game paid
    bad.write_text(text.replace('ten="20,18000,2"', 'ten="20,18100,2"', 1))
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "MISMATCH" in result.stdout and "points: engine 18000, log 18100" in result.stdout
