"""The exception tree of the package.

Every error is a ``ValueError`` so that callers validating input can catch one
type, and each carries the offending state in its message.
"""

from __future__ import annotations


class RiichiError(ValueError):
    """Base of every error raised by this package."""


class InvalidNotationError(RiichiError):
    """Text that is not valid tile notation (bad character, missing suit, fifth copy)."""


class InvalidHandError(RiichiError):
    """A hand that cannot exist: wrong tile count, more than four copies, bad counts."""


class NotAgariError(InvalidHandError):
    """Tiles given as a win that do not form a complete hand."""


class NoYakuError(RiichiError):
    """A complete hand with no yaku: it may not win (dora are not yaku)."""


def excerpt(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters: errors name bad input, never echo it."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"
