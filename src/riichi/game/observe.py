"""Observations: what one seat, or a spectator, may see. Nothing else is ever sent."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from riichi.game.actions import Action
from riichi.game.kyoku import Kyoku
from riichi.game.match import Match
from riichi.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Observation:
    """The view of ``seat`` (None for a spectator): public facts plus its own hand.

    Other seats' concealed tiles, the wall and unrevealed indicators are not
    here: the type has no field that could hold them.
    """

    seat: int | None
    rules: RuleSet  # public: every player knows the rules of the table
    round_wind: int
    dealer: int
    honba: int
    sticks: int
    scores: tuple[int, ...]
    live_left: int
    dora_indicators: tuple[int, ...]
    hand: tuple[int, ...] | None
    drawn: int | None
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[str, ...], ...]
    meld_tiles: tuple[tuple[tuple[int, ...], ...], ...]  # the same sets as tile ids
    kita: tuple[tuple[int, ...], ...]  # Norths each seat set aside (three players)
    discards: tuple[
        tuple[tuple[int, bool, bool, bool], ...], ...
    ]  # tile, tsumogiri, riichi, called
    riichi: tuple[bool, ...]
    current: int
    legal: tuple[Action, ...]
    over: bool

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # by its fields, in order (a frozen, slotted class does not pickle field by
        # field): how a worker process that searches gets a seat's view
        return (Observation, tuple(getattr(self, f.name) for f in fields(self)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rules": self.rules.name,
            "round_wind": self.round_wind,
            "dealer": self.dealer,
            "honba": self.honba,
            "sticks": self.sticks,
            "scores": list(self.scores),
            "live_left": self.live_left,
            "dora_indicators": list(self.dora_indicators),
            "hand": None if self.hand is None else list(self.hand),
            "drawn": self.drawn,
            "hand_sizes": list(self.hand_sizes),
            "melds": [list(m) for m in self.melds],
            "meld_tiles": [[list(t) for t in m] for m in self.meld_tiles],
            "kita": [list(k) for k in self.kita],
            "discards": [[list(d) for d in ds] for ds in self.discards],
            "riichi": list(self.riichi),
            "current": self.current,
            "legal": [a.to_dict() for a in self.legal],
            "over": self.over,
        }


def observe(match: Match, seat: int | None, kyoku: Kyoku | None = None) -> Observation:
    """The observation of ``seat``, or of a spectator when ``seat`` is None; of the hand
    ``kyoku`` when given (a hand that has ended, as it stood at its end)."""
    k = match.kyoku if kyoku is None else kyoku
    # a hand that has ended offers nobody anything
    live = kyoku is None or kyoku is match.kyoku
    legal = tuple(match.legal_actions().get(seat, ())) if seat is not None and live else ()
    return hand_view(match.rules, k, seat, tuple(match.scores), legal, match.over)


def hand_view(
    rules: RuleSet,
    k: Kyoku,
    seat: int | None,
    scores: tuple[int, ...],
    legal: tuple[Action, ...],
    over: bool = False,
) -> Observation:
    """What ``seat`` (None: a spectator) sees of the hand ``k``, with the match's
    ``scores``, the seat's ``legal`` actions, and whether the match is ``over``:
    `observe` of a match, or of a hand played on by itself (a search's)."""
    mine = k.seats[seat] if seat is not None else None
    return Observation(
        seat=seat,
        rules=rules,
        round_wind=k.round_wind,
        dealer=k.dealer,
        honba=k.honba,
        sticks=k.sticks,
        scores=scores,
        live_left=k.live_left(),
        dora_indicators=tuple(k.dora_indicators()),
        hand=None if mine is None else tuple(sorted(mine.hand)),
        drawn=k.drawn if seat is not None and k.current == seat else None,
        hand_sizes=tuple(len(s.hand) for s in k.seats),
        melds=tuple(tuple(str(m) for m in s.melds) for s in k.seats),
        meld_tiles=tuple(tuple(m.tiles for m in s.melds) for s in k.seats),
        kita=tuple(tuple(s.kita) for s in k.seats),
        discards=tuple(
            tuple((d.tile, d.tsumogiri, d.riichi, d.called) for d in s.discards) for s in k.seats
        ),
        riichi=tuple(s.riichi for s in k.seats),
        current=k.current,
        legal=legal,
        over=over,
    )
