"""Which core is loaded: the one mypyc compiled from this source, or the source itself.

Built with mypyc, each core module has a compiled extension beside its ``.py``,
and Python prefers the extension. ``RIICHI_PURE=1`` in the environment makes
every ``riichi`` module load from its source instead (a finder placed first on
``sys.meta_path`` that knows only source files), so the two can be compared
and tested on one installation. This module is never compiled.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType

PURE = bool(os.environ.get("RIICHI_PURE"))


class PureFinder:
    """Finds ``riichi``'s submodules as source files, never as compiled extensions."""

    @classmethod
    def find_spec(
        cls, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not name.startswith("riichi.") or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None:
                return spec
        return None


if PURE and not any(f is PureFinder for f in sys.meta_path):
    sys.meta_path.insert(0, PureFinder)


def core() -> str:
    """``"compiled"`` when the core modules come from mypyc's extensions, else ``"pure"``."""
    from riichi import tiles

    return "pure" if (tiles.__file__ or "").endswith(".py") else "compiled"
