"""``riichi convert``: between log formats, through the engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from riichi.errors import RiichiError
from riichi.formats.mjai import to_jsonl, write_mjai
from riichi.formats.replay import read_log, replay_to_match
from riichi.formats.tenhou6 import write_tenhou6
from riichi.game import Match

FORMATS = {".mjson": "mjai", ".jsonl": "mjai", ".json": "record"}


def load_match(path: Path) -> Match:
    """A match from our record, or by replaying a Tenhou XML, tenhou.net/6 or mjai log."""
    if path.suffix == ".json":
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError:
            data = None  # JSON Lines: a tenhou.net/6 log with one hand per line
        if isinstance(data, dict) and "actions" in data:
            return Match.from_record(data)
    report, match = replay_to_match(read_log(path))
    if report.mismatches:
        raise RiichiError(f"{path} does not replay: {report.mismatches[0]}")
    return match


@click.command("convert")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--to",
    "to_format",
    type=click.Choice(["mjai", "record", "tenhou6"]),
    default=None,
    help="Output format (default: from TARGET's extension).",
)
def convert_command(source: Path, target: Path, to_format: str | None) -> None:
    """Convert SOURCE (Tenhou XML, tenhou.net/6, mjai, our record) to TARGET.

    TARGET's extension picks the format (.mjson/.jsonl mjai, .json our record);
    use --to tenhou6 for tenhou.net/6 JSON.
    """
    fmt = to_format or FORMATS.get(target.suffix)
    if fmt is None:
        raise click.UsageError(f"cannot tell the format of {target}; use --to")
    try:
        match = load_match(source)
    except (RiichiError, OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if fmt == "mjai":
        text = to_jsonl(write_mjai(match))
    elif fmt == "tenhou6":
        text = json.dumps(write_tenhou6(match), ensure_ascii=False)
    else:
        text = json.dumps(match.record(), ensure_ascii=False)
    try:
        target.write_text(text)
    except OSError as exc:
        click.echo(f"error: cannot write {target}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    click.echo(f"{source} -> {target} ({fmt}, {len(match.results)} hands)")
