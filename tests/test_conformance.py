"""Real games are the referee: every Tenhou log in shared/corpus replays exactly.

Every logged decision must be legal in our engine at that moment, and every
hand's result (winners, yaku and han, fu, points, each seat's change, draw
kind) and the final scores and points must equal the log's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from riichi.cli import main
from riichi.cli.replay import log_files
from riichi.formats import UnsupportedLogError, read_mjlog, replay_path
from riichi.formats.replay import read_log, rules_for
from riichi.rules import Length

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

# Logs whose rules no preset claims; rules_for refuses them with this reason.
UNSUPPORTED = {
    "dnovikoff_tenhou/test_data/newattr2023.xml": "lobby rules (GO=257",
    "dnovikoff_tenhou/test_data/ratio.xml": "lobby rules (GO=2113",
    "dnovikoff_tenhou/test_data/sanma.xml": "lobby rules (GO=2113",
    "pantheon/models/testdata/chips_tonpusen.xml": "lobby rules (GO=1601",
    "mjx/tenhou_xml/2019020120gm-0009-10011-215330df.mjlog": "starts at 30000 points",
}
# Test fixtures edited by hand in their source repository, as their own content shows.
EDITED = {
    "pantheon/models/testdata/hanchan_with_noname.xml": (
        "its one INIT deals East 1 at 25,000 each, but its AGARI's sc has the scores"
        " 21,200 / 25,100 / 18,300 / 35,400 before the win, and the winning hand (hai)"
        " holds none of the 13 tiles dealt to the winner: a win cut from a later hand"
    ),
}
# Fixtures of a call-ordering test suite whose results were cut down: the
# reader finds the order of play (they are in this corpus to test that), but
# the result does not add up.
TRIMMED_RESULT = {
    "mjai_reviewer_convlog/testdata/confusing_nakis_1.json": (
        "seat 2 declares riichi (r11) and discards again, so its stick is on the table,"
        " yet the changes of the hand's only win sum to 0: no stick went to the winner"
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
    assert games >= 165 and hands >= 1800 and matched == hands


@needs_corpus
def test_every_three_player_tenhou_game_replays_on_tenhous_own_walls() -> None:
    """Kita in and out of riichi, ron on a North, double ron, nagashi, the West round,
    busting: 22 Phoenix games, every hand and every final standing."""
    reports = [replay_path(p) for p in three_player_logs()]
    assert len(reports) >= 22
    assert [str(m) for r in reports for m in r.mismatches] == []
    assert all(r.final_ok for r in reports)
    assert sum(r.hands for r in reports) >= 235
    assert sum(r.seeded_walls for r in reports) >= 21  # Tenhou's walls from the seed


def three_player_logs() -> list[Path]:
    return [
        p
        for p in corpus_logs()
        if read_mjlog(p).go_type & 0x10 and not read_mjlog(p).go_type & ~0xFF
    ]


@needs_corpus
def test_every_three_player_tenhou_game_replays_through_tenhou6_and_mjai() -> None:
    """The three-player games written as tenhou.net/6 (kita as Tenhou writes it, the
    fourth seat's place empty) and as mjai (kita as the three-player Mortal forks'
    ``nukidora``), read back, replay hand for hand: with our key of the rules, and
    without it, as other programs' files come (三 in a tenhou.net/6 room name, three
    hands dealt in mjai)."""
    from riichi.formats.mjai import parse_mjai_events, write_mjai
    from riichi.formats.mjlog import RULES_KEY
    from riichi.formats.replay import replay_game, replay_to_match
    from riichi.formats.tenhou6 import parse_tenhou6, write_tenhou6

    hands = kitas = 0
    for path in three_player_logs():
        _, match = replay_to_match(read_mjlog(path))
        written = json.loads(json.dumps(write_tenhou6(match)))
        kitas += kitas_in(written)
        tenhous = {key: v for key, v in written.items() if key != RULES_KEY}
        tenhous["rule"] = {"disp": "三鳳南喰赤", "aka": 1}
        for data in (written, tenhous):
            report = replay_game(parse_tenhou6(data, path.name))
            assert [str(m) for m in report.mismatches] == [], path.name
            assert report.final_ok and report.matched == report.hands == len(written["log"])
        hands += len(written["log"])
        events = json.loads(json.dumps(write_mjai(match)))  # the three-player extension
        assert sum(e["type"] == "nukidora" for e in events) == kitas_in(written)
        plain = [{k: v for k, v in e.items() if k != RULES_KEY} for e in events]
        for stream in (events, plain):
            report = replay_game(parse_mjai_events(stream, path.name))
            assert [str(m) for m in report.mismatches] == [], path.name
            assert report.matched == report.hands == len(written["log"]), path.name
    assert hands >= 235 and kitas >= 50


def kitas_in(log: dict[str, Any]) -> int:
    """Norths set aside in a tenhou.net/6 log (``f44`` among the discards)."""
    return sum(1 for k in log["log"] for g in k[6:15:3] for x in g if str(x)[:1] == "f")


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
    assert "1 game," in result.stdout and "0 mismatches" in result.stdout
    bad = tmp_path / "changed.xml"
    text = good.read_text()
    # give the first winner 100 more points than the game paid
    bad.write_text(text.replace('ten="20,18000,2"', 'ten="20,18100,2"', 1))
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "MISMATCH" in result.stdout and "points: engine 18000, log 18100" in result.stdout


TSUBAKI = CORPUS / "tsubakisakura_mjlog2json/data/2019021004gm-00a9-0000-e2f6516d.json"


@needs_corpus
def test_replay_reads_folders_of_tenhou6_json_and_fails_when_it_checked_nothing(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "game.json").write_text(TSUBAKI.read_text())
    hidden = folder / ".venv" / "lib"
    hidden.mkdir(parents=True)
    (hidden / "package.json").write_text('{"name": "not a log"}')
    result = CliRunner().invoke(main, ["replay", str(folder)])
    assert result.exit_code == 0, result.output
    assert "1 game, 10 hands checked, 10 matched" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["replay", str(empty)])
    assert result.exit_code == 1 and "nothing was checked" in result.output


@needs_corpus
def test_a_log_whose_changes_its_next_hand_denies_contradicts_itself(tmp_path: Path) -> None:
    """Converted logs can carry a result that their next hand's scores deny; where the
    engine agrees with those scores, the log contradicts itself: said, not a mismatch."""
    data = json.loads(TSUBAKI.read_text())
    first = data["log"][0][16]
    assert first[1] == [-6000, -3000, 12000, -3000]
    first[1] = [-6000, -3000, 13000, -4000]  # a stick from nowhere, as the next hand denies
    edited = tmp_path / "contradicts.json"
    edited.write_text(json.dumps(data))
    report = replay_path(edited)
    assert report.mismatches == [] and report.matched == report.hands == 10
    assert len(report.contradictions) == 1
    assert "contradicts itself" in str(report.contradictions[0])
    # if the next hand agrees with the changed result, the engine is the one that differs
    data["log"][1][1] = [19000, 22000, 38000, 21000]
    edited.write_text(json.dumps(data))
    report = replay_path(edited)
    assert report.mismatches and "deltas: engine" in str(report.mismatches[0])


BUG1 = CORPUS / "dnovikoff_tenhou/test_data/bug1.xml"


@needs_corpus
def test_tenhous_stop_on_a_ready_draw_is_read_from_the_log(tmp_path: Path) -> None:
    """In 2009 Tenhou played on when the last dealer was tenpai and on top at a draw
    (bug1: South 4, honba 1, the dealer alone tenpai at 37,400); later it stops there,
    as it stops after the dealer's win. Where a log shows which, that decides."""
    assert rules_for(read_mjlog(BUG1)).tenpai_yame is False
    assert replay_path(BUG1).final_ok
    # the same game as it would be logged under the later rule: over at that draw
    text = BUG1.read_text()
    cut = text.index("<INIT", text.index('ba="1,0" sc="200,-10,354,-10,102,-10,344,30"'))
    stopped = text[:cut].replace(
        'sc="200,-10,354,-10,102,-10,344,30" hai3="13,14,40,46,49,59,61" />',
        'sc="200,-10,354,-10,102,-10,344,30" hai3="13,14,40,46,49,59,61"'
        ' owari="190,-21,344,14,92,-41,374,48" />',
    )
    later = tmp_path / "stopped.xml"
    later.write_text(stopped + "</mjloggm>")
    assert rules_for(read_mjlog(later)).tenpai_yame is True
    report = replay_path(later)
    assert report.mismatches == [] and report.final_ok


EAST_EXTENDED = CORPUS / "pantheon/helpers/onlineLog/testdata/doubleron_and_honba.xml"


@needs_corpus
def test_an_east_game_extended_into_south_is_told_from_a_hanchan() -> None:
    """doubleron_and_honba: GO=1 (East only); nobody had 30,000 after East 4, so it went
    on into South as an extension and ended in South 2 when a player reached 32,900.
    Pantheon's other GO=1 fixtures played South with a player already past 30,000:
    hanchans whose flags lost the bit."""
    assert rules_for(read_mjlog(EAST_EXTENDED)).length is Length.EAST
    assert replay_path(EAST_EXTENDED).final_ok
    twin = CORPUS / "pantheon/helpers/onlineLog/testdata/format6/doubleron_and_honba.json"
    assert read_log(twin).game_id == "2018020420gm-0001-14423-3290b527"
    assert rules_for(read_log(twin)).length is Length.EAST
    for name in ("doubleron_and_riichi.xml", "west.xml"):
        game = read_mjlog(CORPUS / "pantheon/helpers/onlineLog/testdata" / name)
        assert game.go_type == 1 and rules_for(game).length is Length.SOUTH
