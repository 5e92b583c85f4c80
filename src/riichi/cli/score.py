"""``riichi score``: the value of a win, with yaku, fu items and payments."""

from __future__ import annotations

import contextlib
import json
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import click

from riichi.cli.options import OptionError
from riichi.errors import RiichiError, excerpt
from riichi.rules import RuleSet, find_ruleset
from riichi.scoring import Meld, MeldType, ScoreResult, WinContext, parse_meld, score
from riichi.tiles import EAST, parse_mjai, parse_tiles, tiles_name

WIND_NAMES = ("E", "S", "W", "N")
_FLAGS = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
    "renhou",
)
_REQUEST_KEYS = {
    "id",
    "hand",
    "win",
    "melds",
    "tsumo",
    "seat",
    "dealer",
    "discarder",
    "round_wind",
    "dora",
    "ura",
    "honba",
    "sticks",
    "pao",
    "rules",
    *_FLAGS,
}


class RequestError(RiichiError):
    """A scoring request with a missing or malformed field."""


def _tiles(value: Any, taken: set[int], field: str) -> list[int]:
    if isinstance(value, str):
        return parse_tiles(value, taken)
    if isinstance(value, list) and all(isinstance(t, int) and 0 <= t < 136 for t in value):
        if taken & set(value) or len(set(value)) != len(value):
            raise RequestError(f"{field}: tile ids repeat")
        taken.update(value)
        return list(value)
    raise RequestError(f"{field} must be notation or a list of tile ids 0..135")


def _meld(value: Any, taken: set[int]) -> Meld:
    if isinstance(value, str):
        return parse_meld(value, taken)
    if isinstance(value, Mapping):
        try:
            meld_type = MeldType(value["type"])
        except (KeyError, ValueError):
            raise RequestError(
                f"meld {value!r} needs a type: chi, pon, minkan, ankan, kakan"
            ) from None
        tiles = _tiles(value.get("tiles"), taken, "meld tiles")
        called = value.get("called", None if meld_type is MeldType.ANKAN else tiles[0])
        return Meld(meld_type, tuple(tiles), called, value.get("from"))
    raise RequestError(f"a meld is 'type:tiles' or an object, got {value!r}")


