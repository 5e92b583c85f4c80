"""The learned player improved on its own play: where its network hesitates, its two
best options are played out on the true walls, and training moves the policy toward
the one worth more (riichi.bots.improve)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from riichi.bots.features import option_features, state_features, weighed
from riichi.bots.human import Game, game_positions, is_held, split
from riichi.bots.improve import Pairs, doubted, play_pairs
from riichi.bots.learned import LearnedBot
from riichi.bots.network import POLICY, WEIGHTS, Network, inputs
from riichi.bots.training import Data, load_data, train
from riichi.cli import main
from riichi.game import Match, observe
from test_learned import ONE_HAND
from test_learned_human import CORPUS, needs_corpus


def test_the_two_best_options_are_played_out_where_the_network_hesitates(
    tmp_path: Path,
) -> None:
    """Every pair is the network's first and second choice, the second at least as
    likely as the doubt asks; both played out (the rest of the row unknown); each
    position written once per way to trade the suits and mirror the ranks; the same
    seeds write the same file."""
    out = tmp_path / "a" / "shard-0.npz"
    written = play_pairs(Pairs(11, 1, out, WEIGHTS, doubt=0.2, length="one-hand"))
    assert written > 10
    data = load_data([out.parent])
    assert len(data) == 12 * written  # six ways to name the suits, each mirrored
    labelled = ~np.isnan(data.truth)
    assert (labelled.sum(axis=1) == 2).all()
    assert labelled[np.arange(len(data)), data.taken].all()  # the first choice is one
    assert (data.truth[labelled] != data.truth[labelled][0]).any()  # what differs shows
    network = Network.load(WEIGHTS)
    for row in range(written):  # the positions themselves come first
        count = int(data.count[row])
        rows = inputs(data.state[row].astype(np.float32), data.options[row, :count])
        heads = network.forward(rows.astype(np.float32))[0]
        pair = doubted(network, heads, 0.2)
        assert pair is not None and pair[0] == data.taken[row]
        assert sorted(pair) == sorted(np.flatnonzero(labelled[row]).tolist())
    again = tmp_path / "b" / "shard-0.npz"
    play_pairs(Pairs(11, 1, again, WEIGHTS, doubt=0.2, length="one-hand"))
    assert out.read_bytes() == again.read_bytes()


def _one_decision(copies: int, worth: tuple[float, float]) -> Data:
    """One real decision with two of expert's options, repeated, the two played out
    to ``worth``."""
    match = Match(ONE_HAND, 3)
    bot = LearnedBot(0)
    while True:
        seat = next(iter(match.legal_actions()))
        obs = observe(match, seat)
        kept = weighed(bot.expert.evaluate(obs), 2)
        if kept:
            break
        match.apply(seat, bot.act(obs))
    state = np.tile(state_features(obs).astype(np.float16), (copies, 1))
    options = np.tile(option_features(obs, kept).astype(np.float16), (copies, 1, 1))
    n = copies
    return Data(
        state=state,
        options=options,
        count=np.full(n, 2, np.int8),
        taken=np.zeros(n, np.int8),
        chosen=np.zeros(n, np.int8),
        explored=np.zeros(n, np.bool_),
        hand_delta=np.zeros(n, np.float32),
        place=np.zeros(n, np.int8),
        points=np.zeros(n, np.float32),
        match=np.arange(1, n + 1, dtype=np.int32),
        truth=np.tile(np.array(worth, np.float32), (n, 1)),
    )


def _leaning(network: Network, data: Data) -> float:
    """How much more the policy scores the second option than the first."""
    rows = inputs(data.state[0].astype(np.float32), data.options[0].astype(np.float32))
    scores = network.forward(rows)[0][:, POLICY]
    return float(scores[1] - scores[0])


def _trained(worth: tuple[float, float], improve: float) -> tuple[Network, Data]:
    """A fresh network after one epoch on that decision with those worths."""
    data = _one_decision(64, worth)
    network, _ = train(
        data,
        data.taken.astype(np.int64),
        0,
        1,
        batch=16,
        rate=1e-2,
        start=Network.fresh(1),
        policy_only=True,
        improve=improve,
    )
    return network, data


def test_a_pair_moves_the_policy_toward_the_option_worth_more() -> None:
    """The step follows what the options were worth, whichever the network chose: the
    second option worth more raises its score against the first, worth less lowers it;
    without the improve weight the same rows teach the first option (the one taken)."""
    before = _leaning(Network.fresh(1), _one_decision(1, (0.0, 0.0)))
    improved = {worth: _leaning(*_trained(worth, 1.0)) for worth in ((0.0, 3.0), (3.0, 0.0))}
    assert improved[(0.0, 3.0)] > before + 0.5
    assert improved[(3.0, 0.0)] < before - 0.5
    taught = _leaning(*_trained((0.0, 3.0), 0.0))
    assert taught < before - 0.5  # a choice taught: the first, taken


@needs_corpus
def test_the_improve_command_plays_pairs_and_learns_beside_people(tmp_path: Path) -> None:
    games = split(CORPUS)
    people = tmp_path / "people"
    width = Network.load(WEIGHTS).options
    game_positions(Game(games.learn[0], 1, people / "shard-00000.npz", swap=False, width=width))
    corpus = tmp_path / "corpus"
    (corpus / "g").mkdir(parents=True)
    held = next(f"h{i}.xml" for i in range(100) if is_held(corpus, corpus / "g" / f"h{i}.xml"))
    shutil.copy(games.held[0], corpus / "g" / held)
    rules = "4p hanchan aka kuitan houou GO=169"
    (corpus / "INDEX.tsv").write_text(
        "file\tformat\tkyoku\thora\tryukyoku\trules\tnote\n"
        f"g/{held}\ttenhou-mjlog-xml\t0\t0\t0\t{rules}\tcomplete\n"
    )
    args = ["learn", "improve", "--corpus", str(corpus), "--dir", str(tmp_path / "l")]
    args += ["--people", str(people), "--matches", "1", "--length", "one-hand"]
    args += ["--jobs", "1", "--doubt", "0.3"]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    assert "pairs played out in 1 matches" in done.output
    entry = json.loads((tmp_path / "l" / "rounds.jsonl").read_text().splitlines()[-1])
    assert entry["round"] == "improve" and entry["pairs"] > 0 and entry["decisions"] > 100
    assert entry["pair_rows"] == 12 * entry["pairs"]  # each position copied by suits and ranks
    assert len(list((tmp_path / "l" / "data-pairs").glob("shard-*.npz"))) == 1
    improved = Network.load(tmp_path / "l" / "improved.npz")
    assert improved.margin is None  # its policy plays
    assert not np.array_equal(improved.w1, Network.load(WEIGHTS).w1)
