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

from riichi.bots.agent import Bot
from riichi.bots.expert import ExpertBot, Valued
from riichi.bots.features import (
    OPTION_SIZE,
    OPTIONS,
    STATE_SIZE,
    option_features,
    state_features,
    weighed,
)
from riichi.bots.learned import LearnedBot, network_at
from riichi.bots.network import EDGE, EDGE_UNIT, HAND, HEADS, PLACE, POLICY, Network
from riichi.game import Action, Match, Observation, observe
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
    truth: float = 0.0  # the chance a decision's options are each played out (``played_out``)


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


def hand_played_out(match: Match, seat: int, action: Action, bots: Sequence[Bot]) -> list[int]:
    """Each seat's change of score when ``seat`` plays ``action`` and ``bots`` play on
    to the hand's end, on the true walls (a copy of the match)."""
    copy = match.copy()
    before = list(copy.kyoku.scores)
    hand = len(copy.results)
    copy.apply(seat, action)
    while len(copy.results) == hand and not copy.over:
        s = next(iter(copy.legal_actions()))
        copy.apply(s, bots[s].act(observe(copy, s)))
    return [a - b for a, b in zip(copy.scores, before, strict=True)]


def played_out(
    match: Match, obs: Observation, options: Sequence[Valued], bots: Sequence[ExpertBot]
) -> list[float]:
    """What each option is worth to the seat, in thousands of points as expert weighs a
    change of scores (by the places it moves), when it is played and expert plays on
    to the hand's end on the true walls. One world, but the same one for every option:
    the wall's luck is shared, and the differences between options are what is left."""
    assert obs.seat is not None
    judge = bots[obs.seat]
    scene = judge._scene(obs)
    return [
        judge._worth_after(scene, hand_played_out(match, obs.seat, o.action, bots)) / 1000
        for o in options
    ]


def play_shard(shard: Shard) -> int:
    """Play a shard's matches and write its positions; how many were written."""
    rules = find_ruleset(shard.rules)
    if shard.length is not None:
        rules = rules.replace(length=Length(shard.length))
    # the option slots of a position: as many as the playing network weighs
    width = OPTIONS if shard.weights is None else network_at(shard.weights).options
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
    truth: list[np.ndarray] = []
    for seed in range(shard.first, shard.first + shard.matches):
        match = Match(rules, seed)
        choosers = [_chooser(shard, f"{seed}:{s}") for s in range(rules.players)]
        explore = random.Random(f"explore:{seed}")
        labels = random.Random(f"truth:{seed}")  # its own stream: the play is the same
        judges = [ExpertBot(f"{seed}:{s}") for s in range(rules.players)]
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
                block = np.zeros((width, OPTION_SIZE), np.float16)
                block[: len(kept)] = option_features(obs, kept)
                options.append(block)
                counts.append(len(kept))
                taken.append(pick)
                chosen.append(choice)
                explored.append(exploring)
                kept_at.append((seat, len(match.results), match.scores[seat]))
                match_of.append(seed)
                row = np.full(width, np.nan, np.float32)
                if shard.truth and labels.random() < shard.truth:
                    row[: len(kept)] = played_out(match, obs, kept, judges)
                truth.append(row)
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
            options=np.array(options, np.float16).reshape(-1, width, OPTION_SIZE),
            count=np.array(counts, np.int8),
            taken=np.array(taken, np.int8),
            chosen=np.array(chosen, np.int8),
            explored=np.array(explored, np.bool_),
            hand_delta=np.array(hand_delta, np.float32),
            place=np.array(place, np.int8),
            points=np.array(points, np.float32),
            match=np.array(match_of, np.int32),
            truth=np.array(truth, np.float32).reshape(-1, width),
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
    options: np.ndarray  # (N, width, OPTION_SIZE): the option slots of each position
    count: np.ndarray
    taken: np.ndarray  # the option played
    chosen: np.ndarray  # the option the bot chose (played unless it explored)
    explored: np.ndarray
    hand_delta: np.ndarray
    place: np.ndarray
    points: np.ndarray
    match: np.ndarray  # the match's seed: positions of one match share their outcome
    # (N, width): each option played out on the true walls (``played_out``); NaN where
    # it was not (shards written without ``truth`` have none)
    truth: np.ndarray

    def __len__(self) -> int:
        return len(self.count)

    @property
    def width(self) -> int:
        """The option slots of a position (how many of expert's options were kept)."""
        return int(self.options.shape[1])


