"""Random-legal-action hanchans per second: ours, riichienv (Rust core), jansou (Python).

Each engine plays whole hanchans under Tenhou-like rules with the same kind
of agent, written in Python: take a win when offered, otherwise a uniform
legal action. One core; not a test.

Two loops: the tuned one builds our lazily built tables first and moves what
lives long out of the collector's passes (``gc.freeze``), as the server does;
the plain one is what a library user writes: one game to warm up, then the
games, nothing else.

    python bench/game.py [--games 30] [--seed 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
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


def plain_in_child(games: int, seed: int) -> float:
    """The plain loop in a fresh process: nothing built, nothing frozen before it."""
    env = {**os.environ, PLAIN_ENV: "1"}
    command = [sys.executable, __file__, "--games", str(games), "--seed", str(seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(json.loads(done.stdout.strip().splitlines()[-1])["plain"])


PLAIN_ENV = "RIICHI_BENCH_PLAIN"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="rounds; medians are shown")
    args = parser.parse_args(cores.args())
    if os.environ.get(PLAIN_ENV):
        print(json.dumps({"plain": rate(ours, args.games, args.seed, tuned=False)}))
        return
    if cores.wanted():
        cores.report({"hanchans": rate(ours, args.games, args.seed)})
        return
    pure = cores.pure(__file__)
    peers = [(name, factory()) for name, factory in PEERS]
    runs: dict[str, list[float]] = {"tuned": [], "plain": []}
    # the engines take turns, round after round: a slow spell of the machine falls
    # on all of them, and the medians leave it out
    for _ in range(args.repeat):
        runs["plain"].append(plain_in_child(args.games, args.seed))
        runs["tuned"].append(rate(ours, args.games, args.seed))
        for name, play in peers:
            if play is not None:
                runs.setdefault(name, []).append(rate(play, args.games, args.seed))
    median = {name: statistics.median(values) for name, values in runs.items()}
    mine, plain = median["tuned"], median["plain"]
    print(cores.heading())
    print(f"{args.games} random hanchans per engine, median of {args.repeat} rounds")
    print(f"{'engine':<22} {'hanchans/s':>11}  ratio")
    print(f"{'riichi':<22} {mine:>11.1f}")
    print(f"{'riichi, plain loop':<22} {plain:>11.1f}")
    if pure is not None:
        value = pure["hanchans"]
        print(f"{'riichi, pure':<22} {value:>11.1f}  compiled/pure = {mine / value:.2f}")
    for name, play in peers:
        if play is None:
            print(f"{name:<22} {'not installed':>11}")
            continue
        value = median[name]
        print(
            f"{name:<22} {value:>11.1f}  ours/{name} = {mine / value:.2f},"
            f" plain loop/{name} = {plain / value:.2f}"
        )


PEERS = (("riichienv", riichienv_game), ("jansou", jansou_game))


if __name__ == "__main__":
    main()
