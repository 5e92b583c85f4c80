"""Game review: a player's decisions valued from what that player saw, in every format."""

from __future__ import annotations

import copy
import dataclasses
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from riichi.bots import make_bot
from riichi.bots.expert import Valued
from riichi.bots.review import KINDS, Review, decision_kind, review_match, seat_of
from riichi.bots.reviewers import (
    ExpertReviewer,
    MjaiReviewer,
    ReviewError,
    mortal_values,
    reviewer_for,
    same,
)
from riichi.cli import main
from riichi.formats import LogFormatError
from riichi.formats.mjai import to_jsonl, write_mjai
from riichi.formats.replay import load_match
from riichi.formats.tenhou6 import write_tenhou6
from riichi.game import Action, ActionType, Match, Observation, Wall
from riichi.rules import find_ruleset
from riichi.tiles import parse_tiles
from test_conformance import CORPUS, needs_corpus

PHOENIX = CORPUS / "dnovikoff_tenhou" / "test_data" / "bug1.xml"
BOTS = Path(__file__).parent / "bots"


def expert_match(preset: str, seed: int, players: list[str] | None = None) -> Match:
    rules = find_ruleset(preset)
    bots = [make_bot("expert", f"{seed}:{s}") for s in range(rules.players)]
    match = Match(rules, seed, players)
    while not match.over:
        seat = next(iter(match.legal_actions()))
        match.apply(seat, bots[seat].act(match.observe(seat)))
    return match


def check_sums(review: Review) -> None:
    """The summary is the decisions counted: by kind and by hand they add up."""
    data = review.to_dict()
    decisions = review.decisions
    summary = data["summary"]
    assert summary["decisions"] == len(decisions) > 0
    assert summary["agreed"] == sum(d.agrees for d in decisions)
    assert summary["lost"] == pytest.approx(sum(d.loss or 0 for d in decisions), abs=0.5)
    assert sum(k["decisions"] for k in summary["by_kind"].values()) == len(decisions)
    assert sum(h["decisions"] for h in data["hands"]) == len(decisions)
    assert set(summary["by_kind"]) <= set(KINDS)
    for d in decisions:
        assert d.options and d.options[0].action == d.best.action
        assert any(same(o.action, d.played, d.red_fives) for o in d.options)
        if d.loss is not None:
            assert d.loss >= 0 and (d.loss == 0) == (d.agrees or d.loss == 0)
            assert d.grade == ("" if d.loss < 400 else "small" if d.loss < 2000 else "large")
    json.dumps(data)  # all plain data


# ----------------------------------------------------------------- formats


@needs_corpus
def test_a_phoenix_game_is_reviewed_seat_by_seat_from_its_tenhou_xml() -> None:
    report, match = load_match(PHOENIX.read_bytes(), str(PHOENIX))
    assert report.mismatches == []
    for seat in range(4):
        review = review_match(match, seat, ExpertReviewer(), source=str(PHOENIX))
        check_sums(review)
        assert len(review.hands) == len(match.results) == 11
        # every action of the seat that had a choice is a decision, in order
        steps = [d.step for d in review.decisions]
        assert steps == sorted(steps) and all(match.actions[s][0] == seat for s in steps)
        kinds = {d.kind for d in review.decisions}
        assert {"discard", "pass"} <= kinds
        # a Phoenix player agrees with expert more often than not, and not always
        assert 0.4 < review.total.agreement < 0.95


@pytest.mark.parametrize("form", ["tenhou6", "mjai", "record"])
def test_every_format_gives_the_same_review(form: str, tmp_path: Path) -> None:
    match = expert_match("tenhou", 5, ["ann", "bob", "cy", "dee"])
    raw = {
        "tenhou6": json.dumps(write_tenhou6(match)),
        "mjai": to_jsonl(write_mjai(match)),
        "record": json.dumps(match.record()),
    }[form].encode()
    report, again = load_match(raw, form)
    assert report.mismatches == []
    ours = review_match(match, 2, ExpertReviewer()).to_dict()
    theirs = review_match(again, 2, ExpertReviewer()).to_dict()
    assert theirs["summary"] == ours["summary"]
    # a tenhou.net/6 log names tiles, not copies: the same choices, in notation
    assert [by_name(d) for d in theirs["decisions"]] == [by_name(d) for d in ours["decisions"]]


