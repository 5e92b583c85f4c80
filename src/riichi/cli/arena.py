"""``riichi arena``: bots against bots, with figures and confidence intervals."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
from tqdm import tqdm

from riichi.bots import BOTS
from riichi.bots.arena import run, summarise, tasks
from riichi.cli.options import LENGTHS, bot_names, plural, rules_with_length, timeout_option

DEFAULT_BOTS = ("efficiency", "efficiency", "random", "random")
COLUMNS = ("avg place", "1st", "last", "avg score", "win", "deal-in", "riichi", "call")


@click.command("arena")
@click.option(
    "--bots",
    "bot_list",
    default=None,
    help="One bot per seat, comma separated: "
    + ", ".join(sorted(BOTS))
    + ', or "mjai:COMMAND ARGS" for an outside bot speaking mjai'
    + " (default: efficiency,efficiency,random,random, as many as the rules seat)",
)
@timeout_option
@click.option("--games", type=click.IntRange(1), default=20, show_default=True)
@click.option("--rules", "rules_name", default="online", show_default=True)
@click.option(
    "--length",
    type=click.Choice(LENGTHS),
    default=None,
    help="Match length (default: the preset's).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--duplicate",
    is_flag=True,
    help="Play each wall in every seating once (two bots: every way to seat them; more:"
    " every rotation).",
)
@click.option(
    "--jobs", type=click.IntRange(1), default=None, help="Processes (default: all cores)."
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[ADDRESS]",
    help="Play the matches as Ray tasks: on the cluster at ADDRESS, or on a Ray started"
    " here with --jobs CPUs (pip install 'riichi[ray]').",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write every match's record here.",
)
def arena_command(
    bot_list: str | None,
    timeout: float,
    games: int,
    rules_name: str,
    length: str | None,
    seed: int,
    duplicate: bool,
    jobs: int | None,
    ray_address: str | None,
    out: Path | None,
) -> None:
    """Play GAMES matches between the bots and print a table per bot (95% intervals)."""
    rules = rules_with_length(rules_name, length)
    players = rules.players
    bots = bot_names(bot_list, players, DEFAULT_BOTS)
    work = tasks(bots, games, rules.name, seed, duplicate, length, timeout)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    results = []
    with tqdm(total=len(work), unit="match", disable=None) as bar:
        played = run(work, jobs or os.cpu_count() or 1, bar.update, ray_address)
        for index, (seats, record) in enumerate(played):
            results.append(seats)
            if out is not None and record is not None:
                (out / f"match-{index}.json").write_text(json.dumps(record))
    stats = summarise(results)
    click.echo(
        f"{plural(len(work), 'match', 'matches')} under {rules.name}"
        + (" (duplicate)" if duplicate else "")
    )
    click.echo(f"{'bot':<18}" + "".join(f"{c:>18}" for c in COLUMNS))
    for name in sorted(stats, key=lambda b: stats[b].mean_place()[0]):
        row = stats[name].table_row(players)
        cells = []
        for column in COLUMNS:
            value, half = row[column]
            if column in ("avg place",):
                cells.append(f"{value:.3f} ± {half:.3f}")
            elif column == "avg score":
                cells.append(f"{value:.0f} ± {half:.0f}")
            else:
                cells.append(f"{value:.1%} ± {half:.1%}")
        click.echo(f"{name:<18}" + "".join(f"{c:>18}" for c in cells))
