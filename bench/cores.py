"""Run a benchmark's own measurements again on the pure core, to print beside the
compiled figures: the same script in a child process with ``RIICHI_PURE=1``, asked
for its figures as JSON (``--pure-figures``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import riichi

FLAG = "--pure-figures"


def wanted() -> bool:
    """This run only measures ours and prints the figures as JSON."""
    return FLAG in sys.argv


def args() -> list[str]:
    """The command line without the flag, for argparse."""
    return [a for a in sys.argv[1:] if a != FLAG]


def report(figures: dict[str, float]) -> None:
    print(json.dumps(figures))


def pure(script: str) -> dict[str, float] | None:
    """The figures of ``script`` on the pure core, or None when this run is already
    pure (nothing compiled to compare with)."""
    if riichi.core() == "pure":
        return None
    env = {**os.environ, "RIICHI_PURE": "1"}
    done = subprocess.run(
        [sys.executable, script, *args(), FLAG], env=env, capture_output=True, text=True, check=True
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def heading() -> str:
    return f"core: {riichi.core()}"
