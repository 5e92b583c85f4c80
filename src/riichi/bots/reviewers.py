"""Reviewers: what values a player's options at each decision of a review
(`riichi.bots.review`). ``expert`` through its own `ExpertBot.evaluate`, in expected
points; an outside mjai bot through the bridge, its choice and the values it sends
(Mortal's ``meta``), in its own units.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Protocol

from riichi import __version__
from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.master import MasterBot
from riichi.bots.mjai_bridge import MjaiProcessBot
from riichi.errors import RiichiError
from riichi.game import Action, ActionType, Event, Match, Observation
from riichi.tiles import is_red, tile_name

# A mistake: the option played worth this many points less than the best, or more.
# Phoenix-room players lose this much in 6.9% of their valued decisions (bench/
# review.py, the corpus' Tenhou games: 17.8% lose 100 or more, 3% 800, 0.5% 2,000);
# a large one from LARGE times that (`riichi.bots.review`).
THRESHOLD = 400.0
# Bump when the reviewers change how they value: cached reviews are keyed by it.
REVIEW_VERSION = 2  # 2: a red five is a choice of its own; what each discard gives
WINS = frozenset({ActionType.TSUMO, ActionType.RON})
KANS = frozenset({ActionType.ANKAN, ActionType.KAKAN, ActionType.KAN})


class ReviewError(RiichiError):
    """A game that cannot be reviewed as asked (no such seat or player, no decisions)."""


class Reviewer(Protocol):
    """What reviews: told the events the seat sees, asked at each of its decisions."""

    @property
    def name(self) -> str: ...

    @property
    def unit(self) -> str: ...  # what its values are in: "points", or its own ("q")

    @property
    def threshold(self) -> float | None: ...  # the loss that makes a mistake, by default

    def start(self, match: Match, seat: int) -> None: ...

    def see(self, events: Sequence[Event]) -> None: ...

    def weigh(self, observation: Observation) -> list[Valued]: ...

    def close(self) -> None: ...


class ExpertReviewer:
    """``expert``'s own valuation, `ExpertBot.evaluate`: what it would play, first;
    or ``master``'s, the same with its search where expert's best options are close."""

    unit = "points"
    threshold: float | None = THRESHOLD

    def __init__(self, bot: str = "expert") -> None:
        self.name = f"{bot} {__version__}/{REVIEW_VERSION}"
        self.bot: ExpertBot = MasterBot("review") if bot == "master" else ExpertBot("review")

    def start(self, match: Match, seat: int) -> None:
        pass

    def see(self, events: Sequence[Event]) -> None:
        pass

    def weigh(self, observation: Observation) -> list[Valued]:
        return self.bot.evaluate(observation)

    def close(self) -> None:
        pass


class LearnedReviewer(ExpertReviewer):
    """The learned player's choice first, then expert's other options in expert's
    order, each with expert's value (the network orders, expert's scale measures)."""

    def __init__(self) -> None:
        from riichi.bots.learned import LearnedBot

        self.name = f"learned {__version__}/{REVIEW_VERSION}"
        self.learned = LearnedBot("review")
        self.bot = self.learned.expert

    def weigh(self, observation: Observation) -> list[Valued]:
        played, _, _ = self.learned.choose(observation)
        options = self.bot.evaluate(observation)
        return [played, *(o for o in options if o.action != played.action)]


# Mortal's actions, by the bit of its mask: 0-33 a discard of each kind, 34-36 of a
# red five (m, p, s), 37 riichi, 38-40 a chi with the called tile lowest, middle,
# highest, 41 pon, 42 a kan, 43 a win, 44 the nine-terminals abort, 45 pass.
_MORTAL_ACTIONS = 46


class MjaiReviewer:
    """An outside mjai bot, sent every event the seat saw and asked at its decisions:
    its choice, and its values where it sends them as Mortal does (``meta``:
    ``q_values`` over the actions its ``mask_bits`` allow)."""

    unit = "q"
    # Mortal's q values are not points: no mistake is graded unless a threshold is
    # given in its own units (the loss is still shown)
    threshold: float | None = None

    def __init__(self, command: Sequence[str], timeout: float = 10.0) -> None:
        self.command = list(command)
        self.name = f"mjai {' '.join(self.command)}"[:80]
        self.timeout = timeout
        self.bot: MjaiProcessBot | None = None

    def start(self, match: Match, seat: int) -> None:
        self.bot = MjaiProcessBot(self.command, timeout=self.timeout, label="review")
        self.bot.start_match(match.rules, match.players, seat)
        self.bot.on_events(match.events)

    def see(self, events: Sequence[Event]) -> None:
        assert self.bot is not None
        self.bot.on_events(events)

    def weigh(self, observation: Observation) -> list[Valued]:
        assert self.bot is not None
        choice = self.bot.act(observation)
        meta = self.bot.last_meta or {}
        values = mortal_values(observation, meta.get("q_values"), meta.get("mask_bits"))
        if not values:
            return [Valued(choice)]
        reds = observation.rules.red_fives
        mine = next((v for v in values if same(v.action, choice, reds)), Valued(choice))
        rest = sorted((v for v in values if not same(v.action, choice, reds)), key=_by_value)
        return [mine, *rest]

    def close(self) -> None:
        if self.bot is not None:
            self.bot.close()


def _by_value(v: Valued) -> float:
    return -math.inf if v.value is None else -v.value


def mortal_values(obs: Observation, q_values: Any, mask_bits: Any) -> list[Valued]:
    """Each legal action Mortal's ``meta`` values, with its q value: the values go
    to the actions its mask allows, in the mask's order. Anything malformed: none."""
    if not isinstance(q_values, list) or not isinstance(mask_bits, int) or mask_bits < 0:
        return []
    slots = [i for i in range(_MORTAL_ACTIONS) if mask_bits >> i & 1]
    if len(slots) != len(q_values) or not all(isinstance(q, int | float) for q in q_values):
        return []
    out = []
    for slot, q in zip(slots, q_values, strict=True):
        action = _mortal_action(obs, slot)
        if action is not None:
            out.append(Valued(action, float(q)))
    return out