def _wind(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and EAST <= value < EAST + 4:
        return value
    if isinstance(value, str) and value.upper() in WIND_NAMES:
        return EAST + WIND_NAMES.index(value.upper())
    if isinstance(value, str):
        with contextlib.suppress(RiichiError):
            kind, _ = parse_mjai(value)
            if EAST <= kind < EAST + 4:
                return kind
    raise RequestError(f"a wind is E, S, W, N or 27..30, got {excerpt(value)}")


def _int(request: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = request.get(key, default)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise RequestError(f"{key} must be an integer, got {value!r}")
    return value


def score_request(request: Mapping[str, Any]) -> tuple[ScoreResult, RuleSet]:
    """Score one request object (the ``--jsonl`` line format)."""
    if not isinstance(request, Mapping):
        raise RequestError("each line must be a JSON object")
    unknown = sorted(set(request) - _REQUEST_KEYS)
    if unknown:
        raise RequestError(f"unknown fields: {', '.join(unknown)}")
    for key in ("hand", "win"):
        if key not in request:
            raise RequestError(f"missing field {key!r}")
    rules_value = request.get("rules", "online")
    rules = (
        RuleSet.from_dict(rules_value)
        if isinstance(rules_value, Mapping)
        else find_ruleset(str(rules_value))
    )
    taken: set[int] = set()
    hand = _tiles(request["hand"], taken, "hand")
    win_tiles = _tiles(
        request["win"] if isinstance(request["win"], str) else [request["win"]], taken, "win"
    )
    if len(win_tiles) != 1:
        raise RequestError("win must be exactly one tile")
    melds = [_meld(m, taken) for m in request.get("melds", [])]
    tsumo = bool(request.get("tsumo", False))
    seat = _int(request, "seat", 1)
    dealer = _int(request, "dealer", 0)
    assert seat is not None and dealer is not None
    discarder = _int(
        request, "discarder", None if tsumo else (seat + rules.players - 1) % rules.players
    )
    flags = {}
    for flag in _FLAGS:
        value = request.get(flag, False)
        if not isinstance(value, bool):
            raise RequestError(f"{flag} must be true or false")
        flags[flag] = value
    context = WinContext(
        tsumo=tsumo,
        seat=seat,
        dealer=dealer,
        discarder=discarder,
        round_wind=_wind(request.get("round_wind", "E")),
        dora_indicators=tuple(_tiles(request.get("dora", []), taken, "dora")),
        ura_indicators=tuple(_tiles(request.get("ura", []), taken, "ura")),
        honba=_int(request, "honba", 0) or 0,
        riichi_sticks=_int(request, "sticks", 0) or 0,
        pao=_int(request, "pao", None),
        **flags,
    )
    if tsumo and "discarder" in request and request["discarder"] is not None:
        raise RequestError("a tsumo has no discarder: drop discarder (--from)")
    result = score(hand, win_tiles[0], melds, context, rules)
    if context.pao is not None:
        without = score(hand, win_tiles[0], melds, replace(context, pao=None), rules)
        if without.payments == result.payments:
            raise RequestError(
                "pao applies to a big three dragons or big four winds whose last set the"
                " liable player fed; this win is none"
            )
    return result, rules


def render(result: ScoreResult, request: Mapping[str, Any], rules: RuleSet) -> str:
    """The readable breakdown: yaku, dora, fu items, limit and who pays what."""
    lines = []
    for y in result.yaku:
        unit = "yakuman" if result.yakuman else "han"
        value = "double" if result.yakuman and y.han == 2 else str(y.han)
        lines.append(f"  {y.yaku.en:<34} {pad(y.yaku.ja, 12)} {value} {unit}")
    for name, count in (("Dora", result.dora), ("Red fives", result.aka), ("Ura dora", result.ura)):
        if count:
            lines.append(f"  {name:<34} {pad('', 12)} {count} han")
    if result.fu:
        items = " + ".join(f"{i.fu} {i.label}" for i in result.fu_items)
        lines.append(f"fu       {result.fu}  ({items})")
    lines.append(f"value    {result}  [{rules.name}]")
    seat = request.get("seat", 1)
    for p in result.payments:
        lines.append(f"  {_seat_name(p.seat, request, rules)} pays {p.points}")
    lines.append(f"  {_seat_name(seat, request, rules)} receives {result.deltas[seat]}")
    return "\n".join(["yaku", *lines])


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (a kanji or kana takes two)."""
    used = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - used)


def _seat_name(seat: int, request: Mapping[str, Any], rules: RuleSet) -> str:
    dealer = request.get("dealer", 0)
    return f"seat {seat} ({WIND_NAMES[(seat - dealer) % rules.players]})"


def _jsonl() -> None:
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            click.echo(
                json.dumps({"line": number, "error": f"bad JSON: {exc}", "kind": "RequestError"})
            )
            continue
        ident = request.get("id") if isinstance(request, dict) else None
        try:
            result, _ = score_request(request)
        except RiichiError as exc:
            click.echo(
                json.dumps(
                    {"line": number, "id": ident, "error": str(exc), "kind": type(exc).__name__}
                )
            )
            continue
        click.echo(
            json.dumps({"line": number, "id": ident, **result.to_dict()}, ensure_ascii=False)
        )


@click.command("score")
@click.argument("hand", required=False)
@click.argument("win", required=False)
@click.argument("melds", nargs=-1)
@click.option("--tsumo", is_flag=True, help="Won by self-draw (default: ron).")
@click.option(
    "--seat-wind", "seat_wind", default="S", show_default=True, help="Winner's seat wind."
)
@click.option("--round-wind", default="E", show_default=True, help="The round's wind.")
@click.option(
    "--from",
    "from_wind",
    default=None,
    help="Wind of the discarder (ron; default: the player on the left).",
)
@click.option("--pao", "pao_wind", default=None, help="Wind of the player liable for the yakuman.")
@click.option("--dora", default="", help="Dora indicators, e.g. 1m7z.")
@click.option("--ura", default="", help="Ura dora indicators.")
@click.option("--honba", type=click.IntRange(0), default=0, help="Honba counters on the table.")
@click.option("--sticks", type=click.IntRange(0), default=0, help="Riichi sticks on the table.")
@click.option("--rules", "rules_name", default="online", show_default=True, help="Ruleset preset.")
@click.option("--riichi", is_flag=True, help="The winner declared riichi.")
@click.option("--double-riichi", is_flag=True, help="On the first uninterrupted discard.")
@click.option("--ippatsu", is_flag=True, help="Within a go-around of the riichi.")
@click.option("--rinshan", is_flag=True, help="Tsumo on a kan's replacement tile.")
@click.option("--chankan", is_flag=True, help="Ron on a tile added to a kan.")
@click.option("--haitei", is_flag=True, help="Tsumo on the last live tile.")
@click.option("--houtei", is_flag=True, help="Ron on the last discard.")
@click.option("--tenhou", is_flag=True, help="The dealer's first draw completes the hand.")
@click.option("--chiihou", is_flag=True, help="A non-dealer's first draw, before any call.")
@click.option("--renhou", is_flag=True, help="A non-dealer's ron before its first draw.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--jsonl", is_flag=True, help="Score a stream: one JSON request per stdin line.")
def score_command(
    hand: str | None,
    win: str | None,
    melds: tuple[str, ...],
    seat_wind: str,
    from_wind: str | None,
    pao_wind: str | None,
    as_json: bool,
    jsonl: bool,
    rules_name: str,
    **options: Any,
) -> None:
    """Score HAND (concealed tiles before the win) won on WIN, with called MELDS.

    \b
    Melds are type:tiles[@seat]: chi:406p pon:555z kan:1111m ankan:9999s kakan:5555p.
    Example: riichi score 234567m234p6799s 8s --riichi --dora 1m
    """
    if jsonl:
        _jsonl()
        return
    if hand is None or win is None:
        raise click.UsageError("give HAND and WIN (or --jsonl)")
    if options["tsumo"] and from_wind:
        raise OptionError("--from", "a tsumo has no discarder")
    try:
        rules = find_ruleset(rules_name)
    except RiichiError as exc:
        raise OptionError("--rules", str(exc)) from None
    for value, hint in ((seat_wind, "--seat-wind"), (from_wind, "--from"), (pao_wind, "--pao")):
        try:
            if value is not None:
                _wind(value)
        except RiichiError as exc:
            raise OptionError(hint, str(exc)) from None
    try:
        seat = _wind(seat_wind) - EAST
        request: dict[str, Any] = {
            "hand": hand,
            "win": win,
            "melds": list(melds),
            "rules": rules_name,
            "seat": seat,
            "dealer": 0,
            "round_wind": options.pop("round_wind"),
            "dora": options.pop("dora"),
            "ura": options.pop("ura"),
            "honba": options.pop("honba"),
            "sticks": options.pop("sticks"),
            **options,
        }
        if not options["tsumo"]:
            request["discarder"] = (
                _wind(from_wind) - EAST if from_wind else (seat + rules.players - 1) % rules.players
            )
        if pao_wind:
            request["pao"] = _wind(pao_wind) - EAST
        result, rules = score_request(request)
    except RiichiError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        click.echo(f"hand     {tiles_name(parse_tiles(hand))} + {win} {' '.join(melds)}".rstrip())
        click.echo(render(result, request, rules))
