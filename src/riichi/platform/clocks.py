"""Clocks as data (001): thinking time per decision, a reserve per hand, and what a
timeout plays.

Standard tables give 5 s per discard plus a 20 s reserve per hand; relaxed 15 s
plus 60 s. Each turn's thinking time is fresh; past it, the reserve is used,
and the reserve is whole again each hand. A call (ron, pon, kan, chi) has its
own response time and no reserve. When the hand's result is shown, play waits
``results`` seconds (or until every person confirms). A ``ClockState`` is plain
data, stored with each action, so a server restarted mid-hand goes on with the
time that was left, and one that was down past a deadline applies it at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from riichi.game import Action, ActionType, Match, Phase


class Pool(Enum):
    UNTIMED = "untimed"
    STANDARD = "standard"
    RELAXED = "relaxed"


@dataclass(frozen=True, slots=True)
class ClockPolicy:
    pool: Pool
    per_turn: float  # fresh thinking time for each discard decision
    reserve: float  # per hand, used once the thinking time is gone
    per_call: float  # to answer a call offer (ron, pon, kan, chi): no reserve
    results: float = 15.0  # a hand's result is shown this long


POLICIES = {
    Pool.STANDARD: ClockPolicy(Pool.STANDARD, 5.0, 20.0, 5.0),
    Pool.RELAXED: ClockPolicy(Pool.RELAXED, 15.0, 60.0, 15.0),
}


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat's pending decision: offered at ``start`` for table version ``version``."""

    version: int
    start: float
    base: float  # when the thinking time runs out
    until: float  # when the reserve does too: the deadline
    call: bool

    def to_list(self) -> list[Any]:
        return [self.version, self.start, self.base, self.until, self.call]


@dataclass(slots=True)
class ClockState:
    """Reserves per seat for the hand ``hand``, pending decisions, a result pause."""

    hand: int
    reserves: list[float]
    decisions: dict[int, Decision] = field(default_factory=dict)
    pause_until: float | None = None
    ready: set[int] = field(default_factory=set)

    @classmethod
    def new(cls, policy: ClockPolicy, players: int) -> ClockState:
        return cls(0, [policy.reserve] * players)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "reserves": self.reserves,
            "decisions": {str(s): d.to_list() for s, d in self.decisions.items()},
            "pause_until": self.pause_until,
            "ready": sorted(self.ready),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClockState:
        return cls(
            int(data["hand"]),
            [float(x) for x in data["reserves"]],
            {
                int(s): Decision(int(v), a, b, c, bool(k))
                for s, (v, a, b, c, k) in data["decisions"].items()
            },
            data.get("pause_until"),
            set(data.get("ready", [])),
        )

    def deadline(self) -> float | None:
        """When the next thing happens on its own: a pause ends or a decision times out."""
        if self.pause_until is not None:
            return self.pause_until
        return min((d.until for d in self.decisions.values()), default=None)

    def expired(self, now: float) -> list[int]:
        """Seats whose decision has run out of time (none while a result shows)."""
        if self.pause_until is not None:
            return []
        return sorted(s for s, d in self.decisions.items() if d.until <= now)


def begin(
    policy: ClockPolicy,
    state: ClockState,
    *,
    hand: int,
    version: int,
    deciding: Iterable[tuple[int, bool]],
    now: float,
) -> None:
    """Start the clocks of the seats now deciding (``(seat, is_call)``); a seat already
    deciding at this version keeps its clock. A new hand makes every reserve whole."""
    if hand != state.hand:
        state.hand = hand
        state.reserves = [policy.reserve] * len(state.reserves)
    if state.pause_until is not None:
        return
    current = dict(deciding)
    state.decisions = {s: d for s, d in state.decisions.items() if s in current}
    for seat, call in current.items():
        known = state.decisions.get(seat)
        if known is not None and known.version == version:
            continue
        base = now + (policy.per_call if call else policy.per_turn)
        until = base if call else base + state.reserves[seat]
        state.decisions[seat] = Decision(version, now, base, until, call)


def answered(state: ClockState, seat: int, now: float) -> None:
    """``seat`` decided at ``now``: time past its thinking time comes off its reserve."""
    decision = state.decisions.pop(seat, None)
    if decision is not None and not decision.call:
        used = max(0.0, min(now, decision.until) - decision.base)
        state.reserves[seat] = max(0.0, state.reserves[seat] - used)


def pause(policy: ClockPolicy, state: ClockState, now: float) -> None:
    """A hand ended: its result shows for ``policy.results`` seconds, nobody's clock runs."""
    state.decisions = {}
    state.pause_until = now + policy.results
    state.ready = set()


def resume_if_due(state: ClockState, now: float, people: Sequence[int]) -> bool:
    """End the result pause once its time is up or every person confirmed; True if ended."""
    if state.pause_until is None:
        return False
    if now >= state.pause_until or set(people) <= state.ready:
        state.pause_until = None
        state.ready = set()
        return True
    return False


def timeout_action(legal: Sequence[Action], drawn: int | None) -> Action:
    """What a seat that ran out of time plays (001): a win is claimed; an optional call
    passes; the drawn tile is discarded when legal, else the rightmost (highest) legal
    tile, as after a call."""
    for action in legal:
        if action.type in (ActionType.TSUMO, ActionType.RON):
            return action
    for action in legal:
        if action.type is ActionType.PASS:
            return action
    discards = [a for a in legal if a.type is ActionType.DISCARD]
    for action in discards:
        if action.tile == drawn:
            return action
    if discards:
        return max(discards, key=lambda a: a.tile if a.tile is not None else -1)
    return legal[-1]


def start_clocks(
    policy: ClockPolicy, state: ClockState, match: Match, bots: set[int], now: float
) -> None:
    """Start the clock of each person now deciding in ``match`` (bots answer within
    theirs); none once the match is over."""
    if match.over:
        state.decisions = {}
        return
    call = match.kyoku.phase is Phase.RESPONSE
    begin(
        policy,
        state,
        hand=match.hand_index,
        version=len(match.events),
        deciding=[(s, call) for s in match.legal_actions() if s not in bots],
        now=now,
    )
