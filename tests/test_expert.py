"""The expert bot: choices by expected points, each read as the situation it is about."""

from __future__ import annotations

import dataclasses

import pytest

from riichi.bots import Agent, make_bot
from riichi.bots.arena import play_task, run, summarise, tasks
from riichi.bots.defensive import discard_order
from riichi.bots.expert import (
    EARLY_FAR,
    EARLY_NEAR,
    OTHER_WIN,
    PLACE_POINTS,
    ExpertBot,
    Scene,
    expected_place,
    han_points,
    win_chance,
)
from riichi.bots.play import play_match
from riichi.game import Action, ActionType, Match, MatchStart, Observation, observe
from riichi.rules import find_ruleset
from riichi.tiles import P5, P6, P9, RED, WHITE, is_red, parse_kind
from test_bots import discard_kind, riichi_threat, seat_2_pons_the_dealers_first_tile, start


def test_the_expert_is_a_labelled_agent_on_the_roster() -> None:
    bot = make_bot("expert", 1)
    assert isinstance(bot, Agent) and isinstance(bot, ExpertBot)
    assert bot.name == "expert (bot)"


def test_the_chance_to_win_grows_with_acceptance_and_time_and_shrinks_with_danger() -> None:
    few, _, _ = win_chance(1, 8, 10, 100, 0.7, 0.04)
    many, _, _ = win_chance(1, 24, 10, 100, 0.7, 0.04)
    late, _, _ = win_chance(1, 24, 3, 100, 0.7, 0.04)
    threatened, _, _ = win_chance(1, 24, 10, 100, 0.7, 0.15)
    assert 0 < few < many < 1
    assert late < many and threatened < many
    assert win_chance(0, 6, 0, 100, 1.4, 0.04) == (0.0, 0.0, 1.0)  # tenpai at the draw
    assert win_chance(1, 24, 0, 100, 1.4, 0.04) == (0.0, 0.0, 0.0)  # noten at the draw
    tenpai, _, _ = win_chance(0, 6, 10, 100, 1.4, 0.04)
    assert tenpai > many  # tenpai is closer than one-shanten
    # a declared wait gets fewer rons than a silent one
    assert win_chance(0, 6, 10, 100, 0.7, 0.04)[0] < tenpai
    # with a draw left, one-shanten may still be tenpai at the end; less so with fewer tiles
    assert 0 < win_chance(1, 8, 1, 100, 0.7, 0.04)[2] < win_chance(1, 24, 1, 100, 0.7, 0.04)[2]


def test_han_become_points_as_the_table_pays_them() -> None:
    assert han_points(1, False) == 1000 and han_points(3, False) == 3900
    assert han_points(5, False) == 8000 and han_points(5, True) == 12000
    assert 2000 < han_points(2.5, False) < 3900
    assert han_points(0, False) == 0 and han_points(13, False) == 32000


def test_the_expert_folds_a_hopeless_hand_to_genbutsu() -> None:
    m = riichi_threat()  # seat 1 in riichi; the dealer is far from tenpai
    bot = ExpertBot(0)
    obs = observe(m, 0)
    threats = bot.read_threats(obs)
    assert [(t.seat, t.ready) for t in threats] == [(1, 1.0)]
    action = bot.act(obs)
    assert action.type is ActionType.DISCARD and action.tile is not None
    # 5p and 6p went by after the riichi without a ron: safe, though they break 456p
    assert action.tile >> 2 in (P5, P6)
    out = bot._scene(obs).out
    assert bot.deal_in(obs, 1, action.tile >> 2, out) == 0.0
    assert bot.deal_in(obs, 1, parse_kind("5m"), out) > bot.deal_in(obs, 1, parse_kind("2m"), out)


def test_what_went_by_since_an_open_hands_last_discard_is_safe_from_it_for_now() -> None:
    from test_game_rules import pass_others, tsumogiri

    m = seat_2_pons_the_dealers_first_tile()
    tsumogiri(m, 3)  # seat 3 lets a tile go
    obs = observe(m, 0)
    own, passed = (obs.discards[s][0][0] >> 2 for s in (2, 3))
    bot = ExpertBot(0)
    assert bot.cannot_ron(obs, 2) == {own, passed}  # seat 2 would be furiten on it
    # once seat 2 discards again, only its own river is safe from it
    tsumogiri(m, 0)
    tsumogiri(m, 1)
    m.apply(2, next(a for a in m.legal_actions()[2] if a.type is ActionType.DISCARD))
    pass_others(m)
    later = observe(m, 3)
    assert bot.cannot_ron(later, 2) == {d[0] >> 2 for d in later.discards[2]}


