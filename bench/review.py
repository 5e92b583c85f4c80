"""How fast `riichi review` is, and how often the strongest humans chose what `expert`
chose: every seat of the Phoenix-room (houou) Tenhou games in shared/corpus reviewed
by `expert` on one core. Not a test.

    python bench/review.py [--games 100] [--corpus ../shared/corpus] [--bot learned]
                           [--held-out]

Prints the time to review one player's game (mean, slowest) and all four seats of the
games read, then the agreement with the Phoenix players by kind of decision, for four
and three players, and how the losses spread (what share of decisions each threshold
would call a mistake). ``--held-out``: only the games no learning uses
(`riichi.bots.human.held_out`), where a learned reviewer's figures are fair.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from riichi.bots.human import held_out
from riichi.bots.review import KINDS, Tally, review_match
from riichi.bots.reviewers import reviewer_for
from riichi.formats.replay import load_match

PHOENIX = {"4p hanchan aka kuitan houou GO=169": 4, "3p hanchan aka kuitan houou GO=185": 3}


def phoenix_games(corpus: Path) -> dict[int, list[Path]]:
    """The corpus' Phoenix-room Tenhou XML games, by players."""
    out: dict[int, list[Path]] = defaultdict(list)
    for line in (corpus / "INDEX.tsv").read_text().splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) > 5 and cells[5] in PHOENIX and cells[1] == "tenhou-mjlog-xml":
            out[PHOENIX[cells[5]]].append(corpus / cells[0])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="four-player games to time")
    here = Path(__file__).resolve().parents[2] / "shared" / "corpus"
    parser.add_argument("--corpus", type=Path, default=here)
    parser.add_argument("--bot", default="expert", help="the reviewer: expert, master, learned")
    parser.add_argument("--held-out", action="store_true", help="only games no learning uses")
    args = parser.parse_args()
    games = phoenix_games(args.corpus)
    if args.held_out:
        kept = set(held_out(args.corpus.resolve()))
        games = {n: [p for p in paths if p.resolve() in kept] for n, paths in games.items()}
    losses: list[float] = []
    for players in (4, 3):
        paths = games[players][: args.games]
        kinds: dict[str, Tally] = defaultdict(Tally)
        seat_times: list[float] = []
        start = time.perf_counter()
        for path in paths:
            _, match = load_match(path.read_bytes(), str(path))
            for seat in range(players):
                began = time.perf_counter()
                review = review_match(match, seat, reviewer_for(args.bot))
                seat_times.append(time.perf_counter() - began)
                for d in review.decisions:
                    kinds[d.kind] = kinds[d.kind].add(d)
                    if d.loss is not None:
                        losses.append(d.loss)
        total = time.perf_counter() - start
        every = Tally()
        for t in kinds.values():
            every = Tally(
                every.decisions + t.decisions,
                every.agreed + t.agreed,
                every.lost + t.lost,
                every.small + t.small,
                every.large + t.large,
                every.top + t.top,
            )
        print(
            f"{players} players: {len(paths)} Phoenix games, {len(seat_times)} seats reviewed"
            f" in {total:.1f} s (loading included) on one core; one player's game"
            f" {sum(seat_times) / max(1, len(seat_times)):.3f} s on average,"
            f" {max(seat_times, default=0):.3f} s at most"
        )
        print(
            f"  with the Phoenix players: top-choice match {every.top_choice:.1%}, within the"
            f" best value {every.agreement:.1%}, of {every.decisions} decisions;"
            f" {every.lost / max(1, len(seat_times)):,.0f}"
            f" expected points lost a game; mistakes {every.small + every.large}"
            f" ({(every.small + every.large) / max(1, every.decisions):.1%} of decisions,"
            f" {every.large} large)"
        )
        for kind in KINDS:
            t = kinds.get(kind)
            if t is not None:
                print(
                    f"  {kind:8} top {t.top_choice:6.1%}  within best {t.agreement:6.1%}"
                    f" of {t.decisions:6}"
                    f"  lost {t.lost / max(1, t.decisions):6.0f} a decision"
                )
    losses.sort()
    print("share of valued decisions losing at least:")
    for threshold in (100, 200, 400, 800, 2000, 4000):
        share = sum(1 for x in losses if x >= threshold) / max(1, len(losses))
        print(f"  {threshold:5} points: {share:.1%}")


if __name__ == "__main__":
    main()
