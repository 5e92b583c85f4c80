"""What spectators see: a copy of the match that trails the one in play.

The copy is the same match (rules, seed, players) with only the actions the
delay lets through applied, so its events are a prefix of the live ones and
its versions count the same events. Concealed hands are never in it: every
view is the spectator's (seat None), which holds no hand. When the copy stands
at the end of a hand, the next hand's first events (already dealt in the copy)
are cut off and the view is the finished hand as it stood at its end: the
next hand's dora indicator belongs to the hand in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from riichi.game import Match
from riichi.game.kyoku import Kyoku
from riichi.platform.spectating import Delay, nothing_shown, shown_actions
from riichi.server.views import seat_state


class DelayedView:
    """The spectators' trailing copy of one live match."""

    def __init__(self, live: Match, delay: Delay) -> None:
        self.delay = delay
        self.copy = Match(live.rules, live.seed, live.players)
        self.ended: Kyoku | None = None  # the copy stands at the end of this hand
        self.waiting = True
        self.version = 0  # how many of the match's events spectators have seen
        self.advance(live)

    def advance(self, live: Match) -> bool:
        """Follow the live match as far as the delay allows; True if the view changed."""
        before = (self.version, self.waiting)
        target = shown_actions(self.delay, live.hand_ends, len(live.actions), live.over)
        for seat, action in live.actions[len(self.copy.actions) : target]:
            kyoku = self.copy.kyoku
            self.copy.apply(seat, action)
            self.ended = kyoku if self.copy.kyoku is not kyoku and not self.copy.over else None
        self.waiting = nothing_shown(self.delay, live.hand_ends, live.over)
        events = self.copy.events
        self.version = len(events)
        if self.waiting or self.ended is not None:  # cut where the next hand begins
            self.version = next(
                i for i in range(len(events) - 1, -1, -1) if events[i].type == "start_hand"
            )
        return (self.version, self.waiting) != before

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.copy.events[since : self.version] if e.visible_to(None)]

    def state(self, players: Sequence[dict[str, Any]], bet: int = 0) -> dict[str, Any] | None:
        """The spectators' state, or None while nothing may be shown."""
        if self.waiting:
            return None
        return seat_state(self.copy, None, players, self.ended, bet)
