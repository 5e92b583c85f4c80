"""``riichi ratings``: the leaderboard of a server's database, or its ratings recomputed."""

from __future__ import annotations

import click

from riichi.cli.serve import db_option, open_store
from riichi.server.ratings.records import RecordStore


@click.command("ratings")
@db_option
@click.option(
    "--recompute",
    is_flag=True,
    help="Rebuild every rating from the stored rated matches, in the order they were rated.",
)
@click.option(
    "--top",
    default=20,
    show_default=True,
    type=click.IntRange(1, 10_000),
    help="How many leaderboard rows to print.",
)
def ratings_command(db_url: str, recompute: bool, top: int) -> None:
    """Print the leaderboard; with --recompute, first rebuild the ratings."""
    store = open_store(db_url)
    try:
        records = RecordStore(store.engine)
        if recompute:
            count = records.recompute()
            click.echo(f"recomputed the ratings from {count} rated matches")
        rows, total = records.leaderboard(top, 0)
    finally:
        store.close()
    click.echo(f"{'rank':>4}  {'rating':>6}  {'games':>5}  {'avg place':>9}  player")
    for row in rows:
        marks = " provisional" if row.provisional else ""  # computers are named as such
        place = "-" if row.average_place is None else f"{row.average_place:.2f}"
        click.echo(f"{row.rank:>4}  {row.rating:>6}  {row.games:>5}  {place:>9}  {row.name}{marks}")
    if not rows:
        click.echo("nobody has finished a rated game yet")
    if total > len(rows):
        click.echo(f"... {total - len(rows)} more")
