"""The learned player's network: a small multilayer perceptron in plain numpy, so the
shipped weights play without any training library.

It reads one option at a time (the seat's state and the option, ``features``) and
gives three numbers: a policy score (a softmax over the options of a decision gives
the chance of choosing each), the expected change of the seat's score by the end of
the hand (in thousands of points) and the expected final place (1 first) if that
option is taken. Two hidden layers of rectified units; ``Network.forward`` keeps
what backpropagation needs (``riichi.bots.training``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from riichi.bots.features import OPTION_SIZE, STATE_SIZE

INPUT = STATE_SIZE + OPTION_SIZE
HEADS = 3  # policy score, hand's score change (thousands), final place
WEIGHTS = Path(__file__).with_name("weights") / "learned.npz"


@dataclass
class Network:
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray

    @classmethod
    def fresh(cls, seed: int, hidden: tuple[int, int] = (128, 64)) -> Network:
        """He-initialised weights from ``seed``."""
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
            layer(b, HEADS) * 0.1,
            np.array([0.0, 0.0, 2.5], np.float32),
        )

    def params(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in ("w1", "b1", "w2", "b2", "w3", "b3")}

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        p = {k: v.astype(np.float32) for k, v in self.params().items()}
        with path.open("wb") as f:
            np.savez_compressed(
                f, w1=p["w1"], b1=p["b1"], w2=p["w2"], b2=p["b2"], w3=p["w3"], b3=p["b3"]
            )

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> Network:
        with np.load(path) as data:
            return cls(**{k: data[k].astype(np.float32) for k in data.files})

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The heads for each row of ``x`` (options by ``INPUT`` numbers), with both
        hidden layers' activations."""
        h1 = np.maximum(x @ self.w1 + self.b1, 0.0)
        h2 = np.maximum(h1 @ self.w2 + self.b2, 0.0)
        return h2 @ self.w3 + self.b3, h1, h2


def inputs(state: np.ndarray, options: np.ndarray) -> np.ndarray:
    """The network's rows for one decision: the state beside each option."""
    return np.concatenate([np.broadcast_to(state, (len(options), len(state))), options], axis=1)


__all__ = ["HEADS", "INPUT", "WEIGHTS", "Network", "inputs"]