def load_data(folders: Sequence[Path]) -> Data:
    """Every shard under ``folders``, in file-name order (all of one width)."""
    files = sorted(f for folder in folders for f in folder.glob("shard-*.npz"))
    if not files:
        raise ValueError(f"no shard-*.npz under {', '.join(map(str, folders))}")
    parts: dict[str, list[np.ndarray]] = {}
    for f in files:
        with np.load(f) as data:
            for key in Data.__dataclass_fields__:
                if key == "truth" and key not in data.files:
                    none = np.full(data["options"].shape[:2], np.nan, np.float32)
                    parts.setdefault(key, []).append(none)
                    continue
                parts.setdefault(key, []).append(data[key])
    widths = {part.shape[1] for part in parts["options"]}
    if len(widths) > 1:
        raise ValueError(f"shards of {sorted(widths)} option slots under {folders}: one width")
    sizes = {
        (s.shape[1], o.shape[2]) for s, o in zip(parts["state"], parts["options"], strict=True)
    }
    if sizes != {(STATE_SIZE, OPTION_SIZE)}:
        raise ValueError(
            f"shards under {', '.join(map(str, folders))} hold states and options of"
            f" {sorted(sizes)} numbers; this player reads ({STATE_SIZE}, {OPTION_SIZE}):"
            " gather the positions again (without --reuse)"
        )
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


MARGINS = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)  # thousands of points (``margin_gains``)


@dataclass(frozen=True)
class MarginGain:
    margin: float  # how much better than expert's choice the edge head must rate another
    left: int  # decisions where the network leaves expert's choice
    gain: float  # thousands of points a played-out decision, over expert's choice
    half: float  # the half width of the gain's 95% interval
    decisions: int


def margin_gains(
    data: Data, network: Network, margins: Sequence[float] = MARGINS
) -> list[MarginGain]:
    """What playing by the edge head at each margin is worth, on the held-out matches'
    played-out decisions: the option it plays against expert's, both on the same true
    walls (the luck shared), a decision at a time."""
    rows = np.flatnonzero((data.match % HOLD_OUT == 0) & ~np.isnan(data.truth[:, 0]))
    if not len(rows) or network.heads <= EDGE:
        return []
    edge = EDGE_UNIT * heads_of(network, data, rows)[:, :, EDGE]
    edge = np.where(np.arange(data.width)[None, :] < data.count[rows][:, None], edge, -np.inf)
    best = edge.argmax(axis=1)
    at = np.arange(len(rows))
    lead = edge[at, best] - edge[:, 0]
    truth = data.truth[rows]
    out = []
    for margin in margins:
        pick = np.where(lead > margin, best, 0)
        gains = truth[at, pick] - truth[:, 0]
        half = 1.96 * float(gains.std(ddof=1)) / np.sqrt(len(gains)) if len(gains) > 1 else 0.0
        out.append(MarginGain(margin, int((pick != 0).sum()), float(gains.mean()), half, len(rows)))
    return out


def best_margin(gains: Sequence[MarginGain]) -> float:
    """The margin of the largest gain (the larger margin of equal ones: it leaves expert
    less often); with no played-out decisions held out, the largest margin."""
    if not gains:
        return MARGINS[-1]
    return max(gains, key=lambda g: (g.gain, g.margin)).margin


def heads_of(network: Network, data: Data, rows: slice | np.ndarray) -> np.ndarray:
    """The network's heads for the positions ``rows``, by position and option."""
    return network.forward(inputs_of(data, rows))[0].reshape(-1, data.width, network.heads)


def _worth(network: Network, data: Data, rows: slice) -> np.ndarray:
    heads = heads_of(network, data, rows)
    worth = HAND_UNIT * heads[:, :, HAND] - PLACE_POINTS * heads[:, :, PLACE]
    mask = np.arange(data.width)[None, :] < data.count[rows][:, None]
    return np.where(mask, worth, -np.inf)