def seat_1_riichi(hands: list[str], draws: list[str], quiet_turns: int) -> Match:
    """``quiet_turns`` turns of drawn tiles let go, then the dealer lets one more go and
    seat 1 declares riichi on its draw."""
    from test_game_rules import pass_others, tsumogiri

    m = start(hands, draws)
    for _ in range(quiet_turns):
        for seat in range(4):
            tsumogiri(m, seat)
    tsumogiri(m, 0)
    m.apply(1, Action(ActionType.RIICHI, m.kyoku.drawn))
    pass_others(m)
    return m


def test_a_hand_that_lets_a_safe_tile_go_after_a_riichi_reads_as_folding() -> None:
    from test_game_rules import tsumogiri

    def after_riichi(seat_2_draws: str) -> Observation:
        # five quiet turns, then seat 1 declares riichi on a 5p and seat 2 lets go a tile
        hands = ["456p258m369s2346z", "234567m234p6799s", "", ""]
        quiet = [kind for kind in ("1m", "1p", "1s", "5z", "7z") for _ in range(4)]
        m = seat_1_riichi(hands, [*quiet, "8p", "5p", seat_2_draws], 5)
        tsumogiri(m, 2)
        return observe(m, 3)

    folding = after_riichi("5p")  # the riichi's own tile: genbutsu
    pushing = after_riichi("3m")
    assert ExpertBot._folding(folding, 2, discard_order(folding))
    assert not ExpertBot._folding(pushing, 2, discard_order(pushing))
    # the dealer let its 8p go before the riichi: that tells nothing
    assert not ExpertBot._folding(folding, 0, discard_order(folding))
    river = folding.discards[2]
    assert ExpertBot._told(0.3, river, folding=True) < ExpertBot._told(0.3, river)


def test_a_river_that_lets_its_draws_go_reads_as_ready() -> None:
    def river(last: str, tsumogiri: tuple[bool, bool, bool]) -> list[tuple[int, bool, bool, bool]]:
        early = [(parse_kind(k) * 4, False, False, False) for k in ("1z", "9m", "2z", "1p")]
        kinds = [parse_kind(last[i : i + 2]) for i in range(0, 6, 2)]
        return early + [(k * 4, t, False, False) for k, t in zip(kinds, tsumogiri, strict=True)]

    kept = ExpertBot._told(0.3, river("1s9p3z", (False, False, False)))
    closing = ExpertBot._told(0.3, river("1s9p5s", (False, False, False)))  # a 5 from the hand
    let_go = ExpertBot._told(0.3, river("1s9p3z", (True, True, True)))
    assert kept < 0.3 < let_go < 1.0
    assert kept < closing
    assert ExpertBot._told(1.0, river("1s9p3z", (False, False, False))) == 1.0  # riichi
    assert ExpertBot._told(0.3, river("1s9p3z", (True, True, True))[:5]) == 0.3  # too early


def test_the_expert_pushes_a_valuable_tenpai_against_a_riichi() -> None:
    from test_game_rules import pass_others, tsumogiri

    # the dealer holds a red dragon triplet and waits on 1m-4m once the 9p it draws
    # goes; seat 1 declares riichi first
    hands = ["23m456p678s55z777z", "234567m234p6799s", "", ""]
    m = start(hands, ["8p", "5p", "", "", "9p"])
    tsumogiri(m, 0)
    m.apply(1, next(a for a in m.legal_actions()[1] if a.type is ActionType.RIICHI))
    pass_others(m)
    tsumogiri(m, 2)
    tsumogiri(m, 3)
    action = ExpertBot(0).act(observe(m, 0))
    assert action.tile is not None and action.tile >> 2 == P9  # tenpai kept, not 5p


def test_the_expert_declares_riichi_on_a_good_wait_with_no_yaku() -> None:
    # the dealer's East pair is no yaku and spoils pinfu: only riichi makes a ron count
    m = start(["234m456p23678s11z", "", "", ""], ["5z"])
    action = ExpertBot(0).act(observe(m, 0))
    assert action.type is ActionType.RIICHI
    assert action.tile is not None and action.tile >> 2 == WHITE


