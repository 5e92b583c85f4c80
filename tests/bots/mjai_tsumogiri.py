"""A tiny outside bot for the mjai bridge tests: Mortal-style, one event per line.

It answers only events marked can_act: with the tile it drew when it is its
turn, with none otherwise. Its first argument misbehaves on purpose:
slow (sleeps past the time limit, twice), bad (answers garbage), illegal (names a
tile it does not hold), crash (exits at its first decision), late (its first
answer comes after the time limit, the rest in time), every (gimite-style:
answers every event, none where it cannot act), slowstart (the same, but it
takes a second over its first answer), kanlate (after another player's call
it writes a none nobody asked for, late: once the next event has come), reach
(declares riichi whenever a discard leaves it tenpai, and also once when it is
not), meta (sends Mortal-style values with each discard: 1 for the tile it lets go,
0 for every other kind it holds). A second argument names a file where it writes
every event it received.
"""

import json
import sys
import time

from riichi.hand import shanten
from riichi.tiles import parse_mjai

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
log = open(sys.argv[2], "w") if len(sys.argv) > 2 else None  # noqa: SIM115
me = None
decisions = 0
hand: list[str] = []
in_riichi = False
bluffed = False
owe_none = False  # kanlate: a none to write once the next event comes
CALLS = ("chi", "pon", "daiminkan", "kakan", "ankan")


def say(message: dict) -> None:
    print(json.dumps(message), flush=True)


def best_discard() -> tuple[str, int]:
    """The first tile whose discard leaves the fewest shanten, and that shanten."""
    counts = [0] * 34
    for name in hand:
        counts[parse_mjai(name)[0]] += 1
    best = (hand[-1], 9)
    for name in hand:
        kind = parse_mjai(name)[0]
        counts[kind] -= 1
        after = shanten(counts)
        counts[kind] += 1
        if after < best[1]:
            best = (name, after)
    return best


def slot(name: str) -> int:
    """Mortal's action slot for a discard: the kind, or 34-36 for a red five."""
    kind, red = parse_mjai(name)
    return 34 + kind // 9 if red else kind


def meta(chosen: str) -> dict:
    slots = sorted({slot(n) for n in hand})
    values = [1.0 if s == slot(chosen) else 0.0 for s in slots]
    return {"q_values": values, "mask_bits": sum(1 << s for s in slots)}


def tenpai_discard() -> str | None:
    """A tile whose discard leaves the hand tenpai, if any."""
    name, after = best_discard()
    return name if after == 0 else None


for line in sys.stdin:
    event = json.loads(line)
    if log:
        log.write(line)
        log.flush()
    kind = event["type"]
    if owe_none:
        say({"type": "none"})
        owe_none = False
    if mode == "kanlate" and kind in CALLS and event.get("actor") != me:
        owe_none = True
    if mode == "slowstart" and kind == "start_game":
        time.sleep(1.0)
    if kind == "start_game":
        me = event["id"]
    elif kind == "start_kyoku":
        hand = list(event["tehais"][me])
        in_riichi = False
    elif kind == "tsumo" and event["actor"] == me:
        hand.append(event["pai"])
    elif kind == "dahai" and event["actor"] == me:
        hand.remove(event["pai"])
    elif kind in ("chi", "pon", "daiminkan", "ankan") and event["actor"] == me:
        for name in event["consumed"]:
            hand.remove(name)
    elif kind == "reach_accepted" and event["actor"] == me:
        in_riichi = True
    if not event.get("can_act"):
        if mode in ("every", "slowstart"):
            say({"type": "none"})
        continue
    decisions += 1
    if mode == "crash":
        sys.exit(3)
    if mode == "slow" and decisions in (1, 8):  # twice: enough to time out, soon over
        time.sleep(1.5)
    if mode == "late" and decisions == 1:
        time.sleep(3.0)
    if mode == "bad" and decisions % 5 == 1:
        print("this is not json", flush=True)
        continue
    if kind == "reach" and event["actor"] == me:  # our declaration came back: discard
        say({"type": "dahai", "actor": me, "pai": tenpai_discard() or hand[-1], "tsumogiri": False})
    elif kind == "tsumo" and event["actor"] == me:
        if mode == "reach" and not in_riichi and (tenpai_discard() or not bluffed):
            bluffed = bluffed or tenpai_discard() is None
            say({"type": "reach", "actor": me})
            continue
        pai = "9z" if mode == "illegal" and decisions % 3 == 1 else event["pai"]
        if mode == "reach" and not in_riichi:
            pai = best_discard()[0]  # play for tenpai, so that riichi comes up
        answer = {"type": "dahai", "actor": me, "pai": pai, "tsumogiri": pai == event["pai"]}
        if mode == "meta":
            answer["meta"] = meta(pai)
        say(answer)
    elif kind in ("chi", "pon") and event["actor"] == me:  # its call: a tile to let go
        say({"type": "dahai", "actor": me, "pai": hand[-1], "tsumogiri": False})
    else:
        say({"type": "none"})
