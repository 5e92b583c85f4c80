"""``riichi replay``: replay real game logs through the engine and report every difference."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from riichi.cli.options import plural
from riichi.formats import LogFormatError, UnsupportedLogError, replay_path

LOG_SUFFIXES = (".xml", ".mjlog", ".mjson", ".jsonl", ".json")
SKIP_DIRS = ("node_modules", "__pycache__", "site-packages")


def log_files(paths: tuple[Path, ...]) -> list[Path]:
    """The logs named, and in folders every file with a log's suffix (hidden folders,
    virtual environments and package caches left out)."""
    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            out.append(path)
            continue
        for found in sorted(path.rglob("*")):
            inner = found.relative_to(path).parts[:-1]
            if any(part.startswith(".") or part in SKIP_DIRS for part in inner):
                continue
            if found.is_file() and found.suffix in LOG_SUFFIXES:
                out.append(found)
    return out


@click.command("replay")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--quiet", is_flag=True, help="Only the summary.")
@click.option("--lenient", is_flag=True, help="Skip malformed tags or lines, list them, go on.")
def replay_command(paths: tuple[Path, ...], quiet: bool, lenient: bool) -> None:
    """Replay Tenhou XML, tenhou.net/6 and mjai logs (files or folders); compare every
    hand with the log.

    Exits non-zero when any hand differs from its log.
    """
    hands = matched = games = 0
    mismatches = []
    contradictions = []
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
        contradictions += report.contradictions
    for text in skipped if not quiet else ():
        click.echo(f"skipped: {text}")
    for m in contradictions:
        click.echo(f"contradicts itself: {m}")
    for m in mismatches:
        click.echo(f"MISMATCH {m}")
    click.echo(
        f"{plural(games, 'game')}, {plural(hands, 'hand')} checked, {matched} matched,"
        f" {plural(len(mismatches), 'mismatch', 'mismatches')},"
        f" {plural(len(skipped), 'log')} skipped"
    )
    if mismatches:
        sys.exit(1)
    if games == 0:
        click.echo("error: no log was replayed: nothing was checked", err=True)
        sys.exit(1)
