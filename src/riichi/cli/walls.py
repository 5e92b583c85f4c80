"""``riichi walls``: the walls a seed deals, to check a Daily Wall (or any revealed seed)."""

from __future__ import annotations

import sys

import click

from riichi.cli.options import LENGTHS, rules_with_length
from riichi.game.wall import Wall
from riichi.platform.daily import seed_commitment
from riichi.tiles import tile_name, tiles_name

SEATS = "ESWN"


@click.command("walls")
@click.argument("seed")
@click.option("--rules", "rules_name", default="daily-wall", show_default=True, help="Preset.")
@click.option("--length", type=click.Choice(LENGTHS), help="Match length the preset offers.")
@click.option(
    "--hands", default=1, show_default=True, type=click.IntRange(1, 64), help="Hands to show."
)
@click.option("--commitment", help="Check SEED against a Daily Wall's published commitment.")
def walls_command(
    seed: str, rules_name: str, length: str | None, hands: int, commitment: str | None
) -> None:
    """Show the walls SEED deals: each hand's starting hands from the dealer, the draws
    in order and the indicators. With --commitment, first check that SEED is the one
    the Daily Wall published before its day (sha256 of "daily-wall/" and the seed)."""
    rules = rules_with_length(rules_name, length)
    if commitment is not None:
        if seed_commitment(seed) != commitment.strip().lower():
            click.echo(f"FAILED: seed {seed[:40]!r} does not match commitment {commitment[:80]}")
            sys.exit(1)
        click.echo(f"verified: the seed matches commitment {commitment.strip().lower()}")
    red = rules.red_fives
    for hand in range(hands):
        wall = Wall.seeded(seed, hand, rules.players, rules.kita)
        click.echo(f"hand {hand + 1}")
        for s, tiles in enumerate(wall.hands):
            click.echo(f"  {SEATS[s]}: {tiles_name(tiles, red)}")  # by seat wind: E deals
        click.echo(f"  draws: {' '.join(tile_name(t, red) for t in wall.draws)}")
        click.echo(f"  dora indicators: {' '.join(tile_name(t, red) for t in wall.dora)}")
        click.echo(f"  ura indicators:  {' '.join(tile_name(t, red) for t in wall.ura)}")
        click.echo(f"  replacement tiles: {' '.join(tile_name(t, red) for t in wall.rinshan)}")
