"""What a name and a password may be."""

from __future__ import annotations

import unicodedata

from riichi.errors import RiichiError, excerpt

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
_NAME_EXTRA = set("_-.")


class AccountError(RiichiError):
    """A name, password or sign-in that is refused."""


def name_key(name: str) -> str:
    """The form two names are compared in: ``Ann`` and ``ANN`` are the same name."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: object) -> str:
    """A valid account name, as given: 3 to 20 letters, digits, ``_``, ``-`` or ``.``,
    and never one that passes for a computer."""
    if not isinstance(name, str):
        raise AccountError("a name is text")
    name = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError(f"a name has {NAME_MIN} to {NAME_MAX} characters, got {len(name)}")
    if not all(ch.isalnum() or ch in _NAME_EXTRA for ch in name):
        raise AccountError(f"a name is letters, digits and _ - . only: {excerpt(name)} has others")
    if "bot" in name_key(name):
        raise AccountError(f"the name {excerpt(name)} is kept for computers")
    return name


def check_password(password: object) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password
