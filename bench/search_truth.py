"""How `master`'s searched choices fare on the walls as they truly lie.

Four `expert`s play; at each turn where `master` (same seed) would search, its
search runs on what the seat saw, and then every option it searched is played on
the true match (a copy) with `expert` at every seat to the hand's end, and valued
as the search values a result (`expert`'s weighing of a change of scores, by places
alone in the last hand). One true world a decision is noisy, but the same for every
option, and many decisions average it out: this measures what the search's choices
are worth when expert plays on, and how that depends on how sure the search was.
Not a test.

    python bench/search_truth.py [--matches 8] [--seed 700] [--jobs 2] [--rollouts 48]
        [--threat 0.5] [--close 1000] [--width 3] [--dama] [--playout fast] [--batches 4]
        [--out decisions.jsonl] [--against earlier.jsonl] [--read run.jsonl]

With ``--against`` (the ``--out`` of an earlier run on the same seeds, with the
search changed between the two), the gain of the changed search's choices over the
earlier one's, decision by decision: the same decisions on the same walls, so the
luck of the walls cancels and what is left is what the change did. The experts play
the same match whatever the search finds, so where one search looked at a decision
the other left alone (a wider ``--close``, another ``--threat``), the other played
expert's choice there.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from riichi.bots import make_bot
from riichi.bots.master import (
    BATCHES,
    CLOSE,
    CONFIDENCE,
    PLAYOUT,
    PLAYOUTS,
    THREAT,
    WIDTH,
    MasterBot,
    choice,
)
from riichi.bots.search import answering
from riichi.bots.training import hand_played_out
from riichi.game import Match, observe
from riichi.rules import find_ruleset

SURENESS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)  # the thresholds to compare (in standard errors)
Note = dict[str, Any]  # one searched decision, as --out writes it


def one_match(job: tuple[int, str, dict[str, Any]]) -> list[Note]:
    seed, rules, search = job
    match = Match(find_ruleset(rules), seed, ["a", "b", "c", "d"])
    bots = [make_bot("expert", f"{seed}:{s}") for s in range(4)]
    masters = [MasterBot(f"{seed}:{s}", **search) for s in range(4)]
    notes = []
    while not match.over:
        seat = next(iter(match.legal_actions()))
        obs = observe(match, seat)
        master = masters[seat]
        master.evaluate(obs)
        found = master.searched
        if found is not None:
            scene = master._scene(obs)
            worths, points = [], []
            for option in found.options:
                deltas = hand_played_out(match, seat, option.action, bots)
                worths.append(master._worth_after(scene, deltas))
                points.append(deltas[seat])
            threatened = any(t.ready >= THREAT for t in scene.threats)
            notes.append(
                {
                    "seed": seed,
                    "at": len(match.actions),
                    "last": not scene.spread,
                    "call": answering(obs) is not None,
                    "threat": threatened,
                    "riichi": sum(obs.riichi) - obs.riichi[seat],
                    "fold": [o.win == 0 for o in found.options],
                    "expert": [o.value for o in found.options],
                    "means": list(found.means),
                    "errors": list(found.errors),
                    "worlds": found.worlds,
                    "truth": worths,
                    "points": points,
                }
            )
        match.apply(seat, bots[seat].act(obs))
    return notes


def chosen(note: Note, sure: float, last_rule: bool = True) -> int:
    """The option the master plays at ``sure`` standard errors (in the last hand, by
    its rule there, unless ``last_rule`` is off)."""
    experts = note["expert"] if note["last"] and last_rule else None
    return choice(note["means"], note["errors"], experts, sure)


def groups(notes: list[Note]) -> dict[str, list[int]]:
    """Where the decisions were searched: each group's decisions, by index."""
    where = {
        "all": lambda n: True,
        "last hand": lambda n: n["last"],
        "a call": lambda n: n.get("call", False),
        "a call, quiet": lambda n: n.get("call", False) and not n["threat"] and not n["last"],
        "a riichi": lambda n: n["riichi"] and not n.get("call", False),
        "a likely ready hand, no riichi": lambda n: (
            n["threat"] and not n["riichi"] and not n.get("call", False)
        ),
        "quiet (searched with --threat 0)": lambda n: (
            not n["threat"] and not n["last"] and not n.get("call", False)
        ),
    }
    return {name: [i for i, n in enumerate(notes) if test(n)] for name, test in where.items()}


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def gain(note: Note, sure: float = CONFIDENCE) -> float:
    """What the search's choice was worth on the true walls against expert's."""
    return float(note["truth"][chosen(note, sure)] - note["truth"][0])


def row(name: str, sure: str, notes: list[Note], pick: Any) -> None:
    gains = [float(n["truth"][pick(n)] - n["truth"][0]) for n in notes]
    if not gains:
        return
    left = sum(pick(n) != 0 for n in notes)
    mean, half = interval(gains)
    per = sum(gains) / left if left else 0.0
    print(f"{name:>32} {sure:>9} {left:6d} {mean:14.1f} {half:7.1f} {per:9.0f}")