def test_the_expert_pons_a_dragon_into_tenpai_but_not_a_plain_pair_with_no_yaku() -> None:
    dealer = "7z9m2m5m3p6p9p1s4s7s2z4z6z"
    # one-shanten with a red dragon pair: the pon is tenpai on 6s-9s with a yaku
    m = start([dealer, "77z123m456p78s99p3z", "", ""], ["3z"])
    discard_kind(m, RED)
    assert ExpertBot(0).act(observe(m, 1)).type is ActionType.PON
    # the same shape with a pair of 9m: tenpai too after the pon, but with no yaku
    m = start([dealer, "99m123m456p78s99p3z", "", ""], ["3z"])
    discard_kind(m, parse_kind("9m"))
    assert ExpertBot(0).act(observe(m, 1)).type is ActionType.PASS


def test_the_expert_plays_only_legal_actions_and_the_same_way_for_a_seed() -> None:
    seating = ["expert", "defensive", "expert", "efficiency"]
    one, record = play_task(tasks(seating, 1, "online", 21, False)[0])
    two, _ = play_task(tasks(seating, 1, "online", 21, False)[0])
    assert one == two and record is not None  # an illegal action would have raised
    for preset in ("sanma-kansai", "ema", "tenhou"):  # three players, no red fives, ...
        m = play_match(
            Match(find_ruleset(preset), 3),
            [ExpertBot(s) for s in range(3 + (preset != "sanma-kansai"))],
        )
        assert m.over


@pytest.mark.slow
@pytest.mark.arena
def test_the_expert_beats_defensive_in_a_duplicate_arena() -> None:
    # thirty-four walls in each of the six seatings (204 matches: the places' 95%
    # half-widths are about 0.11; expert led by 0.35): a strength sweep of a minute and
    # a half on two cores, so `make fuzz` plays it; bench/ladder.py plays two thousand
    work = tasks(["expert", "defensive", "expert", "defensive"], 34, "online", 41, True)
    stats = summarise(seats for seats, _ in run(work, jobs=2))
    expert, defensive = stats["expert"], stats["defensive"]
    assert expert.mean_place()[0] + 0.1 < defensive.mean_place()[0]
    assert expert.wins / expert.hands > defensive.wins / defensive.hands


def test_the_place_to_expect_follows_the_scores_and_how_much_they_may_still_move() -> None:
    level = [25000, 25000, 25000, 25000]
    assert expected_place(level, 0, 20000) == 2.5
    ahead = [45000, 25000, 15000, 15000]
    assert 1.0 < expected_place(ahead, 0, 20000) < expected_place(ahead, 0, 40000) < 2.5
    assert expected_place(ahead, 0, 100) == 1.0 and expected_place(ahead, 3, 100) == 3.5


def scene_at(scores: tuple[int, ...], round_index: int, dealer: int) -> Scene:
    m = Match(find_ruleset("online"), 5, start=MatchStart(scores, round_index, dealer))
    seat = min(m.legal_actions())
    return ExpertBot(0)._scene(observe(m, seat))


def test_late_in_a_match_points_are_weighed_by_the_places_they_move() -> None:
    bot = ExpertBot(0)
    # South 3: the dealer (seat 2) on 30,000 just ahead of seat 3, seat 0 far behind
    late = scene_at((5000, 36000, 30000, 29000), 1, 2)
    # a deal-in to the player just behind costs more than the same to the one far behind
    assert bot._placement(late, -8000, 3) < bot._placement(late, -8000, 0) < 0
    # and a win worth a place is worth more to the last than to a far-off leader
    leader = scene_at((60000, 15000, 15000, 10000), 1, 0)
    assert bot._placement(late, 8000) > bot._placement(leader, 8000) > 0
    # at the start, points are points
    start = scene_at((25000, 25000, 25000, 25000), 0, 0)
    assert abs(bot._placement(start, 1000) - 1000) < 50


