"""Positions from games people played, for the learned player's policy.

Every decision of every seat of the complete human games in a corpus (Tenhou XML and
tenhou.net/6 JSON; the bots' self-play logs are left out) becomes a row of
`riichi.bots.training.Data`: the seat's observation, expert's best options as the
network weighs them (`features.weighed`), the one the person played (``taken``;
decisions where the person played none of them are counted and left out, since the
network only ever chooses among them) and what followed (the hand's change of score,
the final place and points).

The games split once, by name, so that what is measured was never learned from: a
quarter of the Phoenix-room Tenhou XML games (the population ``bench/review.py``
measures agreement on) is held out by a hash of its file's path, and a game is learned
from only if its deal is none of theirs (a corpus holds some games twice, in two
formats: they are told apart by their play, not their files).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from riichi.bots.expert import ExpertBot
from riichi.bots.features import (
    OPTION_SIZE,
    OPTIONS,
    STATE_SIZE,
    option_features,
    state_features,
    suit_copies,
    weighed,
)
from riichi.bots.learned import LearnedBot
from riichi.bots.network import Network
from riichi.bots.reviewers import same
from riichi.formats.replay import load_match
from riichi.game import Action, Match

# The corpus index's formats of games people played (its mjai logs are bots' self-play).
HUMAN_FORMATS = frozenset({"tenhou-mjlog-xml", "tenhou6-json"})
PHOENIX = frozenset({"4p hanchan aka kuitan houou GO=169", "3p hanchan aka kuitan houou GO=185"})
HELD_EVERY = 4  # one Phoenix XML game in this many (by its path's hash) is held out
_PLAY = 60  # actions of a game's opening play that tell two files of one game apart


@dataclass(frozen=True)
class Split:
    learn: list[Path]  # complete human games, none of them a held-out game
    held: list[Path]  # Phoenix-room Tenhou XML games kept for measuring


def _index(corpus: Path) -> list[tuple[Path, str, str]]:
    """(file, format, rules) of each game the corpus index lists."""
    out = []
    for line in (corpus / "INDEX.tsv").read_text().splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) > 5:
            out.append((corpus / cells[0], cells[1], cells[5]))
    return out


def is_held(corpus: Path, path: Path) -> bool:
    digest = hashlib.sha256(str(path.relative_to(corpus)).encode()).digest()
    return digest[0] % HELD_EVERY == 0


def phoenix_xml(corpus: Path) -> list[Path]:
    return [p for p, fmt, rules in _index(corpus) if fmt == "tenhou-mjlog-xml" and rules in PHOENIX]


def held_out(corpus: Path) -> list[Path]:
    """The Phoenix-room Tenhou XML games no learning uses."""
    return [p for p in phoenix_xml(corpus) if is_held(corpus, p)]


def opening(match: Match) -> tuple[tuple[int, str, int], ...]:
    """A game's opening play by tile kind (formats number the copies of a kind apart)."""
    return tuple(
        (seat, a.type.value, -1 if a.tile is None else a.tile >> 2)
        for seat, a in match.actions[:_PLAY]
    )


def _complete(path: Path) -> Match | None:
    try:
        _, match = load_match(path.read_bytes(), str(path))
    except ValueError:
        return None
    return match if match.standings is not None else None


def split(corpus: Path) -> Split:
    """The corpus' complete human games: those learned from and those held out."""
    held = held_out(corpus)
    held_plays = {opening(m) for m in map(_complete, held) if m is not None}
    learn: list[Path] = []
    seen: set[tuple[tuple[int, str, int], ...]] = set()
    for path, fmt, _ in _index(corpus):
        if fmt not in HUMAN_FORMATS or path in held:
            continue
        match = _complete(path)
        if match is None:
            continue
        play = opening(match)
        if play in held_plays or play in seen:
            continue
        seen.add(play)
        learn.append(path)
    return Split(learn, held)


@dataclass(frozen=True)
class Game:
    path: Path
    number: int  # the game's place in the split: positions of one game share its outcome
    out: Path
    swap: bool = True  # each four-player position written once more per way to trade suits
    width: int = OPTIONS  # how many of expert's best options a position keeps
    mirror: bool = False  # each position written once more with its ranks from 9 down


def decisions(match: Match) -> Iterator[tuple[Match, int, Action]]:
    """``match`` replayed from its start: at each decision (a seat with more than one
    legal action) the replay as it stood, the seat and what it played."""
    replay = match.restarted()
    for seat, action in match.actions:
        if len(replay.legal_actions().get(seat, ())) > 1:
            yield replay, seat, action
        replay.apply(seat, action)