def inputs_of(data: Data, rows: slice | np.ndarray) -> np.ndarray:
    """The network's input rows for the positions ``rows``: each state beside each of
    its option slots."""
    state = data.state[rows].astype(np.float32)
    options = data.options[rows].astype(np.float32)
    n = len(state)
    joined = np.concatenate(
        [np.broadcast_to(state[:, None, :], (n, data.width, STATE_SIZE)), options], axis=2
    )
    return joined.reshape(n * data.width, -1)


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
    edge_loss: float = 0.0
    held_policy: float = 0.0
    held_hand: float = 0.0
    held_place: float = 0.0
    held_edge: float = 0.0


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
    policy_only: bool = False,
    heads: int = HEADS,
    decay: float = DECAY,
    average: float = 0.0,
    improve: float = 0.0,
) -> tuple[Network, list[Step]]:
    """Adam (with weight decay) on the heads, on every match but the held-out ones; the
    network of the epoch whose held-out losses were lowest, and each epoch's losses.
    With ``policy_only`` the policy head alone learns and chooses the epoch: on a few
    hundred people's games the value heads learn the games' outcomes by heart (their
    held-out losses rise from the first epoch) and would shape the hidden layers to.
    With ``average`` (a decay such as 0.999) the weights checked, kept and returned are
    a moving average of each step's: on few data the steps wander about a minimum, and
    their average lies nearer it than any one of them. With ``improve`` (a weight) the
    positions with two or more options played out (``riichi.bots.improve``) move the
    policy toward the better of them instead of teaching it a choice; the held-out
    losses are the other positions'."""
    net = start or Network.fresh(seed, heads=heads)
    net.options = data.width  # it weighs as many options as it learned from
    params = net.params()
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    averaged = {k: v.copy() for k, v in params.items()} if average else None
    shuffle = np.random.default_rng(seed)
    steps = 0
    log: list[Step] = []
    mask_all = np.arange(data.width)[None, :] < data.count[:, None]
    held = data.match % HOLD_OUT == 0
    if held.all() or not held.any():  # too few matches to hold any out
        held = np.zeros(len(data), dtype=bool)
    learn_on, check_on = np.flatnonzero(~held), np.flatnonzero(held)
    if improve:
        check_on = check_on[~_paired(data, check_on, mask_all[check_on])]
    best: tuple[float, dict[str, np.ndarray]] | None = None
    for epoch in range(epochs):
        order = learn_on[shuffle.permutation(len(learn_on))]
        sums = np.zeros(5)
        seen = 0
        batches = range(0, len(order), batch)
        for begin in progress(iter(batches), len(batches)):
            idx = np.sort(order[begin : begin + batch])
            losses, grads = _gradients(
                net, data, idx, targets[idx], mask_all[idx], values=not policy_only, improve=improve
            )
            steps += 1
            for key in ("w1", "w2", "w3"):
                grads[key] = grads[key] + decay * params[key]
            if policy_only:  # the other heads' own weights stay as they were
                grads["w3"][:, POLICY + 1 :] = 0.0
                grads["b3"][POLICY + 1 :] = 0.0
            for key, grad in grads.items():
                m, v = moments[key]
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                m_hat = m / (1 - 0.9**steps)
                v_hat = v / (1 - 0.999**steps)
                params[key] -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
            if averaged is not None:
                for key, value in averaged.items():
                    value *= average
                    value += (1 - average) * params[key]
            sums += np.array(losses) * len(idx)
            seen += len(idx)
        policy, hand, place, agree, edge = sums / seen
        step = Step(epoch, float(policy), float(hand), float(place), float(agree), float(edge))
        walked = _swapped(params, averaged)  # the average is what is checked and kept
        if len(check_on):
            checked = np.zeros(5)
            for begin in range(0, len(check_on), 4096):
                idx = check_on[begin : begin + 4096]
                losses, _ = _gradients(net, data, idx, targets[idx], mask_all[idx], False)
                checked += np.array(losses) * len(idx)
            held = checked / len(check_on)
            step.held_policy, step.held_hand, step.held_place, _, step.held_edge = held
            total = step.held_policy + step.held_hand + step.held_place + step.held_edge
            if policy_only:
                total = step.held_policy
            if best is None or total < best[0]:
                best = (total, {k: v.copy() for k, v in params.items()})
        _swapped(params, walked)
        log.append(step)
    if averaged is not None and best is None:
        best = (0.0, averaged)
    if best is not None:
        for key, value in best[1].items():
            params[key][...] = value
    return net, log


