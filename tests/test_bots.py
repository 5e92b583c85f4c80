"""Built-in bots and the arena."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from game_helpers import arranged_wall
from riichi.bots import BOT_LABEL, Agent, EfficiencyBot, RandomBot, TsumogiriBot, make_bot
from riichi.bots.arena import play_task, run, summarise, tasks
from riichi.bots.defensive import discard_order
from riichi.cli import main
from riichi.game import Action, ActionType, Match, observe
from riichi.rules import find_ruleset
from riichi.tiles import parse_kind


def start(hands: list[str], draws: list[str]) -> Match:
    return Match(find_ruleset("online"), 0, walls=[arranged_wall(hands, draws)] * 30)


def test_bots_are_agents_and_labelled_as_bots() -> None:
    for name in ("random", "tsumogiri", "efficiency"):
        bot = make_bot(name, 1)
        assert isinstance(bot, Agent)
        assert bot.name.endswith(BOT_LABEL)


def test_efficiency_lets_a_lone_honour_go_and_keeps_tenpai() -> None:
    m = start(["123m456p789s1122z", "", "", ""], ["5z"])
    action = EfficiencyBot(0).act(observe(m, 0))
    assert action.type is ActionType.RIICHI and action.tile is not None and action.tile >> 2 == 31


def test_efficiency_takes_a_win() -> None:
    m = start(["123m456p789s1122z", "", "", ""], ["1z"])
    assert EfficiencyBot(0).act(observe(m, 0)).type is ActionType.TSUMO


def discard_kind(m: Match, kind: int) -> None:
    seat, actions = next(iter(m.legal_actions().items()))
    m.apply(
        seat,
        next(
            a
            for a in actions
            if a.type is ActionType.DISCARD and a.tile is not None and a.tile >> 2 == kind
        ),
    )


def test_efficiency_pons_a_dragon_but_not_a_plain_tile_without_yaku() -> None:
    dealer = "7z9m2m5m3p6p9p1s4s7s2z4z6z"
    # seat 1 is 2-shanten with a pair of red dragons: the pon gives a yaku and a set
    m = start([dealer, "77z123m456p78s19p3z", "", ""], ["3z"])
    discard_kind(m, 33)
    assert EfficiencyBot(0).act(observe(m, 1)).type is ActionType.PON
    # the same shape with a pair of 9m: a pon of 9m would leave no yaku
    m = start([dealer, "99m123m456p78s19p3z", "", ""], ["3z"])
    discard_kind(m, 8)
    assert [a.type for a in m.legal_actions()[1]] == [ActionType.PON, ActionType.PASS]
    assert EfficiencyBot(0).act(observe(m, 1)).type is ActionType.PASS


def test_tsumogiri_discards_its_draw_and_never_calls() -> None:
    m = start(["123m456p789s1134z", "", "", ""], ["6z"])
    action = TsumogiriBot().act(observe(m, 0))
    assert action == Action(ActionType.DISCARD, m.kyoku.drawn)


def test_bots_are_deterministic_for_a_seed() -> None:
    one, _ = play_task(
        tasks(["random", "efficiency", "random", "efficiency"], 1, "online", 5, False)[0]
    )
    two, _ = play_task(
        tasks(["random", "efficiency", "random", "efficiency"], 1, "online", 5, False)[0]
    )
    assert one == two
    a, b = RandomBot(3), RandomBot(3)
    m = Match(find_ruleset("online"), 1)
    assert a.act(observe(m, 0)) == b.act(observe(m, 0))


def test_duplicate_plays_every_seating_on_each_wall_once() -> None:
    work = tasks(["efficiency", "random", "random", "random"], 2, "online", 7, True)
    assert len(work) == 8
    assert {t.seed for t in work} == {7, 8}
    assert sorted(t.seating.index("efficiency") for t in work if t.seed == 7) == [0, 1, 2, 3]
    # two against two: each of the six ways to seat them, never one twice
    pairs = [t.seating for t in tasks(["a", "b", "a", "b"], 1, "online", 7, True)]
    assert len(pairs) == len(set(pairs)) == 6 and all(s.count("a") == 2 for s in pairs)
    # more bots than two: every rotation
    four = [t.seating for t in tasks(["a", "b", "c", "d"], 1, "online", 7, True)]
    assert four == [
        ("a", "b", "c", "d"),
        ("b", "c", "d", "a"),
        ("c", "d", "a", "b"),
        ("d", "a", "b", "c"),
    ]


@pytest.mark.arena
def test_efficiency_beats_random_in_a_duplicate_arena() -> None:
    work = tasks(["efficiency", "random", "efficiency", "random"], 4, "online", 11, True)
    stats = summarise(seats for seats, _ in run(work))
    eff, rnd = stats["efficiency"].mean_place(), stats["random"].mean_place()
    # the gap is far wider than both confidence half-widths
    assert eff[0] + eff[1] < rnd[0] - rnd[1]
    # a random bot wins only when chance hands it a win and it happens to take it
    assert stats["random"].wins * 20 < stats["efficiency"].wins


def test_arena_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "arena",
            "--bots",
            "efficiency,random,tsumogiri,random",
            "--games",
            "1",
            "--duplicate",
            "--jobs",
            "1",
            "--rules",
            "online",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "4 matches under online (duplicate)" in result.stdout
    assert "efficiency" in result.stdout and "±" in result.stdout
    records = sorted(tmp_path.glob("match-*.json"))
    assert len(records) == 4
    assert json.loads(records[0].read_text())["version"] == 1
    bad = CliRunner().invoke(main, ["arena", "--bots", "efficiency,nobody,random,random"])
    assert bad.exit_code == 2 and "unknown bot 'nobody'" in bad.output


def riichi_threat() -> Match:
    """Seat 1 declares riichi on a 2p; the dealer, far from tenpai, holds 456p."""
    from test_game_rules import pass_others, tsumogiri

    hands = ["456p258m369s2346z", "234567m234p6799s", "", ""]
    m = start(hands, ["8p", "5p", "", "", "9p"])
    tsumogiri(m, 0)
    riichi = next(a for a in m.legal_actions()[1] if a.type is ActionType.RIICHI)
    m.apply(1, riichi)
    pass_others(m)
    tsumogiri(m, 2)
    tsumogiri(m, 3)
    return m


def test_defensive_folds_to_genbutsu_against_riichi() -> None:
    m = riichi_threat()
    bot = make_bot("defensive")
    assert bot.threats(observe(m, 0)) == [1]  # type: ignore[attr-defined]
    action = bot.act(observe(m, 0))
    assert action.type is ActionType.DISCARD and action.tile is not None
    assert action.tile >> 2 == 13  # the 5p the riichi player threw: safe
    efficient = EfficiencyBot(0).act(observe(m, 0))
    assert efficient.tile is not None and efficient.tile >> 2 != 13  # it would keep 456p


def seat_2_pons_the_dealers_first_tile() -> Match:
    """The dealer lets a red dragon go, seat 2 pons it (seat 1 loses its turn) and
    discards."""
    from test_game_rules import pass_others

    dealer = "7z9m2m5m3p6p9p1s4s7s2z4z6z"
    m = start([dealer, "", "77z123m456p78s19p3z", ""], ["3z"])
    discard_kind(m, 33)
    m.apply(2, next(a for a in m.legal_actions()[2] if a.type is ActionType.PON))
    pass_others(m)
    m.apply(2, next(a for a in m.legal_actions()[2] if a.type is ActionType.DISCARD))
    pass_others(m)
    return m


def test_the_discards_are_read_in_the_order_they_were_made() -> None:
    from test_game_rules import tsumogiri

    m = seat_2_pons_the_dealers_first_tile()
    for seat in (3, 0, 1):
        tsumogiri(m, seat)
    assert discard_order(observe(m, 2)) == [(0, 0), (2, 0), (3, 0), (0, 1), (1, 0)]


def test_a_tile_let_go_before_a_riichi_is_not_safe_against_it() -> None:
    from test_game_rules import pass_others

    # the dealer lets 8p go, then seat 1 declares riichi: the 8p went by before it
    hands = ["456p258m369s2346z", "234567m234p6799s", "", ""]
    m = start(hands, ["8p", "5p", "", "", "9p"])
    m.apply(0, Action(ActionType.DISCARD, m.kyoku.drawn))
    pass_others(m)
    m.apply(1, Action(ActionType.RIICHI, m.kyoku.drawn))  # on the 5p it drew
    pass_others(m)
    bot = make_bot("defensive")
    obs = observe(m, 2)
    assert bot.danger(obs, 1, parse_kind("8p")) > 0  # type: ignore[attr-defined]
    assert bot.danger(obs, 1, parse_kind("5p")) == 0  # type: ignore[attr-defined]


def test_danger_reading() -> None:
    m = riichi_threat()
    bot = make_bot("defensive")
    obs = observe(m, 0)
    danger = bot.danger  # type: ignore[attr-defined]
    assert danger(obs, 1, 13) == 0.0  # genbutsu
    # 2p and 8p are suji of 5p: less dangerous than a plain middle tile
    assert danger(obs, 1, 10) < danger(obs, 1, 11)
    assert danger(obs, 1, 16) < danger(obs, 1, 15)
    assert danger(obs, 1, 27) <= 3.0 < danger(obs, 1, 3)  # an honour is safer than 4m


@pytest.mark.arena
def test_defensive_beats_efficiency_on_deal_ins() -> None:
    # ten walls in every seating (40 matches): fewer leave the places to chance
    work = tasks(["defensive", "efficiency", "efficiency", "efficiency"], 10, "online", 3, True)
    stats = summarise(seats for seats, _ in run(work))
    d, e = stats["defensive"], stats["efficiency"]
    assert d.deal_ins / d.hands < e.deal_ins / e.hands
    assert d.mean_place()[0] < e.mean_place()[0]


def test_open_hands_threaten_only_with_a_possible_yaku() -> None:
    from riichi.bots.defensive import DefensiveBot
    from riichi.game import Observation

    m = Match(find_ruleset("online"), 4)
    base = observe(m, 0)

    def with_melds(*sets: str) -> Observation:
        from dataclasses import replace

        from riichi.tiles import parse_tiles

        taken: set[int] = set()
        tiles = tuple(tuple(parse_tiles(s, taken)) for s in sets)
        melds = list(base.meld_tiles)
        melds[2] = tiles
        return replace(base, meld_tiles=tuple(melds))

    bot = DefensiveBot(0)
    assert bot.threats(with_melds("123m", "456p", "789s")) == []  # no yaku in sight
    assert bot.threats(with_melds("555z", "123m")) == [2]  # a dragon triplet
    assert bot.threats(with_melds("123m", "456m", "789m")) == [2]  # a flush
    assert bot.threats(with_melds("234m", "456p", "678s")) == [2]  # open tanyao
    assert bot.threats(with_melds("111m", "999p", "222s")) == [2]  # all triplets
