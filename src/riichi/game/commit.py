"""Commit to a seed before the first draw; reveal it after the last.

A match is a pure function of (RuleSet, seed, actions), so whoever knows the
seed knows every wall. A server keeps the seed secret while the match is in
play and publishes ``commitment(seed, salt)`` at the start instead; the
finished record reveals seed and salt, and ``verify_record`` checks that they
match the commitment and that the record's game is the one those walls give.
The salt (128 random bits) keeps a short or chosen seed from being found by
trying candidates against the published hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from riichi.errors import RiichiError, excerpt
from riichi.game.match import Match

COMMITMENT_SCHEME = "sha256(riichi-commit-v1 NUL salt NUL seed)"


class VerificationError(RiichiError):
    """A record that cannot be checked at all (no seed, no commitment, malformed)."""


def commitment(seed: str, salt: str) -> str:
    """The published hash that binds a match to its seed before play."""
    data = f"riichi-commit-v1\x00{salt}\x00{seed}".encode()
    return hashlib.sha256(data).hexdigest()


@dataclass(slots=True)
class Verification:
    """What ``verify_record`` found: ``ok`` when there are no problems."""

    commitment: str
    hands: int
    actions: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_record(record: object) -> Verification:
    """Check a finished record against the commitment published before its first draw.

    The seed and salt must hash to the commitment, and replaying the recorded
    actions on the walls of that seed must give every recorded event and the
    recorded standings: the walls were fixed before play and never changed.
    """
    if not isinstance(record, dict):
        raise VerificationError("a record is a JSON object")
    promised, seed, salt = (record.get(k) for k in ("commitment", "seed", "salt"))
    if not isinstance(promised, str) or not isinstance(salt, str):
        raise VerificationError("the record carries no commitment and salt to check")
    if record.get("walls") is not None:
        raise VerificationError("the record gives its walls explicitly: no seed to check")
    if not isinstance(seed, str | int) or isinstance(seed, bool):
        raise VerificationError(f"the record's seed is not revealed: {excerpt(seed)}")
    problems = []
    if commitment(str(seed), salt) != promised:
        problems.append(
            f"seed and salt hash to {commitment(str(seed), salt)}, not to the commitment {promised}"
        )
    try:
        match = Match.from_record(record)
    except (ValueError, KeyError, TypeError) as exc:
        problems.append(f"the recorded actions do not replay on the seed's walls: {exc}")
        return Verification(promised, 0, 0, problems)
    events = [e.to_dict() for e in match.events]
    recorded = record.get("events")
    if recorded != events:
        at = next(
            (i for i, (a, b) in enumerate(zip(events, recorded or [], strict=False)) if a != b),
            min(len(events), len(recorded or [])),
        )
        problems.append(f"event {at} differs from the one the seed's walls give")
    if match.standings is None:
        problems.append("the match is not finished")
    elif record.get("standings") != match.record()["standings"]:
        problems.append("the recorded standings differ from the replayed ones")
    return Verification(promised, len(match.results), len(match.actions), problems)
