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

Because the computers answer the same play the same way, one account's attempt
shows another the draws along its line: a second account could scout the day
for a first. So, until the day is over, nothing of an attempt leaves the
server but its player's own view and its end score on the board (no record,
replay, download, spectator seat, live standings, nor another attempt's hands
beyond those one's own attempt played), and the board ranks only attempts of
accounts that existed before the day began, have ``RATED_GAMES`` rated games
finished before it, and are the day's first attempt from their address and
their browser. Other attempts are listed, unranked, with the reason.
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
RATED_GAMES = 3  # rated games finished before the day that let an attempt be ranked


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
    unranked: str | None = None  # why the board does not rank it; None: ranked


def unranked_reason(
    day: str, created: float, rated_before: int, first_from_address: bool
) -> str | None:
    """Why an attempt is left off the ranking (see the module's docstring), or None."""
    if created >= day_start(day):
        return "the account was made on the day"
    if rated_before < RATED_GAMES:
        return f"fewer than {RATED_GAMES} rated games before the day"
    if not first_from_address:
        return "not the day's first attempt from its address or browser"
    return None


def board(attempts: Sequence[Attempt]) -> list[Attempt]:
    """The day's leaderboard of ranked attempts: raw end score, higher first; ties by
    who finished first."""
    ranked = [a for a in attempts if a.unranked is None]
    return sorted(ranked, key=lambda a: (-a.score, a.finished, a.table_id))


def compare(
    attempts: Sequence[Attempt], mine: Attempt | None, day_over: bool = True
) -> list[dict[str, object]]:
    """Hand by hand: what everybody who played that hand scored on it (the same walls
    while the hands line up), with the best, the average and where yours stands.
    Before the day is over, only the hands ``mine`` played, and no attempt's own
    figures beside the best, the worst and the average."""
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
        if not day_over and label not in mine_by_label:
            continue
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
                "deltas": deltas if day_over else None,
            }
        )
    return out
