"""How far behind the game a spectator is: the delay as data, the cut as a function.

A spectator watches a copy of the match that trails the one in play. Two
settings, chosen by the server:

- ``hand`` (Tenhou's rule): spectators watch the previous hand while the
  next is played, one action of the old hand for each action of the new, and
  never see anything of the hand in play. During the first hand they see
  nothing yet; when the hand in play runs longer than the one shown, the
  shown one waits at its end (its result); when it runs shorter, the shown
  one jumps to its end so the delay never grows past a hand.
- ``actions`` N: spectators see the game N actions behind, hand boundaries
  or not.

Once the match is over everything is public and the cut is the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MAX_ACTIONS_BEHIND = 1000


class DelayError(ValueError):
    """A spectator delay the server cannot be set to."""


@dataclass(frozen=True, slots=True)
class Delay:
    mode: str = "hand"  # "hand" or "actions"
    actions: int = 0  # how many actions behind, in "actions" mode

    def __str__(self) -> str:
        return "one hand behind" if self.mode == "hand" else f"{self.actions} actions behind"


HAND = Delay()


def parse_delay(text: str) -> Delay:
    """``hand``, or a number of actions behind (1 to 1000)."""
    if text == "hand":
        return HAND
    if not text.isdigit() or not 1 <= int(text) <= MAX_ACTIONS_BEHIND:
        raise DelayError(
            f"a spectator delay is 'hand' or 1 to {MAX_ACTIONS_BEHIND} actions, got {text!r}"
        )
    return Delay("actions", int(text))


def shown_actions(delay: Delay, hand_ends: Sequence[int], actions: int, over: bool) -> int:
    """How many of the match's ``actions`` a spectator sees, given after how many actions
    each finished hand ended (``hand_ends``). Never decreases as the match goes on."""
    if over:
        return actions
    if delay.mode == "actions":
        return max(0, actions - delay.actions)
    if not hand_ends:
        return 0  # the first hand is in play: nothing is shown yet
    last_end = hand_ends[-1]  # where the hand in play began
    shown_start = hand_ends[-2] if len(hand_ends) > 1 else 0
    return min(shown_start + (actions - last_end), last_end)


def nothing_shown(delay: Delay, hand_ends: Sequence[int], over: bool) -> bool:
    """True while a spectator may see nothing of the game at all: the first hand is in
    play and the delay is a whole hand."""
    return delay.mode == "hand" and not hand_ends and not over
