"""The learned player: what its network reads of an observation, self-play data and
training that give the same numbers for the same seeds, and the shipped weights,
which load with numpy alone and play."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from game_helpers import arranged_wall
from riichi.bots import make_bot
from riichi.bots.expert import ExpertBot
from riichi.bots.features import (
    FIRST_STATE_SIZE,
    MELDS_SIZE,
    OPTION_SIZE,
    READ_AT,
    SHAPE_AT,
    STATE_SIZE,
    TIME_AT,
    YAKU_AT,
    option_features,
    state_features,
    weighed,
)
from riichi.bots.learned import LearnedBot
from riichi.bots.network import INPUT, WEIGHTS, Network, NetworkError
from riichi.bots.play import play_match
from riichi.bots.training import (
    Shard,
    best_margin,
    load_data,
    margin_gains,
    play_shard,
    played_out,
    train,
    value_targets,
)
from riichi.cli import main
from riichi.game import Match, Observation, observe
from riichi.rules import Length, find_ruleset
from riichi.tiles import parse_tiles
from test_bots import start

ONE_HAND = find_ruleset("online").replace(length=Length.ONE_HAND, lengths=(Length.ONE_HAND,))


def test_the_state_holds_the_hand_by_count_and_the_red_fives() -> None:
    m = start(["111m0p5p789s12345z", "", "", ""], ["6z"])
    state = state_features(observe(m, 0))
    assert state.shape == (STATE_SIZE,) and state.dtype == np.float32
    one_m = state[0:4]
    assert list(one_m) == [1, 1, 1, 0]  # three 1m
    five_p = state[13 * 4 : 13 * 4 + 4]
    assert list(five_p) == [1, 1, 0, 0]  # two 5p, one of them red
    assert list(state[34 * 4 : 34 * 4 + 3]) == [0, 1, 0]  # the red 5p


def test_what_another_seat_holds_changes_nothing_the_network_reads() -> None:
    """Two deals that differ only in seat 1's concealed tiles and the wall read the
    same for seat 0."""
    mine = "123m456p789s1122z"

    def deal(theirs: str) -> Match:
        wall = arranged_wall([mine, theirs, "", ""], ["5z"], dora=["7z"])
        return Match(find_ruleset("online"), 0, walls=[wall] * 30)

    a, b = deal("111m222m333m444m5m"), deal("999m888m777m666m5m")
    obs_a, obs_b = observe(a, 0), observe(b, 0)
    assert np.array_equal(state_features(obs_a), state_features(obs_b))
    options_a = weighed(ExpertBot(0).evaluate(obs_a))
    options_b = weighed(ExpertBot(0).evaluate(obs_b))
    assert np.array_equal(option_features(obs_a, options_a), option_features(obs_b, options_b))


def test_options_tell_the_red_five_and_expert_s_valuation() -> None:
    m = start(["456m789s23s0p567p1z", "", "", ""], ["1z"])
    obs = observe(m, 0)
    options = weighed(ExpertBot(0).evaluate(obs))
    rows = option_features(obs, options)
    assert rows.shape == (len(options), OPTION_SIZE)
    reds = [o for o, row in zip(options, rows, strict=True) if row[7 + 34 + 1] == 1.0]
    assert reds and all(o.action.tile == parse_tiles("0p")[0] for o in reds)
    first = SHAPE_AT - 1
    assert rows[0, first] == 1.0 and not rows[1:, first].any()  # expert's first


def test_an_option_tells_where_its_tile_sits_in_the_hand() -> None:
    """Copies held, neighbours in the suit, an honour and whether it is a yakuhai,
    copies unseen, and suji: with 1p and 7p in the right seat's river, 4p is suji
    against that seat."""
    import dataclasses

    from riichi.bots.expert import Valued

    m = start(["113m46p789s11377z", "", "", ""], ["6z"])
    obs = observe(m, 0)
    river = tuple((t, False, False, False) for t in parse_tiles("17p"))
    obs = dataclasses.replace(obs, discards=(obs.discards[0], river, *obs.discards[2:]))

    def shape(name: str) -> list[float]:
        kind = parse_tiles(name)[0] >> 2
        action = next(a for a in obs.legal if a.tile is not None and a.tile >> 2 == kind)
        rows = option_features(obs, [Valued(action, 0.0)])
        return [float(x) for x in rows[0, SHAPE_AT:READ_AT]]

    # copies held (1 to 4), neighbours -2 -1 +1 +2, honour, terminal, yakuhai, unseen,
    # suji against right, across, left; then what the hand is after letting it go:
    # shanten above the best (in halves of 2), tenpai, tiles accepted (of 34), and
    # against the most of the best shanten. Letting 3z or 6z go leaves two-shanten
    # accepting 1m 2m 5p 1z 7z (14 tiles unseen), 1m leaves 12 and 4p three-shanten.
    assert shape("1m") == pytest.approx(
        [0, 1, 0, 0, 0, 0, 0, 0.25, 0, 1, 0, 0.5, 0, 0, 0, 0, 0, 12 / 34, 12 / 14]
    )
    assert shape("4p") == [1, 0, 0, 0, 0, 0, 0, 0.25, 0, 0, 0, 0.75, 1, 0, 0, 0.5, 0, 1, 0]
    assert shape("6p")[:15] == [1, 0, 0, 0, 0.25, 0, 0, 0, 0, 0, 0, 0.75, 0, 0, 0]
    assert shape("1z")[8:11] == [1, 0, 1]  # East: the seat's and the round's wind
    assert shape("3z")[8:11] == [1, 0, 0]  # West: no yakuhai for East's seat
    assert shape("3z")[15:] == pytest.approx([0, 0, 14 / 34, 1])
    assert shape("7z")[:4] == [0, 1, 0, 0] and shape("6z")[8:11] == [1, 0, 1]


def test_the_state_tells_every_seat_s_calls_by_kind() -> None:
    import dataclasses

    m = start(["113m46p789s11377z", "", "", ""], ["6z"])
    obs = observe(m, 0)
    mine, right = parse_tiles("123s"), parse_tiles("555z")
    obs = dataclasses.replace(obs, meld_tiles=((tuple(mine),), (tuple(right),), (), ()))
    state = state_features(obs)
    calls = state[FIRST_STATE_SIZE + 1 : FIRST_STATE_SIZE + MELDS_SIZE].reshape(4, 34)
    assert state[FIRST_STATE_SIZE] == 0.25  # one call of the seat's own
    assert list(calls[0, 18:21]) == [0.25, 0.25, 0.25] and calls[0].sum() == 0.75
    assert calls[1, 31] == 0.75 and calls[1].sum() == 0.75  # right: a pon of white dragons
    assert not calls[2:].any()


def test_the_state_tells_who_may_be_tenpai_and_the_seat_s_own_progress() -> None:
    """The right seat declared riichi (expert reads it tenpai for sure, and what a
    deal-in would cost); the across seat's last discard came from its hand, the left
    seat's was drawn and let go. The seat itself is two-shanten."""
    import dataclasses

    m = start(["113m46p789s11377z", "", "", ""], ["6z"])
    obs = observe(m, 0)
    right = tuple((t, False, i == 1, False) for i, t in enumerate(parse_tiles("19m")))
    across = ((parse_tiles("9p")[0], False, False, False),)
    left = ((parse_tiles("9s")[0], True, False, False),)
    obs = dataclasses.replace(
        obs, discards=(obs.discards[0], right, across, left), riichi=(False, True, False, False)
    )
    read = state_features(obs)[FIRST_STATE_SIZE + MELDS_SIZE :]
    threats = read[:9].reshape(3, 3)
    assert threats[0, 0] == 1.0 and threats[0, 1] > 0.1  # ready, and the cost of dealing in
    assert list(threats[1:, 2]) == [1.0, 0.0]  # from the hand, then drawn and let go
    assert list(read[9:13]) == [0, 0, 1, 0]  # two-shanten
    # the best discard accepts 1m 2m 5p 1z 7z: 14 tiles, less the 1m in the right river
    assert read[13] == pytest.approx(13 / 34)


