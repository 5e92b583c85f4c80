"""riichi: riichi mahjong rules, hand analysis, scoring and play."""

from riichi.errors import InvalidHandError, InvalidNotationError, RiichiError

__version__ = "0.1.0"

__all__ = ["InvalidHandError", "InvalidNotationError", "RiichiError", "__version__"]