def test_a_win_is_weighed_against_the_hand_ended_by_others() -> None:
    # South 4, the dealer (seat 3) leads by 2,000: another seat's win would likely
    # take the top from it, so its own win, which ends that, is worth much more
    close = scene_at((24000, 25000, 24000, 27000), 1, 3)
    assert close.others_end < -PLACE_POINTS / 3
    # leading by 40,000 it has nothing to fear from another's win
    far = scene_at((15000, 15000, 15000, 55000), 1, 3)
    assert close.others_end < far.others_end < 0 and abs(far.others_end) < 500
    # last, it moves up when another seat's ron leaves the third seat below it
    last = scene_at((35000, 30000, 20000, 15000), 1, 3)
    assert last.others_end > 0
    # at the start it pays its share of another's tsumo, on average
    start = scene_at((25000, 25000, 25000, 25000), 0, 0)
    assert -OTHER_WIN / 3 < start.others_end < 0
    # which a win forestalls: the same hand is worth more to the close leader
    bot = ExpertBot(0)
    plain = dataclasses.replace(close, others_end=0.0)
    near = bot._going_on(close, 0, 6, 2000, 1.9, 10)
    assert near.value > bot._going_on(plain, 0, 6, 2000, 1.9, 10).value


def test_a_tile_near_one_of_a_riichis_first_discards_is_read_as_safer() -> None:
    m = riichi_threat()  # seat 1 declared riichi on its first discard, a 2p
    bot = ExpertBot(0)
    obs = observe(m, 0)
    out = bot._scene(obs).out
    # 4p is two from the 2p let go at once; 4s, the same rank in another suit, is not
    near, far = (
        bot.deal_in(obs, 1, parse_kind("4p"), out),
        bot.deal_in(obs, 1, parse_kind("4s"), out),
    )
    assert 0 < near < far
    assert abs(near / far - EARLY_NEAR / EARLY_FAR) < 1e-9


def test_in_the_last_hand_the_last_seat_lets_pass_a_win_that_leaves_it_last() -> None:
    from game_helpers import arranged_wall
    from test_game_rules import pass_others, tsumogiri

    def all_last(scores: tuple[int, ...], round_index: int = 1) -> Match:
        # seat 3 deals; seat 0 waits on 2m-5m with all simples and pinfu: 2,000 on a
        # ron, 700/1,300 by tsumo. The dealer and then seat 1 draw a 2m and let it go.
        hands = ["119m111p111s3444z", "34m234p678p678s22s", "", ""]
        wall = arranged_wall(hands, ["2m", "", "2m"], dora=["1z"])
        m = Match(
            find_ruleset("online"), 0, walls=[wall] * 3, start=MatchStart(scores, round_index, 3)
        )
        m.apply(3, Action(ActionType.DISCARD, m.kyoku.drawn))
        return m

    def answer(m: Match) -> ActionType:
        obs = observe(m, 0)
        assert any(a.type is ActionType.RON for a in obs.legal)
        return ExpertBot(0).act(obs).type

    # South 4: seat 0 on 16,000 and seat 1 on 19,500. A ron off the dealer leaves seat 0
    # last on 18,000 and ends the match, as would a tsumo; a ron off seat 1 lifts it.
    close = (16000, 19500, 34000, 30500)
    m = all_last(close)
    assert answer(m) is ActionType.PASS
    pass_others(m)
    tsumogiri(m, 0)  # the seat's own discard ends its furiten on the 2m let pass
    m.apply(1, Action(ActionType.DISCARD, m.kyoku.drawn))
    assert answer(m) is ActionType.RON  # off seat 1: 18,000 against 17,500
    # a win is taken when no way of winning lifts the seat, and before the last hand
    assert answer(all_last((10000, 25500, 34000, 30500))) is ActionType.RON
    assert answer(all_last(close, round_index=0)) is ActionType.RON
    # and when nobody would be on 30,000, so that the match goes on to the West
    assert answer(all_last((20000, 23500, 28000, 28500))) is ActionType.RON


