"""What a name and a password may be.

Two names are the same name when they look the same: the comparison form is
Unicode's confusables skeleton (UTS #39, from the table the
``confusable_homoglyphs`` package ships) of the case-folded NFKC form, so
``bоt`` (a Cyrillic o), ``b0t`` and ``ｂｏｔ`` all read as ``bot``, and ``аdmin``
(a Cyrillic a) as ``admin``. The computers' names and the staff's are kept.
"""

from __future__ import annotations

import functools
import unicodedata

from riichi.errors import RiichiError, excerpt

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
_NAME_EXTRA = set("_-.")
BOT_WORD = "bot"
# Names a person may not take, as skeletons: the built-in computers (a seat shows
# its kind as its name) and what passes for the site's own staff.
COMPUTER_NAMES = ("random", "tsumogiri", "efficiency", "defensive", "expert", "computer")
STAFF_NAMES = (
    "admin",
    "administrator",
    "operator",
    "moderator",
    "mod",
    "staff",
    "system",
    "support",
    "root",
    "riichi",
    "house",
    "bank",
    "daily",
)


class AccountError(RiichiError):
    """A name, password or sign-in that is refused."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's ASCII prototype, from Unicode's confusables table."""
    from confusable_homoglyphs.utils import load

    table: dict[str, list[dict[str, str]]] = load("confusables.json")
    out: dict[str, str] = {}
    for char, entries in table.items():
        ascii_forms = [e["c"] for e in entries if e["c"].isascii() and e["c"].isalnum()]
        if not ascii_forms:
            continue
        if char.isascii():
            # an ASCII prototype lists everything that maps to it: only a character
            # with a single ASCII form (0 -> O, 1 -> l, I -> l, m -> rn) maps onward
            if len(entries) == 1 and char.isalnum():
                out[char] = ascii_forms[0]
        else:
            out[char] = ascii_forms[0]
    return out


def skeleton(text: str) -> str:
    """The form in which two names that look alike are equal."""
    prototypes = _prototypes()
    # folded first, so that case never matters (Unicode's skeleton alone keeps it)
    text = unicodedata.normalize("NFKC", text).casefold()
    for _ in range(3):  # a prototype may itself map on once (rarely twice)
        mapped = "".join(prototypes.get(ch, ch) for ch in text)
        if mapped == text:
            break
        text = mapped
    return text.casefold()


def name_key(name: str) -> str:
    """The form two names are compared in: ``Ann``, ``ANN`` and ``Аnn`` (Cyrillic А)
    are the same name."""
    return skeleton(name)


def legacy_key(name: str) -> str:
    """The comparison form before skeletons (NFKC, case-folded): a name whose skeleton
    collided with another's when keys changed kept this one."""
    return unicodedata.normalize("NFKC", name).casefold()


def reserved(name: str) -> str | None:
    """Why a name (an account's, or a person's at a table) is kept from people: it
    reads as a computer's or the staff's. None if it is free."""
    key = skeleton(name)
    if skeleton(BOT_WORD) in key:
        return "kept for computers"
    # the letters alone: "expert2" and "Admin_1" read as the names they decorate
    letters = skeleton("".join(ch for ch in unicodedata.normalize("NFKC", name) if ch.isalpha()))
    if letters in _kept(COMPUTER_NAMES):
        return "kept for computers"
    if letters in _kept(STAFF_NAMES):
        return "kept for the site's staff"
    return None


@functools.cache
def _kept(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(skeleton(n) for n in names)


def check_name(name: object) -> str:
    """A valid account name, as given: 3 to 20 letters, digits, ``_``, ``-`` or ``.``,
    and never one that passes for a computer or the staff."""
    if not isinstance(name, str):
        raise AccountError("a name is text")
    name = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError(f"a name has {NAME_MIN} to {NAME_MAX} characters, got {len(name)}")
    if not all(ch.isalnum() or ch in _NAME_EXTRA for ch in name):
        raise AccountError(f"a name is letters, digits and _ - . only: {excerpt(name)} has others")
    why = reserved(name)
    if why is not None:
        raise AccountError(f"the name {excerpt(name)} is {why}")
    return name


MAX_MARKS = 2  # combining marks on one letter: enough for any script, not a stack


def check_title(text: object, what: str, longest: int) -> str:
    """A name people give to a season, a team or a tournament, as it is shown: NFKC,
    its spaces collapsed, 1 to ``longest`` characters, and only what prints plainly:
    no control or format characters (NUL, bidirectional overrides, zero-width
    spaces) and no stack of more than ``MAX_MARKS`` combining marks. Raises
    ``AccountError`` naming ``what``."""
    if not isinstance(text, str):
        raise AccountError(f"{what} is text, got {excerpt(text)}")
    title = " ".join(unicodedata.normalize("NFKC", text).split())
    if not 0 < len(title) <= longest:
        raise AccountError(f"{what} has 1 to {longest} characters")
    if not title.isprintable():
        raise AccountError(f"{what} has characters that do not print: {excerpt(title)}")
    run = 0
    for ch in title:
        run = run + 1 if unicodedata.combining(ch) else 0
        if run > MAX_MARKS:
            raise AccountError(f"{what} stacks more than {MAX_MARKS} marks on a letter")
    return title


def check_password(password: object) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password