def by_name(decision: dict[str, Any]) -> dict[str, Any]:
    options = [{k: v for k, v in o.items() if k != "action"} for o in decision["options"]]
    return {**{k: v for k, v in decision.items() if k != "played"}, "options": options}


def test_a_three_player_game_is_reviewed(tmp_path: Path) -> None:
    match = expert_match("sanma-kansai", 3, ["ann", "bob", "cy"])
    path = tmp_path / "sanma.json"
    path.write_text(json.dumps(match.record()))
    result = CliRunner().invoke(
        main, ["review", str(path), "--name", "cy", "--json", str(tmp_path / "r.json")]
    )
    assert result.exit_code == 0, result.output
    assert "review of cy (seat 2)" in result.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["rules"] == "sanma-kansai" and data["seat"] == 2
    # expert reviewing expert: the same choices, nothing lost
    assert data["summary"]["agreement"] == 1.0 and data["summary"]["lost"] == 0


@needs_corpus
def test_the_command_writes_json_and_a_page(tmp_path: Path) -> None:
    out, page = tmp_path / "r.json", tmp_path / "r.html"
    result = CliRunner().invoke(
        main, ["review", str(PHOENIX), "--seat", "1", "--json", str(out), "--html", str(page)]
    )
    assert result.exit_code == 0, result.output
    assert "top-choice match" in result.output and "within the best value" in result.output
    assert "mistakes:" in result.output
    data = json.loads(out.read_text())
    assert data["seat"] == 1 and data["summary"]["hands"] == 11
    text = page.read_text()
    assert text.startswith("<!doctype html>") and "<script" not in text
    largest = data["summary"]["largest"]
    assert largest and all(f"id='d{i}'" in text for i in largest)
    # a lower threshold finds more mistakes
    lower = CliRunner().invoke(main, ["review", str(PHOENIX), "--seat", "1", "--threshold", "50"])
    assert lower.output.count("\n!") > result.output.count("\n!")


def test_bad_logs_and_bad_requests_get_a_clear_error(tmp_path: Path) -> None:
    for raw, said in [
        (b"\xff\xfe nonsense", "not UTF-8"),
        (b"hello", "not a log we read"),
        (b"<mjloggm ver='2.3'><GO type='169' lobby='0'/>", "not XML"),
        (b'{"log": 3}', "tenhou.net/6"),
        (gzip.compress(b"<" + b" " * (40 << 20)), "unpacks to more than"),
        (b"\x1f\x8b broken", "not gzip"),
    ]:
        with pytest.raises(LogFormatError, match=said):
            load_match(raw, "upload")
    match = expert_match("tenhou", 1, ["ann", "bob", "cy", "dee"])
    with pytest.raises(ReviewError, match="no player 'zed'"):
        seat_of(match.players, None, "zed")
    with pytest.raises(ReviewError, match="seat 4 is not"):
        seat_of(match.players, 4, None)
    with pytest.raises(ReviewError, match="no reviewer"):
        reviewer_for("oracle")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(match.record()))
    result = CliRunner().invoke(main, ["review", str(path), "--name", "zed"])
    assert result.exit_code == 1 and "error: no player 'zed'" in result.output


# ----------------------------------------------------------------- what the player saw


class Drawer:
    """Lets every draw go, passes every call and every win: its concealed tiles never
    show until the hand is over."""

    name = "drawer"

    def act(self, obs: Observation) -> Action:
        for a in obs.legal:
            if a.type is ActionType.PASS or (a.type is ActionType.DISCARD and a.tile == obs.drawn):
                return a
        return next(a for a in obs.legal if a.type is ActionType.DISCARD)


def one_hand(seed: int, walls: list[Wall] | None = None, mine: list[Action] | None = None) -> Match:
    """A one-hand match, seat 0 by expert (or replaying ``mine``), the others Drawers."""
    rules = find_ruleset("daily-wall")  # one hand
    match = Match(rules, seed, ["me", "b", "c", "d"], walls=walls)
    expert, drawer, played = make_bot("expert", seed), Drawer(), iter(mine or ())
    while not match.over:
        seat = next(iter(match.legal_actions()))
        obs = match.observe(seat)
        if seat != 0:
            action = drawer.act(obs)
        else:
            action = next(played) if mine is not None else expert.act(obs)
        match.apply(seat, action)
    return match


