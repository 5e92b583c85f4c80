"""Teaching the learned player: self-play data, and the network trained on it.

Data. Four copies of the current best bot (``expert`` before any network, then the
learned player) play seeded matches. At every decision where the network would weigh
options (``features.weighed``) the seat's state and options are kept, with the option
played, whether it was played to explore (with chance ``epsilon`` the seat plays one
of the weighed options at random, from its own seeded stream, so the data hold what
the other options lead to) and, once the match is over, what followed: the seat's
score change over the rest of the hand, its final place and its final points. A
shard of matches is one compressed ``.npz`` file (half-precision features: most are
0 or 1); shards are written by a process pool, each a pure function of its seeds.

Training. Plain numpy (Adam, minibatches, a seeded shuffle): the policy score by
cross-entropy over a decision's options against its target (the option the bot
chose, or the one ``value_targets`` finds a network's value heads rate best by more
than a margin), the two value heads by squared error on the option played; the
epoch kept is the one best on held-out matches. The same data, seed and settings
give the same weights.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.features import (
    OPTION_SIZE,
    OPTIONS,
    STATE_SIZE,
    option_features,
    state_features,
    weighed,
)
from riichi.bots.learned import LearnedBot
from riichi.bots.network import HEADS, Network
from riichi.game import Match, Observation, observe
from riichi.rules import Length, find_ruleset

PLACE_POINTS = 12.0  # a place is worth this many thousand points (as expert weighs it)
HAND_UNIT = 8.0  # the hand head's unit, in thousands of points


@dataclass(frozen=True)
class Shard:
    """Matches ``first`` .. ``first + matches - 1`` of one data round."""

    first: int
    matches: int
    out: Path
    rules: str = "online"
    length: str | None = None
    epsilon: float = 0.1
    weights: Path | None = None  # the network of the bot that plays (None: expert)


Chooser = Callable[[Observation], tuple[Valued, list[Valued]]]


def _chooser(shard: Shard, seat_seed: str) -> Chooser:
    """A seat's choice and the options the network weighs, by the bot that plays."""
    if shard.weights is None:
        bot = ExpertBot(seat_seed)

        def by_expert(obs: Observation) -> tuple[Valued, list[Valued]]:
            options = bot.evaluate(obs)
            return options[0], weighed(options)

        return by_expert
    learned = LearnedBot(seat_seed, weights=shard.weights)

    def by_network(obs: Observation) -> tuple[Valued, list[Valued]]:
        played, kept, _ = learned.choose(obs)
        return played, kept

    return by_network


def play_shard(shard: Shard) -> int:
    """Play a shard's matches and write its positions; how many were written."""
    rules = find_ruleset(shard.rules)
    if shard.length is not None:
        rules = rules.replace(length=Length(shard.length))
    states: list[np.ndarray] = []
    options: list[np.ndarray] = []
    counts: list[int] = []
    taken: list[int] = []
    chosen: list[int] = []
    explored: list[bool] = []
    hand_delta: list[float] = []
    place: list[int] = []
    points: list[float] = []
    match_of: list[int] = []
    for seed in range(shard.first, shard.first + shard.matches):
        match = Match(rules, seed)
        choosers = [_chooser(shard, f"{seed}:{s}") for s in range(rules.players)]
        explore = random.Random(f"explore:{seed}")
        # (seat, the hand's index, the seat's score before it) of each kept decision
        kept_at: list[tuple[int, int, int]] = []
        while not match.over:
            seat = next(iter(match.legal_actions()))
            obs = observe(match, seat)
            played, kept = choosers[seat](obs)
            if kept:
                choice = next(i for i, o in enumerate(kept) if o.action == played.action)
                exploring = explore.random() < shard.epsilon
                pick = explore.randrange(len(kept)) if exploring else choice
                played = kept[pick]
                states.append(state_features(obs).astype(np.float16))
                block = np.zeros((OPTIONS, OPTION_SIZE), np.float16)
                block[: len(kept)] = option_features(obs, kept)
                options.append(block)
                counts.append(len(kept))
                taken.append(pick)
                chosen.append(choice)
                explored.append(exploring)
                kept_at.append((seat, len(match.results), match.scores[seat]))
                match_of.append(seed)
            match.apply(seat, played.action)
        assert match.standings is not None
        by_seat = sorted(match.standings, key=lambda x: x.seat)
        after = _scores_after_each_hand(match)
        for seat, hand, before in kept_at:
            hand_delta.append((after[hand][seat] - before) / 1000)
            place.append(by_seat[seat].place)
            points.append(by_seat[seat].points)
    shard.out.parent.mkdir(parents=True, exist_ok=True)
    with shard.out.open("wb") as f:
        np.savez_compressed(
            f,
            state=np.array(states, np.float16).reshape(-1, STATE_SIZE),
            options=np.array(options, np.float16).reshape(-1, OPTIONS, OPTION_SIZE),
            count=np.array(counts, np.int8),
            taken=np.array(taken, np.int8),
            chosen=np.array(chosen, np.int8),
            explored=np.array(explored, np.bool_),
            hand_delta=np.array(hand_delta, np.float32),
            place=np.array(place, np.int8),
            points=np.array(points, np.float32),
            match=np.array(match_of, np.int32),
        )
    return len(states)