def game_positions(game: Game) -> tuple[int, int]:
    """Write one game's positions as a shard; (positions written, decisions left out
    because the person played none of expert's best options)."""
    match = _complete(game.path)
    if match is None:
        raise ValueError(f"{game.path}: not a complete game")
    n = match.rules.players
    reds = match.rules.red_fives
    judges = [ExpertBot(f"human:{game.number}:{s}") for s in range(n)]
    rows: dict[str, list[object]] = {k: [] for k in ("state", "options", "count", "taken")}
    at: list[tuple[int, int]] = []  # (seat, hand) of each position
    left_out = 0
    for replay, seat, action in decisions(match):
        obs = replay.observe(seat)
        kept = weighed(judges[seat].evaluate(obs), game.width)
        if not kept:
            continue
        pick = next((i for i, o in enumerate(kept) if same(o.action, action, reds)), None)
        if pick is None:
            left_out += 1
            continue
        block = np.zeros((game.width, OPTION_SIZE), np.float16)
        block[: len(kept)] = option_features(obs, kept)
        rows["state"].append(state_features(obs).astype(np.float16))
        rows["options"].append(block)
        rows["count"].append(len(kept))
        rows["taken"].append(pick)
        at.append((seat, replay.hand_index))
    assert match.standings is not None
    hand_delta = [match.results[hand].deltas[seat] / 1000 for seat, hand in at]
    state = np.array(rows["state"], np.float16).reshape(-1, STATE_SIZE)
    options = np.array(rows["options"], np.float16).reshape(-1, game.width, OPTION_SIZE)
    state, options, copies = suit_copies(state, options, n, game.swap, game.mirror)
    at = at * copies
    count = len(at)
    game.out.parent.mkdir(parents=True, exist_ok=True)
    with game.out.open("wb") as f:
        np.savez_compressed(
            f,
            state=state,
            options=options,
            count=np.tile(np.array(rows["count"], np.int8), copies),
            taken=np.tile(np.array(rows["taken"], np.int8), copies),
            chosen=np.zeros(count, np.int8),  # expert's choice is its first option
            explored=np.zeros(count, np.bool_),
            hand_delta=np.tile(np.array(hand_delta, np.float32), copies),
            place=np.array([match.standings[s].place for s, _ in at], np.int8),
            points=np.array([match.standings[s].points for s, _ in at], np.float32),
            match=np.full(count, game.number, np.int32),
            truth=np.full((count, game.width), np.nan, np.float32),
        )
    return count // copies, left_out


def write_human(
    paths: Sequence[Path],
    out: Path,
    jobs: int,
    progress: Callable[[int], None],
    swap: bool = True,
    width: int = OPTIONS,
    mirror: bool = False,
) -> tuple[int, int]:
    """Every game's positions under ``out`` (a shard a game); (decisions kept, left
    out); with ``swap``, six copies of each four-player one (``features.suit_swap``),
    and with ``mirror`` each of those again with its ranks from 9 down; each keeping
    expert's best ``width`` options."""
    todo = [
        Game(p, i, out / f"shard-{i:05d}.npz", swap, width, mirror) for i, p in enumerate(paths)
    ]
    written = dropped = 0
    if jobs == 1:
        results = map(game_positions, todo)
        for count, left in results:
            written, dropped = written + count, dropped + left
            progress(1)
        return written, dropped
    with ProcessPoolExecutor(jobs) as pool:
        for count, left in pool.map(game_positions, todo):
            written, dropped = written + count, dropped + left
            progress(1)
    return written, dropped


@dataclass(frozen=True)
class Agreement:
    decisions: int  # every decision of every seat with more than one legal action
    expert: int  # where expert's first choice is what the person played
    learned: int  # the same for the learned player

    def to_dict(self) -> dict[str, float]:
        n = max(1, self.decisions)
        return {
            "decisions": self.decisions,
            "expert_top": self.expert / n,
            "learned_top": self.learned / n,
        }


def agreement(
    paths: Sequence[Path], network: Network, progress: Callable[[int], None] = lambda n: None
) -> Agreement:
    """How often expert's and the learned player's first choices are what the people
    of ``paths`` played, decision by decision (the review's top-choice match)."""
    asked = by_expert = by_learned = 0
    for number, path in enumerate(paths):
        match = _complete(path)
        if match is None:
            continue
        reds = match.rules.red_fives
        bots = [LearnedBot(f"held:{number}:{s}", network) for s in range(match.rules.players)]
        for replay, seat, action in decisions(match):
            played, kept, _ = bots[seat].choose(replay.observe(seat))
            first = kept[0] if kept else played
            asked += 1
            by_expert += same(first.action, action, reds)
            by_learned += same(played.action, action, reds)
        progress(1)
    return Agreement(asked, by_expert, by_learned)


__all__ = [
    "HELD_EVERY",
    "Agreement",
    "Split",
    "agreement",
    "decisions",
    "game_positions",
    "held_out",
    "is_held",
    "opening",
    "phoenix_xml",
    "split",
    "write_human",
]