def seen_by(match: Match, seat: int) -> set[int]:
    """Every tile ``seat`` saw before the hand ended."""
    game, seen = match.restarted(), set()
    for who, action in match.actions:
        obs = game.observe(seat)
        seen |= set(obs.hand or ()) | set(obs.dora_indicators)
        seen |= {t for river in obs.discards for t, *_ in river}
        seen |= {t for sets in obs.meld_tiles for m in sets for t in m}
        game.apply(who, action)
    return seen


def scrambled(wall: Wall, seen: set[int], rng: random.Random) -> Wall:
    """The same wall with every tile the seat never saw moved to another such place."""
    data = copy.deepcopy(wall.to_dict())  # its lists are the wall's own
    places = [
        (key, i, j)
        for key in ("hands", "draws", "rinshan", "dora", "ura")
        for i, row in enumerate(data[key] if key == "hands" else [data[key]])
        for j, tile in enumerate(row)
        if tile not in seen
    ]
    tiles = [(data[k][i] if k == "hands" else data[k])[j] for k, i, j in places]
    rng.shuffle(tiles)
    for (k, i, j), tile in zip(places, tiles, strict=True):
        (data[k][i] if k == "hands" else data[k])[j] = tile
    return Wall.from_dict(data)


@pytest.mark.parametrize("seed", range(4))
def test_the_review_sees_only_what_the_player_saw(seed: int) -> None:
    """Move every tile the player never saw (the others' concealed tiles, the unseen
    wall, the ura) anywhere else: the same public play gives the same review."""
    first = one_hand(seed)
    seen = seen_by(first, 0)
    assert len(seen) < 136 - 39  # three concealed hands at least
    mine = [a for s, a in first.actions if s == 0]
    wall = first.record()["walls"] or [Wall.seeded(seed, 0).to_dict()]
    rng = random.Random(seed)
    moved = 0
    dealt = Wall.from_dict(wall[0])
    for attempt in range(5):
        other = scrambled(dealt, seen, rng)
        second = one_hand(seed, [other], mine)
        moved += sum(a != b for a, b in zip(other.hands[1], dealt.hands[1], strict=True))
        a = review_match(first, 0, ExpertReviewer()).to_dict()
        b = review_match(second, 0, ExpertReviewer()).to_dict()
        # (where each decision sits among the game's actions moves: the others' passes
        # on calls their new tiles allow are actions too; the review read none of them)
        assert [unplaced(d) for d in a["decisions"]] == [unplaced(d) for d in b["decisions"]]
        assert a["summary"] == b["summary"], f"attempt {attempt}"
    assert moved > 0


def unplaced(decision: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in decision.items() if k != "step"}


# ----------------------------------------------------------------- outside reviewers


def test_mortal_values_go_to_the_actions_its_mask_allows() -> None:
    rules = find_ruleset("tenhou")
    hand = tuple(parse_tiles("123m456p789s1122z3z"))
    discard = [Action(ActionType.DISCARD, t) for t in hand]
    obs = Observation(
        seat=0, rules=rules, round_wind=27, dealer=0, honba=0, sticks=0,
        scores=(25000,) * 4, live_left=60, dora_indicators=(0,), hand=hand, drawn=hand[-1],
        hand_sizes=(14, 13, 13, 13), melds=((),) * 4, meld_tiles=((),) * 4, kita=((),) * 4,
        discards=((),) * 4, riichi=(False,) * 4, current=0, legal=tuple(discard), over=False,
    )  # fmt: skip
    # 1m (slot 0) and the red-less 3z (slot 29) allowed, valued 0.5 and 0.25
    values = mortal_values(obs, [0.5, 0.25], 1 | 1 << 29)
    assert [(v.action.tile, v.value) for v in values] == [(hand[0], 0.5), (hand[-1], 0.25)]
    for q, mask in [([0.5], 1 | 1 << 29), ("x", 1), ([0.5, "a"], 3), ([1.0], -1)]:
        assert mortal_values(obs, q, mask) == []


