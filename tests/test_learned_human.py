"""The learned player's lessons from people's games (`riichi.bots.human`): the corpus
split so that what is measured was never learned from, and each decision kept as the
person's choice among expert's options."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from riichi.bots.expert import ExpertBot
from riichi.bots.features import OPTION_SIZE, weighed
from riichi.bots.human import (
    Game,
    agreement,
    decisions,
    game_positions,
    held_out,
    is_held,
    opening,
    phoenix_xml,
    split,
)
from riichi.bots.learned import LearnedBot
from riichi.bots.network import Network
from riichi.bots.reviewers import same
from riichi.bots.training import load_data, train
from riichi.cli import main
from riichi.formats.replay import load_match
from test_conformance import CORPUS, needs_corpus


@needs_corpus
def test_no_held_out_game_is_learned_from_in_any_format() -> None:
    games = split(CORPUS)
    phoenix = set(phoenix_xml(CORPUS))
    assert games.held and set(games.held) <= phoenix
    assert len(games.held) < len(phoenix) / 2 < len(games.learn)
    assert not set(games.held) & set(games.learn)

    def plays(paths: list[Path]) -> set[object]:
        return {opening(load_match(p.read_bytes(), str(p))[1]) for p in paths}

    learned = plays(games.learn)
    assert not plays(games.held) & learned
    assert len(learned) == len(games.learn)  # a game twice in the corpus is learned once
    assert held_out(CORPUS) == games.held  # fixed by the files' names


@needs_corpus
def test_each_decision_keeps_the_person_s_choice_among_expert_s_options(
    tmp_path: Path,
) -> None:
    path = split(CORPUS).learn[0]
    kept, left_out = game_positions(Game(path, 7, tmp_path / "one.npz", swap=False))
    with np.load(tmp_path / "one.npz") as data:
        taken, count, match = data["taken"], data["count"], data["match"]
    assert len(taken) == kept > 100 and (match == 7).all()
    assert ((taken >= 0) & (taken < count)).all() and (count >= 2).all()
    # replayed by hand: the person's action is option ``taken`` of expert's, in order
    _, played = load_match(path.read_bytes(), str(path))
    replay = played.restarted()
    judges = [ExpertBot(f"human:7:{s}") for s in range(played.rules.players)]
    picks, missing = [], 0
    for seat, action in played.actions:
        if len(replay.legal_actions().get(seat, ())) > 1:
            options = weighed(judges[seat].evaluate(replay.observe(seat)))
            hits = [
                i for i, o in enumerate(options) if same(o.action, action, played.rules.red_fives)
            ]
            if options and hits:
                picks.append(hits[0])
            missing += bool(options) and not hits
        replay.apply(seat, action)
    assert picks == taken.tolist() and missing == left_out
    # six ways to name the suits: six copies, the first the position itself
    game_positions(Game(path, 7, tmp_path / "six.npz", swap=True))
    with np.load(tmp_path / "six.npz") as six, np.load(tmp_path / "one.npz") as one:
        assert len(six["taken"]) == 6 * kept
        assert np.array_equal(six["state"][:kept], one["state"])
        assert np.array_equal(six["taken"][kept : 2 * kept], one["taken"])
        assert not np.array_equal(six["state"][kept : 2 * kept], one["state"])


@needs_corpus
def test_agreement_counts_the_first_choices_that_were_the_person_s() -> None:
    path = held_out(CORPUS)[0]
    found = agreement([path], Network.load())
    assert found.decisions > 150
    assert 0.4 < found.expert / found.decisions < 0.8
    assert 0.4 < found.learned / found.decisions < 0.8


@needs_corpus
def test_the_human_command_learns_and_measures_on_other_games(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    games = split(CORPUS)
    lines = ["file\tformat\tkyoku\thora\tryukyoku\trules\tnote"]
    rules = "4p hanchan aka kuitan houou GO=169"
    names = [f"l{i}.xml" for i in range(100) if not is_held(corpus, corpus / "g" / f"l{i}.xml")]
    for name, source in zip(names, games.learn[:2], strict=False):
        (corpus / "g").mkdir(parents=True, exist_ok=True)
        shutil.copy(source, corpus / "g" / name)
        lines.append(f"g/{name}\ttenhou-mjlog-xml\t0\t0\t0\t{rules}\tcomplete")
    held = next(f"h{i}.xml" for i in range(100) if is_held(corpus, corpus / "g" / f"h{i}.xml"))
    shutil.copy(games.held[0], corpus / "g" / held)
    lines.append(f"g/{held}\ttenhou-mjlog-xml\t0\t0\t0\t{rules}\tcomplete")
    (corpus / "INDEX.tsv").write_text("\n".join(lines) + "\n")
    start = tmp_path / "start.npz"
    Network.fresh(3).save(start)
    args = ["learn", "human", "--corpus", str(corpus), "--dir", str(tmp_path / "l")]
    args += ["--from", str(start), "--walls", "0", "--jobs", "1", "--epochs", "2"]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    assert "2 games to learn from, 1 held out" in done.output
    assert (tmp_path / "l" / "human.npz").exists()
    assert '"round": "human"' in (tmp_path / "l" / "rounds.jsonl").read_text()


@needs_corpus
def test_a_wider_option_set_keeps_the_people_s_fifth_and_sixth_choices(tmp_path: Path) -> None:
    """People often play expert's fifth or sixth option: positions keeping six lose fewer
    decisions, a network trained on them weighs six, and the learned player then chooses
    among six of expert's options."""
    path = split(CORPUS).learn[0]
    four, dropped_four = game_positions(Game(path, 7, tmp_path / "4" / "shard-0.npz", False))
    six, dropped_six = game_positions(Game(path, 7, tmp_path / "6" / "shard-0.npz", False, 6))
    assert six + dropped_six == four + dropped_four  # the same decisions, fewer left out
    assert dropped_six < dropped_four and six > four
    data = load_data([tmp_path / "6"])
    assert data.width == 6 and data.options.shape == (six, 6, OPTION_SIZE)
    assert (data.taken < data.count).all() and (data.count <= 6).all()
    assert (data.taken >= 4).any()  # a person's choice a four-wide position leaves out
    with pytest.raises(ValueError, match="one width"):
        load_data([tmp_path / "4", tmp_path / "6"])
    network, _ = train(data, data.taken.astype(np.int64), seed=1, epochs=1, batch=64)
    assert network.options == 6
    network.save(tmp_path / "six.npz")
    assert Network.load(tmp_path / "six.npz").options == 6
    bot = LearnedBot(0, Network.load(tmp_path / "six.npz"))
    _, played = load_match(path.read_bytes(), str(path))
    weighs = [len(bot.choose(replay.observe(seat))[1]) for replay, seat, _ in decisions(played)]
    assert max(weighs) == 6
