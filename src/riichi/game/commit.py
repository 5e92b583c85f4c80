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
    """What ``verify_record`` found: ``ok`` when there are no problems. ``commitment``
    is None for a record that carries none (its replay is still checked)."""

    commitment: str | None
    hands: int
    actions: int
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(slots=True)
class Replayed:
    """A record's actions replayed: the match they give (None when they do not
    replay), the index of the first event that differs from the recorded ones (None
    when all agree), and whether the standings agree."""

    match: Match | None
    differs_at: int | None = None
    standings_ok: bool = False
    error: str | None = None

    @property
    def problems(self) -> list[str]:
        if self.match is None:
            return [f"the recorded actions do not replay: {self.error}"]
        problems = []
        if self.differs_at is not None:
            problems.append(f"event {self.differs_at} differs from the one the walls give")
        if self.match.standings is None:
            problems.append("the match is not finished")
        elif not self.standings_ok:
            problems.append("the recorded standings differ from the replayed ones")
        return problems


def replay_record(record: dict[str, object]) -> Replayed:
    """Replay our own record (``Match.record()``) on its walls, given or from its
    seed, and compare what it gives with what it says."""
    try:
        match = Match.from_record(record)
    except (RiichiError, ValueError, KeyError, TypeError) as exc:
        return Replayed(None, error=str(exc))
    events = [e.to_dict() for e in match.events]
    recorded = record.get("events")
    recorded = recorded if isinstance(recorded, list) else []
    differs_at = next(
        (i for i, (a, b) in enumerate(zip(events, recorded, strict=False)) if a != b),
        None if len(events) == len(recorded) else min(len(events), len(recorded)),
    )
    standings_ok = record.get("standings") == match.record()["standings"]
    return Replayed(match, differs_at, standings_ok)


def verify_record(record: object) -> Verification:
    """Check a finished record against the commitment published before its first draw.

    The seed and salt must hash to the commitment, and replaying the recorded
    actions on the walls of that seed must give every recorded event and the
    recorded standings: the walls were fixed before play and never changed. A
    record without a commitment (a self-played game's) is only replayed.
    """
    if not isinstance(record, dict):
        raise VerificationError("a record is a JSON object")
    promised, seed, salt = (record.get(k) for k in ("commitment", "seed", "salt"))
    problems = []
    if promised is not None or salt is not None:
        if not isinstance(promised, str) or not isinstance(salt, str):
            raise VerificationError(
                "the record carries no commitment and salt to check (one is missing or not text)"
            )
        if record.get("walls") is not None:
            raise VerificationError("the record gives its walls explicitly: no seed to check")
        if not isinstance(seed, str | int) or isinstance(seed, bool):
            raise VerificationError(f"the record's seed is not revealed: {excerpt(seed)}")
        if commitment(str(seed), salt) != promised:
            problems.append(
                f"seed and salt hash to {commitment(str(seed), salt)},"
                f" not to the commitment {promised}"
            )
    replayed = replay_record(record)
    problems += replayed.problems
    match = replayed.match
    if match is None:
        return Verification(promised, 0, 0, problems)
    return Verification(promised, len(match.results), len(match.actions), problems)
