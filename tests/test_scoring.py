"""Scoring: each yaku with a hand that has it and a near miss, fu, limits and payments.

Hands are written as the concealed tiles before the win, the winning tile,
and called sets. Unless a test says otherwise the winner is seat 1 (South,
not the dealer) in an East round, winning by ron from seat 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from riichi.errors import NotAgariError, NoYakuError
from riichi.rules import Renhou, RuleSet, find_ruleset
from riichi.scoring import (
    InvalidContextError,
    Limit,
    ScoreResult,
    WinContext,
    parse_meld,
    ron_order,
    score,
)
from riichi.scoring.points import base_points, payments
from riichi.tiles import parse_tiles


def win(hand: str, tile: str, *melds: str, rules: str = "online", **ctx: Any) -> ScoreResult:
    used: set[int] = set()
    tiles = parse_tiles(hand, used)
    (won,) = parse_tiles(tile, used)
    called = [parse_meld(m, used) for m in melds]
    if "dora" in ctx:
        ctx["dora_indicators"] = tuple(parse_tiles(ctx.pop("dora"), used))
    if "ura" in ctx:
        ctx["ura_indicators"] = tuple(parse_tiles(ctx.pop("ura"), used))
    ruleset = ctx.pop("rules_obj") if "rules_obj" in ctx else find_ruleset(rules)
    ctx.setdefault("seat", 1)
    if not ctx.get("tsumo"):
        ctx.setdefault("discarder", 2)
    return score(tiles, won, called, WinContext(**ctx), ruleset)


def keys(result: ScoreResult) -> dict[str, int]:
    return {y.yaku.key: y.han for y in result.yaku}


def no_yaku(hand: str, tile: str, *melds: str, **ctx: Any) -> None:
    with pytest.raises(NoYakuError):
        win(hand, tile, *melds, **ctx)


# ---------------------------------------------------------------- situational yaku

# No yaku of its own: 11s pair, an edge wait 89s on 7s, terminals in it.
PLAIN = "234567m234p1189s"


def test_riichi_and_its_near_miss() -> None:
    assert keys(win(PLAIN, "7s", riichi=True)) == {"riichi": 1}
    no_yaku(PLAIN, "7s")


def test_double_riichi_replaces_riichi() -> None:
    assert keys(win(PLAIN, "7s", riichi=True, double_riichi=True)) == {"double-riichi": 2}


def test_ippatsu() -> None:
    assert keys(win(PLAIN, "7s", riichi=True, ippatsu=True)) == {"riichi": 1, "ippatsu": 1}
    with pytest.raises(InvalidContextError, match="ippatsu needs riichi"):
        win(PLAIN, "7s", ippatsu=True)


def test_menzen_tsumo_needs_a_closed_hand() -> None:
    assert keys(win(PLAIN, "7s", tsumo=True)) == {"menzen-tsumo": 1}
    no_yaku("567m234p1189s", "7s", "chi:234m", tsumo=True)


def test_rinshan_chankan_haitei_houtei() -> None:
    assert keys(win("567m234p1189s", "7s", "kan:3333z", tsumo=True, rinshan=True)) == {"rinshan": 1}
    assert keys(win("567m234p1189s", "7s", "chi:234m", chankan=True)) == {"chankan": 1}
    assert keys(win("567m234p1189s", "7s", "chi:234m", tsumo=True, haitei=True)) == {"haitei": 1}
    assert keys(win("567m234p1189s", "7s", "chi:234m", houtei=True)) == {"houtei": 1}


def test_impossible_situations_are_errors() -> None:
    with pytest.raises(InvalidContextError, match="never haitei"):
        win("567m234p1189s", "7s", "kan:3333z", tsumo=True, rinshan=True, haitei=True)
    with pytest.raises(InvalidContextError, match="a ron needs a discarder"):
        win(PLAIN, "7s", riichi=True, discarder=1)
    with pytest.raises(InvalidContextError, match="tenhou is the dealer"):
        win(PLAIN, "7s", tsumo=True, tenhou=True)
    with pytest.raises(InvalidContextError, match="chankan with houtei"):
        win("567m234p1189s", "7s", "chi:234m", chankan=True, houtei=True)
    with pytest.raises(InvalidContextError, match="riichi needs a closed hand"):
        win("567m234p1189s", "7s", "chi:234m", riichi=True)
    # tenhou, chiihou and renhou come before any call or kan, the winner's own included:
    # a pon of red dragons with tenhou once paid 48,000
    with pytest.raises(InvalidContextError, match="before any call or kan"):
        win("2345m11p", "5m", "pon:777z", "pon:666z", tsumo=True, seat=0, tenhou=True)
    with pytest.raises(InvalidContextError, match="before any call or kan"):
        win("567m234p1189s", "7s", "ankan:3333z", tsumo=True, chiihou=True)
    with pytest.raises(InvalidContextError, match="before any call or kan"):
        win("567m234p1189s", "7s", "chi:234m", renhou=True)


def test_tenhou_chiihou_renhou() -> None:
    assert keys(win("123m456p789s1122z", "1z", seat=0, tsumo=True, tenhou=True)) == {"tenhou": 1}
    assert keys(win(PLAIN, "7s", tsumo=True, chiihou=True)) == {"chiihou": 1}
    # renhou is a yakuman only where the ruleset has it (EMA)
    assert keys(win(PLAIN, "7s", renhou=True, rules="ema")) == {"renhou": 1}
    no_yaku(PLAIN, "7s", renhou=True)
    mangan = find_ruleset("online").replace(renhou=Renhou.MANGAN)
    assert win(PLAIN, "7s", renhou=True, rules_obj=mangan).limit is Limit.MANGAN


# ---------------------------------------------------------------- hand yaku


def test_pinfu_needs_a_two_sided_wait() -> None:
    assert keys(win("234567m234p6799s", "8s")) == {"pinfu": 1}
    no_yaku("234567m234p5799s", "6s")  # 57s waiting on 6s is closed


def test_pinfu_pair_must_not_be_a_value_pair() -> None:
    no_yaku("234567m234p67s11z", "8s")  # a pair of the round wind
    assert keys(win("234567m234p67s44z", "8s")) == {"pinfu": 1}  # North is nobody's wind here


def test_tanyao_open_needs_kuitan() -> None:
    assert keys(win("567m234p6788s", "5s", "chi:234m")) == {"tanyao": 1}
    no_yaku("567m234p6788s", "5s", "chi:234m", rules="ema")
    assert keys(win("234567m234p6788s", "5s", rules="ema")) == {"tanyao": 1, "pinfu": 1}
    no_yaku("567m234p6788s", "5s", "chi:123m")


def test_iipeikou_and_ryanpeikou() -> None:
    assert keys(win("223344m567p6799s", "8s")) == {"iipeikou": 1, "pinfu": 1}
    no_yaku("234456m567p5799s", "6s")
    r = win("223344m667788p9s", "9s")
    # seven pairs is also a reading, but twice pure double sequence pays more
    assert keys(r) == {"ryanpeikou": 3} and r.fu == 40
    no_yaku("234m567p5799s", "6s", "chi:234m")  # open: no iipeikou


def test_yakuhai_seat_round_and_dragons() -> None:
    assert keys(win("123m456p789s1122z", "2z", tsumo=True)) == {
        "menzen-tsumo": 1,
        "seat-south": 1,
    }
    assert keys(win("123m456p789s1122z", "1z")) == {"round-east": 1}
    # the dealer's East in the East round counts twice
    assert keys(win("123m456p789s1122z", "1z", seat=0)) == {"seat-east": 1, "round-east": 1}
    assert keys(win("123m456p789s5577z", "7z")) == {"chun": 1}
    no_yaku("123m456p789s3344z", "3z")  # West is nobody's wind for seat 1 in East


def test_chiitoitsu() -> None:
    r = win("1133m5577p2244s6z", "6z", riichi=True)
    assert keys(r) == {"riichi": 1, "chiitoitsu": 2} and r.fu == 25
    with pytest.raises(NotAgariError):
        win("1111m5577p2244s6z", "6z", riichi=True)  # a quad is not two pairs


def test_chanta_junchan_honroutou() -> None:
    assert keys(win("123m789p11199s11z", "9s")) == {"chanta": 2}
    assert keys(win("123m789p1199s", "9s", "chi:789m")) == {"junchan": 2}
    assert keys(win("123m789p1s123999s", "1s")) == {"junchan": 3}
    no_yaku("234m789p11199s11z", "9s")
    r = win("111m999p11s11z", "1z", "pon:999s")
    assert keys(r) == {"toitoi": 2, "honroutou": 2, "round-east": 1}


def test_ittsu_sanshoku_doukou() -> None:
    assert keys(win("456789m1p", "1p", "chi:123m", "pon:777z")) == {"ittsu": 1, "chun": 1}
    assert keys(win("234m234s5p", "5p", "chi:234p", "pon:777z")) == {"sanshoku": 1, "chun": 1}
    assert keys(win("234m345s5p", "5p", "chi:234p", "pon:777z")) == {"chun": 1}
    assert keys(win("222m222s456p9s", "9s", "pon:222p")) == {"sanshoku-doukou": 2}


def test_toitoi_and_concealed_triplets() -> None:
    # three concealed triplets and a shanpon won on a discard: that triplet is open
    assert keys(win("111m222p333s3344z", "3z")) == {"toitoi": 2, "sanankou": 2}
    assert keys(win("11m222p333s55s", "1m", "pon:444z")) == {"toitoi": 2}


def test_sankantsu_and_suukantsu() -> None:
    r = win("123m5z", "5z", "kan:1111p", "kan:2222p", "kan:3333s")
    assert keys(r) == {"sankantsu": 2}
    r = win("5z", "5z", "kan:1111p", "kan:2222p", "kan:3333s", "ankan:4444m")
    assert keys(r) == {"suukantsu": 1}


def test_shousangen() -> None:
    r = win("123m456p55z66z", "6z", "pon:777z")
    assert keys(r) == {"shousangen": 2, "hatsu": 1, "chun": 1}


def test_honitsu_and_chinitsu() -> None:
    r = win("123456789m1z", "1z", "pon:222z")
    assert keys(r) == {"honitsu": 2, "ittsu": 1, "seat-south": 1}
    assert keys(win("123456789m1m", "1m", "pon:222m")) == {"chinitsu": 5, "ittsu": 1}


# ---------------------------------------------------------------- yakuman


def test_kokushi_and_the_thirteen_sided_wait() -> None:
    r = win("119m19p19s123456z", "7z")
    assert keys(r) == {"kokushi": 1} and r.points == 32000
    r13 = win("19m19p19s1234567z", "1z")
    assert keys(r13) == {"kokushi-13": 1} and r13.points == 32000
    assert win("19m19p19s1234567z", "1z", rules="agari").points == 64000


def test_suuankou_and_double_tanki_by_rule() -> None:
    assert keys(win("111m222p333s4455z", "5z", tsumo=True)) == {"suuankou": 1}
    assert keys(win("111m222p333s3444z", "3z", tsumo=True)) == {"suuankou-tanki": 1}
    assert win("111m222p333s3444z", "3z", tsumo=True).yakuman == 1
    assert win("111m222p333s3444z", "3z", tsumo=True, rules="agari").yakuman == 2


def test_daisangen_and_pao() -> None:
    r = win("2345m", "5m", "pon:555z", "pon:666z", "pon:777z@3", pao=3)
    assert keys(r) == {"daisangen": 1}
    assert [(p.seat, p.points) for p in r.payments] == [(2, 16000), (3, 16000)]
    r = win("2345m", "5m", "pon:555z", "pon:666z", "pon:777z@3", pao=3, tsumo=True)
    assert [(p.seat, p.points) for p in r.payments] == [(3, 32000)]
    # the liable player is also the discarder: pays alone
    r = win("2345m", "5m", "pon:555z", "pon:666z", "pon:777z@3", pao=3, discarder=3)
    assert [(p.seat, p.points) for p in r.payments] == [(3, 32000)]


def test_pao_portion_only_covers_the_fed_yakuman() -> None:
    # daisangen plus tsuuiisou by tsumo: the liable seat answers for the daisangen
    melds = ("pon:555z", "pon:666z", "pon:777z@3")
    r = win("1122z", "1z", *melds, pao=3, tsumo=True, rules="classic")
    assert r.yakuman == 2
    assert {p.seat: p.points for p in r.payments} == {0: 16000, 2: 8000, 3: 8000 + 32000}
    whole = win("1122z", "1z", *melds, pao=3, tsumo=True)
    assert {p.seat: p.points for p in whole.payments} == {3: 64000}


def test_shousuushii_and_daisuushii() -> None:
    winds = ("pon:111z", "pon:222z", "pon:333z")
    assert keys(win("123m4z", "4z", *winds)) == {"shousuushii": 1}
    r = win("1m444z", "1m", *winds)
    assert keys(r) == {"daisuushii": 1} and r.yakuman == 1
    assert win("1m444z", "1m", *winds, rules="agari").yakuman == 2


def test_tsuuiisou_chinroutou_ryuuiisou() -> None:
    assert keys(win("1122334455667z", "7z")) == {"tsuuiisou": 1}
    assert keys(win("111m999p11s99s", "9s", "pon:111p")) == {"chinroutou": 1}
    assert keys(win("223344s66z88s", "6z", "pon:666s")) == {"ryuuiisou": 1}
    assert "ryuuiisou" not in keys(win("223344s77z88s", "7z", "pon:666s"))


def test_nine_gates_and_pure_nine_gates() -> None:
    assert keys(win("1112345678999m", "5m")) == {"junsei-chuuren": 1}
    assert keys(win("1112345678899m", "9m")) == {"chuuren": 1}
    assert win("1112345678999m", "5m", rules="agari").yakuman == 2


def test_yakuman_stacking() -> None:
    r = win("1122z", "1z", "pon:555z", "pon:666z", "pon:777z")
    assert keys(r) == {"daisangen": 1, "tsuuiisou": 1} and r.points == 64000
    single = find_ruleset("online").replace(yakuman_stacking=False)
    assert win("1122z", "1z", "pon:555z", "pon:666z", "pon:777z", rules_obj=single).points == 32000


def test_counted_yakuman_from_thirteen_han() -> None:
    # riichi, tsumo, tanyao, chinitsu and ryanpeikou (12 han) plus two dora
    r = win("2233445566778p", "8p", riichi=True, tsumo=True, dora="1p")
    assert r.han >= 13 and r.limit is Limit.KAZOE_YAKUMAN and r.points == 32000
    no_kazoe = find_ruleset("online").replace(kazoe_yakuman=False)
    r = win("2233445566778p", "8p", riichi=True, tsumo=True, dora="1p", rules_obj=no_kazoe)
    assert r.limit is Limit.SANBAIMAN and r.points == 24000


# ---------------------------------------------------------------- fu and readings


def test_highest_reading_kanchan_over_ryanmen_for_fu() -> None:
    # 2m completes 123m in the middle (kanchan, 2 fu) or 234m from the edge (ryanmen)
    r = win("12334m789s11z222z", "2m")
    assert any(i.label == "kanchan wait" for i in r.fu_items) and r.fu == 50


def test_highest_reading_pinfu_over_kanchan() -> None:
    r = win("12334m567p678s99s", "2m", riichi=True)
    assert keys(r) == {"riichi": 1, "pinfu": 1} and r.fu == 30


def test_highest_reading_sanankou_over_sequences() -> None:
    r = win("111222333m456p9s", "9s")
    assert keys(r) == {"sanankou": 2} and r.fu == 50


def test_ron_completed_triplet_is_open_for_fu() -> None:
    r = win("123m456p789s2244z", "4z", riichi=True)
    assert {i.label: i.fu for i in r.fu_items}["open triplet 4z"] == 4 and r.fu == 40
    t = win("123m456p789s2244z", "4z", riichi=True, tsumo=True)
    assert {i.label: i.fu for i in t.fu_items}["closed triplet 4z"] == 8


def test_kan_fu() -> None:
    r = win("123m456p7z", "7z", "kan:2222p", "ankan:5555z")
    items = {i.label: i.fu for i in r.fu_items}
    assert items["open kan 2p"] == 8 and items["closed kan 5z"] == 32
    assert items["dragon pair 7z"] == 2 and items["tanki wait"] == 2
    assert r.fu == 70  # 20 + 8 + 32 + 2 + 2 = 64


def test_double_wind_pair_four_or_two_fu() -> None:
    four = win("111m456p789s23s11z", "1s", seat=0, riichi=True)
    assert {i.label: i.fu for i in four.fu_items}["double wind pair 1z"] == 4 and four.fu == 50
    two_rules = find_ruleset("online").replace(double_wind_pair_fu=2)
    two = win("111m456p789s23s11z", "1s", seat=0, riichi=True, rules_obj=two_rules)
    assert {i.label: i.fu for i in two.fu_items}["double wind pair 1z"] == 2 and two.fu == 40


def test_open_pinfu_shape_is_thirty_fu() -> None:
    r = win("234m456p67s22s", "8s", "chi:234s")
    assert r.fu == 30 and any(i.label == "open pinfu shape" for i in r.fu_items)


def test_pinfu_tsumo_is_twenty_fu() -> None:
    r = win("234567m234p6799s", "8s", tsumo=True)
    assert r.fu == 20 and [i.label for i in r.fu_items] == ["pinfu tsumo"]


def test_rinshan_tsumo_counts_tsumo_fu() -> None:
    r = win("234567m234p9s", "9s", "ankan:1111z", tsumo=True, rinshan=True)
    assert keys(r) == {"menzen-tsumo": 1, "rinshan": 1, "round-east": 1}
    assert {i.label: i.fu for i in r.fu_items}["tsumo"] == 2
    assert r.fu == 60  # 20 + 2 tsumo + 32 closed honour kan + 2 tanki = 56


# ---------------------------------------------------------------- points and payments


def test_documented_three_han_forty_fu() -> None:
    # rule document 001: a closed 3-han 40-fu non-dealer ron is 5,200 points ...
    r = win(PLAIN, "7s", riichi=True, dora="3m1p")
    assert (r.han, r.fu, r.points) == (3, 40, 5200)
    # ... the same self-draw is 1,300 from each non-dealer and 2,600 from East
    base, _ = base_points(3, 40, 0, RuleSet())
    pays = payments(
        base,
        0,
        tsumo=True,
        winner=1,
        dealer=0,
        discarder=None,
        liable=None,
        honba=0,
        rules=RuleSet(),
    )
    assert [(p.seat, p.points) for p in pays] == [(0, 2600), (2, 1300), (3, 1300)]


def test_kiriage_is_a_switch() -> None:
    hand = ("234567m234p6788s", "5s")
    r = win(*hand, riichi=True, dora="1m")
    assert (r.han, r.fu, r.points, r.limit) == (4, 30, 7700, Limit.NONE)
    kiriage = find_ruleset("online").replace(kiriage=True)
    r = win(*hand, riichi=True, dora="1m", rules_obj=kiriage)
    assert (r.points, r.limit) == (8000, Limit.MANGAN)


def test_dealer_pays_and_receives_more() -> None:
    r = win("234567m234p6788s", "5s", seat=0, riichi=True, dora="1m")
    assert r.points == 11600
    t = win("234567m234p6788s", "5s", seat=0, riichi=True, tsumo=True)
    assert [p.points for p in t.payments] == [2600, 2600, 2600]  # 4 han 20 fu: 1280 -> 1300x2


def test_honba_and_sticks_go_to_the_winner() -> None:
    r = win("123m456p789s1122z", "1z", honba=2, riichi_sticks=3)
    assert r.points == 1300 and r.payments[0].points == 1300 + 600
    assert r.deltas == (0, 1900 + 3000, -1900, 0)
    t = win("123m456p789s1122z", "1z", honba=2, tsumo=True)
    assert [(p.seat, p.points) for p in t.payments] == [(0, 1500), (2, 900), (3, 900)]


def test_three_player_tsumo_loss() -> None:
    sanma = find_ruleset("sanma-kansai")
    r = win("123p456p789s1122z", "1z", tsumo=True, rules_obj=sanma)
    # 2 han 40 fu: the dealer pays 1300, the other 700, the absent fourth nothing
    assert [(p.seat, p.points) for p in r.payments] == [(0, 1300), (2, 700)]


def test_red_fives_in_a_kan_count() -> None:
    r = win("234567m234p9s", "9s", "kan:0555p", tsumo=True, rinshan=True)
    assert r.aka == 1 and r.han == 2


def test_dora_need_a_yaku() -> None:
    no_yaku("567m234p6799s", "8s", "chi:123m", dora="7s")
    r = win("567m234p6788s", "5s", "chi:234m", dora="7s")
    assert r.dora == 2 and r.han == 3


def test_ura_dora_only_for_riichi() -> None:
    r = win(PLAIN, "7s", riichi=True, dora="1m", ura="1p")
    assert (r.dora, r.ura) == (1, 1)
    with pytest.raises(InvalidContextError, match="ura dora only count for riichi"):
        win("234567m234p6799s", "8s", ura="1p")


def test_kan_fu_terminal_and_simple() -> None:
    r = win("123m7z", "7z", "kan:9999m", "ankan:2222s", "pon:555z")
    items = {i.label: i.fu for i in r.fu_items}
    assert items["open kan 9m"] == 16 and items["closed kan 2s"] == 16
    assert items["open triplet 5z"] == 4


def test_three_identical_sequences_read_as_triplets_when_that_pays_more() -> None:
    # 111222333m is also 123m three times: riichi + pinfu + iipeikou (3 han 30 fu, 3900)
    # loses to riichi + sanankou (3 han 50 fu, 6400)
    r = win("111222333m45p99s", "6p", riichi=True)
    assert keys(r) == {"riichi": 1, "sanankou": 2} and r.points == 6400


def test_four_red_fives() -> None:
    four = find_ruleset("agari").replace(red_fives=4)
    r = win("340m005p406s111z2z", "2z", rules_obj=four)
    assert r.aka == 4
    assert win("340m005p406s111z2z", "2z", rules="agari").aka == 3


def test_multiple_ron_sticks_and_honba_go_to_the_nearest_winner() -> None:
    assert ron_order(discarder=2, winners=[1, 0], players=4) == [0, 1]
    assert ron_order(discarder=0, winners=[3, 1], players=4) == [1, 3]
    first = win("123m456p789s1122z", "1z", seat=0, discarder=2, honba=1, riichi_sticks=2)
    second = win("234567m234p6799s", "8s", seat=1, discarder=2)
    assert first.deltas[0] == first.points + 300 + 2000
    assert second.deltas[1] == second.points
