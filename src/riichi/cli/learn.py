"""``riichi learn``: the learned player's self-play data, training and rounds.

``riichi learn round`` is one round of learning from nothing or from the last
round: self-play data from the current best bot (``expert`` in round 0, then the
last round's network), a network trained on it (round 0: the policy learns expert's
choices and the value heads what followed; later rounds: the policy learns the
options the previous network's value heads rate best), then a duplicate arena of the
new network against ``expert`` on walls no round trains on, logged with the round's
positions and times to ``ROUNDS/rounds.jsonl``. Each step is seeded: the same
command gives the same weights.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import statistics
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import click
import numpy as np
from tqdm import tqdm

from riichi.bots import LEARNED_PREFIX
from riichi.bots.arena import run, tasks
from riichi.bots.features import OPTIONS
from riichi.bots.human import Agreement, agreement, split, write_human
from riichi.bots.improve import DOUBT, pair_shards, write_pairs
from riichi.bots.network import HEADS, WEIGHTS, Network
from riichi.bots.training import (
    DECAY,
    Data,
    best_margin,
    load_data,
    margin_gains,
    shards,
    train,
    value_targets,
    write_data,
)
from riichi.cli.options import OptionError, bot_names
from riichi.rules import Length

# Seeds: data rounds draw matches from DATA_SEEDS + round * ROUND_SPAN, the arena's
# walls from ARENA_SEEDS on, which no round's data reaches.
DATA_SEEDS = 50_000_000
ROUND_SPAN = 1_000_000
ARENA_SEEDS = 90_000_000
IMPROVE_SEEDS = 900_000_000  # the learned player's own matches, improving it


@click.group("learn")
def learn_command() -> None:
    """Train the learned player by self-play (data, training, rounds)."""


TRUTH = click.option(
    "--truth",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="The chance a decision's options are each played out on the true walls"
    " (the edge head's labels; each costs a hand's play an option).",
)


FOLDER = click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("learn"),
    show_default=True,
    help="Where the rounds' data, weights and log are kept.",
)
CORPUS = click.option(
    "--corpus",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("../shared/corpus"),
    show_default=True,
    help="The recorded games: people's to learn from and the held-out ones to measure on.",
)
HEADS_OPTION = click.option(
    "--heads",
    type=click.IntRange(3, HEADS),
    default=HEADS,
    show_default=True,
    help="3: without the edge head, as rounds 0 to 2 were trained.",
)


def _jobs(jobs: int | None) -> int:
    return jobs or os.cpu_count() or 1


@learn_command.command("data")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("--matches", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=DATA_SEEDS, show_default=True)
@click.option("--per-shard", type=click.IntRange(1), default=20, show_default=True)
@click.option("--epsilon", type=click.FloatRange(0, 1), default=0.1, show_default=True)
@click.option(
    "--weights",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The network that plays (default: expert plays).",
)
@click.option("--rules", "rules_name", default="online", show_default=True)
@click.option(
    "--jobs", type=click.IntRange(1), default=None, help="Processes (default: all cores)."
)
@TRUTH
def data_command(
    out: Path,
    matches: int,
    seed: int,
    per_shard: int,
    epsilon: float,
    weights: Path | None,
    rules_name: str,
    jobs: int | None,
    truth: float,
) -> None:
    """Self-play positions, a compressed shard per PER_SHARD matches."""
    written = _data(out, matches, seed, per_shard, epsilon, weights, rules_name, _jobs(jobs), truth)
    click.echo(f"{written} positions from {matches} matches in {out}")


def _data(
    out: Path,
    matches: int,
    seed: int,
    per_shard: int,
    epsilon: float,
    weights: Path | None,
    rules: str,
    jobs: int,
    truth: float = 0.0,
) -> int:
    todo = shards(
        out, seed, matches, per_shard, epsilon=epsilon, weights=weights, rules=rules, truth=truth
    )
    with tqdm(total=matches, unit="match", desc="self-play", disable=None) as bar:
        return write_data(todo, jobs, bar.update)


def _train(
    data: Data,
    seed: int,
    epochs: int,
    previous: Network | None,
    margin: float,
    targets: np.ndarray | None = None,
    start: Network | None = None,
    rate: float = 1e-3,
    policy_only: bool = False,
    heads: int = HEADS,
    decay: float = DECAY,
    average: float = 0.0,
    improve: float = 0.0,
) -> tuple[Network, list[dict[str, float]]]:
    if targets is None:
        targets = data.chosen.astype("int64")
    if previous is not None:
        targets = value_targets(data, previous, margin)
        click.echo(
            f"the value heads move {float((targets != data.chosen).mean()):.1%} of the"
            f" decisions (margin {margin:g})"
        )
    epoch = itertools.count(1)

    def progress(batches: Iterator[int], total: int) -> Iterator[int]:
        bar = tqdm(batches, total=total, unit="batch", desc=f"epoch {next(epoch)}", disable=None)
        return iter(bar)

    network, steps = train(
        data,
        targets,
        seed,
        epochs,
        rate=rate,
        start=start,
        progress=progress,
        policy_only=policy_only,
        heads=heads,
        decay=decay,
        average=average,
        improve=improve,
    )
    # positions played out teach the policy when improving, not an edge head's margin
    gains = [] if improve else margin_gains(data, network)
    if gains:
        network.margin = best_margin(gains)
        click.echo("held-out played-out decisions: the edge head's gain over expert's choice")
        for g in gains:
            click.echo(
                f"  margin {g.margin:4.2f}: leaves expert {g.left:6d} of {g.decisions},"
                f" {1000 * g.gain:+7.1f} ± {1000 * g.half:5.1f} points a decision"
            )
        click.echo(f"plays at margin {network.margin:g}")
    return network, [vars(s) for s in steps]


@learn_command.command("train")
@click.argument(
    "folders", nargs=-1, required=True, type=click.Path(file_okay=False, path_type=Path)
)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--epochs", type=click.IntRange(1), default=3, show_default=True)
@click.option(
    "--previous",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Learn the options this network's value heads rate best.",
)
@click.option(
    "--margin",
    type=float,
    default=0.5,
    show_default=True,
    help="Thousands of points an option must be rated above the bot's.",
)
@HEADS_OPTION
def train_command(
    folders: tuple[Path, ...],
    out: Path,
    seed: int,
    epochs: int,
    previous: Path | None,
    margin: float,
    heads: int,
) -> None:
    """Train a network on the shards under FOLDERS."""
    data = load_data(folders)
    rater = None if previous is None else Network.load(previous)
    network, steps = _train(data, seed, epochs, rater, margin, heads=heads)
    network.save(out)
    for step in steps:
        click.echo(json.dumps(step))


def arena_against(
    weights: Path, walls: int, seed: int, jobs: int, against: str = "expert"
) -> dict[str, float]:
    """Two learned players against two of ``against`` on ``walls`` walls in all six
    seatings: each bot's average place, and the learned player's lead by wall with its
    95% interval. Against ``learned`` (the shipped weights) the other side's place is
    ``shipped_place``."""
    spec = f"learned:{weights.resolve()}"
    work = tasks([spec, against, spec, against], walls, "online", seed, duplicate=True)
    by_wall: dict[int, list[float]] = {}
    other = "shipped" if against == "learned" else against
    places: dict[str, list[int]] = {"learned": [], other: []}
    with tqdm(total=len(work), unit="hanchan", desc="arena", disable=None) as bar:
        for task, (seats, _) in zip(work, run(work, jobs, bar.update), strict=True):
            for seat in seats:
                ours = seat.bot == spec  # told apart by the seat's bot, never by a name
                places["learned" if ours else other].append(seat.place)
                sign = -1 if ours else 1
                by_wall.setdefault(task.seed, []).append(sign * seat.place / 2)
    leads = [sum(v) / (len(v) / 4) for v in by_wall.values()]
    lead = statistics.fmean(leads)
    half = 1.96 * statistics.stdev(leads) / len(leads) ** 0.5 if len(leads) > 1 else 0.0
    return {
        "hanchans": len(work),
        "learned_place": statistics.fmean(places["learned"]),
        f"{other}_place": statistics.fmean(places[other]),
        "lead": lead,
        "lead_95": half,
    }


def _logged(folder: Path, entry: Mapping[str, object], ship: Path | None) -> None:
    """Append a round's entry to ``rounds.jsonl`` and print it; ``ship``: the weights
    to copy into the package."""
    with (folder / "rounds.jsonl").open("a") as log:
        log.write(json.dumps(entry) + "\n")
    if ship is not None:
        shutil.copy(ship, WEIGHTS)
    click.echo(json.dumps(entry))


@learn_command.command("round")
@click.argument("number", type=click.IntRange(0))
@FOLDER
@click.option("--matches", type=click.IntRange(1), default=2000, show_default=True)
@click.option("--epsilon", type=click.FloatRange(0, 1), default=0.1, show_default=True)
@click.option("--epochs", type=click.IntRange(1), default=3, show_default=True)
@click.option("--margin", type=float, default=0.5, show_default=True)
@click.option(
    "--walls",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help="Arena walls (x6 seatings) against expert.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None)
@click.option("--ship", is_flag=True, help="Copy the round's weights into the package.")
@click.option(
    "--from",
    "start_from",
    type=click.IntRange(0),
    default=None,
    help="The round whose network plays the data (default: the one before).",
)
@click.option(
    "--reuse",
    multiple=True,
    type=click.IntRange(0),
    help="Train on this earlier round's data instead of playing new (repeatable).",
)
@TRUTH
@HEADS_OPTION
@click.option(
    "--value-first",
    is_flag=True,
    help="Rate the options by value heads trained first on this round's data, not by the"
    " network the data came from.",
)
def round_command(
    number: int,
    folder: Path,
    matches: int,
    epsilon: float,
    epochs: int,
    margin: float,
    walls: int,
    seed: int,
    jobs: int | None,
    ship: bool,
    start_from: int | None,
    reuse: tuple[int, ...],
    truth: float,
    heads: int,
    value_first: bool,
) -> None:
    """Round NUMBER: data from the best bot so far, a network trained on it, its arena."""
    cores = _jobs(jobs)
    base = number - 1 if start_from is None else start_from
    previous = folder / f"round-{base}.npz" if number else None
    if previous is not None and not previous.exists():
        raise click.UsageError(f"round {number} starts from {previous}, which is not there")
    started = time.perf_counter()
    if reuse:
        folders = [folder / f"data-{r}" for r in reuse]
        positions = 0
    else:
        data_dir = folder / f"data-{number}"
        if data_dir.exists():
            shutil.rmtree(data_dir)
        positions = _data(
            data_dir,
            matches,
            DATA_SEEDS + number * ROUND_SPAN,
            20,
            epsilon,
            previous,
            "online",
            cores,
            truth,
        )
        folders = [data_dir]
    self_play = time.perf_counter() - started
    data = load_data(folders)
    positions = positions or len(data)
    begun = time.perf_counter()
    # played-out data teach the edge head, and the policy keeps expert's choices
    played_out = not np.isnan(data.truth[:, 0]).all()
    rater = None if previous is None or played_out else Network.load(previous)
    if value_first and not played_out:  # value heads of this data's own, early-stopped
        rater, _ = _train(data, seed + number, epochs, None, margin, heads=heads)
    network, steps = _train(data, seed + number, epochs, rater, margin, heads=heads)
    training = time.perf_counter() - begun
    weights = folder / f"round-{number}.npz"
    network.save(weights)
    arena = arena_against(weights, walls, ARENA_SEEDS, cores)
    entry = {
        "round": number,
        "data": [str(f) for f in folders],
        "from": None if previous is None else str(previous),
        "margin": margin,
        "value_first": value_first,
        "truth": truth,
        "played_margin": network.margin,
        "matches": matches if not reuse else None,
        "positions": positions,
        "self_play_s": round(self_play),
        "training_s": round(training),
        "epochs": steps,
        **arena,
    }
    _logged(folder, entry, weights if ship else None)


def _policy_from(
    start_from: Path,
    data: Data,
    seed: int,
    epochs: int,
    rate: float,
    decay: float,
    average: float,
    improve: float = 0.0,
) -> tuple[Network, list[dict[str, float]], float]:
    """The network at ``start_from`` with its policy taught ``data`` (the policy head
    alone learning, its choices the targets; ``improve``: the pairs' step); the steps
    and the seconds training took."""
    begun = time.perf_counter()
    start = Network.load(start_from)
    start.margin = None  # the policy plays
    network, steps = _train(
        data,
        seed,
        epochs,
        None,
        0.0,
        data.taken.astype("int64"),
        start=start,
        rate=rate,
        policy_only=True,
        decay=decay,
        average=average,
        improve=improve,
    )
    return network, steps, time.perf_counter() - begun


def _agreement(held: Sequence[Path], network: Network) -> Agreement:
    """How often the network's first choice, and expert's, was the person's in the
    held-out games."""
    with tqdm(total=len(held), unit="game", desc="agreement", disable=None) as bar:
        return agreement(held, network, bar.update)


@learn_command.command("human")
@CORPUS
@FOLDER
@click.option(
    "--from",
    "start_from",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=Path("learn/round-0.npz"),
    show_default=True,
    help="The network the policy starts from (round 0's plays expert's choices).",
)
@click.option("--epochs", type=click.IntRange(1), default=4, show_default=True)
@click.option("--rate", type=float, default=3e-4, show_default=True)
@click.option("--decay", type=float, default=DECAY, show_default=True, help="Weight decay.")
@click.option(
    "--average",
    type=click.FloatRange(0.0, 1.0, max_open=True),
    default=0.0,
    show_default=True,
    help="Keep a moving average of the weights with this decay a step (0: the weights).",
)
@click.option("--walls", type=click.IntRange(0), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None)
@click.option(
    "--swap/--no-swap",
    default=True,
    show_default=True,
    help="Learn each four-player position with its suits traded six ways.",
)
@click.option(
    "--mirror/--no-mirror",
    default=False,
    show_default=True,
    help="Learn each position again with its ranks read from 9 down.",
)
@click.option(
    "--options",
    "width",
    type=click.IntRange(2, 16),
    default=OPTIONS,
    show_default=True,
    help="How many of expert's best options a position keeps and the network weighs.",
)
@click.option("--reuse", is_flag=True, help="Train on the positions DIR already holds.")
@click.option("--ship", is_flag=True, help="Copy the weights into the package.")
def human_command(
    corpus: Path,
    folder: Path,
    start_from: Path,
    epochs: int,
    rate: float,
    decay: float,
    average: float,
    walls: int,
    seed: int,
    jobs: int | None,
    swap: bool,
    mirror: bool,
    width: int,
    reuse: bool,
    ship: bool,
) -> None:
    """The policy taught what people played in the corpus' games (riichi.bots.human):
    their positions, a network trained on them from START_FROM, its top-choice match
    on the held-out Phoenix games against expert's, and its arena against expert."""
    cores = _jobs(jobs)
    games = split(corpus.resolve())
    click.echo(f"{len(games.learn)} games to learn from, {len(games.held)} held out")
    started = time.perf_counter()
    data_dir = folder / "data-human"
    positions = left_out = 0
    if not reuse:
        if data_dir.exists():
            shutil.rmtree(data_dir)
        with tqdm(total=len(games.learn), unit="game", desc="positions", disable=None) as bar:
            positions, left_out = write_human(
                games.learn, data_dir, cores, bar.update, swap, width, mirror
            )
        click.echo(f"{positions} positions; {left_out} decisions played none of expert's best")
    gathered = time.perf_counter() - started
    data = load_data([data_dir])
    network, steps, training = _policy_from(start_from, data, seed, epochs, rate, decay, average)
    weights = folder / "human.npz"
    network.save(weights)
    agreed = _agreement(games.held, network)
    click.echo(
        f"held-out Phoenix decisions: {agreed.decisions}; first choice is the person's:"
        f" expert {agreed.expert / max(1, agreed.decisions):.1%},"
        f" learned {agreed.learned / max(1, agreed.decisions):.1%}"
    )
    arena = arena_against(weights, walls, ARENA_SEEDS, cores) if walls else {}
    entry = {
        "round": "human",
        "data": [str(data_dir)],
        "from": str(start_from),
        "games": len(games.learn),
        "held_games": len(games.held),
        "positions": positions,
        "rows": len(data),
        "swap": swap,
        **({"mirror": True} if mirror else {}),
        "options": data.width,
        "policy_only": True,
        "rate": rate,
        "decay": decay,
        **({"average": average} if average else {}),
        "left_out": left_out,
        "gather_s": round(gathered),
        "training_s": round(training),
        "epochs": steps,
        **agreed.to_dict(),
        **arena,
    }
    _logged(folder, entry, weights if ship else None)


@learn_command.command("improve")
@CORPUS
@FOLDER
@click.option(
    "--from",
    "start_from",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=WEIGHTS,
    show_default=True,
    help="The network that plays and is improved (the shipped one by default).",
)
@click.option(
    "--people",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("learn/data-human"),
    show_default=True,
    help="People's positions (written by `riichi learn human`), learned beside the pairs.",
)
@click.option("--matches", type=click.IntRange(1), default=100, show_default=True)
@click.option(
    "--length",
    type=click.Choice([length.value for length in Length]),
    default=None,
    help="The matches' length (default: the online preset's, a hanchan).",
)
@click.option("--seed", type=int, default=IMPROVE_SEEDS, show_default=True)
@click.option(
    "--doubt",
    type=click.FloatRange(0, 0.5),
    default=DOUBT,
    show_default=True,
    help="Play out the network's two best options where the second is this likely.",
)
@click.option(
    "--improve",
    "weight",
    type=click.FloatRange(0, min_open=True),
    default=1.0,
    show_default=True,
    help="The weight of the step toward the better option of a pair.",
)
@click.option("--epochs", type=click.IntRange(1), default=1, show_default=True)
@click.option("--rate", type=float, default=1e-4, show_default=True)
@click.option("--decay", type=float, default=3e-3, show_default=True, help="Weight decay.")
@click.option("--average", type=click.FloatRange(0.0, 1.0, max_open=True), default=0.999)
@click.option("--walls", type=click.IntRange(0), default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=None)
@click.option("--reuse", is_flag=True, help="Train on the pairs DIR already holds.")
@click.option("--ship", is_flag=True, help="Copy the weights into the package.")
def improve_command(
    corpus: Path,
    folder: Path,
    start_from: Path,
    people: Path,
    matches: int,
    length: str | None,
    seed: int,
    doubt: float,
    weight: float,
    epochs: int,
    rate: float,
    decay: float,
    average: float,
    walls: int,
    jobs: int | None,
    reuse: bool,
    ship: bool,
) -> None:
    """The network START_FROM improved on its own play (riichi.bots.improve): matches of
    four learned players, the network's two best options played out where it
    hesitates, then the network trained on those pairs beside people's positions;
    the held-out people's match and an arena against expert."""
    cores = _jobs(jobs)
    pairs_dir = folder / "data-pairs"
    started = time.perf_counter()
    written = 0
    if not reuse:
        if pairs_dir.exists():
            shutil.rmtree(pairs_dir)
        todo = pair_shards(pairs_dir, matches, seed, start_from.resolve(), doubt, length)
        with tqdm(total=len(todo), unit="match", desc="pairs", disable=None) as bar:
            written = write_pairs(todo, cores, bar.update)
        click.echo(f"{written} pairs played out in {matches} matches")
    played = time.perf_counter() - started
    data = load_data([people, pairs_dir])
    network, steps, training = _policy_from(
        start_from, data, 0, epochs, rate, decay, average, weight
    )
    weights = folder / "improved.npz"
    network.save(weights)
    agreed = _agreement(split(corpus.resolve()).held, network)
    arena = arena_against(weights, walls, ARENA_SEEDS, cores) if walls else {}
    entry = {
        "round": "improve",
        "from": str(start_from),
        "people": str(people),
        "matches": matches,
        **({"length": length} if length else {}),
        "seed": seed,
        "doubt": doubt,
        **({"pairs": written} if not reuse else {}),
        "pair_rows": int(((~np.isnan(data.truth)).sum(axis=1) >= 2).sum()),  # with copies
        "rows": len(data),
        "improve": weight,
        "rate": rate,
        "decay": decay,
        "average": average,
        "self_play_s": round(played),
        "training_s": round(training),
        "epochs": steps,
        **agreed.to_dict(),
        **arena,
    }
    _logged(folder, entry, weights if ship else None)


@learn_command.command("arena")
@click.argument(
    "weights", type=click.Path(dir_okay=False, exists=True, path_type=Path), default=WEIGHTS
)
@click.option("--against", default="expert", show_default=True, help="The other two seats' bot.")
@click.option("--walls", type=click.IntRange(2), default=334, show_default=True)
@click.option("--seed", type=int, required=True, help="The first wall's seed: walls no step used.")
@click.option("--jobs", type=click.IntRange(1), default=None)
def arena_command(weights: Path, against: str, walls: int, seed: int, jobs: int | None) -> None:
    """Two learned players (WEIGHTS, the shipped ones by default) against two of
    AGAINST in duplicate, every wall in all six seatings: the average places and the
    learned player's lead by wall with its 95% interval, as one line of JSON."""
    (against,) = bot_names(against, 1, ("expert",), "--against")
    if against.startswith(LEARNED_PREFIX):
        other = Path(against[len(LEARNED_PREFIX) :])
        if other.resolve() == weights.resolve():
            raise OptionError(
                "--against",
                f"{against!r} is WEIGHTS ({weights}) itself: the two sides would be one"
                " player; name other weights, or 'learned' for the shipped ones",
            )
    result = arena_against(weights, walls, seed, _jobs(jobs), against)
    click.echo(json.dumps({"weights": str(weights), "against": against, "seed": seed, **result}))
