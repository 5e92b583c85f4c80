"""Log formats: mjai and our record, round trips through the engine, bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from game_helpers import greedy_action
from riichi.cli import main
from riichi.formats import LogFormatError, replay_path
from riichi.formats.mjai import parse_mjai_events, read_mjai, to_jsonl, write_mjai
from riichi.formats.replay import read_log, replay_to_match
from riichi.formats.tenhou6 import _call_text, parse_tenhou6, write_tenhou6
from riichi.game import IllegalActionError, Match
from riichi.rules import find_ruleset
from test_conformance import CORPUS, needs_corpus


def played(seed: int, rules: str = "tenhou") -> Match:
    match = Match(find_ruleset(rules), seed, ["ann", "bob", "cy", "dee"])
    rng = random.Random(seed)
    while not match.over:
        seat, actions = next(iter(match.legal_actions().items()))
        match.apply(seat, greedy_action(rng, match, seat, actions))
    return match


@pytest.mark.parametrize("seed", range(4))
def test_mjai_export_reimports_identically(seed: int) -> None:
    match = played(seed)
    events = write_mjai(match)
    report, again = replay_to_match(parse_mjai_events(events, f"seed {seed}"))
    assert report.mismatches == [] and report.hands == report.matched == len(match.results)
    assert write_mjai(again) == events
    assert [r.deltas for r in again.results] == [r.deltas for r in match.results]


def test_our_record_round_trips_with_explicit_walls(tmp_path: Path) -> None:
    match = played(9)
    report, again = replay_to_match(parse_mjai_events(write_mjai(match), "x"))
    assert report.mismatches == []
    record = json.loads(json.dumps(again.record()))
    rebuilt = Match.from_record(record)
    assert [e.to_dict() for e in rebuilt.events] == [e.to_dict() for e in again.events]
    assert rebuilt.standings == again.standings


def test_malformed_records_are_errors() -> None:
    record = played(2).record()
    with pytest.raises(IllegalActionError, match="record version"):
        Match.from_record({**record, "version": 99})
    bad = {**record, "actions": [{"seat": 0, "type": "fly"}]}
    with pytest.raises(IllegalActionError, match="malformed"):
        Match.from_record(bad)


def test_bad_mjai_lines_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.mjson"
    path.write_text('{"type":"start_game","names":["a","b","c","d"]}\nnot json\n')
    with pytest.raises(LogFormatError, match="line 2: not JSON"):
        read_mjai(path)
    path.write_text('{"type":"start_kyoku","bakaze":"E"}\n')
    with pytest.raises(LogFormatError, match="line 1: start_kyoku"):
        read_mjai(path)


@needs_corpus
def test_the_mjai_logs_of_the_corpus_replay() -> None:
    files = sorted(CORPUS.glob("mjai_manue_selfplay/docs/*.mjson"))
    files += sorted(CORPUS.glob("riichienv_selfplay/tests/data/*.jsonl"))
    hands = matched = incomplete = 0
    for path in files:
        report = replay_path(path)
        assert report.mismatches == [], report.mismatches
        hands += report.hands
        matched += report.matched
        incomplete += report.incomplete
    assert hands == matched >= 60
    assert incomplete == 2  # two self-play games stop in the middle of a hand


@needs_corpus
def test_convert_xml_to_mjai_and_record(tmp_path: Path) -> None:
    source = CORPUS / "dnovikoff_tenhou/test_data/pao.xml"
    out = tmp_path / "pao.mjson"
    result = CliRunner().invoke(main, ["convert", str(source), str(out)])
    assert result.exit_code == 0, result.output
    assert replay_path(out).matched == replay_path(source).matched
    record = tmp_path / "pao.json"
    result = CliRunner().invoke(main, ["convert", str(out), str(record)])
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.mjson"
    assert CliRunner().invoke(main, ["convert", str(record), str(again)]).exit_code == 0
    assert again.read_text() == out.read_text()
    assert to_jsonl(write_mjai(Match.from_record(json.loads(record.read_text())))) == (
        out.read_text()
    )


@pytest.mark.parametrize("seed", range(6))
def test_tenhou6_export_reimports_identically(seed: int) -> None:
    match = played(seed)
    data = json.loads(json.dumps(write_tenhou6(match)))
    report, again = replay_to_match(parse_tenhou6(data, f"seed {seed}"))
    assert report.mismatches == [] and report.matched == len(match.results)
    assert report.final_ok
    assert write_tenhou6(again)["log"] == data["log"]
    # tenhou.net/6 names kinds (and red fives), not physical copies: the same
    # game, tile for tile, is the same mjai log
    assert write_mjai(again) == write_mjai(match)


@needs_corpus
def test_xml_to_record_to_tenhou6_to_record_is_identical() -> None:
    xml = CORPUS / "tsubakisakura_mjlog2json/data/2019021004gm-00a9-0000-e2f6516d.xml"
    _, from_xml = replay_to_match(read_log(xml))
    record = json.loads(json.dumps(from_xml.record()))
    rebuilt = Match.from_record(record)
    data = json.loads(json.dumps(write_tenhou6(rebuilt)))
    _, from_json = replay_to_match(parse_tenhou6(data, str(xml)))
    # the same game, kind for kind (tenhou.net/6 does not name physical copies)
    assert write_mjai(from_json) == write_mjai(rebuilt) == write_mjai(from_xml)
    again = Match.from_record(json.loads(json.dumps(from_json.record())))
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in from_json.events]
    # and the official JSON of the same game reads to the same game
    official = CORPUS / "tsubakisakura_mjlog2json/data/2019021004gm-00a9-0000-e2f6516d.json"
    _, from_official = replay_to_match(read_log(official))
    assert write_mjai(from_official)[1:] == write_mjai(from_xml)[1:]  # names differ


def test_tenhou6_call_strings() -> None:
    # pon from the left, from across and from the right put the p first, middle, last
    assert _call_text("pon", 1, 25, [25, 25]) == "p252525"
    assert _call_text("pon", 2, 12, [12, 12]) == "12p1212"
    assert _call_text("pon", 3, 37, [37, 37]) == "3737p37"
    assert _call_text("kan", 3, 13, [13, 13, 13]) == "131313m13"
    assert _call_text("chi", 1, 27, [52, 26]) == "c275226"


def test_lenient_reading_skips_bad_lines_and_says_so(tmp_path: Path) -> None:
    good = write_mjai(played(1))
    lines = to_jsonl(good).splitlines()
    lines.insert(3, "{broken")
    path = tmp_path / "one-bad-line.mjson"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogFormatError, match="line 4: not JSON"):
        read_mjai(path)
    report = replay_path(path, lenient=True)
    assert report.mismatches == [] and report.matched == report.hands > 0
    assert len(report.read_errors) == 1 and "line 4" in report.read_errors[0]
    result = CliRunner().invoke(main, ["replay", "--lenient", str(path)])
    assert result.exit_code == 0 and "in reading:" in result.stdout


@needs_corpus
def test_tenhou_walls_from_the_shuffle_seed_match_every_dealt_hand() -> None:
    from riichi.formats.mjlog import read_mjlog
    from riichi.formats.tenhou_wall import dealt_hands, tenhou_walls

    checked = 0
    for path in sorted(CORPUS.glob("mjx/tenhou_xml/*.mjlog"))[:25]:
        game = read_mjlog(path)
        if not game.shuffle.startswith("mt19937ar-sha512-n288-base64,"):
            continue
        for hand, wall in zip(game.hands, tenhou_walls(game.shuffle, len(game.hands)), strict=True):
            assert dealt_hands(wall, hand.dealer) == hand.haipai
            assert wall[5] == hand.dora  # the first dora indicator
            checked += 1
    assert checked > 200
    report = replay_path(CORPUS / "mjx/tenhou_xml/2010081709gm-00a9-0000-fe3371ad.mjlog")
    assert report.seeded_walls and report.mismatches == []
