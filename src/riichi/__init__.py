"""riichi: riichi mahjong rules, hand analysis, scoring and play."""

from riichi._core import core
from riichi.errors import (
    InvalidHandError,
    InvalidNotationError,
    NotAgariError,
    NoYakuError,
    RiichiError,
)

__version__ = "0.1.0"

__all__ = [
    "InvalidHandError",
    "InvalidNotationError",
    "NoYakuError",
    "NotAgariError",
    "RiichiError",
    "__version__",
    "core",
]
