"""Is the learned player's value model calibrated? Not a test.

    python bench/value_calibration.py learn/round-0.npz learn/data-1 [--svg calibration.svg]

For every position in the shards of a data folder (best one the network was not
trained on), the network's expected score change by the hand's end (for the option
played) and its expected final place, against what then happened: positions sorted
into ten bins by the prediction, each bin's mean prediction beside its mean outcome
with a 95% interval. A calibrated model's rows lie on the diagonal. With ``--svg``,
both as a plot.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from riichi.bots.network import Network
from riichi.bots.training import HAND_UNIT, heads_of, load_data

BINS = 10


def predictions(network: Network, folder: Path) -> tuple[np.ndarray, ...]:
    data = load_data([folder])
    hands, places = [], []
    for start in range(0, len(data), 4096):
        rows = slice(start, start + 4096)
        out = heads_of(network, data, rows)
        played = data.taken[rows].astype(np.int64)
        n = len(played)
        hands.append(out[np.arange(n), played, 1] * HAND_UNIT)
        places.append(out[np.arange(n), played, 2])
    return (
        np.concatenate(hands),
        data.hand_delta,
        np.concatenate(places),
        data.place.astype(np.float32),
    )


def table(name: str, predicted: np.ndarray, actual: np.ndarray) -> list[tuple[float, float, float]]:
    order = np.argsort(predicted, kind="stable")
    rows = []
    print(f"{name}: {'predicted':>10} {'actual':>10} {'± 95%':>8} {'positions':>10}")
    for part in np.array_split(order, BINS):
        p, a = float(predicted[part].mean()), float(actual[part].mean())
        half = 1.96 * float(actual[part].std()) / math.sqrt(len(part))
        rows.append((p, a, half))
        print(f"{'':{len(name) + 1}} {p:10.3f} {a:10.3f} {half:8.3f} {len(part):10}")
    return rows


def svg(path: Path, plots: list[tuple[str, list[tuple[float, float, float]]]]) -> None:
    size, pad = 300, 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size * len(plots)}" height="{size}">'
    ]
    for i, (name, rows) in enumerate(plots):
        lo = min(min(p, a - h) for p, a, h in rows)
        hi = max(max(p, a + h) for p, a, h in rows)

        def at(v: float, lo: float = lo, hi: float = hi) -> float:
            return pad + (size - 2 * pad) * (v - lo) / max(1e-9, hi - lo)

        x0 = i * size
        parts.append(
            f'<line x1="{x0 + pad}" y1="{size - pad}" x2="{x0 + size - pad}" y2="{pad}" '
            'stroke="#999" stroke-dasharray="4 4"/>'
        )
        parts.append(f'<text x="{x0 + pad}" y="20" font-size="14">{name}</text>')
        for p, a, h in rows:
            cx, cy = x0 + at(p), size - at(a)
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#c33"/>')
            top, bottom = size - at(a + h), size - at(a - h)
            parts.append(
                f'<line x1="{cx:.1f}" y1="{top:.1f}" x2="{cx:.1f}" y2="{bottom:.1f}" '
                'stroke="#c33"/>'
            )
    parts.append("</svg>")
    path.write_text("\n".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("weights", type=Path)
    parser.add_argument("data", type=Path)
    parser.add_argument("--svg", type=Path, default=None)
    args = parser.parse_args()
    hand, hand_actual, place, place_actual = predictions(Network.load(args.weights), args.data)
    plots = [
        ("hand's score change (thousands)", table("hand", hand, hand_actual)),
        ("final place", table("place", place, place_actual)),
    ]
    if args.svg is not None:
        svg(args.svg, plots)


if __name__ == "__main__":
    main()