def test_the_state_tells_what_yaku_and_dora_the_tiles_lean_to() -> None:
    """11m 3m 46p 789s 11z 3z 6z 77z with 6z showing (7z the dora): nine terminals and
    honours, three of the most held suit, six honours, three pairs, two of them yakuhai
    for East (its wind and the round's, and red), two dora; no set called. A called
    5z triplet is a yakuhai for the dealer: its open hand has a yaku."""
    import dataclasses

    m = start(["113m46p789s11377z", "", "", ""], ["6z"])
    obs = dataclasses.replace(observe(m, 0), dora_indicators=tuple(parse_tiles("6z")))
    lean = state_features(obs)[TIME_AT - 7 : TIME_AT]
    assert list(lean) == pytest.approx([9 / 14, 3 / 14, 6 / 14, 3 / 7, 2 / 3, 2 / 8, 0])
    called = dataclasses.replace(obs, meld_tiles=((tuple(parse_tiles("555z")),), (), (), ()))
    lean = state_features(called)[TIME_AT - 2 : TIME_AT]
    assert list(lean) == [2 / 8, 1.0]


def test_the_round_s_wind_is_a_yakuhai_for_every_seat() -> None:
    """In East's round, 1z is a yakuhai for South too, and the state says East's round."""
    from riichi.bots.expert import Valued
    from riichi.game import Action, ActionType

    m = start(["113m46p789s11377z", "123m456p789s1122z", "", ""], ["6z"])
    obs = observe(m, 1)
    assert list(state_features(obs)[FIRST_STATE_SIZE - 10 : FIRST_STATE_SIZE - 8]) == [1, 0]
    assert obs.hand is not None
    east = next(t for t in obs.hand if t >> 2 == parse_tiles("1z")[0] >> 2)
    rows = option_features(obs, [Valued(Action(ActionType.DISCARD, east), 0.0)])
    assert rows[0, SHAPE_AT + 8 : SHAPE_AT + 11].tolist() == [1, 0, 1]  # honour, yakuhai


