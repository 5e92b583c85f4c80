"""Limits, base points and who pays what."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from riichi.rules import Pao, RuleSet


class Limit(Enum):
    NONE = "none"
    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    KAZOE_YAKUMAN = "kazoe-yakuman"  # counted yakuman: 13+ han
    YAKUMAN = "yakuman"  # with ``yakuman`` > 1 a multiple


@dataclass(init=False, unsafe_hash=True)
class Payment:
    """``points`` paid by ``seat`` to the winner, honba included."""

    seat: Final[int]
    points: Final[int]

    # written out: the compiled core runs it natively, a generated one is interpreted
    def __init__(self, seat: int, points: int) -> None:
        self.seat = seat
        self.points = points

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Payment, (self.seat, self.points)


def round_up(points: int) -> int:
    return -(-points // 100) * 100


def base_points(han: int, fu: int, yakuman: int, rules: RuleSet) -> tuple[int, Limit]:
    """Base points (a quarter of a non-dealer ron before rounding) and the limit reached."""
    if yakuman:
        return 8000 * yakuman, Limit.YAKUMAN
    if han >= 13:
        if rules.kazoe_yakuman:
            return 8000, Limit.KAZOE_YAKUMAN
        return 6000, Limit.SANBAIMAN
    if han >= 11:
        return 6000, Limit.SANBAIMAN
    if han >= 8:
        return 4000, Limit.BAIMAN
    if han >= 6:
        return 3000, Limit.HANEMAN
    base = fu * 2 ** (han + 2)
    # 4 han 30 fu and 3 han 60 fu both give 1920: kiriage rounds them up
    if han >= 5 or base >= 2000 or (rules.kiriage and base == 1920):
        return 2000, Limit.MANGAN
    return base, Limit.NONE


def payments(
    base: int,
    covered_base: int,
    *,
    tsumo: bool,
    winner: int,
    dealer: int,
    discarder: int | None,
    liable: int | None,
    honba: int,
    rules: RuleSet,
) -> list[Payment]:
    """Who pays what for a win worth ``base`` base points.

    ``covered_base`` is the part of ``base`` that the ``liable`` seat (pao)
    answers for: on a tsumo that seat pays it alone, as if it had dealt in;
    on a ron it is split evenly with the discarder unless they are the same
    seat. The liable seat pays the honba of a tsumo, the discarder those of a
    ron.
    """
    owed = [0] * rules.players  # by seat
    multiplier = 6 if winner == dealer else 4
    if liable is None or rules.pao is Pao.NONE:
        covered_base = 0
    rest = base - covered_base
    if tsumo:
        honba_total = rules.honba_tsumo * honba
        # the absent fourth player's share is split between the two payers
        split = rules.players == 3 and not rules.tsumo_loss
        missing = round_up(rest * (2 if winner == dealer else 1)) if rest and split else 0
        for s in range(rules.players):
            if s == winner:
                continue
            if rest:
                owed[s] += round_up(rest * (2 if winner == dealer or s == dealer else 1))
                if split:
                    owed[s] += round_up(missing // 2)
            if not covered_base:
                owed[s] += honba_total
        if covered_base and liable is not None:
            owed[liable] += round_up(covered_base * multiplier)
            owed[liable] += honba_total * (rules.players - 1)
    else:
        assert discarder is not None
        owed[discarder] = round_up(rest * multiplier) if rest else 0
        if covered_base and liable is not None:
            value = round_up(covered_base * multiplier)
            if liable == discarder:
                owed[discarder] += value
            else:
                owed[liable] = value // 2
                owed[discarder] += value - value // 2
        owed[discarder] += rules.honba_ron * honba
    return [Payment(s, v) for s, v in enumerate(owed) if v]


def ron_order(discarder: int, winners: list[int], players: int) -> list[int]:
    """Winners of one discard in turn order from the discarder.

    On a multiple ron the first of them, the winner nearest the discarder,
    takes the riichi sticks and the honba; the others are paid their hand only.
    """
    return sorted(winners, key=lambda seat: (seat - discarder) % players)
