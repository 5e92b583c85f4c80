"""Game records: Tenhou mjlog XML, and replaying real logs through the engine."""

from riichi.formats.mjlog import LogFormatError, LogGame, read_mjlog
from riichi.formats.replay import Report, UnsupportedLogError, replay_game, replay_path

__all__ = [
    "LogFormatError",
    "LogGame",
    "Report",
    "UnsupportedLogError",
    "read_mjlog",
    "replay_game",
    "replay_path",
]
