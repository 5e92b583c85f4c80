"""Each seat's figures over a finished match: what the arena reports and a player's
page sums, from the match's own results and events."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from riichi.game.match import Match
from riichi.tiles import EAST


@dataclass(slots=True)
class SeatStats:
    seat: int
    place: int
    score: int
    points: float
    hands: int
    wins: int = 0
    deal_ins: int = 0
    riichis: int = 0
    calls: int = 0  # hands in which the seat called at least once
    draws: int = 0  # exhaustive draws
    tenpai_draws: int = 0  # of which the seat was tenpai
    win_points: int = 0  # the value of its wins (before honba and sticks)
    deal_in_points: int = 0  # what its deal-ins cost it

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def seat_stats(match: Match) -> list[SeatStats]:
    """Every seat's figures for a finished ``match``."""
    if match.standings is None:
        raise ValueError("a match has its figures once it is over")
    out = [
        SeatStats(s.seat, s.place, s.score, s.points, len(match.results))
        for s in sorted(match.standings, key=lambda x: x.seat)
    ]
    for result in match.results:
        for winner, source, score in result.wins:
            out[winner].wins += 1
            out[winner].win_points += score.points
            if source is not None:
                out[source].deal_ins += 1
                out[source].deal_in_points += sum(
                    p.points for p in score.payments if p.seat == source
                )
        if result.kind == "exhaustive":
            for stats in out:
                stats.draws += 1
            for seat in result.tenpai:
                out[seat].tenpai_draws += 1
    called: set[tuple[int, int]] = set()
    hand = -1
    for event in match.events:
        if event.type == "start_hand":
            hand += 1
        elif event.type == "riichi":
            out[event.data["seat"]].riichis += 1
        elif event.type == "call" and (hand, event.data["seat"]) not in called:
            called.add((hand, event.data["seat"]))
            out[event.data["seat"]].calls += 1
    return out


WINDS = "ESWN"


def hand_changes(match: Match) -> list[dict[str, Any]]:
    """Hand by hand, what each seat gained or lost (``deltas``): ``label`` names the
    hand by round wind, dealer and honba (``E1-0``), ``kind`` how it ended."""
    out: list[dict[str, Any]] = []
    label = ""
    for event in match.events:
        if event.type == "start_hand":
            data = event.data
            label = f"{WINDS[data['round_wind'] - EAST]}{data['dealer'] + 1}-{data['honba']}"
        elif event.type == "end_hand":
            data = event.data
            out.append({"label": label, "kind": data["kind"], "deltas": list(data["deltas"])})
    return out


@dataclass(slots=True)
class Totals:
    """Figures summed over many games, and the rates a player's page shows."""

    games: int = 0
    places: dict[int, int] = field(default_factory=dict)  # place: how many times
    score: int = 0
    figures: dict[str, int] = field(default_factory=dict)  # the SeatStats counts, summed

    def add(self, stats: SeatStats) -> None:
        counts = {k: v for k, v in stats.to_dict().items() if k not in _NOT_COUNTS}
        self.add_games(stats.place, 1, stats.score, counts)

    def add_games(self, place: int, games: int, score: int, figures: dict[str, int]) -> None:
        """``games`` games finished in ``place`` with these summed figures."""
        self.games += games
        self.places[place] = self.places.get(place, 0) + games
        self.score += score
        for key, value in figures.items():
            self.figures[key] = self.figures.get(key, 0) + value

    def summary(self) -> dict[str, Any]:
        """Rates per hand (win, deal-in, riichi, call), tenpai per exhaustive draw, the
        average win and deal-in values, the placement distribution and average."""
        f = self.figures
        hands = f.get("hands", 0)

        def per(count: str, total: int) -> float | None:
            return None if total == 0 else f.get(count, 0) / total

        return {
            "games": self.games,
            "places": {str(p): n for p, n in sorted(self.places.items())},
            "average_place": None
            if self.games == 0
            else sum(p * n for p, n in self.places.items()) / self.games,
            "average_score": None if self.games == 0 else self.score / self.games,
            "hands": hands,
            "win_rate": per("wins", hands),
            "deal_in_rate": per("deal_ins", hands),
            "riichi_rate": per("riichis", hands),
            "call_rate": per("calls", hands),
            "tenpai_at_draw": per("tenpai_draws", f.get("draws", 0)),
            "average_win": per("win_points", f.get("wins", 0)),
            "average_deal_in": per("deal_in_points", f.get("deal_ins", 0)),
        }


_NOT_COUNTS = frozenset({"seat", "place", "score", "points"})