def _scores_after_each_hand(match: Match) -> list[list[int]]:
    """The scores after each hand of a finished match, by the hand's index (sticks
    left on the table at the end go to first as the match settles them)."""
    scores = [match.rules.start_points] * match.rules.players
    out = []
    for result in match.results:
        scores = [a + b for a, b in zip(scores, result.deltas, strict=True)]
        out.append(list(scores))
    return out


def shards(
    out: Path,
    first: int,
    matches: int,
    per_shard: int,
    **options: object,
) -> list[Shard]:
    """A data round's shards: ``matches`` from seed ``first``, ``per_shard`` a file."""
    return [
        Shard(s, min(per_shard, first + matches - s), out / f"shard-{s}.npz", **options)  # type: ignore[arg-type]
        for s in range(first, first + matches, per_shard)
    ]


def write_data(todo: Sequence[Shard], jobs: int, progress: Callable[[int], None]) -> int:
    """Play every shard on ``jobs`` processes; positions written (``progress`` is told
    each shard's matches as it lands)."""
    total = 0
    if jobs == 1:
        for shard in todo:
            total += play_shard(shard)
            progress(shard.matches)
        return total
    with ProcessPoolExecutor(jobs) as pool:
        for shard, written in zip(todo, pool.map(play_shard, todo), strict=True):
            total += written
            progress(shard.matches)
    return total


# ---------------------------------------------------------------- training


@dataclass
class Data:
    state: np.ndarray  # (N, STATE_SIZE)
    options: np.ndarray  # (N, OPTIONS, OPTION_SIZE)
    count: np.ndarray
    taken: np.ndarray  # the option played
    chosen: np.ndarray  # the option the bot chose (played unless it explored)
    explored: np.ndarray
    hand_delta: np.ndarray
    place: np.ndarray
    points: np.ndarray
    match: np.ndarray  # the match's seed: positions of one match share their outcome

    def __len__(self) -> int:
        return len(self.count)


def load_data(folders: Sequence[Path]) -> Data:
    """Every shard under ``folders``, in file-name order."""
    files = sorted(f for folder in folders for f in folder.glob("shard-*.npz"))
    if not files:
        raise ValueError(f"no shard-*.npz under {', '.join(map(str, folders))}")
    parts: dict[str, list[np.ndarray]] = {}
    for f in files:
        with np.load(f) as data:
            for key in Data.__dataclass_fields__:
                parts.setdefault(key, []).append(data[key])
    return Data(**{k: np.concatenate(v) for k, v in parts.items()})


def value_targets(data: Data, network: Network, margin: float, batch: int = 4096) -> np.ndarray:
    """The option each decision should have played by ``network``'s value heads: the one
    whose expected hand result less its expected place (weighed at ``PLACE_POINTS``)
    beats the bot's by more than ``margin`` thousand points, else the bot's."""
    out = data.chosen.astype(np.int64).copy()
    for start in range(0, len(data), batch):
        worth = _worth(network, data, slice(start, start + batch))
        n = len(worth)
        played = worth[np.arange(n), out[start : start + n]]
        best = worth.argmax(axis=1)
        better = worth[np.arange(n), best] > played + margin
        out[start : start + n] = np.where(better, best, out[start : start + n])
    return out


def heads_of(network: Network, data: Data, rows: slice | np.ndarray) -> np.ndarray:
    """The network's heads for the positions ``rows``, by position and option."""
    return network.forward(inputs_of(data, rows))[0].reshape(-1, OPTIONS, HEADS)


def _worth(network: Network, data: Data, rows: slice) -> np.ndarray:
    heads = heads_of(network, data, rows)
    worth = HAND_UNIT * heads[:, :, 1] - PLACE_POINTS * heads[:, :, 2]
    mask = np.arange(OPTIONS)[None, :] < data.count[rows][:, None]
    return np.where(mask, worth, -np.inf)


def inputs_of(data: Data, rows: slice | np.ndarray) -> np.ndarray:
    """The network's input rows for the positions ``rows``: each state beside each of
    its option slots."""
    state = data.state[rows].astype(np.float32)
    options = data.options[rows].astype(np.float32)
    n = len(state)
    joined = np.concatenate(
        [np.broadcast_to(state[:, None, :], (n, OPTIONS, STATE_SIZE)), options], axis=2
    )
    return joined.reshape(n * OPTIONS, -1)


@dataclass
class Step:
    epoch: int
    policy_loss: float
    hand_loss: float
    place_loss: float
    agreement: float  # the policy's first choice is the target's
    # the same on the held-out matches (every HOLD_OUT-th seed), which choose the epoch
    # kept: positions of one match share its final place, so the training set's
    # losses alone reward remembering matches
    held_policy: float = 0.0
    held_hand: float = 0.0
    held_place: float = 0.0


