"""The learned player's network: a small multilayer perceptron in plain numpy, so the
shipped weights play without any training library.

It reads one option at a time (the seat's state and the option, ``features``) and
gives four numbers: a policy score (a softmax over the options of a decision gives
the chance of choosing each), the expected change of the seat's score by the end of
the hand (in thousands of points), the expected final place (1 first) if that
option is taken, and the option's edge: what it is worth over the decision's other
options (their average), in ``EDGE_UNIT`` thousands of points as expert weighs a
change of scores, learned from every option played out on the same true walls.
Networks of three heads (before the edge) still load and play by their policy. Two
hidden layers of rectified units; ``Network.forward`` keeps what backpropagation
needs (``riichi.bots.training``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from riichi.bots.features import FIRST_STATE_SIZE, OPTION_SIZE, OPTIONS, STATE_SIZE
from riichi.errors import RiichiError

INPUT = STATE_SIZE + OPTION_SIZE
HEADS = 4  # policy score, hand's score change (thousands), final place, edge
POLICY, HAND, PLACE, EDGE = range(HEADS)
EDGE_UNIT = 2.0  # the edge head's unit, in thousands of points
WEIGHTS = Path(__file__).with_name("weights") / "learned.npz"
_SCALARS = ("margin", "call_bias", "options", "layout")  # stored beside the layers


class NetworkError(RiichiError):
    """A weights file this player cannot read."""


@dataclass
class Network:
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray
    # thousands of points the edge head must rate an option above expert's choice for
    # the learned player to leave expert's choice (stored with the weights); None: it
    # plays by its policy head
    margin: float | None = None
    # added to the policy score of a call (chi, pon, open kan) at play time, stored with
    # the weights: a policy's first choice calls less often than the people it learned
    # from (a call is the minority choice at most call decisions), and this sets how
    # often it calls without retraining
    call_bias: float = 0.0
    # how many of expert's best options it weighs (stored with the weights where it is
    # not ``OPTIONS``, so that files written before it was a setting load unchanged):
    # people often play expert's fifth or sixth
    options: int = OPTIONS

    @property
    def heads(self) -> int:
        return int(self.w3.shape[1])

    @classmethod
    def fresh(cls, seed: int, hidden: tuple[int, int] = (128, 64), heads: int = HEADS) -> Network:
        """He-initialised weights from ``seed``; ``heads=3``, a network without the edge
        head (as every round before it was trained: the same seed, the same draws)."""
        rng = np.random.default_rng(seed)
        a, b = hidden

        def layer(fan_in: int, fan_out: int) -> np.ndarray:
            drawn: np.ndarray = rng.standard_normal((fan_in, fan_out))
            out: np.ndarray = (drawn * np.sqrt(2 / fan_in)).astype(np.float32)
            return out

        return cls(
            layer(INPUT, a),
            np.zeros(a, np.float32),
            layer(a, b),
            np.zeros(b, np.float32),
            layer(b, heads) * 0.1,
            np.array([0.0, 0.0, 2.5, 0.0][:heads], np.float32),
        )

    def params(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in ("w1", "b1", "w2", "b2", "w3", "b3")}

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        p: dict[str, Any] = {k: v.astype(np.float32) for k, v in self.params().items()}
        if self.margin is not None:
            p["margin"] = np.array(self.margin, np.float32)
        if self.call_bias:
            p["call_bias"] = np.array(self.call_bias, np.float32)
        if self.options != OPTIONS:
            p["options"] = np.array(self.options, np.int32)
        # how the first layer's rows split between the state and an option, so that a
        # network outlives numbers added at the end of either
        p["layout"] = np.array([STATE_SIZE, OPTION_SIZE], np.int32)
        with path.open("wb") as f:
            np.savez_compressed(f, **p)

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> Network:
        with np.load(path) as data:
            layers = {k: data[k].astype(np.float32) for k in data.files if k not in _SCALARS}
            margin = float(data["margin"]) if "margin" in data.files else None
            bias = float(data["call_bias"]) if "call_bias" in data.files else 0.0
            width = int(data["options"]) if "options" in data.files else OPTIONS
            # files without a layout predate the melds' kinds in the state
            state = int(data["layout"][0]) if "layout" in data.files else FIRST_STATE_SIZE
        layout = (state, len(layers["w1"]) - state)
        layers["w1"] = _widened(layers["w1"], layout)
        return cls(**layers, margin=margin, call_bias=bias, options=width)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The heads for each row of ``x`` (options by ``INPUT`` numbers), with both
        hidden layers' activations."""
        h1 = np.maximum(x @ self.w1 + self.b1, 0.0)
        h2 = np.maximum(h1 @ self.w2 + self.b2, 0.0)
        return h2 @ self.w3 + self.b3, h1, h2


def _widened(w1: np.ndarray, layout: tuple[int, int]) -> np.ndarray:
    """``w1`` of a network whose state and option were ``layout`` numbers long, with
    zero rows for the numbers added since at the end of each: they weigh nothing, so
    the network plays as it did."""
    state, option = layout
    if (state, option) == (STATE_SIZE, OPTION_SIZE):
        return w1
    if state > STATE_SIZE or option > OPTION_SIZE:
        raise NetworkError(
            f"a network reading {state} state and {option} option numbers is newer than"
            f" this player's features ({STATE_SIZE} and {OPTION_SIZE})"
        )
    width = w1.shape[1]
    return np.concatenate(
        [
            w1[:state],
            np.zeros((STATE_SIZE - state, width), np.float32),
            w1[state:],
            np.zeros((OPTION_SIZE - option, width), np.float32),
        ]
    )


def inputs(state: np.ndarray, options: np.ndarray) -> np.ndarray:
    """The network's rows for one decision: the state beside each option."""
    return np.concatenate([np.broadcast_to(state, (len(options), len(state))), options], axis=1)


__all__ = [
    "EDGE",
    "EDGE_UNIT",
    "HAND",
    "HEADS",
    "INPUT",
    "PLACE",
    "POLICY",
    "WEIGHTS",
    "Network",
    "NetworkError",
    "inputs",
]
