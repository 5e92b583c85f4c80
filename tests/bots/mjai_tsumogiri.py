"""A tiny outside bot for the mjai bridge tests: Mortal-style, one event per line.

It answers only events marked can_act: with the tile it drew when it is its
turn, with none otherwise. Its first argument misbehaves on purpose:
slow (sleeps past the time limit), bad (answers garbage), illegal (names a
tile it does not hold), crash (exits at its first decision).
"""

import json
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
me = None
decisions = 0
for line in sys.stdin:
    event = json.loads(line)
    if event["type"] == "start_game":
        me = event["id"]
    if not event.get("can_act"):
        continue
    decisions += 1
    if mode == "crash":
        sys.exit(3)
    if mode == "slow" and decisions % 7 == 1:
        time.sleep(1.5)
    if mode == "bad" and decisions % 5 == 1:
        print("this is not json", flush=True)
        continue
    if event["type"] == "tsumo" and event["actor"] == me:
        pai = "9z" if mode == "illegal" and decisions % 3 == 1 else event["pai"]
        print(json.dumps({"type": "dahai", "actor": me, "pai": pai, "tsumogiri": True}), flush=True)
    else:
        print(json.dumps({"type": "none"}), flush=True)
