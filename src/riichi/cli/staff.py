"""The site's staff commands: ``riichi operator`` grants the role that may add the
house's chips; ``riichi audit`` checks the chip ledger and reports suspicious pairs."""

from __future__ import annotations

import sys

import click

from riichi.cli.serve import db_option, open_store
from riichi.platform import name_key
from riichi.server.money.ledger import ChipStore
from riichi.server.ratings.records import RecordStore
from riichi.server.storage import OPERATOR


@click.command("operator")
@click.argument("name")
@db_option
@click.option("--revoke", is_flag=True, help="Take the role back.")
def operator_command(name: str, db_url: str, revoke: bool) -> None:
    """Make the account NAME an operator (who may add the house's chips to a
    tournament's pot and run tournaments of any size), or with --revoke, no longer."""
    store = open_store(db_url)
    try:
        found = store.accounts.set_role(name_key(name), None if revoke else OPERATOR)
    finally:
        store.close()
    if found is None:
        click.echo(f"error: no account is named {name!r}", err=True)
        sys.exit(2)
    click.echo(f"{found.name} is {'no longer ' if revoke else ''}an operator")


@click.command("audit")
@db_option
def audit_command(db_url: str) -> None:
    """Check the chip ledger (balance, solvency of the house, winnings out of line with
    play) and list pairs of accounts whose rated games together look arranged. Exits 1
    when the books have problems."""
    store = open_store(db_url)
    try:
        chips = ChipStore(store.engine)
        problems = chips.audit()
        exposure = chips.exposure()
        house = chips.balances().get("house", 0)
        pairs = RecordStore(store.engine).suspicious_pairs()
    finally:
        store.close()
    click.echo(f"house: {house} chips, may still lose {exposure} at the money tables in play")
    for problem in problems:
        click.echo(f"problem: {problem}")
    if not problems:
        click.echo("the books are clean")
    for pair in pairs:
        click.echo(f"pair: {pair.first} and {pair.second}, {pair.games} rated games: {pair.reason}")
    if not pairs:
        click.echo("no suspicious pairs")
    sys.exit(1 if problems else 0)