def _paired(data: Data, idx: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Which of the positions ``idx`` have two or more options played out."""
    return np.asarray((mask & ~np.isnan(data.truth[idx])).sum(axis=1) >= 2)


def _swapped(
    params: dict[str, np.ndarray], other: dict[str, np.ndarray] | None
) -> dict[str, np.ndarray] | None:
    """``other``'s values put in ``params`` in place; what ``params`` held (None, and
    nothing changed, without ``other``)."""
    if other is None:
        return None
    held = {k: v.copy() for k, v in params.items()}
    for key, value in other.items():
        params[key][...] = value
    return held


def _gradients(
    net: Network,
    data: Data,
    idx: np.ndarray,
    target: np.ndarray,
    mask: np.ndarray,
    backward: bool = True,
    values: bool = True,
    improve: float = 0.0,
) -> tuple[tuple[float, float, float, float, float], dict[str, np.ndarray]]:
    """The losses at the positions ``idx`` and, with ``backward``, their gradients (of
    the value heads' losses too, with ``values``; with ``improve``, the policy's at the
    positions played out is the step toward the better option, of that weight)."""
    n = len(idx)
    x = inputs_of(data, idx)
    out, h1, h2 = net.forward(x)
    out = out.reshape(n, data.width, net.heads)
    # policy: softmax over the decision's options
    logits = np.where(mask, out[:, :, POLICY], -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    rows = np.arange(n)
    paired = _paired(data, idx, mask) if improve else np.zeros(n, dtype=bool)
    taught = ~paired  # the positions whose target is a choice
    m = max(1, int(taught.sum()))
    policy_loss = float(-(np.log(p[rows, target] + 1e-12) * taught).sum() / m)
    agree = float(((logits.argmax(axis=1) == target) & taught).sum() / m)
    d_out = np.zeros_like(out)
    d_out[:, :, POLICY] = p
    d_out[rows, target, POLICY] -= 1.0
    d_out[:, :, POLICY] *= mask * taught[:, None] / n
    if paired.any():
        # the policy over the options played out, and its expected worth's gradient
        labelled = mask & ~np.isnan(data.truth[idx]) & paired[:, None]
        own = np.where(labelled, logits, -1e9)
        q = np.exp(own - own.max(axis=1, keepdims=True)) * labelled
        q /= np.maximum(q.sum(axis=1, keepdims=True), 1e-12)
        worth = np.where(labelled, data.truth[idx], 0.0)
        expected = (q * worth).sum(axis=1, keepdims=True)
        d_out[:, :, POLICY] -= improve * q * (worth - expected) / n
    # value heads on the option played
    played = data.taken[idx].astype(np.int64)
    hand_err = out[rows, played, HAND] - data.hand_delta[idx] / HAND_UNIT
    place_err = out[rows, played, PLACE] - data.place[idx]
    edge_loss = 0.0
    if net.heads > EDGE and not improve:  # the worths played out teach the policy instead
        # the edge: each option over the decision's average, against the same of the
        # options played out; both centred, so the wall's shared luck drops out
        labelled = mask & ~np.isnan(data.truth[idx])
        weight = labelled.astype(np.float32)
        counted = np.maximum(weight.sum(axis=1, keepdims=True), 1.0)
        truth = np.where(labelled, data.truth[idx], 0.0) / EDGE_UNIT
        edge = out[:, :, EDGE] * weight
        miss = (edge - edge.sum(axis=1, keepdims=True) / counted) - (
            truth - truth.sum(axis=1, keepdims=True) / counted
        )
        miss *= weight
        decisions = max(1, int(labelled.any(axis=1).sum()))
        edge_loss = float((miss**2).sum() / decisions)
        d_out[:, :, EDGE] = 2 * miss / decisions  # the centring's gradient: miss is centred
    losses = (
        policy_loss,
        float((hand_err**2).mean()),
        float((place_err**2).mean()),
        agree,
        edge_loss,
    )
    if not backward:
        return losses, {}
    if values:
        d_out[rows, played, HAND] = 2 * hand_err / n
        d_out[rows, played, PLACE] = 2 * place_err / n
    d = d_out.reshape(n * data.width, net.heads)
    grads = {"w3": h2.T @ d, "b3": d.sum(axis=0)}
    d2 = (d @ net.w3.T) * (h2 > 0)
    grads |= {"w2": h1.T @ d2, "b2": d2.sum(axis=0)}
    d1 = (d2 @ net.w2.T) * (h1 > 0)
    grads |= {"w1": x.T @ d1, "b1": d1.sum(axis=0)}
    return losses, grads


__all__ = [
    "DECAY",
    "MARGINS",
    "PLACE_POINTS",
    "Data",
    "MarginGain",
    "Shard",
    "Step",
    "best_margin",
    "hand_played_out",
    "heads_of",
    "inputs_of",
    "load_data",
    "margin_gains",
    "play_shard",
    "played_out",
    "shards",
    "train",
    "value_targets",
    "write_data",
]
