"""Invariants after every step of seeded random matches, for every preset."""

from __future__ import annotations

import random

import pytest

from game_helpers import greedy_action, random_action
from riichi._core import PURE
from riichi.game import Action, Match, observe
from riichi.game.wall import tile_set
from riichi.rules import PRESETS, Length, find_ruleset

ALL_PRESETS = sorted(PRESETS)


def tiles_everywhere(match: Match) -> list[int]:
    k = match.kyoku
    out: list[int] = []
    for seat in k.seats:
        out += seat.hand + seat.kita
        out += [t for m in seat.melds for t in m.tiles]
        out += [d.tile for d in seat.discards if not d.called]
    w = k.wall
    # the live wall's tail (three players setting North aside) is also the last
    # indicator slots: count those tiles where they are, in a hand or the live wall
    tail = set(w.tail())
    out += k.live[k.draw_index :] + w.rinshan[k.rinshan_index :]
    out += [t for t in w.dora + w.ura if t not in tail]
    return out


def check_invariants(match: Match) -> None:
    rules = match.rules
    n = rules.players
    # every tile accounted for exactly once
    assert sorted(tiles_everywhere(match)) == tile_set(n)
    # scores plus sticks on the table are constant
    total = sum(match.scores) + match.kyoku.sticks * rules.riichi_stick
    if match.over:
        total = sum(match.scores) + match.sticks * rules.riichi_stick
    assert total == n * rules.start_points
    # legal actions come in the one stable order
    for actions in match.legal_actions().values():
        assert actions == sorted(actions, key=Action.sort_key)
    # observations show nothing hidden
    k = match.kyoku
    # the live tiles still to draw (its tail shortened by each replacement drawn)
    hidden_wall = set(k.live[k.draw_index : k.draw_index + max(0, k.live_left())])
    hidden_wall |= set(k.wall.rinshan[k.rinshan_index :])
    hidden_wall |= set(k.wall.ura) | set(k.wall.dora[k.dora_shown :])
    hidden_wall -= set(k.live[: k.draw_index])  # tail tiles drawn as live tiles
    for viewer in [None, *range(n)]:
        view = observe(match, viewer)
        seen = set(view.hand or ()) | set(view.dora_indicators)
        seen |= {d[0] for ds in view.discards for d in ds}
        seen |= {t for ks in view.kita for t in ks}
        for s, seat in enumerate(k.seats):
            if s != viewer:
                assert not (set(seat.hand) & seen), f"seat {viewer} sees seat {s}'s tiles"
        assert not (hidden_wall & seen)
        # no field of an observation can hold an ura indicator or the wall
        assert not {"ura", "wall"} & {f.split("_")[0] for f in view.__dataclass_fields__}
        if viewer is not None:
            assert view.hand == tuple(sorted(k.seats[viewer].hand))


def play_checked(rules_name: str, seed: int, greedy: bool, length: Length | None = None) -> Match:
    rules = find_ruleset(rules_name)
    if length is not None:
        rules = rules.replace(length=length, lengths=(length,))
    match = Match(rules, seed)
    rng = random.Random(seed)
    steps = 0
    while not match.over:
        seat, actions = next(iter(match.legal_actions().items()))
        if greedy:
            match.apply(seat, greedy_action(rng, match, seat, actions))
        else:
            match.apply(seat, random_action(rng, actions))
        check_invariants(match)
        steps += 1
        assert steps < 20_000
    return match


# per preset and player; `make fuzz` plays thousands. The pure source's run (make
# pure) plays the first four: the same code, several times as slow, checked in full here
MATCHES = 4 if PURE else 12


@pytest.mark.parametrize("greedy", [False, True], ids=["random", "greedy"])
@pytest.mark.parametrize("rules_name", ALL_PRESETS)
def test_invariants_hold_in_random_matches(rules_name: str, greedy: bool) -> None:
    for seed in range(MATCHES):
        match = play_checked(rules_name, seed, greedy, Length.EAST if seed % 3 else None)
        assert match.standings is not None
        points = [x.points for x in match.standings]
        if find_ruleset(rules_name).settlement.value == "uma-oka":
            assert abs(sum(points)) < 1e-6


def check_at_hand_ends(match: Match) -> None:
    rules = match.rules
    if match.over:
        assert sum(match.scores) + match.sticks * rules.riichi_stick == (
            rules.players * rules.start_points
        )
    else:
        check_invariants(match)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ALL_PRESETS)
def test_ten_thousand_hanchans_per_preset(rules_name: str) -> None:
    """`make fuzz`: 10,000 random hanchans per preset, no exception, invariants at every hand."""
    rules = find_ruleset(rules_name)
    if Length.SOUTH in rules.lengths:
        rules = rules.replace(length=Length.SOUTH)
    for seed in range(10_000):
        match = Match(rules, seed)
        rng = random.Random(seed)
        hands = 0
        while not match.over:
            seat, actions = next(iter(match.legal_actions().items()))
            if seed % 2:
                match.apply(seat, greedy_action(rng, match, seat, actions))
            else:
                match.apply(seat, random_action(rng, actions))
            if len(match.results) != hands:
                hands = len(match.results)
                check_at_hand_ends(match)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ALL_PRESETS)
def test_invariants_after_every_step_of_thousands_of_matches(rules_name: str) -> None:
    """`make fuzz`: 2,000 random hanchans per preset, invariants after every step."""
    for seed in range(1000, 3000):
        play_checked(rules_name, seed, greedy=seed % 2 == 0)
