"""Build the compiled core with mypyc where it can be built; the pure source otherwise.

The core (tiles, rules, hand analysis, scoring, the game) is compiled from the same
typed source by mypyc, which comes with mypy, and so is the search's rollout
(`riichi.bots.search`: a searching bot plays thousands of hands a decision).
``RIICHI_PURE=1`` at build time skips compilation; a machine without a C compiler
gets the pure package too (each extension is optional). ``riichi info`` says which
core is loaded.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
PACKAGES = ("hand", "scoring", "game")
HOT = ("src/riichi/bots/search.py",)  # above the core, but as hot as it


def core() -> list[str]:
    files = ["src/riichi/errors.py", "src/riichi/tiles.py", "src/riichi/rules.py"]
    for package in PACKAGES:
        for path in sorted((ROOT / "src" / "riichi" / package).glob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if path.name != "__init__.py":
                files.append(name)
    return [*files, *HOT]


def ext_modules() -> list[object]:
    if os.environ.get("RIICHI_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("riichi: mypyc not found; building the pure core", file=sys.stderr)
        return []
    modules = mypycify(core(), opt_level="3", debug_level="0")
    for module in modules:
        module.optional = True  # no compiler: the pure source still installs
    return list(modules)


setup(ext_modules=ext_modules())