def test_an_option_tells_each_seat_s_chance_to_ron_it() -> None:
    """Against a riichi with 1m and 9m in its river and 2p passed by the across seat
    since it was declared (so across can never ron it either): those can never deal in;
    5p can, to the riichi alone."""
    import dataclasses

    from riichi.bots.expert import Valued
    from riichi.game import Action, ActionType

    m = start(["119m25p789s11377z", "", "", ""], ["6z"])
    obs = observe(m, 0)
    # in turn order: East 2z, right 1m, across 4z, left 4z, East 2z, right 9m (riichi),
    # across 2p, left 3z; East to play
    east = tuple((t, False, False, False) for t in parse_tiles("22z"))
    right = tuple((t, False, i == 1, False) for i, t in enumerate(parse_tiles("19m")))
    across = tuple((t, False, False, False) for t in parse_tiles("4z2p"))
    left = tuple((t, False, False, False) for t in parse_tiles("44z")[1:] + parse_tiles("3z"))
    obs = dataclasses.replace(
        obs, discards=(east, right, across, left), riichi=(False, True, False, False)
    )

    def read(name: str) -> list[float]:
        kind = parse_tiles(name)[0] >> 2
        tile = next(t for t in obs.hand or () if t >> 2 == kind)
        rows = option_features(obs, [Valued(Action(ActionType.DISCARD, tile), 0.0)])
        return [float(x) for x in rows[0, READ_AT : READ_AT + 6]]

    assert read("9m") == [0, 1, 0, 0, 0, 0]  # in the riichi seat's river
    assert read("2p") == [0, 1, 0, 1, 0, 0]  # passed since its riichi; across's own
    five = read("5p")
    assert five[0] > 0.0 and five[1:] == [0, 0, 0, 0, 0]  # only the riichi is read ready


def test_a_call_option_tells_the_hand_after_it() -> None:
    """23m 456p 789s 11z 55z 7z is one-shanten; a pon of 5z, then 7z let go, leaves it
    tenpai on 1m and 4m: eight tiles, none seen."""
    import dataclasses

    from riichi.bots.expert import Valued
    from riichi.game import Action, ActionType

    m = start(["113m46p789s11377z", "", "", ""], ["6z"])
    obs = observe(m, 0)
    hand = tuple(parse_tiles("23m456p789s1155z7z"))
    obs = dataclasses.replace(obs, hand=hand, drawn=None)
    fives = tuple(t for t in hand if t >> 2 == parse_tiles("5z")[0] >> 2)
    pon = Action(ActionType.PON, fives[0] + 2, fives)
    rows = option_features(obs, [Valued(pon, 0.0), Valued(Action(ActionType.PASS), 0.0)])
    assert list(rows[0, READ_AT + 6 : YAKU_AT]) == pytest.approx([1, 1, 8 / 34, 0])
    assert not rows[1, READ_AT:].any()  # the pass lets nothing go and calls nothing


