"""Tenhou mjlog XML (plain or gzip): the game, its hands and every tag in order.

Field meanings are in ``shared/corpus/FORMATS.md`` section 1. Point values in
the XML are hundreds; here they are full points.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from riichi.errors import RiichiError
from riichi.scoring import Meld, MeldType

_DRAW_TAGS = "TUVW"
_DISCARD_TAGS = "DEFG"


class LogFormatError(RiichiError):
    """A log that cannot be read; the message names the file and the place."""


@dataclass
class Step:
    """One tag of a hand, in order: ``kind`` is draw, discard, reach, call, dora, agari,
    ryuukyoku, bye; ``seat`` who, ``tile`` the tile, ``meld`` a decoded call, ``attrs``
    the raw attributes (for agari and ryuukyoku)."""

    kind: str
    seat: int = -1
    tile: int = -1
    meld: Meld | None = None
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class LogHand:
    round: int  # 0..3 East 1..4, 4..7 South, 8.. West
    honba: int
    sticks: int
    dora: int
    dealer: int
    scores: list[int]
    haipai: list[list[int]]
    steps: list[Step] = field(default_factory=list)


RULES_KEY = "riichi_rules"  # our own key: the RuleSet the game was played under


def as_paid(wins: list[list[int]], paid: list[int]) -> list[int]:
    """The last of a hand's wins' score changes, adjusted so that all of them add up to
    what was paid: under a loss limit a payer pays less than the hands are worth."""
    worth = [sum(x) for x in zip(*wins, strict=True)]
    return [a + b - c for a, b, c in zip(wins[-1], paid, worth, strict=True)]


@dataclass
class LogGame:
    source: str
    go_type: int
    players: list[str]
    hands: list[LogHand]
    lobby: int = 0
    platform: str = "tenhou"  # or "mahjongsoul" (tenhou.net/6 conversions of its logs)
    shuffle: str = ""  # Tenhou's SHUFFLE seed, when the log keeps it
    errors: list[str] = field(default_factory=list)  # what a lenient read skipped
    owari: list[float] = field(default_factory=list)  # score, points per seat
    game_id: str = ""  # Tenhou's log id (2018020420gm-0001-14423-3290b527), when known
    # the exact RuleSet (``RuleSet.to_dict``) of our own files, which carry it under
    # RULES_KEY where the format has no field for it
    rules: dict[str, Any] | None = None

    @property
    def players_count(self) -> int:
        if self.rules is not None and isinstance(self.rules.get("players"), int):
            return int(self.rules["players"])
        return 3 if self.go_type & 0x10 else 4


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x != ""]


def decode_meld(m: int, who: int, players: int = 4) -> Meld:
    """Tenhou's 16-bit meld code to a Meld (tiles are physical ids)."""
    rel = m & 3
    source = (who + rel) % players if rel else None
    if m & 0x4:  # chi
        t = m >> 10
        called_index = t % 3
        t //= 3
        base = (t // 7) * 9 + t % 7
        tiles = tuple((base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3))
        return Meld(MeldType.CHI, tiles, tiles[called_index], source)
    if m & 0x18:  # pon or kakan
        t = m >> 9
        called_index = t % 3
        kind = t // 3
        unused = (m >> 5) & 3
        pon = tuple(kind * 4 + c for c in range(4) if c != unused)
        if m & 0x8:
            return Meld(MeldType.PON, pon, pon[called_index], source)
        return Meld(MeldType.KAKAN, (*pon, kind * 4 + unused), pon[called_index], source)
    if m & 0x20:
        raise LogFormatError(f"kita (three-player North) meld {m} is not supported")
    tile = m >> 8
    kind = tile >> 2
    tiles = tuple(kind * 4 + c for c in range(4))
    if rel == 0:
        return Meld(MeldType.ANKAN, tiles)
    return Meld(MeldType.MINKAN, tiles, tile, source)


def read_mjlog(path: str | Path, lenient: bool = False) -> LogGame:
    """Read one Tenhou XML log (gzip or plain).

    Strict by default: the first bad tag raises ``LogFormatError`` naming the
    file and the tag. ``lenient`` skips bad tags and lists them in ``errors``.
    """
    path = Path(path)
    return parse_mjlog_bytes(path.read_bytes(), str(path), lenient)


# A log unpacked from gzip is refused past this size: a small upload must not unpack
# into gigabytes. A Tenhou hanchan is about 30 kB.
MAX_UNPACKED = 32 << 20


def gunzip(raw: bytes, source: str, limit: int = MAX_UNPACKED) -> bytes:
    """``raw`` unpacked when it is gzip (as is when not), at most ``limit`` bytes."""
    if raw[:2] != b"\x1f\x8b":
        return raw
    unpack = zlib.decompressobj(wbits=31)
    try:
        out = unpack.decompress(raw, limit + 1)
    except zlib.error as exc:
        raise LogFormatError(f"{source}: not gzip: {exc}") from None
    if len(out) > limit:
        raise LogFormatError(f"{source}: unpacks to more than {limit >> 20} MB")
    return out


def parse_mjlog_bytes(raw: bytes, source: str = "<xml>", lenient: bool = False) -> LogGame:
    """A Tenhou XML log from its bytes (gzip or plain). The standard parser resolves
    no external entity, and expat (2.4.1 and later) bounds entity expansion."""
    try:
        root = ET.fromstring(gunzip(raw, source))
    except ET.ParseError as exc:
        raise LogFormatError(f"{source}: not XML: {exc}") from None
    return parse_mjlog(root, source, lenient)


def parse_mjlog(root: ET.Element, source: str = "<xml>", lenient: bool = False) -> LogGame:
    go_type = 0
    lobby = 0
    shuffle = ""
    errors: list[str] = []
    players: list[str] = []
    hands: list[LogHand] = []
    owari: list[float] = []
    n = 4
    for index, el in enumerate(root):
        tag, a = el.tag, el.attrib
        where = f"{source}: tag {index} <{tag}>"
        try:
            if tag == "SHUFFLE":
                shuffle = a.get("seed", "")
            elif tag == "GO":
                go_type = int(a.get("type", "0"))
                lobby = int(a.get("lobby", "0") or 0)
                n = 3 if go_type & 0x10 else 4
            elif tag == "UN" and "n0" in a and not players:
                players = [unquote(a.get(f"n{s}", "")) for s in range(n)]
            elif tag == "INIT":
                seed = _ints(a["seed"])
                hands.append(
                    LogHand(
                        round=seed[0],
                        honba=seed[1],
                        sticks=seed[2],
                        dora=seed[5],
                        dealer=int(a["oya"]),
                        scores=[x * 100 for x in _ints(a["ten"])][:n],
                        haipai=[sorted(_ints(a[f"hai{s}"])) for s in range(n)],
                    )
                )
            elif tag[0] in _DRAW_TAGS and tag[1:].isdigit():
                _hand(hands, where).steps.append(
                    Step("draw", _DRAW_TAGS.index(tag[0]), int(tag[1:]))
                )
            elif tag[0] in _DISCARD_TAGS and tag[1:].isdigit():
                _hand(hands, where).steps.append(
                    Step("discard", _DISCARD_TAGS.index(tag[0]), int(tag[1:]))
                )
            elif tag == "N":
                who, code = int(a["who"]), int(a["m"])
                if code & 0x3C == 0x20:  # three-player North set aside (kita)
                    _hand(hands, where).steps.append(Step("kita", who, code >> 8))
                else:
                    meld = decode_meld(code, who, n)
                    _hand(hands, where).steps.append(Step("call", who, meld=meld))
            elif tag == "REACH":
                step = Step("reach", int(a["who"]), attrs=dict(a))
                _hand(hands, where).steps.append(step)
            elif tag == "DORA":
                _hand(hands, where).steps.append(Step("dora", tile=int(a["hai"])))
            elif tag in ("AGARI", "RYUUKYOKU"):
                _hand(hands, where).steps.append(
                    Step(tag.lower(), int(a.get("who", "-1")), attrs=dict(a))
                )
                if "owari" in a:
                    owari = [float(x) for x in a["owari"].split(",")]
        except (KeyError, ValueError) as exc:
            if not lenient:
                raise LogFormatError(f"{where}: {exc}") from None
            errors.append(f"{where}: {exc}")
    if not hands:
        raise LogFormatError(f"{source}: no hands (INIT tags)")
    return LogGame(
        source,
        go_type,
        players,
        hands,
        lobby=lobby,
        owari=owari,
        shuffle=shuffle,
        errors=errors,
        game_id=game_id(source),
    )


GAME_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-fx]{8,}")


def game_id(text: str) -> str:
    """A Tenhou log id found in a file name or reference, or empty."""
    found = GAME_ID.search(text)
    return found.group(0) if found else ""


def _hand(hands: list[LogHand], where: str) -> LogHand:
    if not hands:
        raise LogFormatError(f"{where}: comes before the first INIT")
    return hands[-1]
