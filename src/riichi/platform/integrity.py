"""Reports for the site's staff: pairs of accounts whose rated games together look
arranged.

The field's signs of one person playing several accounts, or of two people
passing points, are a shared address or browser and a one-sided record: the
matchmaker already keeps accounts that join from one apart, so a pair that met anyway
(the addresses were shared later, or the queue was dodged through private
means) is reported, and so is a pair that met often with one nearly always
finishing above the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

MIN_MEETINGS = 5  # rated games together before a one-sided record means anything
ONE_SIDED = 0.9  # ... and the share of them one of the two finishes above the other


@dataclass(frozen=True, slots=True)
class SuspiciousPair:
    first: str  # the one who finished above more often
    second: str
    games: int  # rated games together
    above: int  # of them, how often ``first`` finished above ``second``
    shared_addresses: int
    reason: str


def suspicious_pairs(
    games: Sequence[Mapping[str, int]],
    addresses: Mapping[str, set[str]],
    min_meetings: int = MIN_MEETINGS,
    one_sided: float = ONE_SIDED,
) -> list[SuspiciousPair]:
    """Pairs of accounts to review. ``games`` gives, per rated game, each account's
    place (computers and guests left out); ``addresses`` the keyed hashes of the
    addresses and browsers each account was seen from."""
    met: dict[tuple[str, str], list[int]] = {}  # (a, b) sorted -> [games, a above b]
    for places in games:
        for a, b in combinations(sorted(places), 2):
            row = met.setdefault((a, b), [0, 0])
            row[0] += 1
            row[1] += places[a] < places[b]
    out: list[SuspiciousPair] = []
    for (a, b), (count, a_above) in sorted(met.items()):
        first, second, above = (a, b, a_above) if a_above * 2 >= count else (b, a, count - a_above)
        shared = len(addresses.get(a, set()) & addresses.get(b, set()))
        reasons = []
        if shared:
            reasons.append(f"seen from {shared} same address(es) or browser(s)")
        if count >= min_meetings and above >= one_sided * count:
            reasons.append(f"finished above in {above} of {count} games")
        if reasons:
            out.append(SuspiciousPair(first, second, count, above, shared, "; ".join(reasons)))
    return sorted(out, key=lambda p: (-p.shared_addresses, -p.games, p.first, p.second))