def test_a_call_option_tells_the_yaku_the_hand_keeps() -> None:
    """A pon of 5z from 23m 456p 789s 11z 55z 7z: a yakuhai set, no all simples (9s 11z
    7z left), a flush in a suit held most five tiles off, all triplets so far
    with one pair left. A chi of 2m with 34m from 34m 456p 66s 234s 567s: all simples
    with no terminal or honour left, a manzu flush eleven tiles off."""
    import dataclasses

    from riichi.bots.expert import Valued
    from riichi.game import Action, ActionType

    m = start(["113m46p789s11377z", "", "", ""], ["6z"])
    base = dataclasses.replace(observe(m, 0), drawn=None)

    def yaku(hand: str, kind: ActionType, taken: str, used: str) -> list[float]:
        tiles = list(parse_tiles(hand))
        obs = dataclasses.replace(base, hand=tuple(tiles))
        held = []
        for u in parse_tiles(used):
            held.append(next(t for t in tiles if t >> 2 == u >> 2 and t not in held))
        call = Action(kind, parse_tiles(taken)[0] + 3, tuple(held))
        rows = option_features(obs, [Valued(call, 0.0), Valued(Action(ActionType.PASS), 0.0)])
        assert not rows[1, YAKU_AT:].any()
        return [float(x) for x in rows[0, YAKU_AT:]]

    pon = yaku("23m456p789s1155z7z", ActionType.PON, "5z", "55z")
    assert pon == pytest.approx([0, 4 / 14, 1, 5 / 14, 1, 1 / 5])
    chi = yaku("34m456p66s234s567s", ActionType.CHI, "2m", "34m")
    assert chi == pytest.approx([1, 0, 1, 11 / 14, 0, 0])


def test_weights_trained_before_numbers_were_added_read_them_as_nothing(tmp_path: Path) -> None:
    """A file from before the calls' kinds (state) and the tile's shape (option) loads
    with zero rows for them, where they sit: it plays exactly as it did. A file newer
    than the features is refused."""
    network = Network.fresh(3)
    w1 = network.w1
    old = np.concatenate([w1[:FIRST_STATE_SIZE], w1[STATE_SIZE : STATE_SIZE + SHAPE_AT]])
    layers = {**network.params(), "w1": old}
    np.savez_compressed(tmp_path / "old.npz", **layers)  # no layout: as every older file
    loaded = Network.load(tmp_path / "old.npz")
    assert loaded.w1.shape == w1.shape
    kept = np.r_[0:FIRST_STATE_SIZE, STATE_SIZE : STATE_SIZE + SHAPE_AT]
    assert np.array_equal(loaded.w1[kept], w1[kept])
    added = np.r_[FIRST_STATE_SIZE:STATE_SIZE, STATE_SIZE + SHAPE_AT : INPUT]
    assert not loaded.w1[added].any()
    network.save(tmp_path / "now.npz")
    assert np.array_equal(Network.load(tmp_path / "now.npz").w1, w1)
    np.savez_compressed(
        tmp_path / "newer.npz",
        **{**network.params(), "w1": np.concatenate([w1, w1[:1]])},
        layout=np.array([STATE_SIZE, OPTION_SIZE + 1]),
    )
    with pytest.raises(NetworkError, match="newer"):
        Network.load(tmp_path / "newer.npz")


def test_self_play_data_and_training_are_the_same_for_the_same_seeds(tmp_path: Path) -> None:
    shard = Shard(7, 2, tmp_path / "a" / "shard-7.npz", length="east", epsilon=0.3)
    again = Shard(7, 2, tmp_path / "b" / "shard-7.npz", length="east", epsilon=0.3)
    written = play_shard(shard)
    assert written == play_shard(again) > 20
    one, two = load_data([tmp_path / "a"]), load_data([tmp_path / "b"])
    assert np.array_equal(one.state, two.state) and np.array_equal(one.taken, two.taken)
    assert one.explored.any() and (one.taken != one.chosen).any()  # it explored
    assert set(np.unique(one.place)) <= {1, 2, 3, 4}
    net_a, log_a = train(one, one.chosen.astype(np.int64), seed=3, epochs=2, batch=16)
    net_b, _ = train(two, two.chosen.astype(np.int64), seed=3, epochs=2, batch=16)
    for key, value in net_a.params().items():
        assert np.array_equal(value, net_b.params()[key])
    assert log_a[1].policy_loss < log_a[0].policy_loss  # it learns
    targets = value_targets(one, net_a, margin=0.5)
    assert targets.shape == one.chosen.shape and (targets < one.count).all()


def test_the_shipped_weights_load_and_play_a_hand_the_same_way_for_a_seed() -> None:
    assert WEIGHTS.exists() and WEIGHTS.stat().st_size < 4_000_000
    network = Network.load()
    assert network.w1.shape[0] == STATE_SIZE + OPTION_SIZE

    def play() -> list[str]:
        bots = [LearnedBot(f"ship:{s}") for s in range(4)]
        match = play_match(Match(ONE_HAND, 5, [b.name for b in bots]), bots)
        assert match.over
        return [str(a) for a in match.actions]

    assert play() == play()
    assert make_bot("learned").name == "learned (bot)"


