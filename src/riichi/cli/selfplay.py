"""``riichi selfplay``: random legal matches, with a summary of how they went."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import click
from tqdm import tqdm

from riichi.cli.options import LENGTHS, rules_with_length
from riichi.game import Action, ActionType, Match
from riichi.rules import Length, find_ruleset

_WINS = (ActionType.TSUMO, ActionType.RON)


def random_choice(rng: random.Random, actions: list[Action]) -> Action:
    """Take a win when there is one, otherwise any legal action, uniformly."""
    for a in actions:
        if a.type in _WINS:
            return a
    return actions[rng.randrange(len(actions))]


def play_random_match(rules_name: str, seed: int, length: str | None = None) -> Match:
    rules = find_ruleset(rules_name)
    if length is not None:
        rules = rules.replace(length=Length(length))
    match = Match(rules, seed)
    rng = random.Random(seed)
    while not match.over:
        seat, actions = next(iter(match.legal_actions().items()))
        match.apply(seat, random_choice(rng, actions))
    return match


@click.command("selfplay")
@click.option("--rules", "rules_name", default="online", show_default=True)
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option(
    "--length",
    type=click.Choice(LENGTHS),
    default=None,
    help="Match length (default: the preset's).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write each game's record here as JSON.",
)
def selfplay_command(
    rules_name: str, games: int, seed: int, length: str | None, out: Path | None
) -> None:
    """Play random legal games and summarise them (hands, wins, draws, aborts)."""
    rules_with_length(rules_name, length)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    ends: Counter[str] = Counter()
    hands = actions = 0
    start = time.perf_counter()
    for game in tqdm(range(seed, seed + games), unit="game", disable=None):
        match = play_random_match(rules_name, game, length)
        hands += len(match.results)
        actions += len(match.actions)
        for r in match.results:
            if r.kind == "win":
                ends["win (double or triple ron)" if len(r.wins) > 1 else "win"] += 1
            elif r.kind == "exhaustive":
                ends["exhaustive draw"] += 1
            else:
                ends[f"abort: {r.abort}"] += 1
        if out is not None:
            (out / f"game-{game}.json").write_text(json.dumps(match.record()))
    elapsed = time.perf_counter() - start
    click.echo(
        f"{games} games under {rules_name}: {hands} hands, {actions} actions,"
        f" {elapsed:.1f} s ({games / elapsed:.1f} games/s)"
    )
    click.echo(f"average game: {hands / games:.1f} hands, {actions / games:.0f} actions")
    for name, count in sorted(ends.items(), key=lambda kv: -kv[1]):
        click.echo(f"  {name:<28} {count:>7}  {count / hands:6.1%}")
