"""Random-legal-action hanchans per second: ours, riichienv (Rust core), jansou (Python).

Each engine plays whole hanchans under Tenhou-like rules with the same kind
of agent, written in Python: take a win when offered, otherwise a uniform
legal action. One core; not a test.

Two loops: the tuned one builds our lazily built tables first and moves what
lives long out of the collector's passes (``gc.freeze``), as the server does;
the plain one is what a library user writes: one game to warm up, then the
games, nothing else.

    python bench/game.py [--games 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable

import cores
from riichi.game import ActionType, Match
from riichi.rules import find_ruleset

TENHOU = find_ruleset("tenhou")
WINS = (ActionType.TSUMO, ActionType.RON)


def prepare_ours() -> None:
    """Our tables built lazily (readings of each suit at its first win), built now."""
    from riichi.hand.decompose import prepare

    prepare()


def ours(seed: int) -> None:
    """A library user's loop: the library alone imported, nothing tuned."""
    match = Match(TENHOU, seed)
    rng = random.Random(seed)
    while not match.over:
        seat, legal = next(iter(match.legal_actions().items()))
        won = [a for a in legal if a.type in WINS]
        match.apply(seat, won[0] if won else legal[rng.randrange(len(legal))])


def riichienv_game() -> Callable[[int], None] | None:
    try:
        import riichienv as r
    except ImportError:
        return None
    wins = {r.ActionType.TSUMO, r.ActionType.RON}

    def play(seed: int) -> None:
        rng = random.Random(seed)
        env = r.RiichiEnv(game_mode=2, seed=seed, skip_mjai_logging=True)
        obs = env.reset()
        while not env.done():
            actions = {}
            for pid, ob in obs.items():
                legal = ob.legal_actions()
                won = [a for a in legal if a.action_type in wins]
                actions[pid] = won[0] if won else legal[rng.randrange(len(legal))]
            obs = env.step(actions)

    return play


def jansou_game() -> Callable[[int], None] | None:
    try:
        from jansou.core.rules import preset
        from jansou.game.actions import Ron, Tsumo
        from jansou.game.agents import Agent
        from jansou.game.environment import Environment
    except ImportError:
        return None

    class WinOrRandom(Agent):  # type: ignore[misc]
        def __init__(self, seed: int) -> None:
            self.rng = random.Random(seed)

        def act(self, seat: int, kind: object, actions: list[object]) -> object:
            for a in actions:
                if isinstance(a, (Tsumo, Ron)):
                    return a
            return actions[self.rng.randrange(len(actions))]

    def play(seed: int) -> None:
        env = Environment(preset("tenhou"), seed=seed)
        env.run([WinOrRandom(seed * 4 + s) for s in range(4)])

    return play


def rate(play: Callable[[int], None], games: int, seed: int, tuned: bool = True) -> float:
    play(seed - 1)  # warm up
    if tuned:
        prepare_ours()  # our lazily built tables
        # and keep those long-lived tables out of the collector's full passes, as the
        # server does
        gc.freeze()
    start = time.perf_counter()
    for g in range(seed, seed + games):
        play(g)
    elapsed = time.perf_counter() - start
    if tuned:
        gc.unfreeze()
    return games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(cores.args())
    if cores.wanted():
        cores.report({"hanchans": rate(ours, args.games, args.seed)})
        return
    pure = cores.pure(__file__)
    plain = rate(ours, args.games, args.seed + 1000, tuned=False)  # first: nothing built
    mine = rate(ours, args.games, args.seed)
    print(cores.heading())
    print(f"{args.games} random hanchans per engine")
    print(f"{'engine':<22} {'hanchans/s':>11}  ratio")
    print(f"{'riichi':<22} {mine:>11.1f}")
    print(f"{'riichi, plain loop':<22} {plain:>11.1f}")
    if pure is not None:
        value = pure["hanchans"]
        print(f"{'riichi, pure':<22} {value:>11.1f}  compiled/pure = {mine / value:.2f}")
    for name, factory in (("riichienv", riichienv_game), ("jansou", jansou_game)):
        play = factory()
        if play is None:
            print(f"{name:<22} {'not installed':>11}")
            continue
        value = rate(play, args.games, args.seed)
        print(
            f"{name:<22} {value:>11.1f}  ours/{name} = {mine / value:.2f},"
            f" plain loop/{name} = {plain / value:.2f}"
        )


if __name__ == "__main__":
    main()
