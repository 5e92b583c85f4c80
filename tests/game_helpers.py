"""Helpers for engine tests: arranged walls and a random legal player."""

from __future__ import annotations

import random
from collections.abc import Sequence

from riichi.game import Action, ActionType, Match, Wall
from riichi.game.wall import tile_set
from riichi.tiles import parse_tiles


def arranged_wall(
    hands: Sequence[str],
    draws: Sequence[str] = (),
    rinshan: Sequence[str] = (),
    dora: Sequence[str] = (),
    ura: Sequence[str] = (),
    players: int = 4,
    replacements: int = 4,
) -> Wall:
    """A wall with the given tiles in place (hands from the dealer on, draws in order).

    Every position not given is filled with the unused tiles in id order.
    ``draws`` entries are notation, one tile each (``"5m"``), or ``""`` for
    a filler tile. Eight ``replacements`` make a three-player wall for setting
    North aside, whose last four live tiles are the last indicator slots.
    """
    taken: set[int] = set()
    hand_tiles = [parse_tiles(h, taken) for h in hands]
    assert all(len(h) <= 13 for h in hand_tiles), "a dealt hand has 13 tiles"
    parts = {
        "draws": [parse_tiles(d, taken) if d else [] for d in draws],
        "rinshan": [parse_tiles(d, taken) for d in rinshan],
        "dora": [parse_tiles(d, taken) for d in dora],
        "ura": [parse_tiles(d, taken) for d in ura],
    }
    spare = [t for t in tile_set(players) if t not in taken]

    def fill(given: list[list[int]], size: int) -> list[int]:
        out = [g[0] if g else spare.pop(0) for g in given]
        while len(out) < size:
            out.append(spare.pop(0))
        return out

    while len(hand_tiles) < players:
        hand_tiles.append([])
    hands_full = [h + [spare.pop(0) for _ in range(13 - len(h))] for h in hand_tiles]
    rinshan_full = fill(parts["rinshan"], replacements)
    dora_full = fill(parts["dora"], 5)
    ura_full = fill(parts["ura"], 5)
    live = len(tile_set(players)) - 10 - replacements - 13 * players
    draws_full = fill(parts["draws"], live)
    wall = Wall(hands_full, draws_full, rinshan_full, dora_full, ura_full, players)
    wall.check()
    return wall


def random_action(rng: random.Random, actions: Sequence[Action]) -> Action:
    """Always take a win, otherwise a uniform legal action."""
    for a in actions:
        if a.type in (ActionType.TSUMO, ActionType.RON):
            return a
    return rng.choice(list(actions))


def play_random(match: Match, rng: random.Random, max_steps: int = 100_000) -> int:
    steps = 0
    while not match.over and steps < max_steps:
        seat, actions = next(iter(match.legal_actions().items()))
        match.apply(seat, random_action(rng, actions))
        steps += 1
    return steps


def greedy_action(rng: random.Random, match: Match, seat: int, actions: Sequence[Action]) -> Action:
    """A player that tries to win: takes wins, riichi and kans, discards towards tenpai.

    Random enough to reach every kind of situation; strong enough that hands
    end in wins, riichi and calls rather than only exhaustive draws.
    """
    from riichi.hand import shanten

    by_type: dict[ActionType, list[Action]] = {}
    for a in actions:
        by_type.setdefault(a.type, []).append(a)
    for kind in (ActionType.TSUMO, ActionType.RON):
        if kind in by_type:
            return by_type[kind][0]
    if ActionType.RIICHI in by_type and rng.random() < 0.8:
        return rng.choice(by_type[ActionType.RIICHI])
    for kind in (ActionType.ANKAN, ActionType.KAKAN, ActionType.KAN):
        if kind in by_type and rng.random() < 0.5:
            return by_type[kind][0]
    for kind in (ActionType.PON, ActionType.CHI):
        if kind in by_type and rng.random() < 0.25:
            return rng.choice(by_type[kind])
    if ActionType.KYUUSHU in by_type and rng.random() < 0.5:
        return by_type[ActionType.KYUUSHU][0]
    discards = by_type.get(ActionType.DISCARD)
    if not discards:
        return by_type.get(ActionType.PASS, list(actions))[0]
    hand = match.kyoku.seats[seat].hand
    melds = len(match.kyoku.seats[seat].melds)
    counts = [0] * 34
    for t in hand:
        counts[t >> 2] += 1
    scored = []
    for a in discards:
        assert a.tile is not None
        counts[a.tile >> 2] -= 1
        scored.append((shanten(counts, melds), rng.random(), a))
        counts[a.tile >> 2] += 1
    return min(scored, key=lambda x: (x[0], x[1]))[2]
