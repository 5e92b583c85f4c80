"""``riichi replay``: replay real game logs through the engine and report every difference."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from riichi.formats import LogFormatError, UnsupportedLogError, replay_path

LOG_SUFFIXES = (".xml", ".mjlog", ".mjson", ".jsonl")


def log_files(paths: tuple[Path, ...]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.rglob("*") if p.suffix in LOG_SUFFIXES)
        else:
            out.append(path)
    return out


@click.command("replay")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--quiet", is_flag=True, help="Only the summary.")
@click.option("--lenient", is_flag=True, help="Skip malformed tags or lines, list them, go on.")
def replay_command(paths: tuple[Path, ...], quiet: bool, lenient: bool) -> None:
    """Replay Tenhou XML and mjai logs (files or folders); compare every hand with the log.

    Exits non-zero when any hand differs from its log.
    """
    hands = matched = games = 0
    mismatches = []
    skipped = []
    for path in log_files(paths):
        try:
            report = replay_path(path, lenient)
        except (UnsupportedLogError, LogFormatError) as exc:
            skipped.append(str(exc))
            continue
        games += 1
        skipped += [f"in reading: {e}" for e in report.read_errors]
        hands += report.hands
        matched += report.matched
        mismatches += report.mismatches
    for text in skipped if not quiet else ():
        click.echo(f"skipped: {text}")
    for m in mismatches:
        click.echo(f"MISMATCH {m}")
    click.echo(
        f"{games} games, {hands} hands checked, {matched} matched,"
        f" {len(mismatches)} mismatches, {len(skipped)} logs skipped"
    )
    if mismatches:
        sys.exit(1)
