"""Generate the per-suit tables behind ``riichi.hand`` (run once; output is committed).

For every count vector of one suit (9 kinds, 0..4 copies, at most 14 tiles) and of
the honours (7 kinds), the table holds the *replacement number*: how many tiles
must still be drawn so that the group holds exactly ``m`` sets plus ``p`` pairs
(m = 0..4, p = 0..1), never using a fifth copy of a kind.  The minimum over how
the sets and the pair are spread across the four groups gives the shanten number
plus one (Tomohxx's method).  Computed as ``3m + 2p`` minus the largest overlap
of the group with any such target, by a dynamic programme over the kinds that is
vectorised over every count vector at once.

Usage: python tools/gen_hand_tables.py   (needs numpy; writes src/riichi/hand/)
"""

from __future__ import annotations

import itertools
import sys
import zlib
from pathlib import Path

import numpy as np

NEG = -100


def all_vectors(width: int) -> np.ndarray:
    """Every count vector of ``width`` kinds, in base-5 key order (digit 0 lowest)."""
    keys = np.arange(5**width, dtype=np.int64)
    return np.stack([(keys // 5**i) % 5 for i in range(width)], axis=1).astype(np.int8)


def replacement_table(counts: np.ndarray, sequences: bool) -> np.ndarray:
    """Return an (N, 5, 2) int8 array of replacement numbers for each count vector."""
    n, width = counts.shape
    # state: (pending seqs started one kind ago, two kinds ago, sets so far, pair so far)
    states: dict[tuple[int, int, int, int], np.ndarray] = {(0, 0, 0, 0): np.zeros(n, np.int16)}
    for i in range(width):
        h = counts[:, i].astype(np.int16)
        nxt: dict[tuple[int, int, int, int], np.ndarray] = {}
        for (a, b, m, p), best in states.items():
            max_new = 4 - m if (sequences and i <= width - 3) else 0
            for s in range(max_new + 1):
                for trip in (0, 1):
                    for pr in (0, 1 - p):
                        if pr < 0:
                            continue
                        t = a + b + s + 3 * trip + 2 * pr
                        m2 = m + s + trip
                        if t > 4 or m2 > 4:
                            continue
                        key = (s, a, m2, p + pr)
                        val = best + np.minimum(h, t)
                        if key in nxt:
                            np.maximum(nxt[key], val, out=nxt[key])
                        else:
                            nxt[key] = val
        # sequences started at kind i-2 must have been completed at kind i
        states = nxt
    out = np.full((n, 5, 2), 127, np.int16)
    for (a, b, m, p), best in states.items():
        if a or b:
            continue
        np.minimum(out[:, m, p], 3 * m + 2 * p - best, out=out[:, m, p])
    return out.astype(np.int8)


CAP = 10  # no hand needs more than 9 tiles: larger entries never reach the minimum


def combine(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Min-plus combination of two groups' (m, p) vectors, clamped at CAP."""
    out = []
    for m in range(5):
        for p in range(2):
            best = CAP
            for m1 in range(m + 1):
                for p1 in range(p + 1):
                    best = min(best, a[m1 * 2 + p1] + b[(m - m1) * 2 + (p - p1)])
            out.append(best)
    return tuple(out)


def intern(vectors: np.ndarray) -> tuple[list[tuple[int, ...]], np.ndarray]:
    uniq, inverse = np.unique(vectors, axis=0, return_inverse=True)
    return [tuple(int(x) for x in row) for row in uniq], inverse.reshape(-1)


def main() -> None:
    out_path = Path(__file__).resolve().parents[1] / "src" / "riichi" / "hand" / "tables.bin"
    suit = all_vectors(9)
    honors = all_vectors(7)
    groups = []
    for counts, seq in ((suit, True), (honors, False)):
        d = np.minimum(replacement_table(counts, sequences=seq).reshape(-1, 10), CAP)
        valid = counts.astype(np.int16).sum(1) <= 14
        vecs, inv = intern(d[valid])
        ids = np.full(len(counts), 255, np.uint8)
        ids[valid] = inv
        groups.append((vecs, ids))
    (svecs, sids), (hvecs, hids) = groups
    assert len(svecs) < 255 and len(hvecs) < 255

    # closure of combined vectors: suit+suit, +suit, +honours (any order of adding groups)
    space: dict[tuple[int, ...], int] = {}

    def vid(v: tuple[int, ...]) -> int:
        return space.setdefault(v, len(space))

    c_ss = [vid(combine(a, b)) for a in svecs for b in svecs]
    frontier = True
    while frontier:
        before = len(space)
        vs = list(space)
        for v in vs:
            for b in svecs:
                vid(combine(v, b))
            for h in hvecs:
                vid(combine(v, h))
        frontier = len(space) != before
    vvecs = list(space)
    c_vs = [space[combine(v, b)] for v in vvecs for b in svecs]
    c_vh = [space[combine(v, h)] for v in vvecs for h in hvecs]
    assert len(vvecs) < 255
    print(
        f"suit vectors {len(svecs)}, honour vectors {len(hvecs)}, combined {len(vvecs)}",
        file=sys.stderr,
    )

    def flat(vecs: list[tuple[int, ...]]) -> bytes:
        return bytes(itertools.chain.from_iterable(vecs))

    header = np.array([len(svecs), len(hvecs), len(vvecs)], "<u2").tobytes()
    body = b"".join(
        [
            header,
            sids.tobytes(),
            hids.tobytes(),
            flat(svecs),
            flat(hvecs),
            flat(vvecs),
            bytes(c_ss),
            bytes(c_vs),
            bytes(c_vh),
        ]
    )
    out_path.write_bytes(b"RIICHI-HAND-1\n" + zlib.compress(body, 9))
    print(f"wrote {out_path} ({out_path.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