def test_a_call_bias_kept_with_the_weights_makes_the_player_call_more(tmp_path: Path) -> None:
    """``call_bias`` is added to the policy score of chi, pon and open kan, stored
    with the weights: a large one calls wherever expert weighs a call among its best."""
    network = Network.load()
    network.call_bias = 50.0
    network.save(tmp_path / "calls.npz")
    assert Network.load(tmp_path / "calls.npz").call_bias == 50.0
    assert Network.load().call_bias == 0.0

    def calls(weights: Path) -> int:
        made = 0
        for seed in range(4):
            bots = [LearnedBot(f"calls:{seed}:{s}", weights=weights) for s in range(4)]
            match = play_match(Match(ONE_HAND, seed, [b.name for b in bots]), bots)
            made += sum(a.type.value in ("chi", "pon", "kan") for _, a in match.actions)
        return made

    assert calls(tmp_path / "calls.npz") > calls(WEIGHTS)


def test_the_data_command_writes_shards(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["learn", "data", "--out", str(tmp_path), "--matches", "1", "--jobs", "1", "--seed", "3"],
    )
    assert result.exit_code == 0, result.output
    assert "positions from 1 matches" in result.output
    assert len(list(tmp_path.glob("shard-*.npz"))) == 1
    assert len(load_data([tmp_path])) > 0


def test_positions_gathered_with_other_features_are_refused_in_one_error(tmp_path: Path) -> None:
    """Shards written before numbers were added to the options are not trained on (the
    network's first layer no longer fits them): one clear error says to gather them
    again, before any training starts."""
    shard = tmp_path / "shard-30.npz"
    play_shard(Shard(30, 1, shard, length="east"))
    with np.load(shard) as data:
        older = {k: data[k] for k in data.files}
    older["options"] = older["options"][:, :, :-1]
    np.savez_compressed(shard, **older)
    with pytest.raises(ValueError, match="gather the positions again"):
        load_data([tmp_path])


def test_the_learned_player_reviews_with_its_choice_first_on_expert_s_scale() -> None:
    from riichi.bots.review import review_match
    from riichi.bots.reviewers import reviewer_for

    bots = [make_bot("expert", s) for s in range(4)]
    match = play_match(Match(ONE_HAND, 9, [b.name for b in bots]), bots)
    review = review_match(match, 0, reviewer_for("learned"))
    assert review.reviewer.startswith("learned") and review.decisions
    for d in review.decisions:
        texts = [o.text for o in d.options]
        assert len(texts) == len(set(texts))  # each option once, the choice first


def test_training_keeps_the_epoch_best_on_matches_it_did_not_learn_from(tmp_path: Path) -> None:
    """Positions of one match share its final place: the held-out matches (every
    tenth seed), not the training set's losses, choose the weights kept."""
    play_shard(Shard(10, 2, tmp_path / "shard-10.npz", length="east", epsilon=0.2))
    data = load_data([tmp_path])
    assert set(np.unique(data.match)) == {10, 11}
    network, log = train(data, data.chosen.astype(np.int64), seed=1, epochs=3, batch=32)
    held = [s.held_policy + s.held_hand + s.held_place for s in log]
    assert all(h > 0 for h in held)
    again, _ = train(
        data, data.chosen.astype(np.int64), seed=1, epochs=held.index(min(held)) + 1, batch=32
    )
    for key, value in network.params().items():  # the best epoch's weights, not the last's
        assert np.array_equal(value, again.params()[key])


def test_every_option_is_played_out_on_the_same_true_walls(tmp_path: Path) -> None:
    """The labels of the edge head: each option of a decision played to the hand's end
    by experts on a copy of the match; the match itself is not moved, and an option
    played twice is worth the same twice."""
    match = Match(ONE_HAND, 4)
    judges = [ExpertBot(f"4:{s}") for s in range(4)]
    seat = next(iter(match.legal_actions()))
    obs = observe(match, seat)
    options = weighed(judges[seat].evaluate(obs))
    assert len(options) > 1
    before = len(match.actions)
    worth = played_out(match, obs, [*options, options[0]], judges)
    assert len(match.actions) == before
    assert worth[0] == worth[-1] and worth == played_out(match, obs, options + options[:1], judges)
    shard = Shard(4, 1, tmp_path / "shard-4.npz", length="east", truth=0.1)
    play_shard(shard)
    data = load_data([tmp_path])
    labelled = ~np.isnan(data.truth[:, 0])
    assert 0 < labelled.sum() < len(data)
    for row, count in zip(data.truth[labelled], data.count[labelled], strict=True):
        assert not np.isnan(row[:count]).any() and np.isnan(row[count:]).all()


