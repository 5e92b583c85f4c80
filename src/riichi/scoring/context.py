"""The situation of a win: how, when and where it happened."""

from __future__ import annotations

from dataclasses import dataclass

from riichi.errors import RiichiError
from riichi.tiles import EAST, WINDS, kind_name


class InvalidContextError(RiichiError):
    """A win context that cannot happen (ippatsu without riichi, haitei on a ron, ...)."""


@dataclass(frozen=True, slots=True)
class WinContext:
    """How a hand was won.

    Seats are absolute (0..players-1); ``dealer`` is the seat of this hand's
    dealer, so the winner's seat wind is East plus ``(seat - dealer)``.
    ``discarder`` is the seat that dealt in (ron only). ``riichi_sticks`` is
    the number of 1000-point sticks on the table that go to this winner (0 for
    a second ron winner) and ``honba`` likewise. ``pao`` is the seat liable
    for a big-three-dragons or big-four-winds it fed. ``kita`` is the number of
    Norths the winner set aside (three players): each is a dora.
    Indicators are physical tile ids.
    """

    tsumo: bool = False
    seat: int = 0
    dealer: int = 0
    discarder: int | None = None
    round_wind: int = EAST
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    pao: int | None = None
    kita: int = 0

    def check(self, players: int) -> None:
        """Raise ``InvalidContextError`` unless this situation can happen."""
        problems = []
        if not (0 <= self.seat < players and 0 <= self.dealer < players):
            problems.append(f"seats must be 0..{players - 1}")
        if self.tsumo and self.discarder is not None:
            problems.append("a tsumo has no discarder")
        if not self.tsumo and (self.discarder is None or self.discarder == self.seat):
            problems.append("a ron needs a discarder other than the winner")
        if self.discarder is not None and not 0 <= self.discarder < players:
            problems.append(f"discarder must be 0..{players - 1}")
        if self.round_wind not in WINDS:
            problems.append(f"round wind {kind_name(self.round_wind)} is not a wind")
        if self.double_riichi and not self.riichi:
            problems.append("double riichi is also riichi: set riichi too")
        if self.ippatsu and not self.riichi:
            problems.append("ippatsu needs riichi")
        if self.ura_indicators and not self.riichi:
            problems.append("ura dora only count for riichi")
        if self.rinshan and not self.tsumo:
            problems.append("rinshan is a tsumo")
        if (self.chankan or self.houtei) and self.tsumo:
            problems.append("chankan and houtei are ron wins")
        if self.chankan and self.houtei:
            problems.append("a robbed kan tile is never the last discard (chankan with houtei)")
        if self.haitei and not self.tsumo:
            problems.append("haitei is a tsumo")
        if self.haitei and self.rinshan:
            problems.append("a replacement draw is never haitei")
        if self.tenhou and (not self.tsumo or self.seat != self.dealer):
            problems.append("tenhou is the dealer's tsumo")
        if self.chiihou and (not self.tsumo or self.seat == self.dealer):
            problems.append("chiihou is a non-dealer's tsumo")
        if self.renhou and (self.tsumo or self.seat == self.dealer):
            problems.append("renhou is a non-dealer's ron")
        if not 0 <= self.kita <= 4:
            problems.append("kita counts the Norths set aside: 0 to 4")
        elif self.kita and players != 3:
            problems.append("only three players set Norths aside")
        if self.honba < 0 or self.riichi_sticks < 0:
            problems.append("honba and riichi sticks must not be negative")
        if self.pao is not None and not (0 <= self.pao < players and self.pao != self.seat):
            problems.append("pao must name another seat")
        if problems:
            raise InvalidContextError("impossible win context: " + "; ".join(problems))

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    def seat_wind(self, players: int) -> int:
        return EAST + (self.seat - self.dealer) % players
