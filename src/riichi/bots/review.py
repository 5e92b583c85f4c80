"""Game review: one player's every decision in a finished game, valued by a reviewer.

The game is stepped through the engine again from its actions (a log replays into a
match first: Tenhou XML, tenhou.net/6, mjai or our own record; the replay checks every
logged decision is legal). Wherever the reviewed seat had a choice (more than one
legal action), the reviewer is handed that seat's observation, `observe`: its own
hand and what the table shows, nothing of the others' concealed tiles or the wall.
It answers with the options it weighs, best first, valued where it can; then the
player's own action is applied, whatever the reviewer chose. A review so holds no
more than the player knew when it chose.

A decision is a mistake when the option played is worth less than the reviewer's
best by at least ``threshold`` (for ``expert``: expected points as the match weighs
them, so that in the last hands a place counts, THRESHOLD by default), a large one
from LARGE times that. Where the reviewer gives no value for the option played (a
choice a rule of the bot makes, such as always taking a win; an mjai bot that sends
only its choice), a different choice is a disagreement without a loss.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from riichi import __version__
from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.mjai_bridge import MjaiProcessBot
from riichi.errors import RiichiError
from riichi.game import Action, ActionType, Event, Match, Observation
from riichi.tiles import tile_name, tiles_name

# A mistake: the option played worth this many points less than the best, or more.
# Phoenix-room players lose this much in 6.9% of their valued decisions (bench/
# review.py, the corpus' Tenhou games: 17.8% lose 100 or more, 3% 800, 0.5% 2,000);
# a large one from LARGE times that.
THRESHOLD = 400.0
LARGE = 5.0
# Bump when the reviewers change how they value: cached reviews are keyed by it.
REVIEW_VERSION = 1

KINDS = ("discard", "fold", "riichi", "call", "pass", "kan", "win", "kita", "abort")
_WINS = {ActionType.TSUMO, ActionType.RON}
_KANS = {ActionType.ANKAN, ActionType.KAKAN, ActionType.KAN}
_CALLS = {ActionType.CHI, ActionType.PON}


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
    """``expert``'s own valuation, `ExpertBot.evaluate`: what it would play, first."""

    unit = "points"
    threshold: float | None = THRESHOLD

    def __init__(self) -> None:
        self.name = f"expert {__version__}/{REVIEW_VERSION}"
        self.bot = ExpertBot("review")

    def start(self, match: Match, seat: int) -> None:
        pass

    def see(self, events: Sequence[Event]) -> None:
        pass

    def weigh(self, observation: Observation) -> list[Valued]:
        return self.bot.evaluate(observation)

    def close(self) -> None:
        pass


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
        mine = next((v for v in values if same(v.action, choice)), Valued(choice))
        rest = sorted((v for v in values if not same(v.action, choice)), key=_by_value)
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

    def first(types: set[ActionType], fits: Any = None) -> Action | None:
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
        42: _KANS,
        43: _WINS,
        44: {ActionType.KYUUSHU},
        45: {ActionType.PASS},
    }[slot]
    return first(types)


def reviewer_for(spec: str, timeout: float = 10.0) -> Reviewer:
    """``expert``, or ``mjai:COMMAND`` (an outside bot run as COMMAND)."""
    if spec == "expert":
        return ExpertReviewer()
    if spec.startswith("mjai:"):
        import shlex

        command = shlex.split(spec[5:])
        if not command:
            raise ReviewError("mjai: names no command to run")
        return MjaiReviewer(command, timeout)
    raise ReviewError(f"no reviewer {spec!r}: expert, or mjai:COMMAND")


# ----------------------------------------------------------------- what a review holds


@dataclass(frozen=True)
class Option:
    action: Action
    text: str
    value: float | None
    risk: float = 0.0
    win: float = 0.0
    points: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.to_dict(),
            "text": self.text,
            "value": _rounded(self.value),
            "risk": _rounded(self.risk),
            "win": round(self.win, 4),
            "points": _rounded(self.points),
        }


@dataclass(frozen=True)
class Decision:
    """One choice of the reviewed seat: where it was, what it played, what the
    reviewer valued."""

    hand: int  # the hand's index in the game
    round: str  # e.g. "E1-0": round wind and dealer's number, honba
    step: int  # the index of the action played among the game's actions
    turn: int  # the seat's discards before this decision
    kind: str  # one of KINDS
    tiles: str  # the seat's concealed hand (after its draw)
    drawn: str | None
    scores: tuple[int, ...]
    played: Action
    played_text: str
    options: tuple[Option, ...]  # best first, as the reviewer weighs them
    loss: float | None  # the best option's value less the played one's
    grade: str  # "", "small" or "large"

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def agrees(self) -> bool:
        return same(self.played, self.best.action) or self.loss == 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "round": self.round,
            "step": self.step,
            "turn": self.turn,
            "kind": self.kind,
            "tiles": self.tiles,
            "drawn": self.drawn,
            "scores": list(self.scores),
            "played": self.played.to_dict(),
            "played_text": self.played_text,
            "best": self.best.text,
            "agrees": self.agrees,
            "loss": _rounded(self.loss),
            "grade": self.grade,
            "options": [o.to_dict() for o in self.options],
        }