def test_an_mjai_bot_reviews_through_the_bridge(tmp_path: Path) -> None:
    """The bridge's test bot (lets its draws go) reviews a game: its choices, and the
    values it sends in meta like Mortal's."""
    match = expert_match("tenhou", 2, ["ann", "bob", "cy", "dee"])
    command = [sys.executable, str(BOTS / "mjai_tsumogiri.py"), "meta"]
    review = review_match(match, 0, MjaiReviewer(command, timeout=20))
    assert review.unit == "q" and review.threshold is None
    discards = [d for d in review.decisions if d.played.type is ActionType.DISCARD and d.drawn]
    assert len(discards) > 20
    for d in discards:
        # its choice: the drawn tile, which it values 1.0 and every other discard 0
        assert d.best.text.endswith(d.drawn or "?")
        assert d.best.value == 1.0 and d.grade == ""
        assert d.loss == (0.0 if d.agrees else 1.0)
    assert any(not d.agrees for d in discards)


def test_decision_kinds_read_from_both_choices() -> None:
    rules = find_ruleset("tenhou")
    hand = tuple(parse_tiles("123m456p789s1122z3z"))
    base = Observation(
        seat=0, rules=rules, round_wind=27, dealer=0, honba=0, sticks=0,
        scores=(25000,) * 4, live_left=60, dora_indicators=(0,), hand=hand, drawn=None,
        hand_sizes=(14, 13, 13, 13), melds=((),) * 4, meld_tiles=((),) * 4, kita=((),) * 4,
        discards=((),) * 4, riichi=(False,) * 4, current=0, legal=(), over=False,
    )  # fmt: skip
    d, r = Action(ActionType.DISCARD, hand[0]), Action(ActionType.RIICHI, hand[1])
    p, c = Action(ActionType.PASS), Action(ActionType.PON, hand[10], (hand[9], hand[11]))
    assert decision_kind(base, d, d) == "discard"
    assert decision_kind(base, d, r) == decision_kind(base, r, d) == "riichi"
    assert decision_kind(base, p, c) == decision_kind(base, c, p) == "call"
    assert decision_kind(base, p, p) == "pass"
    threatened = dataclasses.replace(base, riichi=(False, True, False, False))
    assert decision_kind(threatened, d, d) == "fold"
    assert decision_kind(dataclasses.replace(threatened, riichi=(True,) * 4), d, d) == "discard"
    assert Valued(d).value is None


def test_the_command_takes_an_outside_bot_as_reviewer(tmp_path: Path) -> None:
    match = expert_match("tenhou", 6, ["ann", "bob", "cy", "dee"])
    path = tmp_path / "game.mjson"
    path.write_text(to_jsonl(write_mjai(match)))
    bot = f"mjai:{sys.executable} {BOTS / 'mjai_tsumogiri.py'} meta"
    result = CliRunner().invoke(
        main, ["review", str(path), "--seat", "3", "--bot", bot, "--json", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "r").read_text())
    assert data["reviewer"].startswith("mjai ") and data["unit"] == "q"
    assert data["threshold"] is None and data["summary"]["mistakes"] == 0
    assert 0 < data["summary"]["agreement"] < 1
    # a given threshold, in the bot's own units, grades its losses
    graded = CliRunner().invoke(
        main, ["review", str(path), "--seat", "3", "--bot", bot, "--threshold", "0.5"]
    )
    assert graded.exit_code == 0 and "mistakes:" in graded.output


@needs_corpus
def test_agreement_is_told_as_the_first_choice_and_as_within_the_best_value() -> None:
    """A decision whose played option only ties the best counts within the best value,
    not as the first choice; both figures are given overall and by kind, and a review
    orders tied options the same way each time."""
    _, match = load_match(PHOENIX.read_bytes(), str(PHOENIX))
    review = review_match(match, 1, ExpertReviewer())
    summary = review.to_dict()["summary"]
    decisions = review.decisions
    assert summary["top"] == sum(d.top for d in decisions)
    assert summary["agreed"] == sum(d.agrees for d in decisions)
    tied = [d for d in decisions if d.agrees and not d.top]
    assert all(d.loss == 0.0 for d in tied)
    assert summary["top_choice"] < summary["within_best"] == summary["agreement"]
    for kind, tally in summary["by_kind"].items():
        mine = [d for d in decisions if d.kind == kind]
        assert tally["top"] == sum(d.top for d in mine) <= tally["agreed"]
        assert 0 <= tally["top_choice"] <= tally["within_best"] <= 1
    again = review_match(match, 1, ExpertReviewer())
    assert [[o.text for o in d.options] for d in again.decisions] == [
        [o.text for o in d.options] for d in decisions
    ]
