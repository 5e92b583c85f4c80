"""Tenhou's three-player game: a North may be set aside (kita) for a replacement draw.

Seat 0 deals; hands are listed from the dealer on. The 108-tile set has no 2m..8m.
"""

from __future__ import annotations

from collections.abc import Sequence

from game_helpers import arranged_wall
from riichi.game import ActionType, Match, observe
from riichi.rules import find_ruleset

SANMA = find_ruleset("tenhou-sanma")


def start(hands: Sequence[str], draws: Sequence[str] = (), **wall: Sequence[str]) -> Match:
    arranged = arranged_wall(hands, draws, players=3, replacements=8, **wall)
    return Match(SANMA, 0, walls=[arranged] * 10)


def legal(m: Match, seat: int) -> list[str]:
    return [str(a) for a in m.legal_actions().get(seat, [])]


def do(m: Match, seat: int, text: str) -> None:
    for a in m.legal_actions().get(seat, []):
        if str(a) == text:
            m.apply(seat, a)
            return
    raise AssertionError(f"{text!r} is not legal for seat {seat}: {legal(m, seat)}")


def tsumogiri(m: Match, seat: int) -> None:
    do(m, seat, f"discard {_name(m.kyoku.drawn)}")


def _name(tile: int | None) -> str:
    from riichi.tiles import tile_name

    assert tile is not None
    return tile_name(tile, red_fives=4)


# The dealer holds ittsu in pin, a pair of red dragons, 2s and a North: set aside, the
# North brings a replacement 3s that completes 123s with the 1s drawn first.
ITTSU = ["123p456p789p77z2s4z", "19m19p19s1235z6z99s", "99m11p9p55z66z5678s"]


def test_a_north_is_set_aside_for_a_replacement_draw_and_counts_as_dora() -> None:
    m = start(ITTSU, ["1s"], rinshan=["3s"], dora=["5z"])
    live = m.kyoku.live_left()
    assert "kita 4z" in legal(m, 0)
    do(m, 0, "kita 4z")
    k = m.kyoku
    assert k.drawn is not None and _name(k.drawn) == "3s" and k.from_rinshan
    assert k.live_left() == live - 1  # the live wall gives its last tile to the dead wall
    assert [_name(t) for t in k.seats[0].kita] == ["4z"]
    assert observe(m, 1).kita[0] == tuple(k.seats[0].kita)  # public
    assert any(
        e.type == "kita" and e.data == {"seat": 0, "tile": k.seats[0].kita[0]} for e in m.events
    )
    do(m, 0, "tsumo 3s")
    win = m.results[0].wins[0][2]
    assert win.dora == 1  # the North set aside (the 5z indicator points at 6z: none)
    keys = {y.yaku.key for y in win.yaku}
    assert keys >= {"ittsu", "menzen-tsumo", "rinshan"}
    # a North that stands ends the first go-around, as a closed kan does: no tenhou
    assert "tenhou" not in keys


def test_each_north_set_aside_counts_again_when_north_is_the_dora() -> None:
    # a West indicator makes North the dora: the set-aside North counts twice
    m = start(ITTSU, ["1s"], rinshan=["3s"], dora=["3z"])
    do(m, 0, "kita 4z")
    do(m, 0, "tsumo 3s")
    assert m.results[0].wins[0][2].dora == 2


def test_in_riichi_only_the_north_just_drawn_may_be_set_aside() -> None:
    hands = ["123p456p789p44z1s2s", "19m19p19s1235z6z7z", "99m11p9p55z66z5678s"]
    m = start(hands, ["9s", "7s", "9p", "4z"])
    do(m, 0, "riichi 9s")
    tsumogiri(m, 1)
    tsumogiri(m, 2)
    kita = [a for a in m.legal_actions()[0] if a.type is ActionType.KITA]
    assert [a.tile for a in kita] == [m.kyoku.drawn]  # not the Norths of the pair
    do(m, 0, f"kita {_name(m.kyoku.drawn)}")
    assert len(m.kyoku.seats[0].kita) == 1 and m.kyoku.seats[0].counts[30] == 2


RON_NORTH = ["123p456p789p1s9s4z7z", "123p456p789s555z4z", "1m9m1p9p1s9s2s5s6s1z2z3z6z"]


def test_a_north_set_aside_may_be_ronned_and_its_ippatsu_kept() -> None:
    # seat 1 waits on North alone, in riichi; the dealer sets a North aside within
    # the go-around: robbed, it never stood, so ippatsu counts (and it is no chankan)
    m = start(RON_NORTH, ["9m", "7z", "7s", "8s"])
    tsumogiri(m, 0)
    do(m, 1, "riichi 7z")
    tsumogiri(m, 2)
    do(m, 0, "kita 4z")
    assert "ron 4z" in legal(m, 1)
    do(m, 1, "ron 4z")
    win = m.results[0].wins[0][2]
    keys = {y.yaku.key for y in win.yaku}
    assert "ippatsu" in keys and "chankan" not in keys


def test_a_north_that_stands_ends_every_ippatsu() -> None:
    m = start(RON_NORTH, ["9m", "7z", "7s", "8s"])
    tsumogiri(m, 0)
    do(m, 1, "riichi 7z")
    tsumogiri(m, 2)
    assert m.kyoku.seats[1].ippatsu
    do(m, 0, "kita 4z")
    do(m, 1, "pass")
    assert not m.kyoku.seats[1].ippatsu
    assert m.kyoku.seats[1].furiten_riichi  # it let its winning tile go by


def test_no_north_aside_without_the_rule_or_a_north() -> None:
    kansai = find_ruleset("sanma-kansai")
    m = Match(kansai, 0, walls=[arranged_wall(ITTSU, ["1s"], players=3)] * 10)
    assert not [a for a in m.legal_actions()[0] if a.type is ActionType.KITA]
    m = start(["123p456p789p77z2s5z", *ITTSU[1:]], ["1s"])
    assert not [a for a in m.legal_actions()[0] if a.type is ActionType.KITA]


def test_seeded_three_player_walls_keep_eight_replacements_and_replay() -> None:
    from riichi.game.wall import KITA_RINSHAN_TILES

    m = Match(SANMA, "kita-seed")
    assert len(m.kyoku.wall.rinshan) == KITA_RINSHAN_TILES
    assert m.kyoku.live_left() == 55 - 1  # 108 - 39 dealt - 14 dead, one drawn
    import random

    rng = random.Random(3)
    while not m.over:
        seat, actions = next(iter(m.legal_actions().items()))
        kita = [a for a in actions if a.type is ActionType.KITA]
        m.apply(seat, kita[0] if kita else rng.choice(actions))
    assert any(e.type == "kita" for e in m.events)
    again = Match.replay(SANMA, "kita-seed", m.actions)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in m.events]