@dataclass(frozen=True)
class Tally:
    """Decisions counted together: how many, how many agreed, the points lost (over
    those with a value), the mistakes small and large."""

    decisions: int = 0
    agreed: int = 0
    lost: float = 0.0
    small: int = 0
    large: int = 0

    @property
    def agreement(self) -> float:
        return self.agreed / self.decisions if self.decisions else 0.0

    def add(self, d: Decision) -> Tally:
        return Tally(
            self.decisions + 1,
            self.agreed + d.agrees,
            self.lost + max(0.0, d.loss or 0.0),
            self.small + (d.grade == "small"),
            self.large + (d.grade == "large"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "agreed": self.agreed,
            "agreement": round(self.agreement, 4),
            "lost": round(self.lost, 1),
            "mistakes": self.small + self.large,
            "large": self.large,
        }


def tally(decisions: Iterable[Decision]) -> Tally:
    out = Tally()
    for d in decisions:
        out = out.add(d)
    return out


@dataclass
class Review:
    source: str
    rules: str
    players: list[str]
    seat: int
    reviewer: str
    unit: str
    threshold: float | None  # None: the reviewer's values grade no mistakes
    hands: list[str]  # each hand's round, e.g. "E1-0"
    decisions: list[Decision] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # where the log did not replay

    @property
    def player(self) -> str:
        return self.players[self.seat]

    @property
    def total(self) -> Tally:
        return tally(self.decisions)

    @property
    def lost_per_hand(self) -> float:
        return self.total.lost / max(1, len(self.hands))

    def by_kind(self) -> dict[str, Tally]:
        out = {k: tally(d for d in self.decisions if d.kind == k) for k in KINDS}
        return {k: t for k, t in out.items() if t.decisions}

    def by_hand(self) -> list[Tally]:
        return [tally(d for d in self.decisions if d.hand == i) for i in range(len(self.hands))]

    def largest(self, count: int = 5) -> list[Decision]:
        """The largest mistakes, largest first."""
        mistakes = [d for d in self.decisions if d.grade]
        mistakes.sort(key=lambda d: -(d.loss or 0.0))
        return mistakes[:count]

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "rules": self.rules,
            "players": self.players,
            "seat": self.seat,
            "player": self.player,
            "reviewer": self.reviewer,
            "unit": self.unit,
            "threshold": self.threshold,
            "large": None if self.threshold is None else self.threshold * LARGE,
            "notes": self.notes,
            "summary": {
                **self.total.to_dict(),
                "hands": len(self.hands),
                "lost_per_hand": round(self.lost_per_hand, 1),
                "by_kind": {k: t.to_dict() for k, t in self.by_kind().items()},
                "largest": [self.decisions.index(d) for d in self.largest()],
            },
            "hands": [
                {"round": r, **t.to_dict()} for r, t in zip(self.hands, self.by_hand(), strict=True)
            ],
            "decisions": [d.to_dict() for d in self.decisions],
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


# ----------------------------------------------------------------- reviewing


def same(a: Action, b: Action) -> bool:
    """The same choice: the same type on the same kinds (which copy of a kind, a red
    five aside, changes nothing the reviewer weighs)."""
    if a.type is not b.type or (a.tile is None) != (b.tile is None):
        return False
    if a.tile is not None and b.tile is not None and a.tile >> 2 != b.tile >> 2:
        return False
    return sorted(t >> 2 for t in a.tiles) == sorted(t >> 2 for t in b.tiles)


def action_text(action: Action, red_fives: int) -> str:
    """ "discard 5m", "riichi 0p" (a red five), "chi 3s with 45s", "pass"."""
    words = [action.type.value]
    if action.tile is not None:
        words.append(tile_name(action.tile, red_fives))
    if action.tiles and action.type in (ActionType.CHI, ActionType.PON, ActionType.KAN):
        words.append(f"with {tiles_name(action.tiles, red_fives)}")
    return " ".join(words)


def round_label(obs: Observation) -> str:
    wind = "ESWN"[obs.round_wind - 27]
    return f"{wind}{obs.dealer + 1}-{obs.honba}"


def decision_kind(obs: Observation, played: Action, best: Action) -> str:
    """What kind of decision this was, by what the player and the reviewer chose:
    a win, a riichi, a kan or a call when either chose one; a pass on a discard
    both let go; a North set aside (kita) or the nine-terminals abort when either
    chose it; a discard while another seat is in riichi (and this one is not) is a
    fold decision (push or fold); any other discard a discard."""
    assert obs.seat is not None
    types = {played.type, best.type}
    if types & _WINS:
        return "win"
    if ActionType.RIICHI in types:
        return "riichi"
    if types & _KANS:
        return "kan"
    if types & _CALLS:
        return "call"
    if ActionType.PASS in types:
        return "pass"
    if ActionType.KITA in types:
        return "kita"
    if ActionType.KYUUSHU in types:
        return "abort"
    threatened = any(r for s, r in enumerate(obs.riichi) if s != obs.seat)
    return "fold" if threatened and not obs.riichi[obs.seat] else "discard"


def _grade(loss: float | None, threshold: float | None) -> str:
    if loss is None or threshold is None or loss < threshold:
        return ""
    return "large" if loss >= threshold * LARGE else "small"


def review_match(
    match: Match,
    seat: int,
    reviewer: Reviewer,
    threshold: float | None = None,
    source: str = "",
    notes: Sequence[str] = (),
) -> Review:
    """Review ``seat``'s decisions in ``match`` (stepped through again from its start);
    ``threshold``: the loss that makes a mistake, the reviewer's own by default."""
    if threshold is None:
        threshold = reviewer.threshold
    n = match.rules.players
    if not 0 <= seat < n:
        raise ReviewError(f"seat {seat} is not at this table of {n}")
    if not match.actions:
        raise ReviewError(f"{source or 'the game'}: no action was played: nothing to review")
    game = match.restarted()
    reds = match.rules.red_fives
    review = Review(
        source=source,
        rules=match.rules.name,
        players=list(match.players),
        seat=seat,
        reviewer=reviewer.name,
        unit=reviewer.unit,
        threshold=threshold,
        hands=[],
        notes=list(notes),
    )
    reviewer.start(game, seat)
    try:
        seen = len(game.events)
        for step, (who, action) in enumerate(match.actions):
            if game.hand_index >= len(review.hands):
                review.hands.append(round_label(game.observe(seat)))
            if who == seat and len(game.legal_actions().get(seat, ())) > 1:
                obs = game.observe(seat)
                valued = reviewer.weigh(obs)
                decision = _decide(obs, action, valued, step, game.hand_index, reds, threshold)
                review.decisions.append(decision)
            game.apply(who, action)
            reviewer.see(game.events[seen:])
            seen = len(game.events)
    finally:
        reviewer.close()
    return review


def _decide(
    obs: Observation,
    played: Action,
    valued: list[Valued],
    step: int,
    hand: int,
    reds: int,
    threshold: float | None,
) -> Decision:
    assert obs.hand is not None and obs.seat is not None
    options = [
        Option(v.action, action_text(v.action, reds), v.value, v.risk, v.win, v.points)
        for v in valued
    ]
    mine = next((o for o in options if same(o.action, played)), None)
    loss = None
    best = options[0].value
    if mine is not None and mine.value is not None and best is not None:
        loss = max(0.0, best - mine.value)
    elif mine is None:
        # the reviewer did not weigh what was played: listed, without a value
        options.append(Option(played, action_text(played, reds), None))
    return Decision(
        hand=hand,
        round=round_label(obs),
        step=step,
        turn=len(obs.discards[obs.seat]),
        kind=decision_kind(obs, played, options[0].action),
        tiles=tiles_name(obs.hand, reds),
        drawn=None if obs.drawn is None else tile_name(obs.drawn, reds),
        scores=obs.scores,
        played=played,
        played_text=action_text(played, reds),
        options=tuple(options),
        loss=loss,
        grade=_grade(loss, threshold),
    )


def seat_of(players: Sequence[str], seat: int | None, name: str | None) -> int:
    """The seat asked for, by number or by the player's name."""
    if name is not None:
        found = [i for i, p in enumerate(players) if p == name]
        if not found:
            raise ReviewError(f"no player {name!r} in this game: {', '.join(players)}")
        return found[0]
    if seat is None:
        raise ReviewError("say which seat to review (--seat N or --name NAME)")
    if not 0 <= seat < len(players):
        raise ReviewError(f"seat {seat} is not at this table of {len(players)}")
    return seat


__all__ = [
    "KINDS",
    "THRESHOLD",
    "Decision",
    "ExpertReviewer",
    "MjaiReviewer",
    "Option",
    "Review",
    "ReviewError",
    "Reviewer",
    "Tally",
    "action_text",
    "decision_kind",
    "mortal_values",
    "review_match",
    "reviewer_for",
    "same",
    "seat_of",
]
