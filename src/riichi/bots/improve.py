"""The learned player past its teachers: its close choices in its own play, played out.

A network taught by people's choices (``riichi.bots.human``) plays as well as those
choices teach it; past them only play can tell. Four learned players play seeded
matches. Where the network hesitates (its second option at least ``doubt`` likely),
its two best options are each played on to the hand's end on the match's true walls
with learned players in every seat (``training.hand_played_out``), the same players
from the same seeds for both: the world and the others' play are shared, and what
differs is the option. What each end is worth to the seat, expert's weighing of the
score changes by the places they move, is the pair's label.

One world judges one decision noisily but without bias: the wall is one draw of what
the seat cannot see. Over many pairs ``training.train`` (with ``improve``) moves the
policy along the gradient of the worth it expects from the pair,
-q_a q_b (v_a - v_b) on the two scores (q: the policy over the pair), while the
people's positions it learns beside them keep it near their play.

A shard of matches is one compressed ``.npz`` in the layout of ``training.Data``
(``truth``: the two options' worth, NaN elsewhere), each position written once more
per way to trade the suits and to read the ranks from 9 down, as people's are; each
shard a pure function of its seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from riichi.bots.expert import ExpertBot
from riichi.bots.features import (
    OPTION_SIZE,
    STATE_SIZE,
    option_features,
    state_features,
    suit_copies,
)
from riichi.bots.learned import LearnedBot, network_at
from riichi.bots.network import POLICY, Network
from riichi.bots.training import hand_played_out
from riichi.game import Match, observe
from riichi.rules import Length, find_ruleset

DOUBT = 0.15  # the second option's least probability for a pair to be played out


@dataclass(frozen=True)
class Pairs:
    """Matches ``first`` .. ``first + matches - 1`` of learned self-play, their pairs
    written to ``out``."""

    first: int
    matches: int
    out: Path
    weights: Path
    doubt: float = DOUBT
    rules: str = "online"
    length: str | None = None  # the preset's length unless given


def doubted(network: Network, heads: np.ndarray, doubt: float) -> tuple[int, int] | None:
    """The network's two best options (by index) where the second is at least ``doubt``
    likely under its policy, else None."""
    logits = heads[:, POLICY].astype(np.float64)
    p = np.exp(logits - logits.max())
    p /= p.sum()
    first, second = (int(i) for i in np.argsort(-p, kind="stable")[:2])
    return (first, second) if p[second] >= doubt else None


def play_pairs(shard: Pairs) -> int:
    """Play a shard's matches and write its pairs; how many were written (before the
    suit copies)."""
    rules = find_ruleset(shard.rules)
    if shard.length is not None:
        length = Length(shard.length)
        rules = rules.replace(length=length, lengths=(length,))
    network = network_at(shard.weights)
    width = network.options
    states: list[np.ndarray] = []
    blocks: list[np.ndarray] = []
    counts: list[int] = []
    taken: list[int] = []
    truth: list[np.ndarray] = []
    match_of: list[int] = []
    for seed in range(shard.first, shard.first + shard.matches):
        match = Match(rules, seed)
        players = [LearnedBot(f"{seed}:{s}", network) for s in range(rules.players)]
        judges = [ExpertBot(f"{seed}:{s}") for s in range(rules.players)]
        while not match.over:
            seat = next(iter(match.legal_actions()))
            obs = observe(match, seat)
            played, kept, heads = players[seat].choose(obs)
            pair = None if heads is None else doubted(network, heads, shard.doubt)
            if pair is not None:
                scene = judges[seat]._scene(obs)
                hand = len(match.results)
                row = np.full(width, np.nan, np.float32)
                for option in pair:
                    # the same seeds for both options: only the option differs
                    rest = [
                        LearnedBot(f"roll:{seed}:{s}:{hand}", network) for s in range(rules.players)
                    ]
                    after = hand_played_out(match, seat, kept[option].action, rest)
                    row[option] = judges[seat]._worth_after(scene, after) / 1000
                block = np.zeros((width, OPTION_SIZE), np.float16)
                block[: len(kept)] = option_features(obs, kept)
                states.append(state_features(obs).astype(np.float16))
                blocks.append(block)
                counts.append(len(kept))
                taken.append(pair[0])
                truth.append(row)
                match_of.append(seed)
            match.apply(seat, played.action)
    written = len(states)
    state, options, copies = suit_copies(
        np.array(states, np.float16).reshape(-1, STATE_SIZE),
        np.array(blocks, np.float16).reshape(-1, width, OPTION_SIZE),
        rules.players,
        swap=True,
        mirror=True,
    )
    count = written * copies
    shard.out.parent.mkdir(parents=True, exist_ok=True)
    with shard.out.open("wb") as f:
        np.savez_compressed(
            f,
            state=state,
            options=options,
            count=np.tile(np.array(counts, np.int8), copies),
            taken=np.tile(np.array(taken, np.int8), copies),
            chosen=np.tile(np.array(taken, np.int8), copies),
            explored=np.zeros(count, np.bool_),
            hand_delta=np.zeros(count, np.float32),  # the value heads do not learn here
            place=np.zeros(count, np.int8),
            points=np.zeros(count, np.float32),
            match=np.tile(np.array(match_of, np.int32), copies),
            truth=np.tile(np.array(truth, np.float32).reshape(-1, width), (copies, 1)),
        )
    return written


def pair_shards(
    out: Path, matches: int, seed: int, weights: Path, doubt: float, length: str | None = None
) -> list[Pairs]:
    """A shard a match: the work spreads evenly over the processes."""
    return [
        Pairs(seed + i, 1, out / f"shard-{seed + i:010d}.npz", weights, doubt, length=length)
        for i in range(matches)
    ]


def write_pairs(todo: Sequence[Pairs], jobs: int, progress: Callable[[int], None]) -> int:
    """Play every shard (``jobs`` processes); the pairs written."""
    written = 0
    if jobs == 1:
        for count in map(play_pairs, todo):
            written += count
            progress(1)
        return written
    with ProcessPoolExecutor(jobs) as pool:
        for count in pool.map(play_pairs, todo):
            written += count
            progress(1)
    return written


__all__ = ["DOUBT", "Pairs", "doubted", "pair_shards", "play_pairs", "write_pairs"]
