"""``riichi league``: every league season's standings in a server's database, or
their games' PT recomputed from the stored tables first."""

from __future__ import annotations

import click

from riichi.cli.serve import db_option, open_store
from riichi.platform.leagues import standings
from riichi.server.leagues.store import LeagueStore


@click.command("league")
@db_option
@click.option(
    "--recompute",
    is_flag=True,
    help="Rebuild every league game's PT from the stored tables' standings first.",
)
def league_command(db_url: str, recompute: bool) -> None:
    """Print each season's standings (PT, games, average place, best game)."""
    store = open_store(db_url)
    try:
        seasons = LeagueStore(store.engine)
        if recompute:
            count = seasons.recompute()
            click.echo(f"recomputed {count} games' PT from the stored tables")
        for season in seasons.page():
            games = seasons.games(season["id"])
            players, teams = standings(seasons.members(season["id"]), games)
            click.echo(
                f"{season['name']} ({season['id']}): {season['status']}, round"
                f" {season['round']} of {season['rounds']}, {len(games)} games"
            )
            for rank, line in enumerate([*teams, *players], start=1):
                place = "-" if line.average_place is None else f"{line.average_place:.2f}"
                best = "-" if line.best is None else f"{line.best:+.1f}"
                what = "team" if line in teams else line.team or ""
                click.echo(
                    f"  {rank:>3} {line.pt:+8.1f} PT {line.games:>3} games avg {place}"
                    f" best {best}  {line.name} {what}".rstrip()
                )
    finally:
        store.close()