HOLD_OUT = 10
DECAY = 1e-4  # weight decay on the layers' weights


def train(
    data: Data,
    targets: np.ndarray,
    seed: int,
    epochs: int = 4,
    batch: int = 256,
    rate: float = 1e-3,
    start: Network | None = None,
    progress: Callable[[Iterator[int], int], Iterator[int]] = lambda it, n: it,
) -> tuple[Network, list[Step]]:
    """Adam (with weight decay) on the three heads, on every match but the held-out
    ones; the network of the epoch whose held-out losses were lowest, and each
    epoch's losses."""
    net = start or Network.fresh(seed)
    params = net.params()
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    shuffle = np.random.default_rng(seed)
    steps = 0
    log: list[Step] = []
    mask_all = np.arange(OPTIONS)[None, :] < data.count[:, None]
    held = data.match % HOLD_OUT == 0
    if held.all() or not held.any():  # too few matches to hold any out
        held = np.zeros(len(data), dtype=bool)
    learn_on, check_on = np.flatnonzero(~held), np.flatnonzero(held)
    best: tuple[float, dict[str, np.ndarray]] | None = None
    for epoch in range(epochs):
        order = learn_on[shuffle.permutation(len(learn_on))]
        sums = np.zeros(4)
        seen = 0
        batches = range(0, len(order), batch)
        for begin in progress(iter(batches), len(batches)):
            idx = np.sort(order[begin : begin + batch])
            losses, grads = _gradients(net, data, idx, targets[idx], mask_all[idx])
            steps += 1
            for key in ("w1", "w2", "w3"):
                grads[key] = grads[key] + DECAY * params[key]
            for key, grad in grads.items():
                m, v = moments[key]
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                m_hat = m / (1 - 0.9**steps)
                v_hat = v / (1 - 0.999**steps)
                params[key] -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
            sums += np.array(losses) * len(idx)
            seen += len(idx)
        policy, hand, place, agree = sums / seen
        step = Step(epoch, float(policy), float(hand), float(place), float(agree))
        if len(check_on):
            checked = np.zeros(4)
            for begin in range(0, len(check_on), 4096):
                idx = check_on[begin : begin + 4096]
                losses, _ = _gradients(net, data, idx, targets[idx], mask_all[idx], False)
                checked += np.array(losses) * len(idx)
            step.held_policy, step.held_hand, step.held_place, _ = checked / len(check_on)
            total = step.held_policy + step.held_hand + step.held_place
            if best is None or total < best[0]:
                best = (total, {k: v.copy() for k, v in params.items()})
        log.append(step)
    if best is not None:
        for key, value in best[1].items():
            params[key][...] = value
    return net, log


def _gradients(
    net: Network,
    data: Data,
    idx: np.ndarray,
    target: np.ndarray,
    mask: np.ndarray,
    backward: bool = True,
) -> tuple[tuple[float, float, float, float], dict[str, np.ndarray]]:
    """The losses at the positions ``idx`` and, with ``backward``, their gradients."""
    n = len(idx)
    x = inputs_of(data, idx)
    out, h1, h2 = net.forward(x)
    out = out.reshape(n, OPTIONS, HEADS)
    # policy: softmax over the decision's options
    logits = np.where(mask, out[:, :, 0], -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    rows = np.arange(n)
    policy_loss = float(-np.log(p[rows, target] + 1e-12).mean())
    agree = float((logits.argmax(axis=1) == target).mean())
    d_out = np.zeros_like(out)
    d_out[:, :, 0] = p
    d_out[rows, target, 0] -= 1.0
    d_out[:, :, 0] *= mask / n
    # value heads on the option played
    played = data.taken[idx].astype(np.int64)
    hand_err = out[rows, played, 1] - data.hand_delta[idx] / HAND_UNIT
    place_err = out[rows, played, 2] - data.place[idx]
    losses = (
        policy_loss,
        float((hand_err**2).mean()),
        float((place_err**2).mean()),
        agree,
    )
    if not backward:
        return losses, {}
    d_out[rows, played, 1] = 2 * hand_err / n
    d_out[rows, played, 2] = 2 * place_err / n
    d = d_out.reshape(n * OPTIONS, HEADS)
    grads = {"w3": h2.T @ d, "b3": d.sum(axis=0)}
    d2 = (d @ net.w3.T) * (h2 > 0)
    grads |= {"w2": h1.T @ d2, "b2": d2.sum(axis=0)}
    d1 = (d2 @ net.w2.T) * (h1 > 0)
    grads |= {"w1": x.T @ d1, "b1": d1.sum(axis=0)}
    return losses, grads


__all__ = [
    "PLACE_POINTS",
    "Data",
    "Shard",
    "Step",
    "heads_of",
    "inputs_of",
    "load_data",
    "play_shard",
    "shards",
    "train",
    "value_targets",
    "write_data",
]