def report(notes: list[Note]) -> None:
    """The gain of leaving expert's choice at each threshold, by where the search ran
    (everywhere by standard errors alone), and as the master chooses."""
    print(f"{len(notes)} searched decisions")
    head = ("where", "sure", "left", "gain/decision", "± 95%", "per left")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (32, 9, 6, 14, 7, 9), strict=True)))
    for name, group in groups(notes).items():
        chosen_here = [notes[i] for i in group]
        for sureness in SURENESS:
            row(
                name,
                f"{sureness:.1f}",
                chosen_here,
                partial(chosen, sure=sureness, last_rule=False),
            )
        row(name, "as master", chosen_here, lambda n: chosen(n, CONFIDENCE))
    # what the best option by the truth would have been worth, for scale
    best = statistics.fmean(max(n["truth"]) - n["truth"][0] for n in notes)
    print(f"an oracle that knew the walls: {best:.1f} a decision")


def paired(notes: list[Note], earlier: list[Note]) -> list[tuple[Note | None, Note | None]]:
    """Each decision either run searched, with each run's note of it (None where that
    run left it to expert): by match and action where the runs say so, else by order,
    which holds only for runs that searched the same decisions."""
    if all("at" in n for n in (*notes, *earlier)):
        mine = {(n["seed"], n["at"]): n for n in notes}
        theirs = {(n["seed"], n["at"]): n for n in earlier}
        for key in mine.keys() & theirs.keys():
            if mine[key]["truth"][0] != theirs[key]["truth"][0]:
                raise SystemExit(f"--against: decision {key} played otherwise (expert changed)")
        return [(mine.get(key), theirs.get(key)) for key in sorted(mine.keys() | theirs.keys())]
    same = len(notes) == len(earlier) and all(
        a["seed"] == b["seed"] and a["expert"] == b["expert"] and a["truth"][0] == b["truth"][0]
        for a, b in zip(notes, earlier, strict=True)
    )
    if not same:
        raise SystemExit("--against: not the same decisions (other seeds, or expert changed)")
    return list(zip(notes, earlier, strict=True))


def _either(pair: tuple[Note | None, Note | None]) -> Note:
    """A decision's note from whichever run searched it (both saw the same situation)."""
    note = pair[0] if pair[0] is not None else pair[1]
    assert note is not None
    return note


def compare(notes: list[Note], earlier: list[Note]) -> None:
    """The gain of these choices over an earlier run's, decision by decision (a run
    that left a decision to expert gained nothing there)."""
    pairs = paired(notes, earlier)

    def gain_of(note: Note | None) -> float:
        return 0.0 if note is None else gain(note)

    def chose(note: Note | None) -> int:
        return 0 if note is None else chosen(note, CONFIDENCE)

    print(f"against the earlier run, at {CONFIDENCE} standard errors:")
    for name, group in groups([_either(pair) for pair in pairs]).items():
        if not group:
            continue
        diffs = [gain_of(pairs[i][0]) - gain_of(pairs[i][1]) for i in group]
        changed = sum(chose(pairs[i][0]) != chose(pairs[i][1]) for i in group)
        mean, half = interval(diffs)
        print(
            f"{name:>32} {len(group):6d} decisions, {changed:5d} chosen otherwise: "
            f"{mean:+.1f} ± {half:.1f} a decision"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--seed", type=int, default=700)
    parser.add_argument("--rules", default="online")
    parser.add_argument("--rollouts", type=int, default=48)
    parser.add_argument("--batches", type=int, default=BATCHES)
    parser.add_argument("--playout", choices=PLAYOUTS, default=PLAYOUT)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=None)
    parser.add_argument("--against", default=None, help="an earlier --out on the same seeds")
    parser.add_argument(
        "--threat",
        type=float,
        default=THREAT,
        help="search against a hand this likely ready (0: at every turn)",
    )
    parser.add_argument("--close", type=float, default=CLOSE, help="points from expert's best")
    parser.add_argument("--width", type=int, default=WIDTH, help="options searched at most")
    parser.add_argument("--dama", action="store_true", help="a riichi let go played out silent")
    parser.add_argument("--read", default=None, help="report an earlier --out, playing nothing")
    args = parser.parse_args()
    notes: list[Note] = []
    if args.read:
        notes = load(args.read)
    else:
        search = {
            "rollouts": args.rollouts,
            "threat": args.threat,
            "playout": args.playout,
            "batches": args.batches,
            "close": args.close,
            "width": args.width,
            "dama": args.dama,
        }
        jobs = [(args.seed + g, args.rules, search) for g in range(args.matches)]
        with ProcessPoolExecutor(args.jobs) as pool:
            for found in pool.map(one_match, jobs):
                notes.extend(found)
    if args.out and not args.read:
        with open(args.out, "w") as f:
            for n in notes:
                f.write(json.dumps(n) + "\n")
    report(notes)
    if args.against:
        compare(notes, load(args.against))


def load(path: str) -> list[Note]:
    with open(path) as f:
        return [json.loads(line) for line in f]


if __name__ == "__main__":
    main()
