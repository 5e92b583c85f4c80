"""The rules of play, each on a wall arranged to reach the situation.

Seat 0 deals. Hands are listed from the dealer on; ``draws`` are the live
wall in order (the dealer's first draw first). Actions are written as the
engine prints them: ``"discard 3m"``, ``"chi 3m 4m+5m"``, ``"pon 3m 3m+3m"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from game_helpers import arranged_wall
from riichi.game import Action, ActionType, IllegalActionError, Match, observe
from riichi.rules import RuleSet, find_ruleset

# A discard of 3m by the dealer can be chi'd by seat 1, pon'd by seat 2, ronned by seat 3.
CLAIMS = [
    "3m9m147p258s9s1346z",
    "1245m6m369p47s26z",
    "3324m7m258p136s7z",
    "12m456p789s11z555z",
]


def start(
    hands: Sequence[str],
    draws: Sequence[str] = (),
    rules: str | RuleSet = "online",
    **wall: Sequence[str],
) -> Match:
    ruleset = find_ruleset(rules) if isinstance(rules, str) else rules
    return Match(ruleset, 0, walls=[arranged_wall(hands, draws, **wall)] * 30)


def legal(m: Match, seat: int) -> list[str]:
    return [str(a) for a in m.legal_actions().get(seat, [])]


def do(m: Match, seat: int, text: str) -> None:
    for a in m.legal_actions().get(seat, []):
        if str(a) == text:
            m.apply(seat, a)
            return
    raise AssertionError(f"{text!r} is not legal for seat {seat}: {legal(m, seat)}")


def kinds(m: Match, seat: int, kind: ActionType) -> list[str]:
    return [str(a) for a in m.legal_actions().get(seat, []) if a.type is kind]


def last(m: Match, type_: str) -> dict[str, object]:
    return next(e.data for e in reversed(m.events) if e.type == type_)


# ---------------------------------------------------------------- the deal and turns


def test_the_dealer_draws_first_and_holds_fourteen() -> None:
    m = start(CLAIMS, ["7z"])
    assert [len(s.hand) for s in m.kyoku.seats] == [14, 13, 13, 13]
    assert list(m.legal_actions()) == [0]
    assert "discard 7z" in legal(m, 0)


def test_illegal_or_out_of_turn_actions_raise_and_change_nothing() -> None:
    m = start(CLAIMS, ["7z"])
    before = [observe(m, s) for s in range(4)], len(m.events)
    with pytest.raises(IllegalActionError, match="seat 1 may not act now"):
        m.apply(1, Action(ActionType.DISCARD, m.kyoku.seats[1].hand[0]))
    with pytest.raises(IllegalActionError, match="is not legal for seat 0"):
        m.apply(0, Action(ActionType.DISCARD, m.kyoku.seats[1].hand[0]))
    with pytest.raises(IllegalActionError, match="not legal"):
        m.apply(0, Action(ActionType.TSUMO))
    assert ([observe(m, s) for s in range(4)], len(m.events)) == before


# ---------------------------------------------------------------- calls


def test_every_claim_is_offered_and_chi_only_to_the_left() -> None:
    m = start(CLAIMS, ["7z"])
    do(m, 0, "discard 3m")
    assert set(m.legal_actions()) == {1, 2, 3}
    assert kinds(m, 1, ActionType.CHI) == ["chi 3m 1m+2m", "chi 3m 2m+4m", "chi 3m 4m+5m"]
    assert kinds(m, 2, ActionType.PON) == ["pon 3m 3m+3m"]
    assert kinds(m, 2, ActionType.CHI) == []  # seat 2 holds 2m and 4m but is not on the left
    assert kinds(m, 3, ActionType.RON) == ["ron 3m"]


def test_pon_beats_chi() -> None:
    m = start(CLAIMS, ["7z"])
    do(m, 0, "discard 3m")
    do(m, 1, "chi 3m 4m+5m")
    do(m, 2, "pon 3m 3m+3m")
    do(m, 3, "pass")
    call = last(m, "call")
    assert call["seat"] == 2 and call["call"] == "pon"
    assert list(m.legal_actions()) == [2]
    # after a call the caller must discard: no tsumo, no kan
    assert {a.split()[0] for a in legal(m, 2)} == {"discard"}


def test_ron_beats_every_call() -> None:
    m = start(CLAIMS, ["7z"])
    do(m, 0, "discard 3m")
    do(m, 1, "chi 3m 4m+5m")
    do(m, 2, "pon 3m 3m+3m")
    do(m, 3, "ron 3m")
    win = last(m, "win")
    assert win["seat"] == 3 and win["source"] == 0
    assert m.results[-1].kind == "win"


def test_chi_when_nobody_else_claims() -> None:
    m = start(CLAIMS, ["7z"])
    do(m, 0, "discard 3m")
    do(m, 1, "chi 3m 4m+5m")
    do(m, 2, "pass")
    do(m, 3, "pass")
    assert last(m, "call")["call"] == "chi"
    # kuikae: neither 3m nor the other end of 345m (6m) may be discarded now
    discards = legal(m, 1)
    assert "discard 6m" not in discards and "discard 3m" not in discards
    assert "discard 1m" in discards


def test_passing_a_winning_tile_makes_a_seat_furiten_until_its_own_discard() -> None:
    m = start(CLAIMS, ["7z", "9p", "1s", "9s"])
    do(m, 0, "discard 3m")
    for s in (1, 2, 3):
        do(m, s, "pass")
    assert m.kyoku.seats[3].furiten_temp
    do(m, 1, "discard 9p")
    do(m, 2, "discard 1s")
    do(m, 3, "discard 9s")
    assert not m.kyoku.seats[3].furiten_temp


def test_own_discard_furiten_blocks_ron() -> None:
    # seat 3 waits on 3m, draws one, lets it go, and later may not ron another
    m = start(CLAIMS, ["7z", "9p", "1s", "3m", "8p"])
    do(m, 0, "discard 7z")
    do(m, 1, "discard 9p")
    do(m, 2, "discard 1s")
    assert "tsumo 3m" in legal(m, 3)
    do(m, 3, "discard 3m")
    for s in list(m.legal_actions()):
        do(m, s, "pass")
    do(m, 0, "discard 3m")
    assert kinds(m, 3, ActionType.RON) == []
    assert m.kyoku.seats[3].waits >> 2 & 1  # still waiting on 3m, by tsumo only


# ---------------------------------------------------------------- riichi


RIICHI = [
    "234567m234p6799s",
    "1245m6m369p47s26z",
    "3324m7m258p136s7z",
    "19m147p258s3469s4z",
]


def test_riichi_needs_closed_tenpai_and_places_the_stick_when_the_discard_passes() -> None:
    hands = [RIICHI[0], RIICHI[1], "3324m7m258p13s77z", RIICHI[3]]
    m = start(hands, ["7z"])
    assert kinds(m, 0, ActionType.RIICHI) == ["riichi 7z"]
    do(m, 0, "riichi 7z")
    # seat 2 may still pon the declaration tile: the stick is not down yet
    assert m.scores[0] == 25000 and m.kyoku.sticks == 0
    do(m, 2, "pass")
    assert m.scores[0] == 24000 and m.kyoku.sticks == 1
    assert last(m, "riichi")["seat"] == 0


def test_a_riichi_ronned_on_its_declaration_pays_no_stick() -> None:
    hands = [RIICHI[0], RIICHI[1], "3324m7m258p13s77z", "123m456p789s11z77z"]
    hands[2] = "3324m7m258p13s6z9p"
    m = start(hands, ["7z"])
    do(m, 0, "riichi 7z")
    do(m, 3, "ron 7z")
    result = m.results[0]
    assert result.kind == "win" and m.kyoku.sticks == 0
    assert result.deltas[0] == -result.wins[0][2].points
    assert sum(m.scores) == 100000


def test_riichi_locks_the_hand() -> None:
    m = start(RIICHI, ["1z", "", "", "", "5z"])
    do(m, 0, "riichi 1z")
    while list(m.legal_actions()) != [0]:
        seat, actions = next(iter(m.legal_actions().items()))
        m.apply(seat, next(a for a in actions if a.type in (ActionType.PASS, ActionType.DISCARD)))
    assert legal(m, 0) == ["discard 5z"]


def test_no_riichi_without_1000_points_or_four_live_tiles() -> None:
    m = start(RIICHI, ["1z"])
    m.scores[0] = 900
    assert kinds(m, 0, ActionType.RIICHI) == []


# ---------------------------------------------------------------- wins and repeats


def test_tsumo_win_dealer_repeats_with_honba() -> None:
    m = start(RIICHI, ["8s"])
    do(m, 0, "tsumo 8s")
    win = last(m, "win")
    assert win["seat"] == 0 and win["source"] is None
    assert m.kyoku.dealer == 0 and m.honba == 1


def test_exhaustive_draw_pays_tenpai() -> None:
    m = start(RIICHI, ["1z"])
    do(m, 0, "discard 1z")
    while m.results == []:
        seat, actions = next(iter(m.legal_actions().items()))
        pick = [a for a in actions if a.type is ActionType.PASS]
        if not pick:
            # tsumogiri keeps every hand as dealt
            pick = [a for a in actions if a.type is ActionType.DISCARD and a.tile == m.kyoku.drawn]
        m.apply(seat, pick[0])
    result = m.results[0]
    assert result.kind == "exhaustive"
    assert 0 in result.tenpai
    assert sum(result.deltas) == 0


def test_nine_terminals_abort() -> None:
    m = start(["19m19p19s1234z2m3m4m", *CLAIMS[1:]], ["5z"])
    assert "kyuushu" in legal(m, 0)
    do(m, 0, "kyuushu")
    assert m.results[0].abort == "nine-terminals" and m.honba == 1


def test_four_winds_abort() -> None:
    hands = [
        "1z3m9m147p258s9s346z",
        "1z124m5m6m369p47s2z",
        "1z3324m7m258p136s",
        "1z12m456p789s555z",
    ]
    m = start(hands, ["7z", "6z", "6z", "2s"])
    for seat in range(4):
        do(m, seat, "discard 1z")
        for s in list(m.legal_actions()):
            if s != (seat + 1) % 4:
                do(m, s, "pass")
    assert m.results[0].abort == "four-winds"


# The dealer's 3m completes the hands of all three other seats.
THREE_WAIT = [
    "3m9m147p258s9s1346z",
    "12m456p789s22z666z",
    "12m456p789s11z777z",
    "12m456p789s44z555z",
]


def test_double_ron_pays_both_and_sticks_to_the_nearest() -> None:
    hands = THREE_WAIT
    m = start(hands, ["7z"])
    m.kyoku.sticks = 2
    m.kyoku.honba = 0
    do(m, 0, "discard 3m")
    do(m, 1, "ron 3m")
    do(m, 2, "ron 3m")
    do(m, 3, "pass")
    winners = [e.data["seat"] for e in m.events if e.type == "win"]
    assert winners == [1, 2]
    first, second = m.results[0].wins
    assert first[2].deltas[1] == first[2].points + 2000
    assert second[2].deltas[2] == second[2].points


def test_triple_ron_aborts_online_and_all_win_in_agari() -> None:
    hands = THREE_WAIT
    m = start(hands, ["7z"])
    do(m, 0, "discard 3m")
    for s in (1, 2, 3):
        do(m, s, "ron 3m")
    assert m.results[0].abort == "triple-ron"
    a = start(hands, ["7z"], rules="agari")
    do(a, 0, "discard 3m")
    for s in (1, 2, 3):
        do(a, s, "ron 3m")
    assert len(a.results[0].wins) == 3


def test_head_bump_without_double_ron() -> None:
    hands = [
        "3m9m147p258s9s1346z",
        "12m456p789s22z666z",
        "12m456p789s11z777z",
        CLAIMS[2],
    ]
    m = start(hands, ["8p"], rules="riichi-basic")
    do(m, 0, "discard 3m")
    do(m, 1, "ron 3m")
    do(m, 2, "ron 3m")
    do(m, 3, "pass")
    assert [w[0] for w in m.results[0].wins] == [1]


# ---------------------------------------------------------------- kans


KAN = [
    "1111z234m567p89s2z",
    CLAIMS[1],
    CLAIMS[2],
    "19m147p258s3469s",
]


def test_closed_kan_shows_a_dora_at_once_and_draws_a_replacement() -> None:
    m = start(KAN, ["2z"], rinshan=["7s"])
    shown = len(m.kyoku.dora_indicators())
    do(m, 0, "ankan 1z 1z+1z+1z+1z")
    assert len(m.kyoku.dora_indicators()) == shown + 1
    assert m.kyoku.drawn is not None and m.kyoku.from_rinshan
    # the replacement 7s completes 789s: rinshan kaihou
    assert kinds(m, 0, ActionType.TSUMO)
    do(m, 0, f"tsumo {str(Action(ActionType.DISCARD, m.kyoku.drawn)).split()[1]}")
    yaku = [y["key"] for y in last(m, "win")["result"]["yaku"]]  # type: ignore[index]
    assert "rinshan" in yaku


def test_open_kan_dora_waits_for_the_discard() -> None:
    hands = ["3m9m147p258s9s1346z", "333m4m6m369p47s26z", CLAIMS[2], CLAIMS[3]]
    hands[2] = "24m7m258p136s77z5z"
    m = start(hands, ["7z"])
    do(m, 0, "discard 3m")
    for s in list(m.legal_actions()):
        do(m, s, "kan 3m 3m+3m+3m" if s == 1 else "pass")
    assert len(m.kyoku.dora_indicators()) == 1  # not yet
    tile = m.kyoku.drawn
    assert tile is not None
    m.apply(1, Action(ActionType.DISCARD, tile))
    assert len(m.kyoku.dora_indicators()) == 2


def pass_others(m: Match, keep: int | None = None) -> None:
    """Every seat asked about a tile passes, except ``keep``."""
    for s in list(m.legal_actions()):
        if s != keep and "pass" in legal(m, s):
            do(m, s, "pass")


def tsumogiri(m: Match, seat: int) -> None:
    tile = m.kyoku.drawn
    assert tile is not None and list(m.legal_actions()) == [seat]
    m.apply(seat, Action(ActionType.DISCARD, tile))
    pass_others(m)


def test_chankan_robs_an_added_kan() -> None:
    hands = [
        "3m9m147p258s9s1346z",
        "3369m369p478s267z",
        "12m456p789s11z555z",
        "5678m2589p136s47z",
    ]
    m = start(hands, ["1s", "8p", "1p", "7p", "3m"])
    do(m, 0, "discard 3m")
    do(m, 2, "pass")
    do(m, 1, "pon 3m 3m+3m")
    do(m, 1, "discard 2z")
    pass_others(m)
    for seat in (2, 3, 0):
        tsumogiri(m, seat)
    assert "kakan 3m" in legal(m, 1)
    do(m, 1, "kakan 3m")
    assert kinds(m, 2, ActionType.RON) == ["ron 3m"]
    do(m, 2, "ron 3m")
    yaku = [y["key"] for y in last(m, "win")["result"]["yaku"]]  # type: ignore[index]
    assert "chankan" in yaku


def test_four_riichi_abort() -> None:
    hands = ["234567m234p6799s", "345678m345p1199s", "123456p345s2233z", "789m789p111z4466z"]
    m = start(hands, ["1m", "9m", "5z", "7z"])
    for seat in range(4):
        drawn = m.kyoku.drawn
        assert drawn is not None
        m.apply(seat, Action(ActionType.RIICHI, drawn))
        pass_others(m)
    assert m.results[0].abort == "four-riichi"
    assert m.kyoku.sticks == 4 and m.sticks == 4  # the sticks stay on the table


def test_double_riichi_on_the_first_uninterrupted_discard() -> None:
    m = start(RIICHI, ["1z"])
    do(m, 0, "riichi 1z")
    assert m.kyoku.seats[0].double_riichi


def test_four_kans_by_two_players_abort_after_the_discard() -> None:
    hands = [
        "1111z2222z123m45p",
        "3333z4444z789m19s",
        "3324m7m258p136s7z",
        "5678m2589p136s67z",
    ]
    m = start(hands, ["9p", "2s"])
    do(m, 0, "ankan 1z 1z+1z+1z+1z")
    do(m, 0, "ankan 2z 2z+2z+2z+2z")
    tsumogiri(m, 0)
    do(m, 1, "ankan 3z 3z+3z+3z+3z")
    do(m, 1, "ankan 4z 4z+4z+4z+4z")
    assert not kinds(m, 1, ActionType.ANKAN) and len(m.kyoku.dora_indicators()) == 5
    tsumogiri(m, 1)
    assert m.results[0].abort == "four-kans"


def test_a_fifth_kan_aborts_under_agari() -> None:
    # 000: "At most four kans per hand across all players. A fifth attempt aborts the
    # hand, unless all four belong to one player going for suukantsu."
    hands = [
        "1111z2222z123m45p",
        "3333z4444z789m19s",
        "5555z9m258p136s7z",
        "5678m2589p136s67z",
    ]
    online = start(hands, ["9p", "2s", "9s"])
    agari = start(hands, ["9p", "2s", "9s"], rules="agari")
    for m in (online, agari):
        do(m, 0, "ankan 1z 1z+1z+1z+1z")
        do(m, 0, "ankan 2z 2z+2z+2z+2z")
        tsumogiri(m, 0)
        do(m, 1, "ankan 3z 3z+3z+3z+3z")
        do(m, 1, "ankan 4z 4z+4z+4z+4z")
        tsumogiri(m, 1)
    assert online.results[0].abort == "four-kans"  # online: after the discard
    assert not agari.results  # agari plays on with four kans down
    assert "ankan 5z 5z+5z+5z+5z" in legal(agari, 2)
    do(agari, 2, "ankan 5z 5z+5z+5z+5z")
    assert agari.results[0].abort == "four-kans" and agari.honba == 1


def test_no_fifth_kan_when_one_player_holds_all_four() -> None:
    hands = ["1111z2222z3333z9m", "5678m2589p136s67z", "5555z9p258p136s7z"]
    m = start(hands, ["9m", "1s"], rules="agari", rinshan=["9m", "9m", "1p", "2p"])
    for kind in ("1z", "2z", "3z", "9m"):
        do(m, 0, f"ankan {kind} {'+'.join([kind] * 4)}")
    assert len(m.kyoku.kan_owners) == 4 and not m.results
    tsumogiri(m, 0)
    tsumogiri(m, 1)
    assert m.kyoku.current == 2 and not kinds(m, 2, ActionType.ANKAN)


def test_pao_for_feeding_the_third_dragon() -> None:
    hands = [
        "5z6z147m258p369s24z",
        "55z66z77z123m4p9m1s9s",
        "258m3689p147s113z",
        "369m1477p258s234z",
    ]
    draws = ["8m", "8s", "6m", "9s", "4m", "7z", "5s", "5m", "6p", "4p"]
    m = start(hands, draws)
    do(m, 0, "discard 5z")
    do(m, 1, "pon 5z 5z+5z")
    do(m, 1, "discard 9m")
    pass_others(m)
    tsumogiri(m, 2)
    tsumogiri(m, 3)
    do(m, 0, "discard 6z")
    pass_others(m, keep=1)
    do(m, 1, "pon 6z 6z+6z")
    do(m, 1, "discard 1s")
    pass_others(m)
    tsumogiri(m, 2)
    do(m, 3, "discard 7z")
    do(m, 1, "pon 7z 7z+7z")
    do(m, 1, "discard 9s")
    pass_others(m)
    for seat in (2, 3, 0):
        tsumogiri(m, seat)
    do(m, 1, "tsumo 4p")
    (win,) = m.results[0].wins
    assert [y.yaku.key for y in win[2].yaku] == ["daisangen"]
    assert [(p.seat, p.points) for p in win[2].payments] == [(3, 32000)]


def test_haitei_and_houtei() -> None:
    # the 70th live tile goes to seat 1; the other copies of 1z lie in the dead wall
    waiting = "123m456p789s1z555z"
    m = start(["", waiting, "", ""], [""] * 69 + ["1z"], ura=["1z", "1z"])
    play_out_until_last_draw(m)
    assert m.kyoku.live_left() == 0 and m.kyoku.current == 1
    do(m, 1, "tsumo 1z")
    yaku = [y["key"] for y in last(m, "win")["result"]["yaku"]]  # type: ignore[index]
    assert "haitei" in yaku
    # the same tile discarded as the very last tile is ronned: houtei
    m = start(["", "", waiting, ""], [""] * 69 + ["1z"], ura=["1z", "1z"])
    play_out_until_last_draw(m)
    do(m, 1, "discard 1z")
    do(m, 2, "ron 1z")
    yaku = [y["key"] for y in last(m, "win")["result"]["yaku"]]  # type: ignore[index]
    assert "houtei" in yaku


def play_out_until_last_draw(m: Match) -> None:
    while m.kyoku.live_left() > 0 or list(m.legal_actions()) != [m.kyoku.current]:
        seat, actions = next(iter(m.legal_actions().items()))
        if any(a.type is ActionType.PASS for a in actions):
            m.apply(seat, Action(ActionType.PASS))
        else:
            tsumogiri(m, seat)


def test_legal_actions_come_in_a_stable_order() -> None:
    m = start(CLAIMS, ["7z"])
    assert legal(m, 0) == [
        "discard 3m",
        "discard 9m",
        "discard 1p",
        "discard 4p",
        "discard 7p",
        "discard 2s",
        "discard 5s",
        "discard 8s",
        "discard 9s",
        "discard 1z",
        "discard 3z",
        "discard 4z",
        "discard 6z",
        "discard 7z",
    ]
    do(m, 0, "discard 3m")
    assert m.legal_actions() == {s: m.legal_actions()[s] for s in sorted(m.legal_actions())}
    assert legal(m, 1) == ["chi 3m 1m+2m", "chi 3m 2m+4m", "chi 3m 4m+5m", "pass"]
    assert legal(m, 2) == ["pon 3m 3m+3m", "pass"]
    assert legal(m, 3) == ["ron 3m", "pass"]


def test_private_events_reach_only_their_seat() -> None:
    m = start(CLAIMS, ["7z"])
    deals = [e for e in m.events if e.type == "deal"]
    assert [e.to for e in deals] == [0, 1, 2, 3]
    draws = [e for e in m.events if e.type == "draw"]
    private = [e for e in draws if "tile" in e.data]
    assert all(e.to == e.data["seat"] for e in private)
    assert all(e.to is None and "tile" not in e.data for e in draws if e not in private)
    spectator = observe(m, None)
    assert spectator.hand is None and spectator.legal == ()


def test_any_call_cancels_ippatsu() -> None:
    hands = [RIICHI[0], RIICHI[1], "3324m7m258p13s77z", RIICHI[3]]
    m = start(hands, ["7z"])
    do(m, 0, "riichi 7z")
    assert m.kyoku.seats[0].ippatsu
    do(m, 2, "pon 7z 7z+7z")
    assert not m.kyoku.seats[0].ippatsu


def test_passing_a_win_in_riichi_is_furiten_for_the_rest_of_the_hand() -> None:
    m = start(RIICHI, ["1z", "8s", "", "", "", "", "", "", "5s"])
    do(m, 0, "riichi 1z")
    do(m, 1, "discard 8s")
    assert kinds(m, 0, ActionType.RON) == ["ron 8s"]
    pass_others(m)
    assert m.kyoku.seats[0].furiten_riichi
    for seat in (2, 3, 0, 1, 2, 3, 0):
        tsumogiri(m, seat)
    assert m.kyoku.seats[0].furiten_riichi  # own discards do not clear it


def test_a_closed_kan_after_riichi_must_keep_the_waits() -> None:
    keeps = ["555z234p567s6799s", *RIICHI[1:]]  # waits 5s 8s with or without the kan
    m = start(keeps, ["1z", "", "", "", "5z"])
    do(m, 0, "riichi 1z")
    for seat in (1, 2, 3):
        tsumogiri(m, seat)
    assert kinds(m, 0, ActionType.ANKAN) == ["ankan 5z 5z+5z+5z+5z"]
    changes = ["8889m123p567s555z", *RIICHI[1:]]  # 8889m waits 7m 9m; after a kan only 9m
    m = start(changes, ["1z", "", "", "", "8m"])
    do(m, 0, "riichi 1z")
    for seat in (1, 2, 3):
        tsumogiri(m, seat)
    assert kinds(m, 0, ActionType.ANKAN) == []


def test_tenhou_in_play() -> None:
    m = start(["123m456p789s1122z", *RIICHI[1:]], ["1z"])
    do(m, 0, "tsumo 1z")
    yaku = [y["key"] for y in last(m, "win")["result"]["yaku"]]  # type: ignore[index]
    assert yaku == ["tenhou"]


def test_kokushi_robs_a_closed_kan_only_where_the_rules_allow() -> None:
    hands = ["1111z234m567p89s5p", CLAIMS[1], "19m19p19s234567z9s", "5678m2589p136s46z"]
    hands[1] = "2345m6m368p47s26z"
    agari = start(hands, ["2p"], rules="agari")
    do(agari, 0, "ankan 1z 1z+1z+1z+1z")
    assert kinds(agari, 2, ActionType.RON) == ["ron 1z"]
    do(agari, 2, "ron 1z")
    assert [y.yaku.key for y in agari.results[0].wins[0][2].yaku] == ["kokushi"]
    online = start(hands, ["2p"])
    do(online, 0, "ankan 1z 1z+1z+1z+1z")
    assert list(online.legal_actions()) == [0]


def test_nagashi_mangan_pays_a_mangan_tsumo() -> None:
    from riichi.game.kyoku import DiscardInfo
    from riichi.tiles import parse_tiles

    m = start(RIICHI, ["1z"])
    k = m.kyoku
    k.seats[1].discards = [DiscardInfo(t, True, False) for t in parse_tiles("19m19p1s1234z")]
    k.seats[2].discards = [DiscardInfo(t, True, False) for t in parse_tiles("5m")]
    k._exhaustive_draw()
    result = m.kyoku.result
    assert result is not None and result.nagashi == [1]
    assert result.deltas == [-4000, 8000, -2000, -2000]


def test_temporary_furiten_after_a_call_differs_by_ruleset() -> None:
    # seat 3 passes a winning 3m: under online rules (004) it is furiten until
    # its own next discard, under classic rules (001) until its next draw
    classic = start(CLAIMS, ["7z", "9p", "1s", "9s"], rules="classic")
    do(classic, 0, "discard 3m")
    pass_others(classic)
    tsumogiri(classic, 1)
    tsumogiri(classic, 2)
    assert not classic.kyoku.seats[3].furiten_temp  # cleared by its draw
    online = start(CLAIMS, ["7z", "9p", "1s", "9s"])
    do(online, 0, "discard 3m")
    pass_others(online)
    tsumogiri(online, 1)
    tsumogiri(online, 2)
    assert online.kyoku.seats[3].furiten_temp  # still: it has drawn, not discarded


def test_losses_are_limited_where_002_says_so() -> None:
    # 002: "losses are limited; a player cannot go below 0 points". The dealer, down to
    # 500, deals into a hand worth more: it pays the 500 it has, the winner gets that,
    # and the match ends there (at 0, the floor). Elsewhere the dealer goes below 0.
    for name, paid in (("riichi-basic", 500), ("online", None)):
        m = start(CLAIMS, ["7z"], rules=name)
        m.scores[0] = 500
        m.scores[3] += 24500
        do(m, 0, "discard 3m")
        pass_others(m, keep=3)
        do(m, 3, "ron 3m")
        deltas = m.results[0].deltas
        value = m.results[0].wins[0][2].points
        if paid is None:
            assert deltas[0] == -value and m.scores[0] < 0
        else:
            assert deltas == [-paid, 0, 0, paid] and paid < value
            assert m.scores[0] == 0 and m.over  # nobody below 0; reaching 0 is the bust
        assert sum(m.scores) + m.sticks * 1000 == 100_000


def test_limited_noten_payments_share_what_the_payer_has() -> None:
    m = start(RIICHI, ["1z"], rules="riichi-basic")
    k = m.kyoku
    m.scores[:] = [50_000, 30_000, 19_800, 200]
    k._exhaustive_draw()
    result = k.result
    assert result is not None and result.tenpai == [0]
    # three noten seats owe 1000 each; the one with 200 pays its 200
    assert result.deltas == [2200, -1000, -1000, -200]
    assert m.scores[3] == 0


# Every seat tenpai from the deal; all draw and discard what they draw to the end.
TENPAI_HANDS = ["123p456p789p1123s", "123p456p789p5567s", "123p456p789p7789s", "111m999m111z222z3z"]


def riichi_open_at(preset: str) -> dict[int, bool]:
    """Down to the wall's last tiles: for each number of live tiles left after a
    draw, whether the player who drew may declare riichi."""
    from game_helpers import arranged_wall
    from riichi.rules import find_ruleset

    rules = find_ruleset(preset)
    players = rules.players
    wall = arranged_wall(
        TENPAI_HANDS[:players], players=players, replacements=8 if players == 3 else 4
    )
    m = Match(rules, 0, walls=[wall] * 10)
    open_at: dict[int, bool] = {}
    start = m.kyoku
    while m.kyoku is start and m.kyoku.live_left() >= 0:
        seat, actions = next(iter(m.legal_actions().items()))
        kinds = {a.type for a in actions}
        if ActionType.PASS in kinds:
            m.apply(seat, next(a for a in actions if a.type is ActionType.PASS))
            continue
        open_at[m.kyoku.live_left()] = ActionType.RIICHI in kinds
        drawn = m.kyoku.drawn
        m.apply(seat, next(a for a in actions if a.type is ActionType.DISCARD and a.tile == drawn))
    return open_at


def test_riichi_needs_another_draw_to_come() -> None:
    """Riichi needs one more draw of one's own: four live tiles or more with four
    players (001: "at least one remaining opportunity to draw (four or more
    live-wall tiles)"), three or more with three (as Tenhou's three-player games
    play it)."""
    four = riichi_open_at("online")
    assert four[4] and not four[3] and not four[0]
    for preset in ("sanma-kansai", "tenhou-sanma"):
        three = riichi_open_at(preset)
        assert three[3] and not three[2] and not three[0], preset