def test_the_edge_head_learns_which_option_played_out_better(tmp_path: Path) -> None:
    """Labels that say every option but expert's choice is worth 3,000 points more (on
    every wall) teach the edge head so: the held-out gain of playing by it is found at
    the margins below 3,000, and the bot leaves expert's choice there, not above."""
    play_shard(Shard(20, 2, tmp_path / "shard-20.npz", length="east", epsilon=0.0))
    data = load_data([tmp_path])
    truth = np.full_like(data.truth, np.nan)
    for i, count in enumerate(data.count):
        truth[i, :count] = np.random.default_rng(i).normal(0, 0.3, count)
        truth[i, 1:count] += 3.0
    data.truth = truth
    network, log = train(data, data.chosen.astype(np.int64), seed=2, epochs=20, batch=32)
    assert log[-1].edge_loss < log[0].edge_loss
    gains = {g.margin: g for g in margin_gains(data, network)}
    assert gains[0.5].gain > 2.0 and gains[0.5].left > 0.8 * gains[0.5].decisions
    assert best_margin(list(gains.values())) < 3.0
    network.margin = 0.5
    saved = tmp_path / "edge.npz"
    network.save(saved)
    assert Network.load(saved).margin == 0.5
    bot = LearnedBot(0, weights=saved)
    m = start(["456m789s23s0p567p1z", "", "", ""], ["1z"])
    played, kept, _ = bot.choose(observe(m, 0))
    assert len(kept) > 1 and played != kept[0]
    network.margin = 4.0  # no option leads expert's by that much: expert's choice
    assert LearnedBot(0, network=network).choose(observe(m, 0))[0] == kept[0]


