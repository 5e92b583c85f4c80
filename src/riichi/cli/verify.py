"""``riichi verify``: check a finished game's walls against the commitment published before play."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from riichi.game import COMMITMENT_SCHEME, VerificationError, verify_record


@click.command("verify")
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def verify_command(record: Path) -> None:
    """Check RECORD (a finished game's record from the server) against its commitment.

    The server publishes a commitment, a hash of the secret seed and a salt,
    when the game starts; the record reveals both when it ends. RECORD passes
    when they hash to the commitment and every recorded event and the final
    standings are what the seed's walls give: the walls were fixed before the
    first draw and never changed.
    """
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
        report = verify_record(data)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, VerificationError) as exc:
        click.echo(f"error: {record}: {exc}", err=True)
        sys.exit(2)
    if report.commitment is None:
        click.echo("commitment none: the record carries none, so there is none to check")
        click.echo(f"replayed   {report.hands} hands, {report.actions} actions on its walls")
        if report.ok:
            click.echo("replayed: the record's actions give its events and standings")
            return
    else:
        click.echo(f"commitment {report.commitment}  ({COMMITMENT_SCHEME})")
        click.echo(f"replayed   {report.hands} hands, {report.actions} actions on the seed's walls")
        if report.ok:
            click.echo("verified: the seed matches the commitment and gives this game")
            return
    for problem in report.problems:
        click.echo(f"FAILED: {problem}")
    sys.exit(1)
