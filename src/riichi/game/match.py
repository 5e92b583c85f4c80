"""A match: hands in sequence, dealer rotation, honba and sticks, the end and the settlement.

``Match`` is the one object callers drive: ``legal_actions()``, ``apply(seat,
action)``, ``observe(seat)``. A match is a pure function of (RuleSet, seed,
actions): ``Match.replay`` rebuilds it event for event.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from riichi.game.actions import Action, IllegalActionError
from riichi.game.events import Event
from riichi.game.kyoku import HandResult, Kyoku, Phase
from riichi.game.wall import Wall
from riichi.rules import Length, RuleSet, Settlement, placement_bonuses
from riichi.tiles import EAST

if TYPE_CHECKING:
    from riichi.game.observe import Observation

RECORD_VERSION = 1


def _round_half_away(x: float) -> int:
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Where a match starts: the first hand's round, dealer, counters and scores.

    A fresh match starts at East 1 with everyone on the starting points; a
    replay of part of a game (or a practice scenario) can start anywhere.
    """

    scores: tuple[int, ...]
    round_index: int = 0
    dealer: int = 0
    honba: int = 0
    sticks: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's final place, score and settled points."""

    seat: int
    name: str
    place: int  # 1 = first
    score: int
    points: float


class Match:
    """A whole match under one RuleSet, from the first deal to the settlement."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int | str,
        players: Sequence[str] | None = None,
        walls: Sequence[Wall] | None = None,
        start: MatchStart | None = None,
    ) -> None:
        n = rules.players
        self.rules = rules
        self.seed = seed
        self.players = list(players) if players is not None else [f"seat {s}" for s in range(n)]
        if len(self.players) != n:
            raise ValueError(f"{rules.name} is played by {n} players, got {len(self.players)}")
        self._walls = list(walls) if walls is not None else None
        at = start or MatchStart(scores=(rules.start_points,) * n)
        self._start = at
        if len(at.scores) != n:
            raise ValueError(f"start scores need {n} values, got {len(at.scores)}")
        self.scores = list(at.scores)
        self.round_index = at.round_index  # 0 East, 1 South, 2 West, 3 North
        self.rotation = at.dealer  # hand within the round: the dealer is this seat
        self.honba = at.honba
        self.sticks = at.sticks
        self.hand_index = 0
        self.out_of_walls = False  # explicit walls ran out before the match ended
        self.events: list[Event] = []
        self.actions: list[tuple[int, Action]] = []
        self.results: list[HandResult] = []
        self.hand_ends: list[int] = []  # how many actions had been applied when each hand ended
        self.standings: list[Standing] | None = None
        # The seed stays out of every event: whoever knows it knows every wall.
        self.events.append(Event("start_match", {"rules": rules.name, "players": self.players}))
        self.kyoku = self._start_hand()

    # ------------------------------------------------------------------ the API

    @property
    def over(self) -> bool:
        return self.standings is not None or self.out_of_walls

    def legal_actions(self) -> dict[int, list[Action]]:
        """Seats that must decide now, each with its legal actions (stable order)."""
        return {} if self.over else self.kyoku.legal_actions()

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply one seat's decision; an illegal one raises and changes nothing."""
        if self.over:
            raise IllegalActionError(f"the match is over; seat {seat} tried {action}")
        start = len(self.events)
        new = self.kyoku.apply(seat, action)
        self.actions.append((seat, action))
        self.events.extend(new)
        if self.kyoku.phase is Phase.OVER:
            self._end_hand()
        return self.events[start:]

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may see now (None: a spectator's public view)."""
        from riichi.game.observe import observe

        return observe(self, seat)

    def restarted(self) -> Match:
        """The same match before its first action: its rules, seed, players, walls
        and start (to step through its actions again)."""
        return Match(self.rules, self.seed, self.players, self._walls, self._start)

    def copy(self) -> Match:
        """An independent copy (for search): the same start replayed action by action.
        Compiled classes cannot be deep-copied, and a replay is the same either way."""
        return Match.replay(
            self.rules, self.seed, self.actions, self.players, self._walls, self._start
        )

    def record(self) -> dict[str, Any]:
        """Our own record: the full RuleSet, seed, players, actions, events and standings."""
        return {
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "players": self.players,
            "walls": None if self._walls is None else [w.to_dict() for w in self._walls],
            "actions": [{"seat": s, **a.to_dict()} for s, a in self.actions],
            "events": [e.to_dict() for e in self.events],
            "standings": None
            if self.standings is None
            else [dataclasses.asdict(x) for x in self.standings],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Match:
        """Rebuild a match from ``record()`` output: the same events, one by one."""
        try:
            if record.get("version") != RECORD_VERSION:
                raise ValueError(
                    f"record version {record.get('version')!r} is not {RECORD_VERSION}"
                )
            rules = RuleSet.from_dict(record["rules"])
            walls = None
            if record.get("walls") is not None:
                walls = [Wall.from_dict(w) for w in record["walls"]]
            actions = []
            for item in record["actions"]:
                data = dict(item)
                seat = data.pop("seat")
                data.pop("timeout", None)  # the clock played it: the same action
                actions.append((int(seat), Action.from_dict(data)))
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalActionError(f"malformed record: {exc}") from None
        return cls.replay(rules, record["seed"], actions, record.get("players"), walls)

    @classmethod
    def replay(
        cls,
        rules: RuleSet,
        seed: int | str,
        actions: Iterable[tuple[int, Action]],
        players: Sequence[str] | None = None,
        walls: Sequence[Wall] | None = None,
        start: MatchStart | None = None,
    ) -> Match:
        """The match these actions make from this start, event for event."""
        match = cls(rules, seed, players, walls, start)
        for seat, action in actions:
            match.apply(seat, action)
        return match

    # ------------------------------------------------------------------ flow

    def _wall(self) -> Wall:
        if self._walls is not None:
            if self.hand_index >= len(self._walls):
                raise IllegalActionError(f"no wall given for hand {self.hand_index}")
            return self._walls[self.hand_index]
        return Wall.seeded(self.seed, self.hand_index, self.rules.players, self.rules.kita)

    def _start_hand(self) -> Kyoku:
        kyoku = Kyoku(
            self.rules,
            self._wall(),
            dealer=self.rotation,
            round_wind=EAST + self.round_index,
            honba=self.honba,
            sticks=self.sticks,
            scores=self.scores,
        )
        self.events.extend(kyoku.events)
        return kyoku

    def _rounds(self) -> int:
        return {Length.ONE_HAND: 1, Length.EAST: 1, Length.SOUTH: 2}[self.rules.length]

    def _end_hand(self) -> None:
        kyoku = self.kyoku
        result = kyoku.result
        assert result is not None
        self.results.append(result)
        self.hand_ends.append(len(self.actions))
        self.sticks = kyoku.sticks
        repeat = result.dealer_repeats
        self.honba = self.honba + 1 if repeat or result.kind != "win" else 0
        self.events.append(
            Event(
                "end_hand",
                {
                    "kind": result.kind,
                    "deltas": result.deltas,
                    "scores": list(self.scores),
                    "honba": self.honba,
                    "sticks": self.sticks,
                },
            )
        )
        if self._match_ends(result):
            self._finish()
            return
        if not repeat:
            self.rotation += 1
            if self.rotation == self.rules.players:
                self.rotation = 0
                self.round_index += 1
        self.hand_index += 1
        if self._walls is not None and self.hand_index >= len(self._walls):
            self.out_of_walls = True  # a replay of part of a game stops here
            return
        self.kyoku = self._start_hand()

    def _match_ends(self, result: HandResult) -> bool:
        rules = self.rules
        n = rules.players
        # under the loss limit nobody goes below 0: reaching 0 is the bust
        if rules.busting and min(self.scores) < (1 if rules.loss_limit else 0):
            return True
        if result.kind == "abort":
            return False  # an abortive draw is replayed (even a one-hand game's), never a stop
        if rules.length is Length.ONE_HAND:
            return True
        rounds = self._rounds()
        target = rules.extension_target
        in_extension = self.round_index >= rounds
        # every hand of an extension round is played like the last hand
        last = in_extension or (self.rotation == n - 1 and self.round_index == rounds - 1)
        if not last:
            return False
        if result.dealer_repeats:
            if (
                in_extension
                and target is not None
                and not rules.extension_repeat_first
                and max(self.scores) >= target
            ):
                return True  # the extension ends as soon as someone reaches the target
            # agari-yame: the dealer of the last hand stops when on top with enough points
            # (and, where the rules say so, when merely tenpai at the draw)
            stop = rules.agari_yame and (result.kind == "win" or rules.tenpai_yame)
            top = self._placement()[0]
            goal = target if target is not None else rules.return_points
            return stop and top == self.rotation and self.scores[top] >= goal
        if target is None or max(self.scores) >= target:
            return True
        # nobody reached the target: extend, but never beyond the round after the last
        return in_extension and self.rotation == n - 1

    def _placement(self) -> list[int]:
        # ties go to the seat nearer the first dealer (seat 0)
        return sorted(range(self.rules.players), key=lambda s: (-self.scores[s], s))

    def _finish(self) -> None:
        rules = self.rules
        order = self._placement()
        if self.sticks and rules.leftover_sticks_to_first:
            self.scores[order[0]] += self.sticks * rules.riichi_stick
            self.sticks = 0
        points = [self._settle(place, seat) for place, seat in enumerate(order)]
        if rules.round_final_points and rules.settlement is Settlement.UMA_OKA:
            points[1:] = [
                _round_half_away(self.scores[seat] / 1000)
                - rules.return_points / 1000
                + rules.uma[place] / 1000
                for place, seat in enumerate(order[1:], start=1)
            ]
            points[0] = -sum(points[1:])
        standings = [
            Standing(
                seat, self.players[seat], place + 1, self.scores[seat], round(points[place], 1)
            )
            for place, seat in enumerate(order)
        ]
        self.standings = sorted(standings, key=lambda x: x.seat)
        self.events.append(
            Event(
                "end_match",
                {
                    "standings": [
                        {"seat": x.seat, "place": x.place, "score": x.score, "points": x.points}
                        for x in self.standings
                    ]
                },
            )
        )

    def _settle(self, place: int, seat: int) -> float:
        rules = self.rules
        score = self.scores[seat]
        if rules.settlement is Settlement.RAW:
            return float(score)
        if rules.settlement is Settlement.TABLE_POINTS:
            return float(rules.table_points[place])
        if rules.settlement is Settlement.WINNER_TAKES_ALL:
            return float(rules.players if place == 0 else 0)
        if rules.settlement is Settlement.HOUSE:  # in bets: the share of the pot, the bonus
            total = sum(max(0, s) for s in self.scores) or 1
            return round(max(0, score) / total * rules.players + house_bonus(rules, place), 3)
        oka = rules.oka_points if place == 0 else 0
        return round((score - rules.return_points + oka) / 1000 + rules.uma[place] / 1000, 1)


def house_bonus(rules: RuleSet, place: int) -> float:
    """The placement bonus of house rules for ``place`` (0 = first), in bets: last pays
    first, and with four players third pays second."""
    for gets, pays, percent in placement_bonuses(rules):
        if place == gets:
            return percent / 100
        if place == pays:
            return -percent / 100
    return 0.0