def _swap_tile(t: int, suits: tuple[int, ...], mirrored: bool = False) -> int:
    kind = t >> 2
    if kind >= 27:
        return t
    return (suits[kind // 9] * 9 + (8 - kind % 9 if mirrored else kind % 9)) * 4 + t % 4


def _renamed(obs: Observation, turn: Callable[[int], int]) -> Observation:
    """``obs`` with every tile on the table renamed by ``turn``."""
    import dataclasses

    assert obs.hand is not None
    return dataclasses.replace(
        obs,
        hand=tuple(map(turn, obs.hand)),
        dora_indicators=tuple(map(turn, obs.dora_indicators)),
        discards=tuple(tuple((turn(t), *rest) for t, *rest in river) for river in obs.discards),
        meld_tiles=tuple(tuple(tuple(map(turn, m)) for m in melds) for melds in obs.meld_tiles),
    )


def test_a_position_with_its_suits_traded_is_the_same_position() -> None:
    """Trading the suits on the table's tiles moves the features as ``suit_swap`` says:
    a red five stays red, a dora stays the dora, a river keeps its tiles."""
    import itertools

    from riichi.bots.expert import Valued
    from riichi.bots.features import suit_swap
    from riichi.game import Action

    match = Match(find_ruleset("online"), 11)
    while len(match.actions) < 45:
        seat = next(iter(match.legal_actions()))
        match.apply(seat, match.legal_actions()[seat][0])
    seat = next(iter(match.legal_actions()))
    obs = observe(match, seat)
    assert obs.hand is not None and any(obs.discards)
    option = Valued(next(a for a in obs.legal if a.tile is not None), 100.0, 50.0, 0.2, 3900)
    for suits in itertools.permutations(range(3)):

        def swap(t: int, suits: tuple[int, ...] = suits) -> int:
            return _swap_tile(t, suits)

        traded = _renamed(obs, swap)
        a = option.action
        moved = Valued(
            Action(a.type, swap(a.tile or 0), tuple(map(swap, a.tiles))), 100.0, 50.0, 0.2, 3900
        )
        state_map, option_map = suit_swap(suits)
        assert np.array_equal(state_features(traded), state_features(obs)[state_map])
        assert np.array_equal(
            option_features(traded, [moved]), option_features(obs, [option])[:, option_map]
        )
        if suits != (0, 1, 2):
            assert not np.array_equal(state_features(traded), state_features(obs))


def test_a_position_with_its_ranks_mirrored_is_the_same_position() -> None:
    """Read from 9 down (and its suits traded), a position's features move as
    ``suit_swap(..., mirrored=True)`` says: a tile's neighbours below become those
    above, a terminal stays a terminal, a five stays a five. The dora's indicator is an
    honour here: a mirrored number indicator no longer points at the mirrored dora."""
    import dataclasses
    import itertools

    from riichi.bots.features import suit_swap
    from riichi.game import ActionType

    match = Match(find_ruleset("online"), 12)
    positions = []  # a chi offered, then a discard's turn
    while len(positions) < 2:
        seat = next(iter(match.legal_actions()))
        obs = dataclasses.replace(observe(match, seat), dora_indicators=(27 * 4,))
        judged = weighed(ExpertBot(0).evaluate(obs), 6)
        kinds = {o.action.type for o in judged}
        wanted = ActionType.DISCARD if positions else ActionType.CHI
        if len(match.actions) >= 70 and wanted in kinds:
            positions.append((obs, judged))
        match.apply(seat, match.legal_actions()[seat][0])
    for (obs, judged), suits in itertools.product(positions, itertools.permutations(range(3))):
        assert obs.hand is not None and any(t >> 2 < 27 and (t >> 2) % 9 != 4 for t in obs.hand)

        def turn(t: int, suits: tuple[int, ...] = suits) -> int:
            return _swap_tile(t, suits, mirrored=True)

        mirrored = _renamed(obs, turn)  # the honour indicator stays as it is
        moved = [
            dataclasses.replace(
                o,
                action=dataclasses.replace(
                    o.action,
                    tile=None if o.action.tile is None else turn(o.action.tile),
                    tiles=tuple(map(turn, o.action.tiles)),
                ),
            )
            for o in judged
        ]
        state_map, option_map = suit_swap(suits, mirrored=True)
        assert np.array_equal(state_features(mirrored), state_features(obs)[state_map])
        assert np.array_equal(
            option_features(mirrored, moved), option_features(obs, judged)[:, option_map]
        )
        assert not np.array_equal(option_features(mirrored, moved), option_features(obs, judged))


def test_how_many_options_a_network_weighs_is_kept_with_its_weights(tmp_path: Path) -> None:
    """Files written before the number was a setting load as four; a wider network's
    file says its width."""
    network = Network.fresh(2)
    assert network.options == 4
    network.save(tmp_path / "four.npz")
    with np.load(tmp_path / "four.npz") as data:
        assert "options" not in data.files
    assert Network.load(tmp_path / "four.npz").options == 4
    network.options = 6
    network.save(tmp_path / "six.npz")
    assert Network.load(tmp_path / "six.npz").options == 6


def test_the_arena_command_measures_the_lead_by_wall_against_a_bot_named() -> None:
    """Two learned players against two players who only ever discard what they draw,
    two walls in all six seatings: twelve hanchans, places that add up, and a lead."""
    done = CliRunner().invoke(
        main,
        ["learn", "arena", "--against", "tsumogiri", "--walls", "2", "--seed", "7", "--jobs", "1"],
    )
    assert done.exit_code == 0, done.output
    result = json.loads(done.output.strip().splitlines()[-1])
    assert result["hanchans"] == 12
    assert result["learned_place"] + result["tsumogiri_place"] == pytest.approx(5)
    lead = result["tsumogiri_place"] - result["learned_place"]
    assert result["lead"] == pytest.approx(lead) and lead > 0.5
    refused = CliRunner().invoke(main, ["learn", "arena", "--against", "nobody", "--seed", "1"])
    assert refused.exit_code == 2 and "unknown bot 'nobody'" in refused.output


def test_the_arena_command_sets_weights_against_the_shipped_learned_player() -> None:
    """Against ``learned`` both sides are learned players: they are told apart by
    their weights, so the two sides' places still add up and the lead is their gap
    (the shipped weights against themselves: every seat plays the same way)."""
    arena = ["learn", "arena", str(WEIGHTS), "--against", "learned", "--walls", "2"]
    done = CliRunner().invoke(main, [*arena, "--seed", "7", "--jobs", "1"])
    assert done.exit_code == 0, done.output
    result = json.loads(done.output.strip().splitlines()[-1])
    assert result["learned_place"] + result["shipped_place"] == pytest.approx(5)
    lead = result["shipped_place"] - result["learned_place"]
    assert result["lead"] == pytest.approx(lead) and abs(lead) < 1
    # the same file named as the other side too could not be told apart: refused
    itself = ["learn", "arena", str(WEIGHTS), "--against", f"learned:{WEIGHTS}", "--seed", "7"]
    refused = CliRunner().invoke(main, itself)
    assert refused.exit_code == 2 and "is WEIGHTS" in refused.output


def test_three_players_count_no_2m_to_8m_as_acceptance() -> None:
    """A three-player wall holds no 2m to 8m: the tiles an option accepts never
    count them, and they are not among the tiles the seat has not seen."""
    from riichi.bots.efficiency import visible_counts
    from riichi.bots.expert import Valued
    from riichi.hand import ukeire
    from riichi.tiles import counts_of
    from test_game_kita import start as start_three

    m = start_three(["1m456p789s123s557z", "", ""], ["6z"])
    obs = observe(m, 0)
    assert visible_counts(obs)[1:8] == [4] * 7
    assert not state_features(obs)[34 * 4 + 3 + 1 : 34 * 4 + 3 + 8].any()
    six_z = next(a for a in obs.legal if a.tile is not None and a.tile >> 2 == 32)
    accepted = option_features(obs, [Valued(six_z, 0.0)])[0, SHAPE_AT + 17] * 34
    assert obs.hand is not None
    counts = counts_of(obs.hand)
    table = {d.discard: d for d in ukeire(counts, visible_counts(obs), 0).discards}
    four_players = {d.discard: d for d in ukeire(counts, [0] * 34, 0).discards}
    # letting 6z go leaves 1m waiting for a pair (or, where they exist, 2m or 3m)
    assert {1, 2} <= set(four_players[32].kinds)
    assert accepted == pytest.approx(table[32].tiles) == 8  # 1m, 5z, 7z: 3 + 2 + 3
    assert four_players[32].tiles == 16


def test_a_moving_average_of_the_weights_is_what_training_keeps(tmp_path: Path) -> None:
    """With ``average`` the weights checked and kept are the steps' moving average:
    near one, it barely leaves where training started while the steps walk away."""
    play_shard(Shard(10, 2, tmp_path / "shard-10.npz", length="east", epsilon=0.2))
    data = load_data([tmp_path])
    targets = data.chosen.astype(np.int64)
    start = Network.fresh(5)
    walked, _ = train(data, targets, seed=1, epochs=2, batch=32, start=Network.fresh(5))
    kept, log = train(
        data, targets, seed=1, epochs=2, batch=32, start=Network.fresh(5), average=0.99999
    )
    again, _ = train(
        data, targets, seed=1, epochs=2, batch=32, start=Network.fresh(5), average=0.99999
    )
    for key, value in start.params().items():
        moved = float(np.abs(walked.params()[key] - value).max())
        assert moved > 0
        assert float(np.abs(kept.params()[key] - value).max()) < moved / 100
        assert np.array_equal(kept.params()[key], again.params()[key])
    assert all(s.held_policy > 0 for s in log)


def test_the_state_tells_how_many_hands_the_match_has_left() -> None:
    """A hanchan's first hand has seven after it, South 4 none (its last), a West hand
    is past the match's length (an extension: any hand may be the last); an
    east-only match's East 2 has two left. The seat's own river is read by kind."""
    import dataclasses

    from riichi.tiles import SOUTH, WEST

    m = start(["113m46p789s11377z", "", "", ""], ["6z"])
    obs = observe(m, 0)

    def time(o: Observation) -> list[float]:
        return [float(x) for x in state_features(o)[TIME_AT : TIME_AT + 6]]

    assert time(obs) == [0, 0, 0, 1, 7 / 8, 0]
    assert time(dataclasses.replace(obs, round_wind=SOUTH, dealer=3)) == [1, 0, 0, 0, 0, 0]
    assert time(dataclasses.replace(obs, round_wind=SOUTH, dealer=1)) == [0, 0, 1, 0, 2 / 8, 0]
    assert time(dataclasses.replace(obs, round_wind=WEST, dealer=0)) == [1, 0, 0, 0, 0, 1]
    every = tuple(Length)
    east = obs.rules.replace(length=Length.EAST, lengths=every)
    assert time(dataclasses.replace(obs, rules=east, dealer=1)) == [0, 0, 1, 0, 2 / 8, 0]
    one = dataclasses.replace(obs, rules=obs.rules.replace(length=Length.ONE_HAND, lengths=every))
    assert time(one) == [1, 0, 0, 0, 0, 0]
    river = tuple((t, False, False, False) for t in parse_tiles("19m5z"))
    played = dataclasses.replace(obs, discards=(river, (), (), ()))
    own = state_features(played)[TIME_AT + 6 :]
    assert own[0] == 3 / 24 and sorted(np.flatnonzero(own[1:])) == [0, 8, 31]
    assert not state_features(obs)[TIME_AT + 6 :].any()