def _mortal_action(obs: Observation, slot: int) -> Action | None:
    reds = obs.rules.red_fives

    def first(types: AbstractSet[ActionType], fits: Any = None) -> Action | None:
        return next((a for a in obs.legal if a.type in types and (fits is None or fits(a))), None)

    if slot < 37:
        kind, red = (slot, False) if slot < 34 else (4 + 9 * (slot - 34), True)
        return first(
            {ActionType.DISCARD},
            lambda a: a.tile >> 2 == kind and (tile_name(a.tile, reds)[0] == "0") == red,
        )
    if slot == 37:
        return first({ActionType.RIICHI})
    if slot <= 40:
        where = slot - 38  # the called tile lowest, middle or highest

        def fits(a: Action) -> bool:
            assert a.tile is not None
            return sorted(t >> 2 for t in (a.tile, *a.tiles)).index(a.tile >> 2) == where

        return first({ActionType.CHI}, fits)
    types = {
        41: {ActionType.PON},
        42: KANS,
        43: WINS,
        44: {ActionType.KYUUSHU},
        45: {ActionType.PASS},
    }[slot]
    return first(types)


def reviewer_for(spec: str, timeout: float = 10.0) -> Reviewer:
    """``expert``, ``master``, ``learned``, or ``mjai:COMMAND`` (an outside bot run as
    COMMAND)."""
    if spec in ("expert", "master"):
        return ExpertReviewer(spec)
    if spec == "learned":
        return LearnedReviewer()
    if spec.startswith("mjai:"):
        command = shlex.split(spec[5:])
        if not command:
            raise ReviewError("mjai: names no command to run")
        return MjaiReviewer(command, timeout)
    raise ReviewError(f"no reviewer {spec!r}: expert, master, learned, or mjai:COMMAND")


def same(a: Action, b: Action, red_fives: int) -> bool:
    """The same choice: the same type on the same tiles as a player tells them apart,
    by kind and, under ``red_fives``, red or plain (which plain copy changes nothing
    the reviewer weighs; a red five is a han of its own, so letting it go, riichi on it
    or a call that uses it is another choice than the plain five's)."""

    def look(t: int) -> tuple[int, bool]:
        return t >> 2, is_red(t, red_fives)

    if a.type is not b.type or (a.tile is None) != (b.tile is None):
        return False
    if a.tile is not None and b.tile is not None and look(a.tile) != look(b.tile):
        return False
    return sorted(map(look, a.tiles)) == sorted(map(look, b.tiles))


__all__ = [
    "KANS",
    "REVIEW_VERSION",
    "THRESHOLD",
    "WINS",
    "ExpertReviewer",
    "MjaiReviewer",
    "ReviewError",
    "Reviewer",
    "mortal_values",
    "reviewer_for",
    "same",
]
