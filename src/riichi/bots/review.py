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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from riichi.bots.efficiency import visible_counts
from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.reviewers import KANS, WINS, Reviewer, ReviewError, same
from riichi.game import Action, ActionType, Match, Observation
from riichi.hand import ukeire
from riichi.tiles import counts_of, kind_name, tile_name, tiles_name

GIVES_SHOWN = 3  # the options whose ``Gives`` a decision lists (and the one played)

# A mistake's grade: large from this many times the threshold (`reviewers.THRESHOLD`).
LARGE = 5.0

KINDS = ("discard", "fold", "riichi", "call", "pass", "kan", "win", "kita", "abort")
_CALLS = {ActionType.CHI, ActionType.PON}


# ----------------------------------------------------------------- what a review holds


@dataclass(frozen=True)
class Option:
    action: Action
    text: str
    value: float | None
    risk: float = 0.0
    win: float = 0.0
    points: float = 0.0
    # what letting a tile go leaves (a discard or a riichi): None for other options
    gives: Gives | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.to_dict(),
            "text": self.text,
            "value": _rounded(self.value),
            "risk": _rounded(self.risk),
            "win": round(self.win, 4),
            "points": _rounded(self.points),
            "gives": None if self.gives is None else self.gives.to_dict(),
        }


@dataclass(frozen=True)
class Gives:
    """What a discard leaves the hand, as the seat could see it then: its shanten
    (0: ready), the kinds that would bring it nearer (or win) and how many of those
    tiles are unseen, and the chance the tile deals in now against each other seat
    that is in riichi or has called (``expert``'s reading of that seat's river, times
    how likely it is ready)."""

    shanten: int
    improves: tuple[int, ...]
    tiles: int
    danger: tuple[tuple[int, float], ...]  # (seat, chance)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shanten": self.shanten,
            "improves": [kind_name(k) for k in self.improves],
            "improve_kinds": list(self.improves),
            "tiles": self.tiles,
            "danger": [{"seat": s, "chance": round(c, 4)} for s, c in self.danger],
        }


_READER = ExpertBot("review")  # reads rivers for danger: a fact of the position


def what_gives(obs: Observation) -> dict[int, Gives]:
    """For each kind the seat may let go, what letting it go leaves (``Gives``)."""
    assert obs.hand is not None and obs.seat is not None
    melds = len(obs.meld_tiles[obs.seat])
    rows = ukeire(counts_of(obs.hand), visible_counts(obs), melds).discards
    dangers = _READER.dangers(
        obs,
        [row.discard for row in rows],
        lambda t: obs.riichi[t.seat] or bool(obs.meld_tiles[t.seat]),
    )
    return {
        row.discard: Gives(row.shanten, row.kinds, row.tiles, dangers[row.discard]) for row in rows
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
    dora: str  # the indicators showing
    riichi: tuple[int, ...]  # the seats in riichi
    played: Action
    played_text: str
    options: tuple[Option, ...]  # best first, as the reviewer weighs them
    loss: float | None  # the best option's value less the played one's
    grade: str  # "", "small" or "large"
    red_fives: int = 3  # the rules' red fives: a red five is a choice of its own

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def top(self) -> bool:
        """The reviewer's first choice is what was played (ties among the best are
        ordered as the reviewer orders them: ``ExpertBot.evaluate``)."""
        return same(self.played, self.best.action, self.red_fives)

    @property
    def agrees(self) -> bool:
        """What was played is within the best value: the first choice, or one that
        ties it."""
        return self.top or self.loss == 0.0

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
            "dora": self.dora,
            "riichi": list(self.riichi),
            "played": self.played.to_dict(),
            "played_text": self.played_text,
            "best": self.best.text,
            "top": self.top,
            "agrees": self.agrees,
            "loss": _rounded(self.loss),
            "grade": self.grade,
            "options": [o.to_dict() for o in self.options],
        }


@dataclass(frozen=True)
class Tally:
    """Decisions counted together: how many, how many were the reviewer's first choice
    (``top``), how many were within the best value (``agreed``: the first choice or one
    tied with it), the points lost (over those with a value), the mistakes small and
    large."""

    decisions: int = 0
    agreed: int = 0
    lost: float = 0.0
    small: int = 0
    large: int = 0
    top: int = 0

    @property
    def agreement(self) -> float:
        """The share within the best value."""
        return self.agreed / self.decisions if self.decisions else 0.0

    @property
    def top_choice(self) -> float:
        """The share where the reviewer's first choice is what was played."""
        return self.top / self.decisions if self.decisions else 0.0

    def add(self, d: Decision) -> Tally:
        return Tally(
            self.decisions + 1,
            self.agreed + d.agrees,
            self.lost + max(0.0, d.loss or 0.0),
            self.small + (d.grade == "small"),
            self.large + (d.grade == "large"),
            self.top + d.top,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "top": self.top,
            "top_choice": round(self.top_choice, 4),
            "agreed": self.agreed,
            "within_best": round(self.agreement, 4),
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
    if types & WINS:
        return "win"
    if ActionType.RIICHI in types:
        return "riichi"
    if types & KANS:
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


def advise(obs: Observation, reviewer: Reviewer, reds: int) -> list[Option]:
    """The options of a decision as ``reviewer`` weighs them from the seat's own
    observation, best first, with what the first ones give: what a review says at that
    decision, asked before it is made (the coach at a practice table)."""
    options, _ = _options(obs, reviewer.weigh(obs), reds, None)
    return options


def _options(
    obs: Observation, valued: list[Valued], reds: int, played: Action | None
) -> tuple[list[Option], Callable[[Action], Gives | None]]:
    """The options valued, each with what it gives (the first ``GIVES_SHOWN`` and the
    one played), and how to tell what any action gives."""
    lets_go = (ActionType.DISCARD, ActionType.RIICHI)
    gives = what_gives(obs) if any(v.action.type in lets_go for v in valued) else {}

    def given(action: Action) -> Gives | None:
        if action.type not in lets_go or action.tile is None:
            return None
        return gives.get(action.tile >> 2)

    options = [
        Option(
            v.action,
            action_text(v.action, reds),
            v.value,
            v.risk,
            v.win,
            v.points,
            given(v.action)
            if i < GIVES_SHOWN or (played is not None and same(v.action, played, reds))
            else None,
        )
        for i, v in enumerate(valued)
    ]
    return options, given


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
    options, given = _options(obs, valued, reds, played)
    mine = next((o for o in options if same(o.action, played, reds)), None)
    loss = None
    best = options[0].value
    if mine is not None and mine.value is not None and best is not None:
        loss = max(0.0, best - mine.value)
    elif mine is None:
        # the reviewer did not weigh what was played: listed, without a value
        options.append(Option(played, action_text(played, reds), None, gives=given(played)))
    return Decision(
        hand=hand,
        round=round_label(obs),
        step=step,
        turn=len(obs.discards[obs.seat]),
        kind=decision_kind(obs, played, options[0].action),
        tiles=tiles_name(obs.hand, reds),
        drawn=None if obs.drawn is None else tile_name(obs.drawn, reds),
        scores=obs.scores,
        dora=tiles_name(obs.dora_indicators, reds),
        riichi=tuple(s for s, r in enumerate(obs.riichi) if r),
        played=played,
        played_text=action_text(played, reds),
        options=tuple(options),
        loss=loss,
        grade=_grade(loss, threshold),
        red_fives=reds,
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
    "LARGE",
    "Decision",
    "Option",
    "Review",
    "Tally",
    "action_text",
    "advise",
    "decision_kind",
    "review_match",
    "seat_of",
]
