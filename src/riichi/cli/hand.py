"""``riichi hand``: shanten, waits and the discard table of a hand."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from riichi.cli.options import plural
from riichi.errors import RiichiError
from riichi.hand import (
    decompositions,
    shanten,
    shanten_chiitoi,
    shanten_kokushi,
    shanten_standard,
    ukeire,
    waits,
)
from riichi.tiles import counts_of, kind_name, kinds_name, parse_kind, parse_tiles, tiles_name


def analyse(text: str, melds: int | None = None) -> dict[str, Any]:
    """Everything ``riichi hand`` reports about one hand, as plain data."""
    tiles = parse_tiles(text)
    counts = counts_of(tiles)
    n = len(tiles)
    result: dict[str, Any] = {"hand": tiles_name(tiles, red_fives=4), "tiles": n}
    sh = shanten(counts, melds)
    result["shanten"] = sh
    closed = (melds or 0) == 0 and n >= 13
    result["forms"] = {"standard": shanten_standard(counts, melds)}
    if closed:
        result["forms"]["chiitoitsu"] = shanten_chiitoi(counts)
        result["forms"]["kokushi"] = shanten_kokushi(counts)
    u = ukeire(counts, melds=melds)
    if n % 3 == 1:
        w = waits(counts, melds)
        result["waits"] = [kind_name(k) for k in w.kinds]
        result["karaten"] = [kind_name(k) for k in w.karaten]
        result["accepts"] = [kind_name(k) for k in u.kinds]
        result["accept_count"] = u.tiles
    elif sh == -1:
        result["readings"] = [
            {
                "form": r.form.value,
                "sets": [str(b) for b in r.sets],
                "pair": None if r.pair is None else kind_name(r.pair),
                "pairs": [kind_name(k) for k in r.pairs],
            }
            for r in decompositions(counts, melds=melds)
        ]
    else:
        result["discards"] = [
            {
                "discard": kind_name(o.discard),
                "shanten": o.shanten,
                "accepts": [kind_name(k) for k in o.kinds],
                "tiles": o.tiles,
            }
            for o in u.discards
        ]
    return result


def render(result: dict[str, Any]) -> str:
    """The human-readable report of ``analyse``."""
    lines = [f"hand     {result['hand']}  ({plural(result['tiles'], 'tile')})"]
    forms = ", ".join(f"{name} {value}" for name, value in result["forms"].items())
    sh = result["shanten"]
    label = {-1: "complete", 0: "tenpai"}.get(sh, f"{sh}-shanten")
    lines.append(f"shanten  {sh} ({label}; {forms})")
    if "waits" in result:
        kara = result["karaten"]
        note = f"  (karaten, all four held: {kinds_text(kara)})" if kara else ""
        lines.append(f"waits    {kinds_text(result['waits'])}{note}")
        accepted = plural(result["accept_count"], "tile")
        lines.append(f"accepts  {kinds_text(result['accepts'])}  ({accepted})")
    if "readings" in result:
        for r in result["readings"]:
            if r["form"] == "chiitoitsu":
                lines.append("reading  seven pairs " + " ".join(r["pairs"]))
            elif r["form"] == "kokushi":
                lines.append(f"reading  thirteen orphans, pair {r['pair']}")
            else:
                lines.append("reading  " + " ".join([*r["sets"], f"pair {r['pair']}"]))
    if "discards" in result:
        lines.append("discard  shanten  tiles  accepts")
        for row in result["discards"]:
            accepts = kinds_text(row["accepts"])
            lines.append(f"{row['discard']:<8} {row['shanten']:>7}  {row['tiles']:>5}  {accepts}")
    return "\n".join(lines)


def kinds_text(names: list[str]) -> str:
    """``["1m", "2m", "5z"]`` -> ``"12m5z"``; ``"-"`` for none."""
    return kinds_name(parse_kind(name) for name in names) or "-"


@click.command("hand")
@click.argument("hands", nargs=-1)
@click.option(
    "--melds",
    type=click.IntRange(0, 4),
    default=None,
    help="Called sets beside these tiles (default: from the tile count).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def hand_command(hands: tuple[str, ...], melds: int | None, as_json: bool) -> None:
    """Shanten, waits and the discard table of HANDS (e.g. 123m456p789s1122z5z).

    With no HANDS, reads one hand per line from standard input.
    """
    interactive = not hands
    source = hands or _stdin_lines()
    failed = False
    for text in source:
        try:
            result = analyse(text, melds)
        except RiichiError as exc:
            failed = True
            if as_json:
                click.echo(json.dumps({"input": text, "error": str(exc)}))
            else:
                click.echo(f"error: {exc}", err=True)
            continue
        click.echo(json.dumps(result) if as_json else render(result))
        if interactive and not as_json:
            click.echo()
    if failed and not interactive:
        sys.exit(1)


def _stdin_lines() -> Any:
    if sys.stdin.isatty():
        click.echo("Type a hand in notation (e.g. 123m456p789s1122z5z); Ctrl-D quits.", err=True)
    for line in sys.stdin:
        line = line.strip()
        if line:
            yield line
