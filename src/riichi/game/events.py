"""Events: the facts a match produces, each with who may see it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """A fact. ``to`` is the one seat that may see it, or None for everyone.

    ``data`` holds plain JSON-able values only, so records and the wire
    format are the event itself.
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: int | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or self.to == seat

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.to is not None:
            out["to"] = self.to
        return out
