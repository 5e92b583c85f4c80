"""The Daily Wall (000): the same walls for everyone on a day (UTC).

The day's seed is an HMAC of the date under a server secret, so nobody can
compute any day's walls (tomorrow's included) without the secret, and the
server need store nothing per day. Before the day ends only its commitment
(sha256 of the seed) is public; after, the seed itself, and anyone can check
it against the commitment and deal the walls with ``riichi``.

The person sits East (seat 0) at every attempt; the three others are roster
computers whose decisions come from a stream seeded by the day's seed, so
everyone faces the same opponents' play for as long as they play the same
way: the duplicate game.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from riichi.errors import RiichiError

SEAT = 0  # where the person sits each day
DAY = 86_400.0


class DailyError(RiichiError):
    """A day that is not a day, or an attempt that is not allowed."""


def day_of(now: float) -> str:
    """The UTC date of a moment, as ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date().isoformat()


def parse_day(text: str) -> str:
    try:
        return dt.date.fromisoformat(text).isoformat()
    except (TypeError, ValueError):
        raise DailyError(f"a day is YYYY-MM-DD, got {text[:20]!r}") from None


def day_start(day: str) -> float:
    date = dt.date.fromisoformat(day)
    return dt.datetime(date.year, date.month, date.day, tzinfo=dt.UTC).timestamp()


def day_over(day: str, now: float) -> bool:
    """The day has ended everywhere the server counts it (UTC): its seed may be shown."""
    return now >= day_start(day) + DAY


def daily_seed(secret: str, day: str) -> str:
    """The walls' seed of ``day``: secret until the day is over."""
    return hmac.new(secret.encode(), f"daily-wall/{day}".encode(), hashlib.sha256).hexdigest()[:32]


def seed_commitment(seed: str) -> str:
    """What is published of a day's seed before it is revealed."""
    return hashlib.sha256(f"daily-wall/{seed}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Attempt:
    """One account's finished attempt of a day."""

    player: str
    name: str
    table_id: str
    score: int
    finished: float
    hands: list[dict[str, object]]  # per hand: its label and the person's change


def board(attempts: Sequence[Attempt]) -> list[Attempt]:
    """The day's leaderboard: raw end score, higher first; ties by who finished first."""
    return sorted(attempts, key=lambda a: (-a.score, a.finished, a.table_id))


def compare(attempts: Sequence[Attempt], mine: Attempt | None) -> list[dict[str, object]]:
    """Hand by hand: what everybody who played that hand scored on it (the same walls
    while the hands line up), with the best, the average and where yours stands."""
    by_label: dict[str, list[int]] = {}
    order: list[str] = []
    for attempt in attempts:
        for hand in attempt.hands:
            label = str(hand["label"])
            if label not in by_label:
                by_label[label] = []
                order.append(label)
            delta = hand["delta"]
            assert isinstance(delta, int)
            by_label[label].append(delta)
    mine_by_label = {str(h["label"]): h["delta"] for h in mine.hands} if mine else {}
    out: list[dict[str, object]] = []
    for label in order:
        deltas = sorted(by_label[label], reverse=True)
        yours = mine_by_label.get(label)
        out.append(
            {
                "label": label,
                "played": len(deltas),
                "best": deltas[0],
                "worst": deltas[-1],
                "average": round(sum(deltas) / len(deltas)),
                "yours": yours,
                "better_than_yours": None
                if yours is None
                else sum(1 for d in deltas if isinstance(yours, int) and d > yours),
                "deltas": deltas,
            }
        )
    return out