def test_a_kan_made_with_the_last_live_tile_robbed_is_chankan_not_the_last_discard() -> None:
    """A kan counts against the wall at once: made with one live tile left, it leaves
    none while it can be robbed. Robbing it is chankan, never houtei (the two together
    are an impossible win, which the scorer refuses: the expert crashed on it)."""
    from riichi.tiles import parse_tiles

    # South 4, seat 3 deals; seat 1 adds its fourth 1m to a pon with no live tile
    # left; seat 2 waits on 1m-4m for pinfu: robbing the kan, with chankan, is 2,000
    hand = tuple(parse_tiles("23m567p567789s11z"))
    kan = tuple(parse_tiles("1111m"))
    robbed = Action(ActionType.RON, kan[1])

    def answer(scores: tuple[int, ...]) -> ActionType:
        obs = Observation(
            seat=2, rules=find_ruleset("online"), round_wind=28, dealer=3, honba=0,
            sticks=0, scores=scores, live_left=0, dora_indicators=tuple(parse_tiles("9p")),
            hand=hand, drawn=None, hand_sizes=(13, 7, 13, 13),
            melds=((), ("kakan:1111m", "chi:345p"), (), ()),
            meld_tiles=((), (kan, tuple(parse_tiles("345p"))), (), ()), kita=((),) * 4,
            discards=((),) * 4, riichi=(False,) * 4, current=1,
            legal=(robbed, Action(ActionType.PASS)), over=False,
        )  # fmt: skip
        return ExpertBot(2).act(obs).type

    # 2,000 lifts the seat over seat 0 and ends the match: taken. Weighed as pinfu
    # alone (1,000, still last) it would be let pass for a tsumo that lifts it.
    assert answer((21500, 32000, 20000, 26500)) is ActionType.RON
    # last whatever it does (the game that crashed): a win is still a win
    assert answer((19200, 21800, 11100, 47900)) is ActionType.RON


RULE_CHOSEN = {
    ActionType.TSUMO,
    ActionType.RON,
    ActionType.KYUUSHU,
    ActionType.KITA,
    ActionType.ANKAN,
    ActionType.KAKAN,
}


def look(tile: int | None, red_fives: int) -> tuple[int, bool]:
    """A tile as a player tells it apart: its kind, and red or plain."""
    return (tile or 0) >> 2, tile is not None and is_red(tile, red_fives)


def test_the_expert_values_every_choice_it_weighs_and_plays_the_best() -> None:
    """``evaluate`` lists legal actions best first, each discard kind once as a discard
    (and as a riichi where one may be declared), a red five apart from a plain five of
    its kind, each chi and pon against the pass; ``act`` plays its first, in four- and
    three-player matches."""
    seen = {"discard": 0, "riichi": 0, "call": 0, "rule": 0, "parts": 0}
    for preset in ("online", "sanma-kansai"):
        rules = find_ruleset(preset)
        bots = [ExpertBot(f"values:{s}") for s in range(rules.players)]
        match = Match(rules, 11)
        while not match.over:
            seat = next(iter(match.legal_actions()))
            obs = observe(match, seat)
            valued = bots[seat].evaluate(obs)
            assert valued and all(v.action in obs.legal for v in valued)
            assert bots[seat].act(obs) == valued[0].action
            if valued[0].value is None and len(valued) > 1:
                # a rule chose (a win, an abort, a North aside, a kan); the rest follow
                assert valued[0].action.type in RULE_CHOSEN
                assert all(v.action.type not in RULE_CHOSEN for v in valued[1:])
                seen["rule"] += 1
                valued = valued[1:]
            values = [v.value for v in valued]
            if values[0] is None:  # a riichi lets only the drawn tile go
                assert len(valued) == 1 and obs.riichi[seat]
            else:
                assert all(0.0 <= v.win <= 1.0 and v.points >= 0.0 for v in valued)
                seen["parts"] += any(v.win > 0 and v.points > 0 for v in valued)
                assert all(v is not None for v in values)
                assert values == sorted(values, reverse=True)  # type: ignore[type-var]
                types = {v.action.type for v in valued}
                reds = rules.red_fives
                keys = [(v.action.type, look(v.action.tile, reds), v.action.tiles) for v in valued]
                assert len(keys) == len(set(keys))  # each choice once
                if ActionType.PASS in types:
                    seen["call"] += 1
                    assert types <= {ActionType.PASS, ActionType.CHI, ActionType.PON}
                else:
                    seen["discard"] += 1
                    seen["riichi"] += ActionType.RIICHI in types
                    tiles = {look(a.tile, reds) for a in obs.legal if a.type is ActionType.DISCARD}
                    assert {k for t, k, _ in keys if t is ActionType.DISCARD} == tiles
            match.apply(seat, bots[seat].act(obs))
    assert seen["discard"] > 300 and seen["call"] > 5 and seen["rule"] > 5, seen
    assert seen["riichi"] > 0 and seen["parts"] > 300, seen
