"""riichi.platform: clocks, names and the queue's seating, as plain functions of the time."""

from __future__ import annotations

import pytest

from riichi.game import PASS, Action, ActionType
from riichi.game.actions import DISCARDS
from riichi.platform import (
    POLICIES,
    AccountError,
    ClockState,
    Pool,
    Waiting,
    check_name,
    check_password,
    clocks,
    name_key,
    seat_tables,
    timeout_action,
)

STANDARD = POLICIES[Pool.STANDARD]
RELAXED = POLICIES[Pool.RELAXED]


def test_the_clocks_of_001() -> None:
    assert (STANDARD.per_turn, STANDARD.reserve) == (5, 20)
    assert (RELAXED.per_turn, RELAXED.reserve) == (15, 60)
    assert STANDARD.results == RELAXED.results == 15


def test_thinking_time_is_fresh_each_turn_then_the_reserve_is_used() -> None:
    state = ClockState.new(STANDARD, 4)
    clocks.begin(STANDARD, state, hand=0, version=1, deciding=[(0, False)], now=100.0)
    assert state.decisions[0].base == 105 and state.decisions[0].until == 125
    clocks.answered(state, 0, 103.0)  # within the thinking time: the reserve is whole
    assert state.reserves[0] == 20
    clocks.begin(STANDARD, state, hand=0, version=5, deciding=[(0, False)], now=200.0)
    assert state.decisions[0].base == 205  # fresh again
    clocks.answered(state, 0, 212.0)  # 7 s past the thinking time
    assert state.reserves[0] == 13
    clocks.begin(STANDARD, state, hand=0, version=9, deciding=[(0, False)], now=300.0)
    assert state.decisions[0].until == 318  # 5 s and the 13 left
    clocks.begin(STANDARD, state, hand=1, version=20, deciding=[(0, False)], now=400.0)
    assert state.reserves[0] == 20 and state.decisions[0].until == 425  # a new hand


def test_calls_have_their_own_time_and_no_reserve() -> None:
    state = ClockState.new(STANDARD, 4)
    clocks.begin(STANDARD, state, hand=0, version=3, deciding=[(1, True), (2, True)], now=50.0)
    assert state.decisions[1].until == 55 and state.decisions[2].until == 55
    clocks.answered(state, 1, 54.9)
    assert state.reserves[1] == 20
    # the other seat is still deciding at the same version: its clock goes on
    clocks.begin(STANDARD, state, hand=0, version=3, deciding=[(2, True)], now=54.9)
    assert state.decisions[2].start == 50
    assert state.expired(54.0) == [] and state.expired(55.0) == [2]


def test_a_result_pause_ends_in_time_or_when_every_person_confirms() -> None:
    state = ClockState.new(STANDARD, 4)
    clocks.pause(STANDARD, state, 10.0)
    assert state.deadline() == 25.0 and state.expired(100.0) == []
    assert not clocks.resume_if_due(state, 20.0, [0, 2])
    state.ready.add(0)
    assert not clocks.resume_if_due(state, 20.0, [0, 2])
    state.ready.add(2)
    assert clocks.resume_if_due(state, 20.0, [0, 2])
    clocks.pause(STANDARD, state, 30.0)
    assert clocks.resume_if_due(state, 45.0, [0, 2])


def test_the_clock_state_is_plain_data() -> None:
    state = ClockState.new(RELAXED, 3)
    clocks.begin(RELAXED, state, hand=2, version=7, deciding=[(1, False)], now=1.5)
    state.ready = {0}
    assert ClockState.from_dict(state.to_dict()) == state


def discard(tile: int) -> Action:
    return DISCARDS[tile]


def test_what_a_timeout_plays() -> None:
    tsumo = Action(ActionType.TSUMO, 8)
    ron = Action(ActionType.RON, 8)
    pon = Action(ActionType.PON, 8, (9, 10))
    assert timeout_action([discard(1), discard(8), tsumo], drawn=8) == tsumo  # a win
    assert timeout_action([ron, PASS], drawn=None) == ron
    assert timeout_action([pon, PASS], drawn=None) == PASS  # optional calls pass
    assert timeout_action([discard(1), discard(40), discard(8)], drawn=8) == discard(8)
    # after a call there is no drawn tile: the rightmost legal tile
    assert timeout_action([discard(1), discard(40), discard(8)], drawn=None) == discard(40)
    riichi = Action(ActionType.RIICHI, 8)
    assert timeout_action([discard(8), riichi], drawn=8) == discard(8)


def test_names_and_passwords() -> None:
    assert check_name("Ann_Lee") == "Ann_Lee"
    assert name_key("ANN_lee") == name_key("ann_LEE")
    for bad in ("ab", "x" * 21, "has space", "robot1", "Bot", "<script>", 5):
        with pytest.raises(AccountError):
            check_name(bad)
    assert check_password("long enough") == "long enough"
    for bad in ("short", "x" * 129, None):
        with pytest.raises(AccountError):
            check_password(bad)


def test_the_queue_seats_four_of_a_pool_or_fills_after_the_wait() -> None:
    waiting = [Waiting(a, "standard", float(a)) for a in range(5)]
    waiting.append(Waiting(9, "relaxed", 0.0))
    tables = seat_tables(waiting, now=10.0, fill_after=30.0)
    assert [[w.account for w in t if w] for t in tables] == [[0, 1, 2, 3]]
    tables = seat_tables(waiting, now=33.9, fill_after=30.0)
    seated = [[w.account if w else None for w in t] for t in tables]
    assert [0, 1, 2, 3] in seated and [4, None, None, None] not in seated  # 4 waited 29.9 s
    assert [9, None, None, None] in seated  # the relaxed player waited 33.9 s
    tables = seat_tables(waiting, now=34.0, fill_after=30.0)
    assert [4, None, None, None] in [[w.account if w else None for w in t] for t in tables]
