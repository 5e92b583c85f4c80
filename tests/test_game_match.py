"""How a match runs: rotation, honba, extension, agari-yame, busting, placement, settlement."""

from __future__ import annotations

import random

from game_helpers import random_action
from riichi.game import HandResult, Match, MatchStart
from riichi.rules import Length, RuleSet, Settlement, find_ruleset


def at(rules: RuleSet, round_index: int, rotation: int, scores: list[int]) -> Match:
    m = Match(rules, 0)
    m.round_index, m.rotation, m.scores[:] = round_index, rotation, scores
    return m


PASSED = HandResult("win", [0, 0, 0, 0])  # a non-dealer won: the deal passes
DEALER_WON = HandResult("win", [0, 0, 0, 0], dealer_repeats=True)
DEALER_TENPAI = HandResult("exhaustive", [0, 0, 0, 0], dealer_repeats=True)
ONLINE = find_ruleset("online")  # hanchan, extension to 30000, agari-yame, busting
EAST = ONLINE.replace(length=Length.EAST)


def test_hanchan_ends_after_south_four_when_someone_has_30000() -> None:
    assert at(ONLINE, 1, 3, [31000, 25000, 24000, 20000])._match_ends(PASSED)
    assert not at(ONLINE, 1, 2, [31000, 25000, 24000, 20000])._match_ends(PASSED)
    assert not at(ONLINE, 0, 3, [31000, 25000, 24000, 20000])._match_ends(PASSED)


def test_nobody_at_30000_goes_into_the_west_round_until_someone_gets_there() -> None:
    assert not at(ONLINE, 1, 3, [28000, 25000, 24000, 23000])._match_ends(PASSED)
    assert not at(ONLINE, 2, 0, [28000, 25000, 24000, 23000])._match_ends(PASSED)
    assert at(ONLINE, 2, 1, [30000, 25000, 24000, 21000])._match_ends(PASSED)
    # the extension round is the last: West 4 ends the match whatever the scores
    assert at(ONLINE, 2, 3, [28000, 25000, 24000, 23000])._match_ends(PASSED)


def test_no_extension_in_classic() -> None:
    classic = find_ruleset("classic")  # east, no extension
    assert at(classic, 0, 3, [28000, 25000, 24000, 23000])._match_ends(PASSED)


def test_east_match_ends_after_east_four() -> None:
    assert at(EAST, 0, 3, [40000, 20000, 20000, 20000])._match_ends(PASSED)
    assert not at(EAST, 0, 2, [40000, 20000, 20000, 20000])._match_ends(PASSED)


def test_agari_yame_top_dealer_with_30000_may_stop() -> None:
    # South 4: seat 3 deals; it won (repeat) and is on top with 30000+
    assert at(ONLINE, 1, 3, [20000, 25000, 24000, 31000])._match_ends(DEALER_WON)
    # a repeating last dealer who is not on top plays on
    assert not at(ONLINE, 1, 3, [32000, 25000, 24000, 19000])._match_ends(DEALER_WON)


DEALER_ABORTS = HandResult("abort", [0, 0, 0, 0], abort="nine-terminals", dealer_repeats=True)


def test_tenpai_yame_is_a_switch() -> None:
    # the top last dealer who is only tenpai at the draw stops (004, and Tenhou since
    # some time after 2009); where the switch is off the dealer plays on
    assert at(ONLINE, 1, 3, [20000, 25000, 24000, 31000])._match_ends(DEALER_TENPAI)
    tenhou = find_ruleset("tenhou")
    assert at(tenhou, 1, 3, [20000, 25000, 24000, 31000])._match_ends(DEALER_TENPAI)
    older = tenhou.replace(tenpai_yame=False)
    assert not at(older, 1, 3, [20000, 25000, 24000, 31000])._match_ends(DEALER_TENPAI)
    assert at(older, 1, 3, [20000, 25000, 24000, 31000])._match_ends(DEALER_WON)


def test_an_abortive_draw_in_the_last_hand_is_never_a_stop() -> None:
    # 004: "cancelled and replayed (honba +1, same dealer)"; 000: "the dealer keeps the deal"
    for name in ("online", "classic", "agari", "league", "tenhou"):
        rules = find_ruleset(name)
        last = 1 if rules.length is Length.SOUTH else 0
        m = at(rules, last, 3, [20000, 25000, 24000, 31000])
        assert not m._match_ends(DEALER_ABORTS), name
        assert m._match_ends(DEALER_WON), name  # the same dealer winning does stop


def test_a_repeating_dealer_in_the_extension_plays_on_unless_on_top() -> None:
    # Tenhou: the dealer's repeat comes first, though another player reached 30,000
    tenhou = find_ruleset("tenhou")
    assert not at(tenhou, 2, 0, [25000, 32000, 22000, 21000])._match_ends(DEALER_WON)
    assert at(tenhou, 2, 0, [32000, 25000, 22000, 21000])._match_ends(DEALER_WON)


