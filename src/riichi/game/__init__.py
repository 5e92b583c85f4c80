"""The game engine: walls, hands, matches, observations. Pure: no I/O, no clock, no global RNG."""

from riichi.game.actions import PASS, Action, ActionType, IllegalActionError
from riichi.game.commit import (
    COMMITMENT_SCHEME,
    Replayed,
    Verification,
    VerificationError,
    commitment,
    replay_record,
    verify_record,
)
from riichi.game.events import Event
from riichi.game.kyoku import HandResult, Kyoku, Phase
from riichi.game.match import Match, MatchStart, Standing
from riichi.game.observe import Observation, observe
from riichi.game.wall import InvalidWallError, Wall, shuffled

__all__ = [
    "COMMITMENT_SCHEME",
    "PASS",
    "Action",
    "ActionType",
    "Event",
    "HandResult",
    "IllegalActionError",
    "InvalidWallError",
    "Kyoku",
    "Match",
    "MatchStart",
    "Observation",
    "Phase",
    "Replayed",
    "Standing",
    "Verification",
    "VerificationError",
    "Wall",
    "commitment",
    "observe",
    "replay_record",
    "shuffled",
    "verify_record",
]