def test_the_extension_ends_as_soon_as_someone_reaches_30000_online() -> None:
    # 004: the extension "ends as soon as someone reaches 30,000", repeat or not
    assert at(ONLINE, 2, 0, [25000, 32000, 22000, 21000])._match_ends(DEALER_WON)
    assert at(ONLINE, 2, 0, [25000, 32000, 22000, 21000])._match_ends(DEALER_TENPAI)
    assert not at(ONLINE, 2, 0, [29000, 28000, 22000, 21000])._match_ends(DEALER_WON)
    assert not at(ONLINE, 2, 0, [25000, 32000, 22000, 21000])._match_ends(DEALER_ABORTS)
    # and in South 4, before any extension, the repeat still plays on
    assert not at(ONLINE, 1, 3, [25000, 32000, 22000, 21000])._match_ends(DEALER_WON)


def test_busting_ends_the_match_at_once() -> None:
    assert at(ONLINE, 0, 1, [50000, 25000, 26000, -1000])._match_ends(PASSED)
    no_bust = ONLINE.replace(busting=False)
    assert not at(no_bust, 0, 1, [50000, 25000, 26000, -1000])._match_ends(PASSED)


def test_one_hand_match_ends_after_one_hand() -> None:
    one = ONLINE.replace(length=Length.ONE_HAND, lengths=(Length.ONE_HAND, Length.SOUTH))
    m = Match(one, 5)
    rng = random.Random(5)
    while not m.over:
        seat, actions = next(iter(m.legal_actions().items()))
        m.apply(seat, random_action(rng, actions))
    assert len(m.results) == 1


def finish(rules: RuleSet, scores: list[int], sticks: int = 0) -> Match:
    m = at(rules, 1, 3, scores)
    m.sticks = sticks
    m._finish()
    return m


def test_ties_go_to_the_seat_nearer_the_first_dealer() -> None:
    m = finish(ONLINE, [20000, 30000, 30000, 20000])
    assert m.standings is not None
    assert [x.place for x in m.standings] == [3, 1, 2, 4]


def test_uma_oka_and_leftover_sticks() -> None:
    m = finish(ONLINE, [47300, 28400, 14800, 8500], sticks=1)
    assert m.standings is not None
    assert m.standings[0].score == 48300  # the leftover stick goes to first
    # (score - 30000) / 1000, +20 oka to first, uma +15/+5/-5/-15
    assert [x.points for x in m.standings] == [53.3, 3.4, -20.2, -36.5]
    assert abs(sum(x.points for x in m.standings)) < 1e-9


def test_daily_wall_keeps_raw_scores() -> None:
    daily = find_ruleset("daily-wall")
    assert daily.settlement is Settlement.RAW
    m = finish(daily, [30000, 25000, 23000, 21000], sticks=1)
    assert m.standings is not None
    assert [x.points for x in m.standings] == [30000, 25000, 23000, 21000]
    assert m.sticks == 1  # no stick redistribution


def test_table_points_for_tournaments() -> None:
    m = finish(find_ruleset("riichi-basic"), [40000, 30000, 20000, 10000])
    assert m.standings is not None
    assert [x.points for x in m.standings] == [4, 2, 1, 0]


def test_dealer_rotation_and_honba() -> None:
    m = Match(EAST, 3)
    rng = random.Random(3)
    seen = []
    while not m.over:
        seat, actions = next(iter(m.legal_actions().items()))
        before = len(m.results)
        m.apply(seat, random_action(rng, actions))
        if len(m.results) > before and not m.over:
            result = m.results[-1]
            seen.append((result.kind, result.dealer_repeats, m.kyoku.dealer, m.honba))
    for (kind, repeat, dealer, honba), prev in zip(seen[1:], seen, strict=False):
        _, _, prev_dealer, prev_honba = prev
        assert dealer == (prev_dealer if repeat else (prev_dealer + 1) % 4)
        assert honba == (prev_honba + 1 if repeat or kind != "win" else 0)


def test_a_copy_plays_on_alone_from_the_same_place() -> None:
    rng = random.Random(5)
    start = MatchStart(scores=(30000, 20000, 25000, 25000), round_index=1, dealer=2, honba=1)
    match = Match(ONLINE, 7, start=start)
    for _ in range(150):  # well into the second hand or later
        seat, actions = next(iter(match.legal_actions().items()))
        match.apply(seat, random_action(rng, actions))
    twin = match.copy()
    assert [e.to_dict() for e in twin.events] == [e.to_dict() for e in match.events]
    assert twin.scores == match.scores and twin.legal_actions() == match.legal_actions()
    events = len(match.events)
    while len(twin.results) == len(match.results):  # play the copy to the hand's end
        seat, actions = next(iter(twin.legal_actions().items()))
        twin.apply(seat, random_action(rng, actions))
    assert len(match.events) == events and len(twin.events) > events
